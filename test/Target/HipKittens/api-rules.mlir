// RUN: hk-translate --hk-to-hipkittens --chip gfx950 %s -o %t.main.cpp
// RUN: FileCheck %s --check-prefix=MAIN --input-file %t.main.cpp
// RUN: hk-translate --hk-to-hipkittens --chip gfx942 %s -o %t.cdna3.cpp
// RUN: FileCheck %s --check-prefix=CDNA3 --input-file %t.cdna3.cpp
// Both translations compile against their tree, with no diagnostic.
// RUN: %{hk_ockl_bc:gfx950} %t.gfx950.bc
// RUN: %{hk_device_cxx:gfx950} %t.gfx950.bc -S %t.main.cpp -o %t.main.s 2>&1 | count 0
// RUN: %{hk_ockl_bc:gfx942} %t.gfx942.bc
// RUN: %{hk_device_cxx:gfx942} %t.gfx942.bc -S %t.cdna3.cpp -o %t.cdna3.s 2>&1 | count 0

// The translation emits only calls the target HipKittens tree implements
// (docs/hipkittens-lowering.md, "Two HipKittens trees"). Expected calls from
// the trees' headers:
// - cdna3 (types/register/rt.cuh, types/shared/st.cuh) has no base-shape
//   template argument: rt_bf<R, C, layout>, every base tile 16x16.
// - main's mma_AtB (ops/warp/register/tile/mma.cuh, mma_AtB_base) takes a
//   16x16 D only from col 32x16 A and B base tiles (the 16x16x32 MFMA). A
//   loaded operand is loaded in that base tile; a computed one is moved
//   through the wave's LDS scratch (4 waves x 32*32 bf16 = 4 x 2048 bytes),
//   once per block for both mmas. cdna3's mma_AtB takes col 16x16 tiles.
// - main's swap_layout (ops/warp/register/tile/conversions.cuh) changes bf16
//   col 16x16 into col 16x32 but has no col-to-row swap: that goes through
//   LDS. On cdna3 both bases are 16x16: the first is a copy, the second its
//   row/col swap_layout.
// - main has transpose(dst, src); cdna3 has none: tile_transpose, defined by
//   the file.

// MAIN-NOT: tile_transpose
// MAIN:      struct base_tile_layout {
// MAIN:      __device__ inline void tile_relayout(D &dst, const S &src, void *scratch) {
// MAIN-LABEL: void mma_operands(
// MAIN:        __shared__ alignas(16) char relayout_lds[8192];
// MAIN-NEXT:   char *const relayout_scratch = relayout_lds + __builtin_amdgcn_readfirstlane(warpid()) * 2048;
// MAIN:        rt_bf<32, 32, col_l, rt_16x16_s> p;
// MAIN-NEXT:   copy(p, s);
// MAIN-NEXT:   rt_bf<32, 32, col_l, rt_32x16_s> b;
// MAIN-NEXT:   load(b, B, {0, 0, 0, 0});
// MAIN:        rt_bf<32, 32, col_l, rt_32x16_s> p_hk;
// MAIN-NEXT:   tile_relayout(p_hk, p, relayout_scratch);
// MAIN-NEXT:   mma_AtB(zero_, p_hk, b, zero_);
// MAIN-NEXT:   mma_AtB(zero_, p_hk, b, zero_);
// MAIN-LABEL: void swaps(
// MAIN:        rt_bf<32, 32, col_l, rt_16x32_s> w;
// MAIN-NEXT:   swap_layout(w, b);
// MAIN-NEXT:   rt_bf<32, 32, row_l, rt_16x32_s> r;
// MAIN-NEXT:   tile_relayout(r, b, relayout_scratch);
// MAIN-LABEL: void transposes(
// MAIN-NOT:    relayout_lds
// MAIN:        rt_bf<64, 32, col_l, rt_32x16_s> t;
// MAIN-NEXT:   transpose(t, b);

// CDNA3-NOT: tile_relayout
// CDNA3:      __device__ inline void tile_transpose(D &dst, const S &src) {
// CDNA3-LABEL: void mma_operands(
// CDNA3-NOT:   relayout
// CDNA3:       rt_fl<32, 32, col_l> s;
// CDNA3:       rt_bf<32, 32, col_l> b;
// CDNA3-NEXT:  load(b, B, {0, 0, 0, 0});
// CDNA3:       mma_AtB(zero_, p, b, zero_);
// CDNA3-NEXT:  mma_AtB(zero_, p, b, zero_);
// CDNA3-LABEL: void swaps(
// CDNA3:       rt_bf<32, 32, col_l> w;
// CDNA3-NEXT:  copy(w, b);
// CDNA3-NEXT:  rt_bf<32, 32, row_l> r;
// CDNA3-NEXT:  swap_layout(r, b);
// CDNA3-LABEL: void transposes(
// CDNA3:       rt_bf<64, 32, col_l> t;
// CDNA3-NEXT:  tile_transpose(t, b);

!c16 = tensor<32x32xbf16, #hk.rt<col, 16x16>>
!f16acc = tensor<32x32xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_operands(%A: memref<?x?xf32>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.load %A[%c0, %c0] : memref<?x?xf32> -> !f16acc
  %p = arith.truncf %s : !f16acc to !c16
  %b = hk.load %B[%c0, %c0] : memref<?x?xbf16> -> !c16
  %zero = arith.constant dense<0.0> : !f16acc
  %d0 = hk.mma atb %p, %b, %zero : !c16, !c16, !f16acc
  %d1 = hk.mma atb %p, %b, %d0 : !c16, !c16, !f16acc
  hk.store %d1, %C[%c0, %c0] : !f16acc, memref<?x?xf32>
  hk.return
}


!c1632 = tensor<32x32xbf16, #hk.rt<col, 16x32>>
!r1632 = tensor<32x32xbf16, #hk.rt<row, 16x32>>
hk.kernel @swaps(%B: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = hk.load %B[%c0, %c0] : memref<?x?xbf16> -> !c16
  %w = hk.swap_layout %b : !c16 -> !c1632
  %r = hk.swap_layout %b : !c16 -> !r1632
  hk.store %w, %B[%c0, %c1] : !c1632, memref<?x?xbf16>
  hk.store %r, %B[%c1, %c0] : !r1632, memref<?x?xbf16>
  hk.return
}


!r = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!rt = tensor<64x32xbf16, #hk.rt<col, 32x16>>
hk.kernel @transposes(%B: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %b = hk.load %B[%c0, %c0] : memref<?x?xbf16> -> !r
  %t = hk.transpose %b : !r -> !rt
  hk.store %t, %B[%c0, %c0] : !rt, memref<?x?xbf16>
  hk.return
}
