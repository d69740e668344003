// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefix=GFX942
// RUN: hkc %s --chip gfx942,gfx950 --emit=asm -o %t
// RUN: FileCheck %s --check-prefix=ISA950 < %t.gfx950.s
// RUN: FileCheck %s --check-prefix=ISA942T < %t.gfx942.s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s -o %t.lane.mlir
// RUN: hkc %t.lane.mlir --chip gfx942 --emit=asm -o %t.lane
// RUN: FileCheck %s --check-prefix=ISA942 < %t.lane.gfx942.s

// A 32x32 bf16 col 16x16 register tile read from a shared tile: in the
// MFMA B-operand layout lane 16g + i holds column i, rows 4g .. 4g + 3 of
// each 16x16 block (4 blocks, 16 registers). On gfx950 each block is one
// ds_read_b64_tr_b16 (amdgpu.transpose_load) at HipKittens' address: row
// 4g + i / 4, columns 4 (i % 4) .. + 3 of the block; gfx942 has no such
// instruction and reads the 16 elements one by one (prefix ISA942, the lowering
// alone). hkc's pipeline on gfx942 runs hk-transpose-shared first, which
// keeps this tile transposed (ISA942T): the copy goes through registers
// (two 16-byte global loads per lane, 16 ds_write_b16) and the read is 4
// runs of 4 elements, which LLVM pairs into 2 ds_read2st64_b64.

// GFX950-LABEL: gpu.func @col_read
// GFX950: %[[TID:.*]] = gpu.thread_id x
// GFX950-COUNT-4: amdgpu.transpose_load {{.*}} -> vector<4xbf16>
// GFX950-NOT: amdgpu.transpose_load
// GFX950-NOT: vector.load {{.*}}workgroup
// GFX942-LABEL: gpu.func @col_read
// GFX942-NOT: amdgpu.transpose_load
// GFX942-COUNT-16: vector.load {{.*}} vector<1xbf16>
// ISA950-LABEL: col_read:
// ISA950-COUNT-4: ds_read_b64_tr_b16
// ISA950-NOT: ds_read_u16
// ISA950: .Lfunc_end0:
// ISA942-LABEL: col_read:
// ISA942-NOT: ds_read_b64_tr_b16
// ISA942-COUNT-16: ds_read_u16
// ISA942T-LABEL: col_read:
// ISA942T-COUNT-2: buffer_load_dwordx4
// ISA942T-COUNT-16: ds_write_b16
// ISA942T-COUNT-2: ds_read2st64_b64
// ISA942T-NOT: ds_read
// ISA942T: .Lfunc_end0:
hk.kernel @col_read(%C: memref<?x?xbf16>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<32x32xbf16, 16x32>
  %t = hk.load_async %C[%c0, %c0], %s : memref<?x?xbf16>, !hk.st<32x32xbf16, 16x32>
  hk.wait %t
  %v = hk.load %s : !hk.st<32x32xbf16, 16x32> -> tensor<32x32xbf16, #hk.rt<col, 16x16>>
  hk.store %v, %C[%c0, %c0] : tensor<32x32xbf16, #hk.rt<col, 16x16>>, memref<?x?xbf16>
  hk.return
}
