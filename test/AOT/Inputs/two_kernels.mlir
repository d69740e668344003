// Two kernels for hkc --emit=c-library: a memref with a dynamic stride and
// a static size, a grid bound to another argument's size, a grid bound to a
// scalar (an index), and an argument named like a C keyword (`int`).
//
// scale: y = s * x, x read through a row stride of its own.
hk.kernel @scale(%x: memref<?x64xf32, strided<[?, 1]>>, %y: memref<?x64xf32>,
                 %s: f32)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(1, 0)] -> (s0 ceildiv 32)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%i, %c0] : memref<?x64xf32, strided<[?, 1]>> -> tensor<32x64xf32, #hk.rt<row, 16x16>>
  %vs = tensor.splat %s : tensor<32x64xf32, #hk.rt<row, 16x16>>
  %r = arith.mulf %t, %vs : tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %r, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}

// fill: the first `tiles` 32x64 tiles of y get `int` (an i32 scalar named
// like the C keyword), converted to f32; the grid is the scalar itself.
hk.kernel @fill(%y: memref<?x64xf32>, %int: i32, %tiles: index)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[arg(2)] -> (s0)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %f = arith.sitofp %int : i32 to f32
  %v = tensor.splat %f : tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %v, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}
