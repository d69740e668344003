// RUN: hk-opt %s --split-input-file --verify-diagnostics --hk-schedule | FileCheck %s
// RUN: hk-opt %s --split-input-file --verify-diagnostics --hk-schedule=plain=true | FileCheck %s --check-prefix=PLAIN

// `pair = mfma_exp` on a ping-pong compute cluster: after the body, one
// MFMA group (mask 0x8) then one transcendental group (0x400 = 1024) per
// MFMA, inside the set_prio pair (s_setprio ends a scheduling region).
// hk.mma abt with a 16x16 accumulator and a 16x64 A of 16x32 base tiles:
// one accumulator tile times two K tiles, two MFMAs, so two pairs. The
// memory cluster before it gets no groups.
// CHECK-LABEL: hk.kernel @ping_pong_exp(
// CHECK:         hk.sched_barrier 0
// CHECK-NEXT:    %[[X:.*]] = hk.load
// CHECK-NEXT:    hk.barrier
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NEXT:    hk.set_prio 1
// CHECK-NEXT:    %[[D:.*]] = hk.mma abt %[[X]], %[[X]]
// CHECK-NEXT:    %[[E:.*]] = math.exp2 %[[D]]
// CHECK-NEXT:    hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 1024, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 1024, size = 1, sync = 0
// CHECK-NEXT:    hk.set_prio 0
// CHECK-NEXT:    hk.barrier
// CHECK-NEXT:    hk.sched_barrier 0
// CHECK-NOT:     hk.sched_group
// CHECK:         hk.return
// PLAIN-LABEL: hk.kernel @ping_pong_exp(
// PLAIN-NOT:     hk.sched_group
// PLAIN:         hk.return
hk.kernel @ping_pong_exp(%C: memref<?x?xf32>) attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc0 = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %s = hk.alloc_shared : !hk.st<16x64xbf16, 16x32>
  %r = hk.ping_pong -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
    %x = hk.cluster memory -> tensor<16x64xbf16, #hk.rt<row, 16x32>> {
      %t = hk.load %s : !hk.st<16x64xbf16, 16x32> -> tensor<16x64xbf16, #hk.rt<row, 16x32>>
      hk.yield %t : tensor<16x64xbf16, #hk.rt<row, 16x32>>
    }
    %e = hk.cluster compute pair = mfma_exp -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
      %d = hk.mma abt %x, %x, %acc0 : tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
      %f = math.exp2 %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
      hk.yield %f : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %e : tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  hk.store %r, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// `pair = mfma_valu`: VALU groups (0x2). A 48x32 A of 16x32 tiles against a
// 16x32 B: a 48x16 accumulator of three 16x16 tiles, one K tile, so three
// MFMAs and three pairs.
// CHECK-LABEL: hk.kernel @ping_pong_valu(
// CHECK:         hk.set_prio 1
// CHECK-NEXT:    %[[D:.*]] = hk.mma abt
// CHECK-NEXT:    arith.mulf %[[D]], %[[D]]
// CHECK-NEXT:    hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 2, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 2, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:    hk.sched_group mask = 2, size = 1, sync = 0
// CHECK-NEXT:    hk.set_prio 0
hk.kernel @ping_pong_valu(%C: memref<?x?xf32>) attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = arith.constant dense<1.0> : tensor<48x32xbf16, #hk.rt<row, 16x32>>
  %b = arith.constant dense<1.0> : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %acc0 = arith.constant dense<0.0> : tensor<48x16xf32, #hk.rt<col, 16x16>>
  %r = hk.ping_pong -> tensor<48x16xf32, #hk.rt<col, 16x16>> {
    %e = hk.cluster compute pair = mfma_valu -> tensor<48x16xf32, #hk.rt<col, 16x16>> {
      %d = hk.mma abt %a, %b, %acc0 : tensor<48x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<48x16xf32, #hk.rt<col, 16x16>>
      %f = arith.mulf %d, %d : tensor<48x16xf32, #hk.rt<col, 16x16>>
      hk.yield %f : tensor<48x16xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %e : tensor<48x16xf32, #hk.rt<col, 16x16>>
  }
  hk.store %r, %C[%c0, %c0] : tensor<48x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// In a 4-wave interleave, a paired compute cluster followed by a memory
