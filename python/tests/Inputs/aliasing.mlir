// Kernels for the argument checks of test_hostile.py, f32 rows of 64, one
// 32x64 tile per workgroup.
//
// y = a * x: the output comes first, so a launch that copied every argument
// back in order would overwrite the result with an input sharing its memory.
hk.kernel @scale_into(%y: memref<?x64xf32>, %x: memref<?x64xf32>, %a: f32)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(1, 0)] -> (s0 ceildiv 32)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%i, %c0] : memref<?x64xf32> -> tensor<32x64xf32, #hk.rt<row, 16x16>>
  %va = tensor.splat %a : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %r = arith.mulf %t, %va : tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %r, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}

// y = x + x and z = x * x: two outputs.
hk.kernel @two_outputs(%x: memref<?x64xf32>, %y: memref<?x64xf32>,
                       %z: memref<?x64xf32>)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%i, %c0] : memref<?x64xf32> -> tensor<32x64xf32, #hk.rt<row, 16x16>>
  %s = arith.addf %t, %t : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %p = arith.mulf %t, %t : tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %s, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.store %p, %z[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}

// The first `tiles` tiles of y get v (an i32), converted to f32.
hk.kernel @fill(%y: memref<?x64xf32>, %v: i32, %tiles: index)
    attributes {waves = 1 : i32, grid = #hk.grid<[arg(2)] -> (s0)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %f = arith.sitofp %v : i32 to f32
  %t = tensor.splat %f : tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %t, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}
