// hk.any over a tile comparison and over a row-vector comparison
// (test/Run/any.test): each writes 1.0 to all 64 elements of its output
// when some element of x exceeds 0.5, else 0.0. The row vector is the
// row maximum, so both votes have the same answer; the second carries
// `expect false`, as attention's rescale test does.
!t = tensor<64x64xf32, #hk.rt<row, 32x32, group = 4>>
!tm = tensor<64x64xi1, #hk.rt<row, 32x32, group = 4>>
!v = tensor<64xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!vm = tensor<64xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
hk.kernel @any_above(%x: memref<64x64xf32>, %ya: memref<64xf32>,
                     %yb: memref<64xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant dense<0.5> : !t
  %half_v = arith.constant dense<0.5> : !v
  %one = arith.constant dense<1.0> : !v
  %zero = arith.constant dense<0.0> : !v
  %v = hk.load %x[%c0, %c0] : memref<64x64xf32> -> !t
  %above = arith.cmpf ogt, %v, %half : !t
  %a = hk.any %above : !tm
  %ra = scf.if %a -> !v {
    scf.yield %one : !v
  } else {
    scf.yield %zero : !v
  }
  hk.store %ra, %ya[%c0] : !v, memref<64xf32>
  %m = hk.row_reduce max %v : !t -> !v
  %rows_above = arith.cmpf ogt, %m, %half_v : !v
  %b = hk.any %rows_above expect false : !vm
  %rb = scf.if %b -> !v {
    scf.yield %one : !v
  } else {
    scf.yield %zero : !v
  }
  hk.store %rb, %yb[%c0] : !v, memref<64xf32>
  hk.return
}
