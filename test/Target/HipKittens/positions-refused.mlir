// RUN: not hk-translate --hk-to-hipkittens -split-input-file %s 2>&1 | FileCheck %s

// The position ops (hk.iota, scans, arg reductions) and math.sin / math.cos
// have no HipKittens equivalent: its base ops have no sin or cos, its masks
// take a row index rather than a tile of positions, and it has no scan and
// no arg reduction. The translation stops at the op, naming it, and prints
// no kernel; the lowering to AMDGPU handles all of them (kernels/scans,
// kernels/sincos).
// CHECK-NOT: __global__
// CHECK: offset :{{[0-9]+}}:8: error: 'hk.iota' has no HipKittens equivalent: HipKittens has no tile of element positions (its masks take a row index, not a tile of indices)
// CHECK: offset :{{[0-9]+}}:8: error: 'hk.row_scan' has no HipKittens equivalent: HipKittens has no prefix scan along a tile's rows or columns
// CHECK: offset :{{[0-9]+}}:8: error: 'hk.col_scan' has no HipKittens equivalent: HipKittens has no prefix scan along a tile's rows or columns
// CHECK: offset :{{[0-9]+}}:{{[0-9]+}}: error: 'hk.row_arg' has no HipKittens equivalent: HipKittens' row_max and col_max give no position
// CHECK: offset :{{[0-9]+}}:8: error: 'math.sin' has no HipKittens equivalent: HipKittens' base ops have no sin or cos
// CHECK: offset :{{[0-9]+}}:8: error: 'math.cos' has no HipKittens equivalent: HipKittens' base ops have no sin or cos
// CHECK-NOT: __global__
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @iota_tile(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %i = hk.iota col : !t
  hk.store %i, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
// -----
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @row_scan(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = hk.row_scan sum inclusive %x : !t
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
// -----
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @col_scan(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = hk.col_scan max exclusive %x : !t
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
// -----
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
!v = tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!i = tensor<16xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @row_arg(%X: memref<?x?xf32>, %S: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %v, %j = hk.row_arg max %x : !t -> !v, !i
  hk.store %v, %S[%c0] : !v, memref<?xf32>
  hk.return
}
// -----
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @sin_tile(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = math.sin %x : !t
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
// -----
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @cos_tile(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = math.cos %x : !t
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
