// RUN: hk-translate --hk-to-hipkittens -split-input-file %s | FileCheck %s

// Schedule regions are expanded by hk-schedule before printing
// (docs/schedules.md), so the C++ holds HipKittens' 8-wave schedule: waves
// 4-7 take one barrier before the region (HipKittens spells the test
// `warp_row == 1` with `warp_row = __builtin_amdgcn_readfirstlane(warpid()) / 4`, the same waves), every
// cluster is fenced by sched_barrier(0) and ends with a barrier, compute
// clusters run under s_setprio(1), and waves 0-3 take the mirror barrier
// after the region. Names written in the source survive the pass: the
// cluster results print as the values their bodies yield (`t`; `m` writes
// into `acc`, which dies at the mma), the loop as `k` and `acc`, the two
// results of the scf.if as `p` and `q`.

!st = !hk.st<32x64xbf16, 16x32>
!a = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void pp(const gl<bf16, -1, -1, -1, -1> A, const gl<float, -1, -1, -1, -1> C, const int n, const bool f) {
// CHECK-NEXT:   using G = kittens::group<8>;
// CHECK-NEXT:   extern __shared__ alignment_dummy __shm[];
// CHECK-NEXT:   shared_allocator al((int *)&__shm[0]);
// CHECK-NEXT:   st_bf<32, 64, st_16x32_s> &s = al.allocate<st_bf<32, 64, st_16x32_s>>();
// CHECK-NEXT:   if (__builtin_amdgcn_readfirstlane(warpid()) >= 4) {
// CHECK-NEXT:     __builtin_amdgcn_s_barrier();
// CHECK-NEXT:   }
// CHECK-NEXT:   rt_fl<32, 32, col_l, rt_16x16_s> acc;
// CHECK-NEXT:   zero(acc);
// CHECK-NEXT:   for (int k = 0; k < n; ++k) {
// CHECK-NEXT:     __builtin_amdgcn_sched_barrier(0);
// CHECK-NEXT:     rt_bf<32, 64, row_l, rt_16x32_s> t;
// CHECK-NEXT:     load(t, s);
// CHECK-NEXT:     asm volatile("s_waitcnt lgkmcnt(0)");
// CHECK-NEXT:     __builtin_amdgcn_s_barrier();
// CHECK-NEXT:     __builtin_amdgcn_sched_barrier(0);
// CHECK-NEXT:     __builtin_amdgcn_s_setprio(1);
// CHECK-NEXT:     mma_ABt(acc, t, t, acc);
// CHECK-NEXT:     __builtin_amdgcn_s_setprio(0);
// CHECK-NEXT:     __builtin_amdgcn_s_barrier();
// CHECK-NEXT:     __builtin_amdgcn_sched_barrier(0);
// CHECK-NEXT:     G::load(s, A, {0, 0, 0, k + 1});
// CHECK-NEXT:     __builtin_amdgcn_s_barrier();
// CHECK-NEXT:     __builtin_amdgcn_sched_barrier(0);
// CHECK-NEXT:   }
// CHECK-NEXT:   if (__builtin_amdgcn_readfirstlane(warpid()) < 4) {
// CHECK-NEXT:     __builtin_amdgcn_s_barrier();
// CHECK-NEXT:   }
// CHECK-NEXT:   rt_fl<32, 32, col_l, rt_16x16_s> p;
// CHECK-NEXT:   rt_fl<32, 32, col_l, rt_16x16_s> q;
// CHECK-NEXT:   if (f) {
// CHECK-NEXT:     p = acc;
// CHECK-NEXT:     q = acc;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rt_fl<32, 32, col_l, rt_16x16_s> z;
// CHECK-NEXT:     zero(z);
// CHECK-NEXT:     p = acc;
// CHECK-NEXT:     q = z;
// CHECK-NEXT:   }
// CHECK-NEXT:   store(C, p, {0, 0, 0, 0});
// CHECK-NEXT:   store(C, q, {0, 0, 0, 1});
// CHECK-NEXT: }
hk.kernel @pp(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index, %f: i1)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : !acc
  %s = hk.alloc_shared : !st
  %r = hk.ping_pong -> !acc {
    %l = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!acc) {
      %x = hk.cluster memory -> !a {
        %t = hk.load %s : !st -> !a
        hk.yield %t : !a
      }
      %d = hk.cluster compute -> !acc {
        %m = hk.mma abt %x, %x, %acc : !a, !a, !acc
        hk.yield %m : !acc
      }
      hk.cluster memory {
        %k1 = arith.addi %k, %c1 : index
        hk.load_async %A[%c0, %k1], %s : memref<?x?xbf16>, !st
        hk.yield
      }
      scf.yield %d : !acc
    }
    hk.yield %l : !acc
  }
  %p, %q = scf.if %f -> (!acc, !acc) {
    scf.yield %r, %r : !acc, !acc
  } else {
    %z = arith.constant dense<0.0> : !acc
    scf.yield %r, %z : !acc, !acc
  }
  hk.store %p, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.store %q, %C[%c0, %c1] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// 4-wave interleave: no barrier, priority or wave test. The memory cluster
