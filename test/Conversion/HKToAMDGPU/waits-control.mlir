// hk-compute-waits through loops and branches: the least number of
// vector-memory instructions issued between the copy and the wait on any
// path. A 64x64 bf16 copy over 4 waves is 2 instructions per wave on
// gfx950 (16 bytes per lane), 8 on gfx942 (4 bytes per lane); a 16x32 bf16
// register tile is one 16-byte access per lane on both.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --hk-compute-waits %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --hk-compute-waits %s | FileCheck %s --check-prefixes=CHECK,GFX942

!st = !hk.st<64x64xbf16, 16x32>
!rt = tensor<16x32xbf16, #hk.rt<row, 16x32>>

// Double buffer: stage k+1 is issued, and a register tile loaded, before
// the wait for stage k. First iteration: the prologue's copy, then the
// prefetch and the load. Later iterations: the previous prefetch, then
// the store of the previous iteration, the new prefetch and the load, one
// more. The least: a copy and a load. After the loop, the last prefetch is
// the newest copy: nothing may stay in flight.
// CHECK-LABEL: gpu.func @double_buffer
// CHECK: scf.for
// GFX950: amdgpu.memory_counter_wait load(3) ds(0)
// GFX942: amdgpu.memory_counter_wait load(9) ds(0)
// CHECK: scf.yield
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
hk.kernel @double_buffer(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                         %C: memref<?x?xbf16>, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  %last = scf.for %k = %c0 to %n step %c1 iter_args(%t = %t0) -> (!hk.token) {
    %k1 = arith.addi %k, %c1 : index
    %tn = hk.load_async %A[%k1, %c0], %s1 : memref<?x?xbf16>, !st
    %x = hk.load %B[%k, %c0] : memref<?x?xbf16> -> !rt
    hk.wait %t
    hk.barrier
    hk.store %x, %C[%k, %c0] : !rt, memref<?x?xbf16>
    scf.yield %tn : !hk.token
  }
  hk.wait %last
  hk.return
}

// Prefetch at the end of the body: the wait at the top has nothing issued
// after the copy on either path.
// CHECK-LABEL: gpu.func @prefetch_last
// CHECK: scf.for
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
hk.kernel @prefetch_last(%A: memref<?x?xbf16>, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  %last = scf.for %k = %c0 to %n step %c1 iter_args(%t = %t0) -> (!hk.token) {
    hk.wait %t
    hk.barrier
    %tn = hk.load_async %A[%k, %c0], %s0 : memref<?x?xbf16>, !st
    scf.yield %tn : !hk.token
  }
  hk.return
}

// A loop of 3 trips between the copy and the wait counts 3 times its body;
// a loop of unknown trip count may run none.
// CHECK-LABEL: gpu.func @counted_loop
// GFX950: amdgpu.memory_counter_wait load(6) ds(0)
// GFX942: amdgpu.memory_counter_wait load(24) ds(0)
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
hk.kernel @counted_loop(%A: memref<?x?xbf16>, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  scf.for %k = %c0 to %c3 step %c1 {
    %t = hk.load_async %A[%k, %c0], %s1 : memref<?x?xbf16>, !st
    scf.yield
  }
  hk.wait %t0
  %t1 = hk.load_async %A[%c1, %c0], %s0 : memref<?x?xbf16>, !st
  scf.for %k = %c0 to %n step %c1 {
    %t = hk.load_async %A[%k, %c0], %s1 : memref<?x?xbf16>, !st
    scf.yield
  }
  hk.wait %t1
  hk.return
}

// Branches: the least of the two. Then a copy in one branch and a store in
// the other (1 instruction); then a copy in a branch without else (none).
// A token that is the result of a branch: a copy on either side, then one
// more copy before the wait.
// CHECK-LABEL: gpu.func @branches
// CHECK: amdgpu.memory_counter_wait load(1) ds(0)
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
// GFX950: amdgpu.memory_counter_wait load(2) ds(0)
// GFX942: amdgpu.memory_counter_wait load(8) ds(0)
hk.kernel @branches(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>, %c: i1)
    attributes {waves = 4 : i32,
                grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %x = hk.load %A[%c1, %c1] : memref<?x?xbf16> -> !rt
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  scf.if %c {
    %t = hk.load_async %A[%c1, %c0], %s1 : memref<?x?xbf16>, !st
  } else {
    hk.store %x, %C[%c0, %c0] : !rt, memref<?x?xbf16>
  }
  hk.wait %t0
  %t1 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  scf.if %c {
    %t = hk.load_async %A[%c1, %c0], %s1 : memref<?x?xbf16>, !st
  }
  hk.wait %t1
  %t2 = scf.if %c -> (!hk.token) {
    %t = hk.load_async %A[%c1, %c0], %s1 : memref<?x?xbf16>, !st
    scf.yield %t : !hk.token
  } else {
    %t = hk.load_async %A[%c0, %c0], %s1 : memref<?x?xbf16>, !st
    scf.yield %t : !hk.token
  }
  %t3 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  hk.wait %t2
  hk.return
}
