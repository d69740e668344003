// RUN: hk-opt --hk-schedule=plain=true --hk-verify-barriers %s | FileCheck %s

// The plain expansion: each ping-pong cluster's body, then a barrier; no
// stagger branch, no priorities, no fences. An interleave keeps only its
// clusters' bodies.

// CHECK-LABEL: hk.kernel @pp
// CHECK-NOT: scf.if
// CHECK-NOT: hk.set_prio
// CHECK-NOT: hk.sched_barrier
// CHECK: scf.for
// CHECK:   hk.load
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: scf.yield
// CHECK-NOT: hk.barrier
// CHECK: hk.return
hk.kernel @pp(%A: memref<?x?xbf16>, %n: index) attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %r = hk.ping_pong -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
    %acc = scf.for %k = %c0 to %n step %c1 iter_args(%c = %z) -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
      %a = hk.cluster memory -> tensor<16x32xbf16, #hk.rt<row, 16x32>> {
        %x = hk.load %A[%c0, %k] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
        hk.yield %x : tensor<16x32xbf16, #hk.rt<row, 16x32>>
      }
      %d = hk.cluster compute -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
        %y = hk.mma abt %a, %a, %c : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
        hk.yield %y : tensor<16x16xf32, #hk.rt<col, 16x16>>
      }
      scf.yield %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %acc : tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  hk.return
}

// CHECK-LABEL: hk.kernel @il
// CHECK-NOT: hk.sched_group
// CHECK-NOT: hk.sched_barrier
// CHECK: hk.load
// CHECK-NEXT: hk.mma
// CHECK-NEXT: hk.return
hk.kernel @il(%A: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %r = hk.interleave -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
    %a = hk.cluster memory -> tensor<16x32xbf16, #hk.rt<row, 16x32>> {
      %x = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
      hk.yield %x : tensor<16x32xbf16, #hk.rt<row, 16x32>>
    }
    %d = hk.cluster compute -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
      %y = hk.mma abt %a, %a, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
      hk.yield %y : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  hk.return
}
