// hkc --report on two lane-level kernels whose assembly the test pins down
// instruction by instruction, so every count of the report can be checked
// by hand against the ASM lines below (both chips compile to the same
// sequence here):
//  - loop_kernel: one scf.for; its loop is .LBB0_2 (line 29) to the
//    s_cbranch_scc1 back to it (line 46). Lines 30-46 hold 17 instructions:
//    2 v_mfma (2/17 = 11.8%), 2 ds_read, 1 ds_write, 2 buffer_load of which
//    1 with `lds` (the gather_to_lds), 2 s_barrier, 3 s_waitcnt.
//  - straight: no loop, so the report covers the whole kernel, lines
//    150-168: 17 instructions (152-168), 1 v_mfma (5.9%), 1 buffer_load,
//    1 buffer_store, 2 s_waitcnt, no barrier.
// RUN: hkc %s --chip gfx942,gfx950 --emit=asm --report -o %t > %t.report
// RUN: FileCheck %s --check-prefix=ASM < %t.gfx942.s
// RUN: FileCheck %s --check-prefix=ASM < %t.gfx950.s
// RUN: sed -n '29p;46p;150p' %t.gfx942.s | FileCheck %s --check-prefix=LINES
// RUN: sed -n '29p;46p;150p' %t.gfx950.s | FileCheck %s --check-prefix=LINES
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// With the assembly on stdout, the report goes to stderr.
// RUN: hkc %s --chip gfx950 --emit=asm --report -o - 2>&1 >/dev/null | FileCheck %s --check-prefix=STDERR

// ASM-LABEL: loop_kernel:
// ASM: .LBB0_2:
// ASM-NEXT: buffer_load_dwordx2
// ASM-NEXT: s_add_u32
// ASM-NEXT: buffer_load_dword {{.*}} offen lds
// ASM-NEXT: s_addc_u32
// ASM-NEXT: s_cmp_lg_u64
// ASM-NEXT: v_add_u32_e32
// ASM-NEXT: s_waitcnt vmcnt(0)
// ASM-NEXT: s_barrier
// ASM-NEXT: ds_write_b64
// ASM-NEXT: s_waitcnt lgkmcnt(0)
// ASM-NEXT: s_barrier
// ASM-NEXT: ds_read_b64
// ASM-NEXT: ds_read_b64
// ASM-NEXT: s_waitcnt lgkmcnt(0)
// ASM-NEXT: v_mfma_f32_16x16x16_bf16
// ASM-NEXT: v_mfma_f32_16x16x16_bf16
// ASM-NEXT: s_cbranch_scc1 .LBB0_2
// ASM-NOT: s_cbranch_{{.*}} .LBB0_2
// ASM-LABEL: straight:
// ASM-NEXT: ; %bb.0:
// ASM-NEXT: s_load_dwordx2
// ASM-NEXT: s_mov_b32
// ASM-NEXT: s_movk_i32
// ASM-NEXT: v_lshlrev_b32_e32
// ASM-NEXT: s_load_dwordx2
// ASM-NEXT: s_waitcnt lgkmcnt(0)
// ASM-NEXT: s_and_b32
// ASM-NEXT: buffer_load_dwordx2
// ASM-NEXT: s_movk_i32
// ASM-NEXT: s_mov_b32
// ASM-NEXT: s_and_b32
// ASM-NEXT: v_lshlrev_b32_e32
// ASM-NEXT: s_waitcnt vmcnt(0)
// ASM-NEXT: v_mfma_f32_16x16x16_bf16
// ASM-NEXT: s_nop
// ASM-NEXT: buffer_store_dwordx4
// ASM-NEXT: s_endpgm

// LINES: {{^}}.LBB0_2:
// LINES-NEXT: {{^}}	s_cbranch_scc1 .LBB0_2
// LINES-NEXT: {{^}}straight:

