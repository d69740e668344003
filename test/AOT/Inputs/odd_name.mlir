// A kernel whose symbol holds characters C takes specially in a comment, a
// string and an identifier: '*/', '"' and '?' (a trigraph's start).
hk.kernel @"odd*/\"name?" (%y: memref<?x64xf32>)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1.0> : tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %one, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}
