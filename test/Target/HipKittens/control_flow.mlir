// RUN: hk-translate --hk-to-hipkittens -split-input-file %s | FileCheck %s

// scf.for becomes a for loop; the accumulator is carried in one variable,
// filled before the loop from the zero constant (HipKittens' zero), and the
// mma is the last use of the carried value, so the loop needs no copies. Index arithmetic used once
// in its own block is spelled inline (bx is used inside the loop, so it is
// named); ids map to blockIdx and __builtin_amdgcn_readfirstlane(warpid()).

!st = !hk.st<64x64xbf16, 16x32>
!a = tensor<64x64xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x64xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void k_loop(const gl<bf16, -1, -1, -1, -1> A, const gl<float, -1, -1, -1, -1> C, const int n) {
// CHECK-NEXT:   using G = kittens::group<4>;
// CHECK-NEXT:   extern __shared__ alignment_dummy __shm[];
// CHECK-NEXT:   shared_allocator al((int *)&__shm[0]);
// CHECK-NEXT:   st_bf<64, 64, st_16x32_s> &as = al.allocate<st_bf<64, 64, st_16x32_s>>();
// CHECK-NEXT:   const int bx = blockIdx.x;
// CHECK-NEXT:   rt_fl<64, 64, col_l, rt_16x16_s> acc;
// CHECK-NEXT:   zero(acc);
// CHECK-NEXT:   for (int k = 0; k < n; ++k) {
// CHECK-NEXT:     G::load(as, A, {0, 0, bx, k});
// CHECK-NEXT:     asm volatile("s_waitcnt vmcnt(0)");
// CHECK-NEXT:     __builtin_amdgcn_s_barrier();
// CHECK-NEXT:     rt_bf<64, 64, row_l, rt_16x32_s> a;
// CHECK-NEXT:     load(a, as);
// CHECK-NEXT:     asm volatile("s_waitcnt lgkmcnt(0)");
// CHECK-NEXT:     mma_ABt(acc, a, a, acc);
// CHECK-NEXT:     __builtin_amdgcn_s_barrier();
// CHECK-NEXT:   }
// CHECK-NEXT:   store(C, acc, {0, 0, (blockIdx.y * 4) + __builtin_amdgcn_readfirstlane(warpid()), 0});
// CHECK-NEXT: }
// The launcher sizes the dynamic LDS and raises the kernel's limit to it.
// CHECK:        const dim3 grid(n, 1, 1);
// CHECK-NEXT:   const size_t shared_bytes = 8192;
// CHECK-NEXT:   hipError_t err = hipFuncSetAttribute(reinterpret_cast<const void *>(&k_loop), hipFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
hk.kernel @k_loop(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[arg(2)] -> (s0, 1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %as = hk.alloc_shared : !st
  %zero = arith.constant dense<0.0> : !acc
  %bx = hk.block_id x
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!acc) {
    %t = hk.load_async %A[%bx, %k], %as : memref<?x?xbf16>, !st
    hk.wait %t
    hk.barrier
    %a = hk.load %as : !st -> !a
    %d = hk.mma abt %a, %a, %acc : !a, !a, !acc
    hk.barrier
    scf.yield %d : !acc
  }
  %by = hk.block_id y
  %w = hk.wave_id
  %row4 = arith.muli %by, %c4 : index
  %row = arith.addi %row4, %w : index
  hk.store %r, %C[%row, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// Loop-carried values that swap go through a temporary; scalars carried by
// a loop are plain ints; a step other than 1 is spelled out.

!v = tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>

// CHECK-LABEL: void swap_carried(
// CHECK:        int x = 0;
// CHECK-NEXT:   int y = 1;
// CHECK-NEXT:   for (int i = 0; i < 10; i += 2) {
// CHECK-NEXT:     auto y_prev = y;
// CHECK-NEXT:     y = x;
// CHECK-NEXT:     x = y_prev;
// CHECK-NEXT:   }
// CHECK-NEXT:   const int s = x + y;
hk.kernel @swap_carried(%V: memref<?xf32>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %r:2 = scf.for %i = %c0 to %c10 step %c2 iter_args(%x = %c0, %y = %c1) -> (index, index) {
    scf.yield %y, %x : index, index
  }
  %s = arith.addi %r#0, %r#1 : index
  %v = hk.load %V[%s] : memref<?xf32> -> !v
  %v2 = hk.load %V[%s] : memref<?xf32> -> !v
  %sum = arith.addf %v, %v2 : !v
  hk.store %sum, %V[%c0] : !v, memref<?xf32>
  hk.return
}

// -----

// scf.if with a result: the variable is declared before the if and each
// branch computes straight into it.

!s = tensor<16x16xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void branch(
// CHECK:        rt_fl<16, 16, col_l, rt_16x16_s> r;
// CHECK-NEXT:   if (__builtin_amdgcn_readfirstlane(warpid()) == 0) {
// CHECK-NEXT:     exp2(r, x);
// CHECK-NEXT:   } else {
// CHECK-NEXT:     r = x;
// CHECK-NEXT:   }
// CHECK-NEXT:   store(X, r, {0, 0, 0, 0});
hk.kernel @branch(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %w = hk.wave_id
  %first = arith.cmpi eq, %w, %c0 : index
  %r = scf.if %first -> !s {
    %e = math.exp2 %x : !s
    scf.yield %e : !s
  } else {
    scf.yield %x : !s
  }
  hk.store %r, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// One initial tile passed for two carried values: only the first takes over
// its variable, the second gets its own copy.

!s = tensor<16x16xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void shared_init(
// CHECK:        rt_fl<16, 16, col_l, rt_16x16_s> z;
// CHECK-NEXT:   load(z, X, {0, 0, 0, 0});
// CHECK-NEXT:   rt_fl<16, 16, col_l, rt_16x16_s> b = z;
// CHECK-NEXT:   for (int i = 0; i < 4; ++i) {
// CHECK-NEXT:     exp2(z, z);
// CHECK-NEXT:     exp(b, b);
// CHECK-NEXT:   }
// CHECK-NEXT:   store(X, z, {0, 0, 0, 0});
// CHECK-NEXT:   store(X, b, {0, 0, 0, 1});
hk.kernel @shared_init(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %z, %b = %z) -> (!s, !s) {
    %a2 = math.exp2 %a : !s
    %b2 = math.exp %b : !s
    scf.yield %a2, %b2 : !s, !s
  }
  hk.store %r#0, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.store %r#1, %X[%c0, %c1] : !s, memref<?x?xf32>
  hk.return
}
