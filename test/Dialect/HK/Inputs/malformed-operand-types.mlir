hk.kernel @k(%A: memref<?x?xbf16>, %n: index) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
  %d = hk.mma abt %a, %a, %n : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.return
}
