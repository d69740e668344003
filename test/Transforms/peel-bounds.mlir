// RUN: hk-opt %s --hk-peel-bounds --cse --split-input-file | FileCheck %s

// A K loop that loads the 32-column tiles 2k+2 and 2k+3 of A (a prefetch
// one step ahead, as the GEMM does) is split where the later one could
// first cross the last column. Tile c covers columns 32c..32c+31, in range
// when 0 <= c and (c + 1) * 32 <= K, i.e. c + 1 <= K floordiv 32. For
// c = 2k + b: k <= (K/32 - b - 1) floordiv 2, so the first loop ends at
// (K/32 - b - 1) floordiv 2 + 1 if c is not negative at lb (else at lb),
// the smaller over both loads, clamped to [lb, ub].

!rt = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!rtb = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @k_loop
// CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[K:.*]] = memref.dim %[[A]], %[[C1]]
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[T:.*]] = arith.divui %[[K]], %[[C32]]
// CHECK: %[[R:.*]] = arith.subi %[[T]], %[[C1]]
// load 2k + 2: bound (K/32 - 1 - 2) floordiv 2 + 1, if 2 * lb + 2 >= 0
// CHECK: %[[S0:.*]] = arith.subi %[[R]], %[[C2]]
// CHECK: %[[L0:.*]] = arith.floordivsi %[[S0]], %[[C2]]
// CHECK: %[[E0:.*]] = arith.addi %[[L0]], %[[C1]]
// CHECK: %[[LB2:.*]] = arith.muli %[[C0]], %[[C2]]
// CHECK: %[[F0:.*]] = arith.addi %[[LB2]], %[[C2]]
// CHECK: %[[NN0:.*]] = arith.cmpi sge, %[[F0]], %[[C0]]
// CHECK: %[[B0:.*]] = arith.select %[[NN0]], %[[E0]], %[[C0]]
// load 2k + 3
// CHECK: %[[S1:.*]] = arith.subi %[[R]], %[[C3]]
// CHECK: %[[L1:.*]] = arith.floordivsi %[[S1]], %[[C2]]
// CHECK: %[[E1:.*]] = arith.addi %[[L1]], %[[C1]]
// CHECK: %[[F1:.*]] = arith.addi %[[LB2]], %[[C3]]
// CHECK: %[[NN1:.*]] = arith.cmpi sge, %[[F1]], %[[C0]]
// CHECK: %[[B1:.*]] = arith.select %[[NN1]], %[[E1]], %[[C0]]
// CHECK: %[[MIN:.*]] = arith.minsi %[[B0]], %[[B1]]
// CHECK: %[[UB:.*]] = arith.minsi %[[MIN]], %[[N:[^ ]+]]
// CHECK: %[[SPLIT:.*]] = arith.maxsi %[[UB]], %[[C0]]
// The first loop, [lb, split), with its loads marked.
// CHECK: %[[FIRST:.*]] = scf.for %{{.*}} = %[[C0]] to %[[SPLIT]] step %[[C1]] iter_args(%{{.*}} = %{{.*}})
// CHECK: hk.load %[[A]][%{{.*}}, %{{.*}}] {hk.cols_in_bounds}
// CHECK: hk.load %[[A]][%{{.*}}, %{{.*}}] {hk.cols_in_bounds}
// CHECK: hk.mma
// The original loop, [split, ub), from the first's result, unmarked.
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step %[[C1]] iter_args(%{{.*}} = %[[FIRST]])
// CHECK-NOT: hk.cols_in_bounds
// CHECK: hk.mma
hk.kernel @k_loop(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index,
                  %r: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant dense<0.0> : !acc
  %out = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> !acc {
    %k2 = arith.muli %k, %c2 : index
    %j0 = arith.addi %k2, %c2 : index
    %j1 = arith.addi %k2, %c3 : index
    %a = hk.load %A[%r, %j0] : memref<?x?xbf16> -> !rt
    %b = hk.load %A[%r, %j1] : memref<?x?xbf16> -> !rtb
    %d = hk.mma abt %a, %b, %acc : !rt, !rtb, !acc
    scf.yield %d : !acc
  }
  hk.store %out, %C[%r, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// Left alone: a loop without hk.mma (duplicating it costs registers the
// checks it saves do not pay for), a column index that does not move with
// the loop, one that is not linear in it, and a step other than 1.

!rt = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @left_alone
// CHECK-NOT: hk.cols_in_bounds
// CHECK-COUNT-4: scf.for
// CHECK-NOT: scf.for
// CHECK-NOT: hk.cols_in_bounds
hk.kernel @left_alone(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index,
                      %r: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : !acc
  %first = hk.load %A[%r, %c0] : memref<?x?xbf16> -> !rt
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%x = %first) -> !rt {
    %a = hk.load %A[%r, %k] : memref<?x?xbf16> -> !rt
    scf.yield %a : !rt
  }
  hk.store %s, %A[%r, %c0] : !rt, memref<?x?xbf16>
  %t = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> !acc {
    %a = hk.load %A[%r, %c2] : memref<?x?xbf16> -> !rt
    %d = hk.mma abt %a, %a, %acc : !rt, !rt, !acc
    scf.yield %d : !acc
  }
  %u = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %t) -> !acc {
    %sq = arith.muli %k, %k : index
    %a = hk.load %A[%r, %sq] : memref<?x?xbf16> -> !rt
    %d = hk.mma abt %a, %a, %acc : !rt, !rt, !acc
    scf.yield %d : !acc
  }
  %v = scf.for %k = %c0 to %n step %c2 iter_args(%acc = %u) -> !acc {
    %a = hk.load %A[%r, %k] : memref<?x?xbf16> -> !rt
    %d = hk.mma abt %a, %a, %acc : !rt, !rt, !acc
    scf.yield %d : !acc
  }
  hk.store %v, %C[%r, %c0] : !acc, memref<?x?xf32>
  hk.return
}
