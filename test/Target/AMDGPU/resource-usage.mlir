// --resource-usage reads the AMDHSA metadata of the linked code object. Each
// figure is checked against the assembler directives of the same kernels
// (kernel descriptor fields, written by a different part of the backend)
// and against the occupancy worked out by hand:
//  - register_bound clobbers v100 and a63: 101 VGPRs, rounded up to 4 where
//    the AGPRs start (accum_offset 104), plus 64 AGPRs = 168 registers per
//    lane; 512 / 168 = 3 waves per SIMD on both chips.
//  - lds_bound uses 16384 f32 = 65536 bytes of LDS with 4 waves per
//    workgroup (1 per SIMD): 64 KiB / 64 KiB = 1 workgroup per CU on gfx942,
//    hence 1 wave per SIMD; 160 KiB / 64 KiB = 2 workgroups on gfx950, 2
//    waves per SIMD.
// RUN: hkc %s --chip gfx942,gfx950 --emit=asm --resource-usage -o %t > %t.usage
// RUN: cat %t.gfx942.s %t.usage | FileCheck %s --check-prefixes=ASM,GFX942
// RUN: cat %t.gfx950.s %t.usage | FileCheck %s --check-prefixes=ASM,GFX950
// With the output on stdout the report goes to stderr, out of its way.
// RUN: hkc %s --chip gfx950 --emit=asm --resource-usage -o - 2>/dev/null | FileCheck %s --check-prefix=STDOUT

// ASM-LABEL: register_bound:
// ASM: .amdhsa_group_segment_fixed_size 0
// ASM: .amdhsa_private_segment_fixed_size 0
// ASM: .amdhsa_next_free_vgpr 168
// ASM: .amdhsa_accum_offset 104
// ASM: ; TotalNumSgprs: [[SGPR_R:[0-9]+]]
// ASM: ; Occupancy: 3
// ASM-LABEL: lds_bound:
// ASM: .amdhsa_group_segment_fixed_size 65536
// ASM: .amdhsa_private_segment_fixed_size 0
// ASM: ; TotalNumSgprs: [[SGPR_L:[0-9]+]]
// ASM: ; NumVgprs: [[VGPR_L:[0-9]+]]
// GFX942: ; Occupancy: 1
// GFX950: ; Occupancy: 2

// GFX942: resource usage for gfx942
// GFX950: resource usage for gfx950
// ASM-NEXT: kernel vgpr agpr sgpr lds_bytes scratch_bytes spills waves/SIMD
// ASM-NEXT: register_bound 104 64 [[SGPR_R]] 0 0 0 3 (limited by registers)
// GFX942-NEXT: lds_bound [[VGPR_L]] 0 [[SGPR_L]] 65536 0 0 1 (limited by lds)
// GFX950-NEXT: lds_bound [[VGPR_L]] 0 [[SGPR_L]] 65536 0 0 2 (limited by lds)

// STDOUT-NOT: resource usage
// STDOUT: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// STDOUT-NOT: resource usage

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @register_bound() kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      llvm.inline_asm has_side_effects "", "~{v100},~{a63}" : () -> ()
      gpu.return
    }
    gpu.func @lds_bound(%out: memref<256xf32, #gpu.address_space<global>>)
        workgroup(%lds: memref<16384xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %lds[%tid] : memref<16384xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = arith.constant 16383 : index
      %other = arith.subi %last, %tid : index
      %v = memref.load %lds[%other] : memref<16384xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tid] : memref<256xf32, #gpu.address_space<global>>
      gpu.return
    }
  }
}
