// The lane-level IR goes through MLIR's upstream AMDGPU pipeline (the one
// hkc runs per gpu.module) down to the LLVM dialect with nothing left over.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s \
// RUN: | mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s \
// RUN: | mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx942}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefix=GFX942

// GFX950-LABEL: llvm.func @gemm
// GFX950-SAME: rocdl.kernel
// The wave id, then the buffers of A and B where they are first read; C's
// where it is stored.
// GFX950: rocdl.readfirstlane
// GFX950-COUNT-2: rocdl.make.buffer.rsrc
// GFX950: llvm.load {{.*}} : !llvm.ptr<7> -> vector<8xbf16>
// GFX950: rocdl.mfma.f32.16x16x32.bf16
// math.exp2 becomes v_exp_f32 per register, never a call into ROCm's device
// library.
// GFX950-COUNT-4: rocdl.exp2
// GFX950-NOT: ocml
// GFX950: rocdl.s.setprio 1
// GFX950: rocdl.sched.barrier 0
// hk.barrier is s_barrier with fences restricted to LDS (an MMRA tag), so
// outstanding global loads are not waited for.
// GFX950: llvm.fence syncscope("workgroup") release {llvm.mmra
// GFX950-NEXT: rocdl.s.barrier
// GFX950-NEXT: llvm.fence syncscope("workgroup") acquire {llvm.mmra
// GFX950: rocdl.make.buffer.rsrc
// GFX950: llvm.store {{.*}} : f32, !llvm.ptr<7>
// GFX950-NOT: {{ (hk|arith|vector|memref|amdgpu|gpu|scf)\.[a-z_]+}}
// GFX950-NOT: unrealized_conversion_cast

// GFX942-LABEL: llvm.func @gemm
// GFX942-COUNT-2: rocdl.mfma.f32.16x16x16bf16.1k
// GFX942-NOT: rocdl.mfma
// GFX942-NOT: {{ (hk|arith|vector|memref|amdgpu|gpu|scf)\.[a-z_]+}}
hk.kernel @gemm(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(2, 0)] -> (s0 ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %bx = hk.block_id x
  %w = hk.wave_id
  %a = hk.load %A[%bx, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %b = hk.load %B[%w, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %b, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  %e = math.exp2 %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.set_prio 1
  hk.sched_barrier 0
  hk.barrier
  hk.store %e, %C[%bx, %w] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
