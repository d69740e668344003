// OCP MX GEMMs with bf16 output, gfx950 only (its scaled f8f6f4 MFMAs;
// chips.txt):
//   @gemm_mx_fp8: C[i, j] = bf16(sum_k (sa[i][k/32] A[i, k])
//                                      (sb[j][k/32] B[j, k]))
//                 with A, B in MXFP8 (OCP E4M3 elements);
//   @gemm_mx_fp4: the same with A, B in MXFP4 (E2M1 elements, two per byte).
// Every block of 32 consecutive elements along K of a row of A or B shares
// one e8m0 scale, 2^(code - 127) (OCP Microscaling Formats v1.0).
//
// Arguments, all MX data passed as its bytes (i8) and read by hk.load as
// the element type (two E2M1 elements per byte, the first in the low
// nibble: the OCP packing, Python's hk.mx.pack_fp4):
//   %A  : memref<?x?xi8>    M x K (fp8) or M x K/2 (fp4) bytes, row-major
//   %SA : memref<?x?xi8>    M x K/32 e8m0 scales of A
//   %B  : memref<?x?xi8>    N x K (fp8) or N x K/2 (fp4) bytes (C = A B^T:
//                           both K-minor)
//   %SB : memref<?x?xi8>    N x K/32 e8m0 scales of B
//   %C  : memref<?x?xbf16>  M x N, row-major
// K is a multiple of 32 (whole MX blocks; the harness refuses any other
// K). M and N need not be multiples of the tiles, nor K of the K step:
// loads outside A, B or the scales read zeros (a zero element times any
// scale adds nothing) and stores outside C are dropped.
//
// Grid: one workgroup per 128x128 tile of C, as a 1-D grid of
//   ceildiv(M, 128) * ceildiv(N, 128) workgroups, remapped across XCDs and
//   into row groups of 8 as gemm_bf16's; 4 waves (256 threads) each.
//
// Work split: waves form a 2 x 2 grid (wave_row = w / 2, wave_col = w % 2);
// wave (r, c) owns the 64x64 accumulator at rows 64 r and columns 64 c of
// the block (64 f32 registers per lane). Each K step, each wave reads its
// 64-row slices of A and B straight from global memory into the operand
// layout of v_mfma_scale_f32_16x16x128_f8f6f4 (16x128 base tiles: 32
// consecutive elements of a row per lane, 32 bytes for E4M3 as two 16-byte
// runs, 16 bytes for E2M1 as one) and their scale tiles (one byte per lane
// and base tile: row l % 16, block l / 16), then runs the scaled MFMAs of
// the step (4 x 4 output base tiles of 16x16 per 128 of K). The K step is
// 128 for MXFP8 (two 64x128 slices, 64 registers) and 256 for MXFP4 (two
// 64x256 slices, also 64 registers: twice the loads in flight per wait).
// There is no LDS stage and no register prefetch: at 173 VGPRs two waves
// fit each SIMD (with a prefetch, 256 VGPRs and one wave: the timing model
// gives 971 against 1646 TFLOP/s for MXFP8 at 4096^3), and the other wave's
// MFMAs cover a wave's loads. The two waves of a row (column) of the grid
// read the same A (B) slice; docs/report.md, "MX GEMM", has the figures.

!a8 = tensor<64x128xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
!si = tensor<64x4xi8, #hk.rt<row, 16x4>>
!s = tensor<64x4xf8E8M0FNU, #hk.rt<row, 16x4>>
!a4 = tensor<64x256xf4E2M1FN, #hk.rt<row, 16x128>>
!si4 = tensor<64x8xi8, #hk.rt<row, 16x4>>
!s4 = tensor<64x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<64x64xf32, #hk.rt<col, 16x16>>
!out = tensor<64x64xbf16, #hk.rt<col, 16x16>>

