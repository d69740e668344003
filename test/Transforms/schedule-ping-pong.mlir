// RUN: hk-opt %s --split-input-file --hk-schedule | FileCheck %s
// Every wave executes as many barriers once the schedule is explicit.
// RUN: hk-opt %s --split-input-file --hk-schedule --hk-verify-barriers | FileCheck %s
// Without the mirror barrier waves 4-7 would execute one barrier more.
// RUN: hk-opt %s --split-input-file --hk-schedule \
// RUN:   | sed -e '/arith.cmpi ult/,/}/d' \
// RUN:   | not hk-opt --split-input-file --hk-verify-barriers 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNBALANCED
// UNBALANCED: waves 4-7 execute 1 more hk.barrier than waves 0-3

// A K loop of a memory and a compute cluster. In order: the stagger for
// waves 4-7, then per iteration a fence, the memory cluster and its barrier,
// a fence, the compute cluster under priority 1 and its barrier, a fence;
// after the loop the mirror barrier for waves 0-3. Results of the clusters
// and of the region replace the ops' results.
// CHECK-LABEL: hk.kernel @loop(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16>, %[[C:[^:]*]]: memref<?x?xf32>, %[[N:[^:]*]]: index)
// CHECK:         %[[ACC0:.*]] = arith.constant dense<0.000000e+00>
// CHECK-NEXT:    %[[S:.*]] = hk.alloc_shared
// CHECK-NEXT:    %[[W0:.*]] = hk.wave_id
// CHECK-NEXT:    %[[C4A:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[LATE:.*]] = arith.cmpi uge, %[[W0]], %[[C4A]] : index
// CHECK-NEXT:    scf.if %[[LATE]] {
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[LOOP:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]])
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      %[[AT:.*]] = hk.load %[[S]]
// CHECK-NEXT:      %[[BT:.*]] = hk.load %[[A]][%{{.*}}, %[[K]]]
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      hk.set_prio 1
// CHECK-NEXT:      %[[D:.*]] = hk.mma abt %[[AT]], %[[BT]], %[[ACC]]
// CHECK-NEXT:      hk.set_prio 0
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      scf.yield %[[D]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[W1:.*]] = hk.wave_id
// CHECK-NEXT:    %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[EARLY:.*]] = arith.cmpi ult, %[[W1]], %[[C4B]] : index
// CHECK-NEXT:    scf.if %[[EARLY]] {
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.store %[[LOOP]], %[[C]]
// CHECK-NOT:     hk.ping_pong
// CHECK-NOT:     hk.cluster
// CHECK:         hk.return
hk.kernel @loop(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #hk.rt<col, 16x16>>
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %r = hk.ping_pong -> tensor<64x64xf32, #hk.rt<col, 16x16>> {
    %l = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0)
        -> (tensor<64x64xf32, #hk.rt<col, 16x16>>) {
      %a, %b = hk.cluster memory -> tensor<64x64xbf16, #hk.rt<row, 16x32>>,
                                    tensor<64x64xbf16, #hk.rt<row, 16x32>> {
        %x = hk.load %s : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
        %y = hk.load %A[%c0, %k] : memref<?x?xbf16> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
        hk.yield %x, %y : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x64xbf16, #hk.rt<row, 16x32>>
      }
      %d = hk.cluster compute -> tensor<64x64xf32, #hk.rt<col, 16x16>> {
        %m = hk.mma abt %a, %b, %acc : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x64xf32, #hk.rt<col, 16x16>>
        hk.yield %m : tensor<64x64xf32, #hk.rt<col, 16x16>>
      }
      scf.yield %d : tensor<64x64xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %l : tensor<64x64xf32, #hk.rt<col, 16x16>>
  }
  hk.store %r, %C[%c0, %c0] : tensor<64x64xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// Ops between clusters stay where they are, and get their own fence
// boundary: a fence precedes a cluster unless one is already there. Two
// compute clusters in a row each get their priority window and barrier.
// CHECK-LABEL: hk.kernel @straight_line(
// CHECK:         scf.if
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[X:.*]] = arith.addi
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    hk.set_prio 1
// CHECK-NEXT:    hk.wave_id
// CHECK-NEXT:    hk.set_prio 0
// CHECK-NEXT:    hk.barrier
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    hk.set_prio 1
// CHECK-NEXT:    hk.block_id x
// CHECK-NEXT:    hk.set_prio 0
// CHECK-NEXT:    hk.barrier
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    %[[Y:.*]] = arith.muli %[[X]], %[[X]]
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    hk.barrier
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    hk.wave_id
// CHECK-NEXT:    arith.constant 4 : index
// CHECK-NEXT:    arith.cmpi ult
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    hk.return
hk.kernel @straight_line(%i: index) attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    %x = arith.addi %i, %i : index
    hk.cluster compute {
      %w = hk.wave_id
    }
    hk.cluster compute {
      %b = hk.block_id x
    }
    %y = arith.muli %x, %x : index
    hk.cluster memory {
    }
  }
  hk.return
}

// -----

// Clusters under a uniform branch: the branch holds the same barriers for
// every wave, which hk-verify-barriers accepts.
// CHECK-LABEL: hk.kernel @branch(
// CHECK-SAME:    %[[CND:[^:]*]]: i1)
// CHECK:         scf.if %[[CND]] {
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      hk.set_prio 1
// CHECK-NEXT:      hk.set_prio 0
// CHECK-NEXT:      hk.barrier
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:    }
hk.kernel @branch(%c: i1) attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    scf.if %c {
      hk.cluster compute {
      }
    }
  }
  hk.return
}
