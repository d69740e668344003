// RUN: hk-opt %s --hk-peel-bounds --cse | FileCheck %s

// hk-peel-bounds counts the columns of MX tiles read from bytes in the
// memref's columns (bytes): a 16x128 E2M1 tile spans 64 bytes of a row, a
// 16x128 E2M3 tile 96 (four elements in three bytes), so the K loop's
// first part ends where the later of them could first cross the row's
// last byte: tiles of the byte widths 64 and 96 per step k.

!a4 = tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>
!b6 = tensor<16x128xf6E2M3FN, #hk.rt<row, 16x128>>
!s = tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<16x16xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @mx_loop
// CHECK-SAME: (%[[A:[^:]*]]: memref<?x?xi8>, %[[B:[^:]*]]: memref<?x?xi8>
// CHECK: %[[KA:.*]] = memref.dim %[[A]]
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: arith.divui %[[KA]], %[[C64]]
// CHECK: %[[KB:.*]] = memref.dim %[[B]]
// CHECK: %[[C96:.*]] = arith.constant 96 : index
// CHECK: arith.divui %[[KB]], %[[C96]]
// CHECK: scf.for
// CHECK: hk.load %[[A]][%{{.*}}, %{{.*}}] {hk.cols_in_bounds}
// CHECK: hk.load %[[B]][%{{.*}}, %{{.*}}] {hk.cols_in_bounds}
// CHECK: hk.mma_scaled
// CHECK: scf.for
// CHECK-NOT: hk.cols_in_bounds
// CHECK: hk.mma_scaled
hk.kernel @mx_loop(%A: memref<?x?xi8>, %B: memref<?x?xi8>,
                   %S: memref<?x?xf8E8M0FNU>, %C: memref<?x?xf32>,
                   %n: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : !acc
  %s = hk.load %S[%c0, %c0] : memref<?x?xf8E8M0FNU> -> !s
  %out = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> !acc {
    %a = hk.load %A[%c0, %k] : memref<?x?xi8> -> !a4
    %b = hk.load %B[%c0, %k] : memref<?x?xi8> -> !b6
    %d = hk.mma_scaled %a[%s], %b[%s], %acc : !a4, !s, !b6, !s, !acc
    scf.yield %d : !acc
  }
  hk.store %out, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
