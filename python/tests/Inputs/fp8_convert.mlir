// Conversions between the chip's 8-bit floats and f32, one source for every
// chip: Y = f32(X) (!hk.fp8 to f32) and Z = bf8(W) (f32 to !hk.bf8,
// saturating). One wave per 16x32 tile.
!f8 = tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>
!b8 = tensor<16x32x!hk.bf8, #hk.rt<row, 16x32>>
!f32 = tensor<16x32xf32, #hk.rt<row, 16x32>>

hk.kernel @convert(%X: memref<?x?x!hk.fp8>, %Y: memref<?x?xf32>,
                   %W: memref<?x?xf32>, %Z: memref<?x?x!hk.bf8>)
    attributes {
      waves = 1 : i32,
      grid = #hk.grid<[dim(0, 0), dim(0, 1)] -> (s0 ceildiv 16, s1 ceildiv 32)>} {
  %m = hk.block_id x
  %n = hk.block_id y
  %x = hk.load %X[%m, %n] : memref<?x?x!hk.fp8> -> !f8
  %y = arith.extf %x : !f8 to !f32
  hk.store %y, %Y[%m, %n] : !f32, memref<?x?xf32>
  %w = hk.load %W[%m, %n] : memref<?x?xf32> -> !f32
  %z = arith.truncf %w : !f32 to !b8
  hk.store %z, %Z[%m, %n] : !b8, memref<?x?x!hk.bf8>
  hk.return
}
