// The position ops (dialect/HKPositionOps.td): hk.iota, hk.row_scan,
// hk.col_scan, hk.row_arg, hk.col_arg. Round trip, then what the verifier
// refuses.
// RUN: hk-opt %s -split-input-file | hk-opt -split-input-file | FileCheck %s
// RUN: hk-opt %s -split-input-file --mlir-print-op-generic | hk-opt -split-input-file | FileCheck %s
// RUN: hk-opt %S/Inputs/positions-invalid.mlir -split-input-file -verify-diagnostics

!t = tensor<32x64xf32, #hk.rt<col, 16x16>>
!ti = tensor<32x64xi32, #hk.rt<col, 16x16>>
!rv = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!ri = tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
!cv = tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
!ci = tensor<64xi32, #hk.rv<col, #hk.rt<col, 16x16>>>

// CHECK-LABEL: hk.kernel @positions
// CHECK: hk.iota col : tensor<32x64xi32, #hk.rt<col, 16x16>>
// CHECK: hk.iota row : tensor<32x64xf32, #hk.rt<col, 16x16>>
// CHECK: hk.iota : tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK: hk.row_scan sum inclusive %{{.*}} : tensor<32x64xf32, #hk.rt<col, 16x16>>
// CHECK: hk.row_scan max exclusive %{{.*}} init %{{.*}} : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>> : tensor<32x64xf32, #hk.rt<col, 16x16>>
// CHECK: hk.col_scan min inclusive %{{.*}} : tensor<32x64xi32, #hk.rt<col, 16x16>>
// CHECK: hk.row_arg max %{{.*}} : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
// CHECK: hk.col_arg min %{{.*}} : tensor<32x64xi32, #hk.rt<col, 16x16>> -> tensor<64xi32, #hk.rv<col, #hk.rt<col, 16x16>>>, tensor<64xi32, #hk.rv<col, #hk.rt<col, 16x16>>>
hk.kernel @positions(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %cols = hk.iota col : !ti
  %rows = hk.iota row : !t
  %idx = hk.iota : !ri
  %s = hk.row_scan sum inclusive %x : !t
  %m0 = hk.row_reduce max %x : !t -> !rv
  %m = hk.row_scan max exclusive %x init %m0 : !rv : !t
  %i = hk.col_scan min inclusive %cols : !ti
  %v, %j = hk.row_arg max %x : !t -> !rv, !ri
  %w, %k = hk.col_arg min %cols : !ti -> !ci, !ci
  hk.return
}
