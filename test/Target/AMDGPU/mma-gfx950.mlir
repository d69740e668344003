// A lane-level kernel using what the hk lowering emits on gfx950: a global
// load through a fat raw buffer, an LDS store and transpose reads, a
// workgroup barrier, MFMAs under raised priority between scheduling fences,
// and a buffer store.
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s
// RUN: hkc %s --chip gfx950 -o %t && llvm-readelf -h --notes %t.gfx950.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: hkc %s --chip gfx950 --code-object-version=6 -o %t.v6 && llvm-readelf -h --notes %t.v6.gfx950.hsaco | FileCheck %s --check-prefix=V6

// CHECK: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// CHECK-NEXT: .amdhsa_code_object_version 5
// CHECK-LABEL: mma_tile:
// CHECK: buffer_load_dwordx4
// CHECK: ds_write_b128
// CHECK: s_barrier
// CHECK: ds_read_b64_tr_b16
// CHECK: ds_read_b64_tr_b16
// CHECK: sched_barrier mask(0x00000000)
// CHECK: s_setprio 1
// CHECK-NEXT: {{(s_waitcnt lgkmcnt\(0\)[[:space:]]+)?}}v_mfma_f32_16x16x32_bf16
// CHECK-NEXT: s_setprio 0
// CHECK: s_barrier
// CHECK: buffer_store_dwordx4
// CHECK: s_endpgm
// CHECK-NOT: v_mfma_f32_16x16x16_bf16
// CHECK: .amdhsa_group_segment_fixed_size 4096

// NOTES: OS/ABI: AMDGPU - HSA
// NOTES: ABI Version: 3
// NOTES: Type: DYN (Shared object file)
// NOTES: Machine: EM_AMDGPU
// NOTES: NT_AMDGPU_METADATA
// NOTES: amdhsa.kernels:
// NOTES: .group_segment_fixed_size: 4096
// NOTES: .max_flat_workgroup_size: 256
// NOTES: .name: mma_tile
// NOTES: .wavefront_size: 64
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx950
// NOTES: amdhsa.version:
// NOTES-NEXT: - 1
// NOTES-NEXT: - 2

// Code object v6 keeps the v5 metadata layout; the ELF ABI version says 6.
// V6: ABI Version: 4
// V6: amdhsa.target: amdgcn-amd-amdhsa--gfx950

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mma_tile(%a: memref<4096xbf16, #gpu.address_space<global>>,
                       %c: memref<1024xf32, #gpu.address_space<global>>)
        workgroup(%lds: memref<2048xbf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %abuf = amdgpu.fat_raw_buffer_cast %a : memref<4096xbf16, #gpu.address_space<global>> to memref<4096xbf16, #amdgpu.address_space<fat_raw_buffer>>
      %cbuf = amdgpu.fat_raw_buffer_cast %c : memref<1024xf32, #gpu.address_space<global>> to memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %off = arith.muli %tid, %c8 : index
      %av = vector.load %abuf[%off] : memref<4096xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
      vector.store %av, %lds[%off] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
      gpu.barrier
      %t0 = amdgpu.transpose_load %lds[%off] : memref<2048xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
      %off4 = arith.addi %off, %c4 : index
      %t1 = amdgpu.transpose_load %lds[%off4] : memref<2048xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
      %b = vector.shuffle %t0, %t1 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %zero) -> (vector<4xf32>) {
        rocdl.sched.barrier 0
        rocdl.s.setprio 1
        %y = amdgpu.mfma 16x16x32 %av * %b + %x blgp = none : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        rocdl.s.setprio 0
        scf.yield %y : vector<4xf32>
      }
      rocdl.s.barrier
      %coff = arith.muli %tid, %c4 : index
      vector.store %acc, %cbuf[%coff] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
      gpu.return
    }
  }
}
