// RUN: hk-opt %s --split-input-file --hk-schedule | FileCheck %s
// RUN: hk-opt %s --split-input-file --hk-schedule --hk-verify-barriers > /dev/null

// A memory cluster whose loads the math needs stands alone between fences;
// the compute cluster and the memory cluster after it (here, the prefetch
// for the next step) share one region that ends with the alternation.
// hk.mma abt with a 16x16 accumulator and a 16x64 A of 16x32 base tiles is
// one accumulator tile times two K tiles: two MFMAs, so two pairs. The
// memory cluster loads from global memory (VMEM read, 0x20) and stores into
// LDS (DS write, 0x200): 0x220 = 544. No barrier, priority or wave test.
// CHECK-LABEL: hk.kernel @pair(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16>
// CHECK-NOT:     hk.wave_id
// CHECK:         scf.for
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      %[[X:.*]] = hk.load %[[S:[^ ]*]] :
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      %[[D:.*]] = hk.mma abt %[[X]], %[[X]]
// CHECK-NEXT:      %[[K1:.*]] = arith.addi
// CHECK-NEXT:      %[[P:.*]] = hk.load %[[A]][%{{.*}}, %[[K1]]]
// CHECK-NEXT:      hk.store %[[P]], %[[S]]
// CHECK-NEXT:      hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 544, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 544, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      scf.yield %[[D]]
// CHECK-NEXT:    }
// CHECK-NOT:     hk.barrier
// CHECK-NOT:     hk.set_prio
// CHECK:         hk.return
hk.kernel @pair(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc0 = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %s = hk.alloc_shared : !hk.st<16x64xbf16, 16x32>
  %r = hk.interleave -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
    %l = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0)
        -> (tensor<16x16xf32, #hk.rt<col, 16x16>>) {
      %x = hk.cluster memory -> tensor<16x64xbf16, #hk.rt<row, 16x32>> {
        %t = hk.load %s : !hk.st<16x64xbf16, 16x32> -> tensor<16x64xbf16, #hk.rt<row, 16x32>>
        hk.yield %t : tensor<16x64xbf16, #hk.rt<row, 16x32>>
      }
      %d = hk.cluster compute -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
        %m = hk.mma abt %x, %x, %acc : tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
        hk.yield %m : tensor<16x16xf32, #hk.rt<col, 16x16>>
      }
      %k1 = arith.addi %k, %c1 : index
      hk.cluster memory {
        %p = hk.load %A[%c0, %k1] : memref<?x?xbf16> -> tensor<16x64xbf16, #hk.rt<row, 16x32>>
        hk.store %p, %s : tensor<16x64xbf16, #hk.rt<row, 16x32>>, !hk.st<16x64xbf16, 16x32>
      }
      scf.yield %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %l : tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  hk.store %r, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// MFMA count of hk.mma atb: A is K x M; K runs along its rows. A 32x32
// accumulator of 16x16 tiles (4 tiles) times a 64-row A of 16x16 col tiles
// (4 K tiles): 16 pairs. The memory cluster holds an asynchronous copy
// (VMEM read, 0x20) and an atomic add (VMEM write, 0x40): 0x60 = 96.
// A compute cluster followed by another compute cluster stands alone.
// CHECK-LABEL: hk.kernel @atb(
// CHECK:         hk.sched_barrier 0
// CHECK-NEXT:    hk.mma atb
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    hk.mma atb
// CHECK-NEXT:    hk.load_async
// CHECK-NEXT:    hk.atomic_add
// CHECK-COUNT-16: hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 96, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    hk.wait
// CHECK-NEXT:    hk.return
hk.kernel @atb(%G: memref<?x?xbf16>, %F: memref<?x?xf32>)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %A = arith.constant dense<1.0> : tensor<64x32xbf16, #hk.rt<col, 16x16>>
  %acc0 = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %s = hk.alloc_shared : !hk.st<64x64xbf16, 16x32>
  %t = hk.interleave -> !hk.token {
    %d = hk.cluster compute -> tensor<32x32xf32, #hk.rt<col, 16x16>> {
      %m = hk.mma atb %A, %A, %acc0 : tensor<64x32xbf16, #hk.rt<col, 16x16>>, tensor<64x32xbf16, #hk.rt<col, 16x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
      hk.yield %m : tensor<32x32xf32, #hk.rt<col, 16x16>>
    }
    %e = hk.cluster compute -> tensor<32x32xf32, #hk.rt<col, 16x16>> {
      %m = hk.mma atb %A, %A, %d : tensor<64x32xbf16, #hk.rt<col, 16x16>>, tensor<64x32xbf16, #hk.rt<col, 16x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
      hk.yield %m : tensor<32x32xf32, #hk.rt<col, 16x16>>
    }
    %tok = hk.cluster memory -> !hk.token {
      %t0 = hk.load_async %G[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<64x64xbf16, 16x32>
      hk.atomic_add %e, %F[%c0, %c0] : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
      hk.yield %t0 : !hk.token
    }
    hk.yield %tok : !hk.token
  }
  hk.wait %t
  hk.return
}
