// Copies an N x 64 f32 matrix: one wave per 32 rows. Its type fixes the
// second size at 64 (test/Run/npy.test checks hk-run refuses other sizes).
hk.kernel @rows64(%x: memref<?x64xf32>, %y: memref<?x64xf32>)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%i, %c0] : memref<?x64xf32> -> tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %t, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}
