// hk-compute-waits on straight-line code: the vmcnt of a wait is the number
// of vector-memory instructions the wave issued after the copy it waits for.
// A 64x64 bf16 tile (16x32 subtiles) is 8192 bytes: 8 LDS DMA instructions
// of 64 lanes x 16 bytes on gfx950, 32 of 64 x 4 bytes on gfx942. With 4
// waves each wave issues 2 (gfx950) or 8 (gfx942) of them.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --hk-compute-waits %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --hk-compute-waits %s | FileCheck %s --check-prefixes=CHECK,GFX942

!st = !hk.st<64x64xbf16, 16x32>
!rt = tensor<16x32xbf16, #hk.rt<row, 16x32>>

// Waited at once: nothing may stay in flight. The markers are gone.
// CHECK-LABEL: gpu.func @immediate
// CHECK-NOT: hk.wait_tokens
// CHECK-NOT: hk.copy_
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
// CHECK-NOT: hk.wait_tokens
// CHECK: gpu.return
hk.kernel @immediate(%A: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !st
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !st
  hk.wait %t
  hk.return
}

// Two copies, a wait for the first: the second's instructions stay in
// flight; then a wait for the second, and one for both, leave nothing.
// CHECK-LABEL: gpu.func @two_copies
// GFX950: amdgpu.memory_counter_wait load(2) ds(0)
// GFX942: amdgpu.memory_counter_wait load(8) ds(0)
// CHECK-NEXT: amdgpu.memory_counter_wait load(0) ds(0)
// CHECK-NEXT: amdgpu.memory_counter_wait load(0) ds(0)
hk.kernel @two_copies(%A: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  %t1 = hk.load_async %A[%c1, %c0], %s1 : memref<?x?xbf16>, !st
  hk.wait %t0
  hk.wait %t1
  hk.wait %t0, %t1
  hk.return
}

// Copies split over waves count what each wave issues. The first copy is
// issued by waves 0 and 1 only, the second by all four (2 or 8 each): a
// wait for the first may leave the second's instructions of the wave in
// flight. The third copy is issued by waves 0 and 1 only (4 or 16 each):
// waves 2 and 3 issue nothing after the second copy, and one immediate
// serves every wave, so a wait for the second is a wait for everything.
// CHECK-LABEL: gpu.func @split
// GFX950: amdgpu.memory_counter_wait load(2) ds(0)
// GFX942: amdgpu.memory_counter_wait load(8) ds(0)
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
hk.kernel @split(%A: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %s2 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 waves = 2 : memref<?x?xbf16>, !st
  %t1 = hk.load_async %A[%c1, %c0], %s1 : memref<?x?xbf16>, !st
  hk.wait %t0
  %t2 = hk.load_async %A[%c0, %c0], %s2 waves = 2 : memref<?x?xbf16>, !st
  hk.wait %t1
  hk.return
}

// Global register accesses between the copy and the wait count too: a
// 16x32 bf16 tile is 16 bytes per lane, one instruction (loads and stores
// share vmcnt on gfx9 and complete in order). A load whose result is not
// used may be deleted by the backend and does not count.
// CHECK-LABEL: gpu.func @registers
// CHECK: amdgpu.memory_counter_wait load(2) ds(0)
// CHECK: amdgpu.memory_counter_wait load(0) ds(0)
hk.kernel @registers(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = hk.alloc_shared : !st
  %t = hk.load_async %A[%c0, %c0], %s : memref<?x?xbf16>, !st
  %x = hk.load %B[%c0, %c0] : memref<?x?xbf16> -> !rt
  hk.store %x, %C[%c0, %c0] : !rt, memref<?x?xbf16>
  hk.wait %t
  %t2 = hk.load_async %A[%c1, %c0], %s : memref<?x?xbf16>, !st
  %dead = hk.load %B[%c1, %c0] : memref<?x?xbf16> -> !rt
  hk.wait %t2
  hk.return
}

// One wave issues all 32 gfx942 instructions of each copy: 64 after the
// first, more than vmcnt's 6 bits hold, so the count is clamped to 63.
// gfx950: 8 + 8.
// CHECK-LABEL: gpu.func @clamp
// GFX950: amdgpu.memory_counter_wait load(16) ds(0)
// GFX942: amdgpu.memory_counter_wait load(63) ds(0)
hk.kernel @clamp(%A: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %s2 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x?xbf16>, !st
  %t1 = hk.load_async %A[%c1, %c0], %s1 : memref<?x?xbf16>, !st
  %t2 = hk.load_async %A[%c2, %c0], %s2 : memref<?x?xbf16>, !st
  hk.wait %t0
  hk.wait %t1, %t2
  hk.return
}
