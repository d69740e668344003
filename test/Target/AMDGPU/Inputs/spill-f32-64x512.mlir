// 8 waves: 256 registers per lane. The 64x512 f32 tile alone is 512 of
// them, so the code spills on both chips.
!b = tensor<64x512xbf16, #hk.rt<row, 16x32>>
!t = tensor<64x512xf32, #hk.rt<row, 16x32>>
hk.kernel @spill(%X: memref<?x?xbf16>, %Y: memref<?x?xbf16>) attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> !b
  %f = arith.extf %x : !b to !t
  %e = math.exp2 %f : !t
  %y = arith.truncf %e : !t to !b
  hk.store %y, %Y[%c0, %c0] : !b, memref<?x?xbf16>
  hk.return
}