// REPORT-LABEL: code-quality report for gfx942
// REPORT-NEXT: loop_kernel: hot loop .LBB0_2, assembly lines 29-46 (of 1 loops, 1 innermost)
// REPORT-NEXT: per iteration: 17 instructions, 2 mfma (11.8%)
// REPORT-NEXT: lds: 2 reads, 1 writes, 0 other ds
// REPORT-NEXT: global: 2 loads (1 to lds), 0 stores, 0 atomics
// REPORT-NEXT: sync: 2 s_barrier, 3 s_waitcnt
// REPORT-NEXT: scratch: 0 loads/stores
// 2048 + 512 bf16 of LDS = 5120 bytes.
// REPORT-NEXT: resources: {{[0-9]+}} vgpr, 0 agpr, {{[0-9]+}} sgpr, 5120 lds bytes, 0 scratch bytes, 0 spills
// REPORT-NEXT: waterfall loops: 0
// REPORT-NEXT: straight: no loop, whole kernel, assembly lines 150-168
// REPORT-NEXT: whole kernel: 17 instructions, 1 mfma (5.9%)
// REPORT-NEXT: lds: 0 reads, 0 writes, 0 other ds
// REPORT-NEXT: global: 1 loads (0 to lds), 1 stores, 0 atomics
// REPORT-NEXT: sync: 0 s_barrier, 2 s_waitcnt
// REPORT-NEXT: scratch: 0 loads/stores
// REPORT-NEXT: resources: {{[0-9]+}} vgpr, 0 agpr, {{[0-9]+}} sgpr, 0 lds bytes, 0 scratch bytes, 0 spills
// REPORT-NEXT: waterfall loops: 0
// REPORT-LABEL: code-quality report for gfx950
// REPORT-NEXT: loop_kernel: hot loop .LBB0_2, assembly lines 29-46 (of 1 loops, 1 innermost)
// REPORT-NEXT: per iteration: 17 instructions, 2 mfma (11.8%)
// REPORT-NEXT: lds: 2 reads, 1 writes, 0 other ds
// REPORT-NEXT: global: 2 loads (1 to lds), 0 stores, 0 atomics
// REPORT-NEXT: sync: 2 s_barrier, 3 s_waitcnt
// REPORT: straight: no loop, whole kernel, assembly lines 150-168
// REPORT-NEXT: whole kernel: 17 instructions, 1 mfma (5.9%)

// STDERR: code-quality report for gfx950
// STDERR: loop_kernel: hot loop .LBB0_2

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loop_kernel(%a: memref<65536xbf16, #gpu.address_space<global>>,
                          %c: memref<1024xf32, #gpu.address_space<global>>,
                          %n: index)
        workgroup(%lds: memref<2048xbf16, #gpu.address_space<workgroup>>,
                  %dma: memref<512xbf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %c1020 = arith.constant 1020 : index
      %abuf = amdgpu.fat_raw_buffer_cast %a : memref<65536xbf16, #gpu.address_space<global>> to memref<65536xbf16, #amdgpu.address_space<fat_raw_buffer>>
      %cbuf = amdgpu.fat_raw_buffer_cast %c : memref<1024xf32, #gpu.address_space<global>> to memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %off = arith.muli %tid, %c4 : index
      %other = arith.subi %c1020, %off : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %acc = scf.for %i = %c0 to %n step %c1 iter_args(%d = %zero) -> vector<4xf32> {
        %base = arith.muli %i, %c1024 : index
        %goff = arith.addi %base, %off : index
        %g = vector.load %abuf[%goff] : memref<65536xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
        amdgpu.gather_to_lds %abuf[%goff], %dma[%c0] : vector<2xbf16>, memref<65536xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<512xbf16, #gpu.address_space<workgroup>>
        gpu.barrier
        vector.store %g, %lds[%off] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
        gpu.barrier
        %x = vector.load %lds[%other] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
        %y = vector.load %lds[%off] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
        %d0 = amdgpu.mfma 16x16x16 %x * %y + %d blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
        %d1 = amdgpu.mfma 16x16x16 %y * %x + %d0 blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
        scf.yield %d1 : vector<4xf32>
      }
      vector.store %acc, %cbuf[%off] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
      gpu.return
    }

    gpu.func @straight(%a: memref<1024xbf16, #gpu.address_space<global>>,
                       %c: memref<1024xf32, #gpu.address_space<global>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %abuf = amdgpu.fat_raw_buffer_cast %a : memref<1024xbf16, #gpu.address_space<global>> to memref<1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
      %cbuf = amdgpu.fat_raw_buffer_cast %c : memref<1024xf32, #gpu.address_space<global>> to memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %off = arith.muli %tid, %c4 : index
      %av = vector.load %abuf[%off] : memref<1024xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %d0 = amdgpu.mfma 16x16x16 %av * %av + %zero blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
      vector.store %d0, %cbuf[%off] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
      gpu.return
    }
  }
}