hk.kernel @gemm_mx_fp8(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                       %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                       %C: memref<?x?xbf16>) attributes {
    waves = 4 : i32,
    grid = #hk.grid<[dim(4, 0), dim(4, 1)] ->
                    ((s0 ceildiv 128) * (s1 ceildiv 128))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : !acc

  // Tile order: the linear workgroup id, XCD chunking, then WGM = 8.
  %m_len = memref.dim %C, %c0 : memref<?x?xbf16>
  %n_len = memref.dim %C, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m_len, %c128 : index
  %tiles_n = arith.ceildivui %n_len, %c128 : index
  %wg = hk.block_id x
  %count = hk.num_blocks x
  %wg2 = hk.xcd_remap %wg, %count xcds = 8, chunk = 64
  %tm, %tn = hk.group_remap %wg2, %tiles_m, %tiles_n group = 8

  // This wave's 64-row slices: tile rows 2 tm + w / 2 of A, 2 tn + w % 2
  // of B (in units of 64 rows).
  %w = hk.wave_id
  %wr = arith.divui %w, %c2 : index
  %wc = arith.remui %w, %c2 : index
  %tm2 = arith.muli %tm, %c2 : index
  %tn2 = arith.muli %tn, %c2 : index
  %ar = arith.addi %tm2, %wr : index
  %br = arith.addi %tn2, %wc : index

  // K steps of 128: ceildiv(K / 32, 4) from the scales' columns, the MX
  // blocks.
  %blocks = memref.dim %SA, %c1 : memref<?x?xi8>
  %nk = arith.ceildivui %blocks, %c4 : index

  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%c = %zero) -> (!acc) {
    %a = hk.load %A[%ar, %k] : memref<?x?xi8> -> !a8
    %b = hk.load %B[%br, %k] : memref<?x?xi8> -> !a8
    %sa = hk.load %SA[%ar, %k] : memref<?x?xi8> -> !si
    %sb = hk.load %SB[%br, %k] : memref<?x?xi8> -> !si
    %sae = arith.bitcast %sa : !si to !s
    %sbe = arith.bitcast %sb : !si to !s
    %d = hk.mma_scaled %a[%sae], %b[%sbe], %c : !a8, !s, !a8, !s, !acc
    scf.yield %d : !acc
  }
  %o = arith.truncf %acc : !acc to !out
  hk.store %o, %C[%ar, %br] : !out, memref<?x?xbf16>
  hk.return
}

// The same with E2M1 operands and a K step of 256: A and B hold K/2 bytes
// per row, and one 64x256 tile of elements is 128 bytes of each of its
// rows; the scale tiles are 64x8.
hk.kernel @gemm_mx_fp4(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                       %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                       %C: memref<?x?xbf16>) attributes {
    waves = 4 : i32,
    grid = #hk.grid<[dim(4, 0), dim(4, 1)] ->
                    ((s0 ceildiv 128) * (s1 ceildiv 128))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : !acc

  %m_len = memref.dim %C, %c0 : memref<?x?xbf16>
  %n_len = memref.dim %C, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m_len, %c128 : index
  %tiles_n = arith.ceildivui %n_len, %c128 : index
  %wg = hk.block_id x
  %count = hk.num_blocks x
  %wg2 = hk.xcd_remap %wg, %count xcds = 8, chunk = 64
  %tm, %tn = hk.group_remap %wg2, %tiles_m, %tiles_n group = 8

  %w = hk.wave_id
  %wr = arith.divui %w, %c2 : index
  %wc = arith.remui %w, %c2 : index
  %tm2 = arith.muli %tm, %c2 : index
  %tn2 = arith.muli %tn, %c2 : index
  %ar = arith.addi %tm2, %wr : index
  %br = arith.addi %tn2, %wc : index

  // K steps of 256: ceildiv(K / 32, 8).
  %blocks = memref.dim %SA, %c1 : memref<?x?xi8>
  %nk = arith.ceildivui %blocks, %c8 : index

  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%c = %zero) -> (!acc) {
    %a = hk.load %A[%ar, %k] : memref<?x?xi8> -> !a4
    %b = hk.load %B[%br, %k] : memref<?x?xi8> -> !a4
    %sa = hk.load %SA[%ar, %k] : memref<?x?xi8> -> !si4
    %sb = hk.load %SB[%br, %k] : memref<?x?xi8> -> !si4
    %sae = arith.bitcast %sa : !si4 to !s4
    %sbe = arith.bitcast %sb : !si4 to !s4
    %d = hk.mma_scaled %a[%sae], %b[%sbe], %c : !a4, !s4, !a4, !s4, !acc
    scf.yield %d : !acc
  }
  %o = arith.truncf %acc : !acc to !out
  hk.store %o, %C[%ar, %br] : !out, memref<?x?xbf16>
  hk.return
}