// cluster: every MFMA step is the MFMA, the transcendental, then the memory
// instruction (global read 0x20 and LDS write 0x200: 544), after the memory
// cluster. A paired compute cluster with no memory partner is fenced alone
// with its MFMA/exp pairs.
// CHECK-LABEL: hk.kernel @interleave_exp(
// CHECK:         scf.for
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      %[[X:.*]] = hk.load %[[S:[^ ]*]] :
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      %[[D:.*]] = hk.mma abt %[[X]], %[[X]]
// CHECK-NEXT:      %[[E:.*]] = math.exp2 %[[D]]
// CHECK-NEXT:      %[[K1:.*]] = arith.addi
// CHECK-NEXT:      %[[P:.*]] = hk.load
// CHECK-NEXT:      hk.store %[[P]], %[[S]]
// CHECK-NEXT:      hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 1024, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 544, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 1024, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 544, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      %[[F:.*]] = hk.mma abt %[[X]], %[[X]], %[[E]]
// CHECK-NEXT:      math.exp2 %[[F]]
// CHECK-NEXT:      hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 1024, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 8, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_group mask = 1024, size = 1, sync = 0
// CHECK-NEXT:      hk.sched_barrier 0
// CHECK-NEXT:      scf.yield
// PLAIN-LABEL: hk.kernel @interleave_exp(
// PLAIN-NOT:     hk.sched_group
// PLAIN-NOT:     hk.sched_barrier
// PLAIN:         hk.return
hk.kernel @interleave_exp(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index)
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
      %e = hk.cluster compute pair = mfma_exp -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
        %d = hk.mma abt %x, %x, %acc : tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
        %f = math.exp2 %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
        hk.yield %f : tensor<16x16xf32, #hk.rt<col, 16x16>>
      }
      %k1 = arith.addi %k, %c1 : index
      hk.cluster memory {
        %p = hk.load %A[%c0, %k1] : memref<?x?xbf16> -> tensor<16x64xbf16, #hk.rt<row, 16x32>>
        hk.store %p, %s : tensor<16x64xbf16, #hk.rt<row, 16x32>>, !hk.st<16x64xbf16, 16x32>
      }
      %g = hk.cluster compute pair = mfma_exp -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
        %d = hk.mma abt %x, %x, %e : tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x64xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
        %f = math.exp2 %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
        hk.yield %f : tensor<16x16xf32, #hk.rt<col, 16x16>>
      }
      scf.yield %g : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
    hk.yield %l : tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  hk.store %r, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// Only a compute cluster issues MFMAs.
hk.kernel @pair_on_memory() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    // expected-error@+1 {{'hk.cluster' op pair = mfma_valu on a memory cluster: only a compute cluster issues MFMAs}}
    hk.cluster memory pair = mfma_valu {
    }
  }
  hk.return
}

// -----

// Nothing to pair without an MFMA.
hk.kernel @pair_without_mma() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %x = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.ping_pong {
    // expected-error@+1 {{'hk.cluster' op pair = mfma_exp on a cluster with no hk.mma}}
    hk.cluster compute pair = mfma_exp {
      %e = math.exp2 %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
  }
  hk.return
}

// -----

// mfma_exp needs something transcendental to alternate with.
hk.kernel @exp_without_exp() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.ping_pong {
    // expected-error@+1 {{'hk.cluster' op pair = mfma_exp on a cluster with no transcendental op (math.exp2, math.exp, math.log2, math.log, math.rsqrt, math.sqrt)}}
    hk.cluster compute pair = mfma_exp {
      %d = hk.mma abt %a, %a, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
      %f = arith.mulf %d, %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
    }
  }
  hk.return
}

// -----

// A cluster, paired or not, lives in a schedule region.
hk.kernel @pair_outside_region() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %a = arith.constant dense<1.0> : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  // expected-error@+1 {{'hk.cluster' op must be inside hk.ping_pong or hk.interleave}}
  hk.cluster compute pair = mfma_valu {
    %d = hk.mma abt %a, %a, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  }
  hk.return
}
