	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.globl	waterfall
	.p2align	8
	.type	waterfall,@function
waterfall:
	s_load_dwordx4 s[0:3], s[0:1], 0x0
	v_mov_b32_e32 v1, 0
	s_mov_b64 s[8:9], exec
.LBB0_1:
	v_readfirstlane_b32 s4, v0
	v_cmp_eq_u32_e32 vcc, s4, v0
	s_and_saveexec_b64 s[6:7], vcc
	buffer_load_dword v2, v1, s[0:3], 0 offen
	s_xor_b64 exec, exec, s[6:7]
	s_cbranch_execnz .LBB0_1
	s_mov_b64 exec, s[8:9]
	s_endpgm
.Lfunc_end0:
	.size	waterfall, .Lfunc_end0-waterfall

	.globl	uniform
	.p2align	8
	.type	uniform,@function
uniform:
	s_mov_b32 s4, 0
.LBB1_1:
	v_readfirstlane_b32 s5, v0
	s_add_u32 s4, s4, s5
	s_cmp_lt_u32 s4, 64
	s_cbranch_scc1 .LBB1_1
.LBB1_2:
	v_add_u32_e32 v0, 1, v0
	v_cmp_gt_u32_e32 vcc, 64, v0
	s_and_b64 exec, exec, vcc
	s_cbranch_execnz .LBB1_2
	s_endpgm
.Lfunc_end1:
	.size	uniform, .Lfunc_end1-uniform

	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .group_segment_fixed_size: 1024
    .max_flat_workgroup_size: 256
    .name:           waterfall
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         waterfall.kd
    .vgpr_count:     3
    .vgpr_spill_count: 0
  - .agpr_count:     4
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 256
    .name:           uniform
    .private_segment_fixed_size: 16
    .sgpr_count:     8
    .sgpr_spill_count: 1
    .symbol:         uniform.kd
    .vgpr_count:     136
    .vgpr_spill_count: 2
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
