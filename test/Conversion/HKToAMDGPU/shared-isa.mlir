// The shared-memory lowering down to ISA: LDS DMA (gfx950: 16 bytes per
// lane, buffer_load_dwordx4 ... lds; gfx942: 4 bytes, buffer_load_dword ...
// lds), 16-byte LDS reads and writes of register runs, the wait, and the
// kernel's LDS size. No transpose reads are emitted yet (plain reads).
// The LLVM IR holds one addrspace(3) global per allocation.
// RUN: hkc %s --chip gfx942,gfx950 --emit=asm -o %t
// RUN: FileCheck %s --check-prefixes=CHECK,GFX950 < %t.gfx950.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX942 < %t.gfx942.s
// RUN: hkc %s --chip gfx950 --emit=llvm -o %t && FileCheck %s --check-prefix=LLVM < %t.gfx950.ll

// One LDS global per allocation, 32x64 bf16 each.
// LLVM-DAG: @stage_lds0 = {{.*}}addrspace(3) global [2048 x bfloat]
// LLVM-DAG: @stage_lds1 = {{.*}}addrspace(3) global [2048 x bfloat]
// LLVM: call void @llvm.amdgcn.load.to.lds.p7

// CHECK-LABEL: stage:
// GFX950: buffer_load_dwordx4 {{.*}} offen lds
// GFX942: buffer_load_dword {{.*}} offen lds
// CHECK: s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK: s_barrier
// CHECK: ds_read_b128
// CHECK: ds_write_b128
// CHECK-NOT: ds_read_b64_tr_b16
// CHECK: .amdhsa_group_segment_fixed_size 8192
hk.kernel @stage(%A: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %bx = hk.block_id x
  %as = hk.alloc_shared : !hk.st<32x64xbf16, 16x32>
  %bs = hk.alloc_shared : !hk.st<32x64xbf16, 16x32>
  %t = hk.load_async %A[%bx, %c0], %as : memref<?x?xbf16>, !hk.st<32x64xbf16, 16x32>
  hk.wait %t
  hk.barrier
  %a = hk.load %as : !hk.st<32x64xbf16, 16x32> -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
  %e = arith.addf %a, %a : tensor<32x64xbf16, #hk.rt<row, 16x32>>
  hk.store %e, %bs : tensor<32x64xbf16, #hk.rt<row, 16x32>>, !hk.st<32x64xbf16, 16x32>
  hk.barrier
  hk.store %bs, %A[%bx, %c0] : !hk.st<32x64xbf16, 16x32>, memref<?x?xbf16>
  hk.return
}
