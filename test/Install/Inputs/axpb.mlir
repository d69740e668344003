// y = a * x + b, elementwise on f32 matrices of any size: one wave per
// 32x64 tile; tiles past the edge read 0 and drop their writes.
hk.kernel @axpb(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %a: f32, %b: f32)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0 ceildiv 32, s1 ceildiv 64)>} {
  %i = hk.block_id x
  %j = hk.block_id y
  %t = hk.load %x[%i, %j] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<row, 16x16>>
  %va = tensor.splat %a : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %vb = tensor.splat %b : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %m = arith.mulf %t, %va : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %r = arith.addf %m, %vb : tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %r, %y[%i, %j] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x?xf32>
  hk.return
}