// the math needs stands alone between fences; the compute cluster and the
// prefetch after it end with the alternation hk-schedule asks of LLVM's
// scheduler: a 16x16 accumulator times two 16x32 K tiles is two MFMAs (mask
// 8), each followed by one memory instruction of the prefetch, a VMEM read
// (0x20) or DS write (0x200): mask 0x220 = 544.

!st = !hk.st<16x64xbf16, 16x32>
!a = tensor<16x64xbf16, #hk.rt<row, 16x32>>
!acc = tensor<16x16xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void il(
// CHECK-NOT:     __builtin_amdgcn_s_barrier
// CHECK:         for (int k = 0; k < n; ++k) {
// CHECK-NEXT:     __builtin_amdgcn_sched_barrier(0);
// CHECK-NEXT:     rt_bf<16, 64, row_l, rt_16x32_s> t;
// CHECK-NEXT:     load(t, s);
// CHECK-NEXT:     asm volatile("s_waitcnt lgkmcnt(0)");
// CHECK-NEXT:     __builtin_amdgcn_sched_barrier(0);
// CHECK-NEXT:     mma_ABt(acc, t, t, acc);
// CHECK-NEXT:     rt_bf<16, 64, row_l, rt_16x32_s> p;
// CHECK-NEXT:     load(p, A, {0, 0, 0, k + 1});
// CHECK-NEXT:     store(s, p);
// CHECK-NEXT:     asm volatile("s_waitcnt lgkmcnt(0)");
// CHECK-NEXT:     __builtin_amdgcn_sched_group_barrier(8, 1, 0);
// CHECK-NEXT:     __builtin_amdgcn_sched_group_barrier(544, 1, 0);
// CHECK-NEXT:     __builtin_amdgcn_sched_group_barrier(8, 1, 0);
// CHECK-NEXT:     __builtin_amdgcn_sched_group_barrier(544, 1, 0);
// CHECK-NEXT:     __builtin_amdgcn_sched_barrier(0);
// CHECK-NEXT:   }
// CHECK-NEXT:   store(C, acc, {0, 0, 0, 0});
// CHECK-NEXT: }
hk.kernel @il(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : !acc
  %s = hk.alloc_shared : !st
  %r = hk.interleave -> !acc {
    %l = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!acc) {
      %x = hk.cluster memory -> !a {
        %t = hk.load %s : !st -> !a
        hk.yield %t : !a
      }
      %d = hk.cluster compute -> !acc {
        %m = hk.mma abt %x, %x, %acc : !a, !a, !acc
        hk.yield %m : !acc
      }
      %k1 = arith.addi %k, %c1 : index
      hk.cluster memory {
        %p = hk.load %A[%c0, %k1] : memref<?x?xbf16> -> !a
        hk.store %p, %s : !a, !st
        hk.yield
      }
      scf.yield %d : !acc
    }
    hk.yield %l : !acc
  }
  hk.store %r, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
