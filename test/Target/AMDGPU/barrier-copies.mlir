// hk.barrier does not wait for the wave's copies into LDS: they are waited
// for by hk.wait on their tokens. LLVM's memory legalizer would make the
// barrier's workgroup release on LDS wait for every outstanding LDS DMA
// (vmcnt(0)); the translation gives that release an explicit lgkmcnt(0)
// and a release fence on global memory instead, so a copy issued before
// a barrier stays in flight across it.
// RUN: hkc %s --chip gfx950 --emit=llvm -o - | FileCheck %s --check-prefix=IR
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=GFX950
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s --check-prefix=GFX942

// IR-LABEL: define amdgpu_kernel void @prefetch_across_barrier
// IR: call void @llvm.amdgcn.s.waitcnt(i32 49279)
// IR-NEXT: fence syncscope("workgroup") release, !mmra ![[GLOBAL:[0-9]+]]
// IR-NEXT: call void @llvm.amdgcn.s.barrier()
// IR-NOT: !{!"amdgpu-synchronize-as", !"local"}
// IR: ![[GLOBAL]] = !{!"amdgpu-synchronize-as", !"global"}

// The first copy (4 DMA instructions per wave on gfx950, 16 on gfx942) is
// waited for by hk.wait before the first barrier; the second is issued
// between the barriers, and the second barrier waits only for LDS
// accesses: the reads of the first tile after it need no vmcnt either.
// GFX950-LABEL: prefetch_across_barrier:
// GFX950: s_waitcnt vmcnt(0) lgkmcnt(0)
// GFX950: s_barrier
// GFX950-COUNT-4: buffer_load_dwordx4 {{.*}} lds
// GFX950-NOT: vmcnt
// GFX950: s_waitcnt lgkmcnt(0)
// GFX950-NEXT: s_barrier
// GFX950-NEXT: ds_read_b128
// GFX942-LABEL: prefetch_across_barrier:
// GFX942: s_waitcnt vmcnt(0) lgkmcnt(0)
// GFX942-NEXT: s_barrier
// GFX942-COUNT-16: buffer_load_dword {{.*}} lds
// GFX942-NOT: vmcnt
// GFX942: s_waitcnt lgkmcnt(0)
// GFX942-NEXT: s_barrier
!st = !hk.st<64x64xbf16, 16x32>
!rt = tensor<64x64xbf16, #hk.rt<row, 16x32>>
hk.kernel @prefetch_across_barrier(%A: memref<?x64xbf16>,
                                   %C: memref<?x?xbf16>) attributes {
    waves = 2 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = hk.alloc_shared : !st
  %s1 = hk.alloc_shared : !st
  %t0 = hk.load_async %A[%c0, %c0], %s0 : memref<?x64xbf16>, !st
  hk.wait %t0
  hk.barrier
  %t1 = hk.load_async %A[%c1, %c0], %s1 : memref<?x64xbf16>, !st
  hk.barrier
  %y = hk.load %s0 : !st -> !rt
  hk.store %y, %C[%c0, %c0] : !rt, memref<?x?xbf16>
  hk.wait %t1
  %z = hk.load %s1 : !st -> !rt
  hk.store %z, %C[%c1, %c0] : !rt, memref<?x?xbf16>
  hk.return
}
