// The CDNA3 form of the tile step: 16x16x16 bf16 MFMAs (the largest bf16
// shape gfx942 has), plain ds_read_b64 instead of transpose reads. The same
// IR is valid on gfx950, so one run compiles it for both chips.
// RUN: hkc %s --chip gfx942,gfx950 --emit=asm -o %t
// RUN: FileCheck %s --check-prefixes=CHECK,GFX942 < %t.gfx942.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX950 < %t.gfx950.s
// RUN: hkc %s --chip gfx942 -o %t.hsaco && llvm-readelf -h --notes %t.gfx942.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: hkc %s --chip gfx942 --code-object-version=6 --emit=asm -o - | FileCheck %s --check-prefix=V6

// GFX942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// GFX950: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// CHECK-LABEL: mma_step:
// CHECK: buffer_load_dwordx2
// CHECK: ds_write_b64
// CHECK: s_barrier
// CHECK: ds_read_b64
// CHECK: s_setprio 2
// CHECK-NEXT: {{(s_waitcnt lgkmcnt\(0\)[[:space:]]+)?}}v_mfma_f32_16x16x16_bf16
// CHECK-NEXT: {{(s_nop [0-9]+[[:space:]]+)?}}v_mfma_f32_16x16x16_bf16
// CHECK: s_setprio 0
// CHECK: buffer_store_dwordx4
// CHECK-NOT: ds_read_b64_tr_b16
// CHECK-NOT: v_mfma_f32_16x16x32_bf16
// CHECK: .amdhsa_group_segment_fixed_size 2048

// NOTES: OS/ABI: AMDGPU - HSA
// NOTES: ABI Version: 3
// NOTES: Type: DYN (Shared object file)
// NOTES: .name: mma_step
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942
// NOTES: amdhsa.version:
// NOTES-NEXT: - 1
// NOTES-NEXT: - 2

// V6: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// V6-NEXT: .amdhsa_code_object_version 6

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mma_step(%a: memref<2048xbf16, #gpu.address_space<global>>,
                       %c: memref<1024xf32, #gpu.address_space<global>>)
        workgroup(%lds: memref<1024xbf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c1020 = arith.constant 1020 : index
      %abuf = amdgpu.fat_raw_buffer_cast %a : memref<2048xbf16, #gpu.address_space<global>> to memref<2048xbf16, #amdgpu.address_space<fat_raw_buffer>>
      %cbuf = amdgpu.fat_raw_buffer_cast %c : memref<1024xf32, #gpu.address_space<global>> to memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %off = arith.muli %tid, %c4 : index
      %av = vector.load %abuf[%off] : memref<2048xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
      vector.store %av, %lds[%off] : memref<1024xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
      gpu.barrier
      // Another lane's row, so the read cannot be forwarded from the store.
      %other = arith.subi %c1020, %off : index
      %bv = vector.load %lds[%other] : memref<1024xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      rocdl.s.setprio 2
      %d0 = amdgpu.mfma 16x16x16 %av * %bv + %zero blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
      %d1 = amdgpu.mfma 16x16x16 %bv * %av + %d0 blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
      rocdl.s.setprio 0
      vector.store %d1, %cbuf[%off] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
      gpu.return
    }
  }
}
