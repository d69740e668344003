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
// Both kernels are gemm_fp8's structure on MX bytes: one workgroup of 8
// waves per 256x256 tile of C, a 1-D grid of ceildiv(M, 256) *
// ceildiv(N, 256) workgroups remapped across XCDs (8, chunks of 64) and
// into WGM = 8 row groups; one LDS stage per operand, seen as four 128-row
// regions A0, A1, B0, B1 that every wave refills one share each through
// registers; and the same hk.ping_pong K loop of eight clusters per step,
// with the prologue and the last step after the loop (gemm_fp8.mlir's
// header has the clusters and the rule behind every LDS hazard: an access
// in cluster i is ordered before another wave's in cluster i + 2). Waves
// form a 2 x 4 grid (wr = w / 4, wc = w % 4); wave (wr, wc) accumulates
// C[i][j]^T, the transposes of the 64x32 tiles of C at rows 128 i + 64 wr
// and columns 128 j + 32 wc of the block (i, j in {0, 1}); hk.transpose
// makes them row tiles of C for 8-byte stores.
//
// What differs from gemm_fp8:
//   * the stage holds bytes: E4M3 for MXFP8 (an f8E4M3FN shared tile, the
//     bytes loaded from the i8 memref as E4M3), raw bytes for MXFP4 (an i8
//     shared tile that hk.load reads back as packed E2M1). Its subtiles are
//     16x64 bytes, whose swizzle keeps the 16-byte row reads of the scaled
//     MFMA's operand layout (lane l: row l % 16, bytes 16 (l / 16) .. + 15
//     of each 64 bytes) and the share writes free of bank conflicts;
//   * a K step is 128 elements for both formats: 128 bytes of a row for
//     MXFP8 (stage 256x128 bytes, 32x64-byte shares in 16-byte runs), 64
//     for MXFP4 (stage 256x64 bytes, 16x64-byte shares in 8-byte runs). A
//     256-element MXFP4 step has twice the scale bytes per lane and spills
//     (2955 against 3826 TFLOP/s at 4096^3);
//   * the operands are in v_mfma_scale_f32_16x16x128_f8f6f4's layout (16x128
//     base tiles), and every hk.mma_scaled is one 16x16 piece: a 16-row
//     piece of a B slice times a 16-row piece of an A slice, each with its
//     16x4 scale tile (one byte per lane: row l % 16, block l / 16), into a
//     16x16 accumulator; C[i][j]^T is 2 x 4 such pieces (32 accumulators of
//     4 registers, 128 per lane as in gemm_fp8). A 64-row scale tile would
//     hold 4 bytes per lane, which the backend packs into one register as
//     soon as the bytes arrive: a wait of a whole global load latency in the
//     middle of a memory cluster (MXFP8 2235 against 2673 TFLOP/s at 4096^3
//     when tried). One byte per register needs no packing, so a scale load
//     is only waited for by the MFMA that reads it, clusters later;
//   * the scales come straight from global memory as bytes (1/32 of the
//     operand bytes): cluster 6 loads all 12 of the next step's scale bytes
//     per lane, with the next B0 slice;
//   * MXFP4's MFMAs take half as long as MXFP8's, so its compute clusters
//     cover half the time: it stores each prefetched share four clusters
//     after loading it rather than two (A0 and B0 of step k + 1 loaded in
//     cluster 0, stored in cluster 4; B1 loaded in 2, stored in 6; A1
//     loaded in 4, carried into the next step and stored in its cluster 0).
//     Each store still follows the last read of its region's current data
//     by two clusters or more and precedes the next read by two or more:
//     A0 read in clusters 0 and 8, B0 in 6 and 14, B1 in 2 and 10, A1 in 4
//     and 12. MXFP8 keeps gemm_fp8's stores (with its larger shares the
//     later ones spill).
// Modelled figures and what holds the rest: docs/report.md, "MX GEMM".

!st_stage8 = !hk.st<256x128xf8E4M3FN, 16x64>
!st_share8 = !hk.st<32x64xf8E4M3FN, 16x64>
!st_p8 = !hk.st<16x128xf8E4M3FN, 16x64>
!rt_share8 = tensor<32x64xf8E4M3FN, #hk.rt<row, 32x32>>
!rt_p8 = tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
!si = tensor<16x4xi8, #hk.rt<row, 16x4>>
!s = tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<16x16xf32, #hk.rt<col, 16x16>>
!c_f32 = tensor<16x16xf32, #hk.rt<row, 16x16>>
!out = tensor<16x16xbf16, #hk.rt<row, 16x16>>
hk.kernel @gemm_mx_fp8(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                       %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                       %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(4, 0), dim(4, 1)] ->
                    ((s0 ceildiv 256) * (s1 ceildiv 256))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %zero = arith.constant dense<0.0> : !acc

  %as = hk.alloc_shared : !st_stage8
  %bs = hk.alloc_shared : !st_stage8

  %m_len = memref.dim %C, %c0 : memref<?x?xbf16>
  %n_len = memref.dim %C, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m_len, %c256 : index
  %tiles_n = arith.ceildivui %n_len, %c256 : index
  %wg = hk.block_id x
  %count = hk.num_blocks x
  %wg2 = hk.xcd_remap %wg, %count xcds = 8, chunk = 64
  %tm, %tn = hk.group_remap %wg2, %tiles_m, %tiles_n group = 8

  %w = hk.wave_id
  %wr = arith.divui %w, %c4 : index
  %wc = arith.remui %w, %c4 : index

  %sr = arith.divui %w, %c2 : index
  %sc = arith.remui %w, %c2 : index
  %a_base = arith.muli %tm, %c8 : index
  %a_row0 = arith.addi %a_base, %sr : index
  %a_row1 = arith.addi %a_row0, %c4 : index
  %b_base = arith.muli %tn, %c8 : index
  %b_row0 = arith.addi %b_base, %sr : index
  %b_row1 = arith.addi %b_row0, %c4 : index
  %sr4 = arith.addi %sr, %c4 : index
  %as_share0 = hk.subtile %as[%sr, %sc] : !st_stage8 -> !st_share8
  %as_share1 = hk.subtile %as[%sr4, %sc] : !st_stage8 -> !st_share8
  %bs_share0 = hk.subtile %bs[%sr, %sc] : !st_stage8 -> !st_share8
  %bs_share1 = hk.subtile %bs[%sr4, %sc] : !st_stage8 -> !st_share8

  %wr4 = arith.muli %wr, %c4 : index
  %wc2 = arith.muli %wc, %c2 : index
  %tm16 = arith.muli %tm, %c16 : index
  %tn16 = arith.muli %tn, %c16 : index
  %ap00 = arith.addi %wr4, %c0 : index
  %ag00 = arith.addi %tm16, %ap00 : index
  %sa000 = hk.subtile %as[%ap00, %c0] : !st_stage8 -> !st_p8
  %ap01 = arith.addi %wr4, %c1 : index
  %ag01 = arith.addi %tm16, %ap01 : index
  %sa010 = hk.subtile %as[%ap01, %c0] : !st_stage8 -> !st_p8
  %ap02 = arith.addi %wr4, %c2 : index
  %ag02 = arith.addi %tm16, %ap02 : index
  %sa020 = hk.subtile %as[%ap02, %c0] : !st_stage8 -> !st_p8
  %ap03 = arith.addi %wr4, %c3 : index
  %ag03 = arith.addi %tm16, %ap03 : index
  %sa030 = hk.subtile %as[%ap03, %c0] : !st_stage8 -> !st_p8
  %ap10 = arith.addi %wr4, %c8 : index
  %ag10 = arith.addi %tm16, %ap10 : index
  %sa100 = hk.subtile %as[%ap10, %c0] : !st_stage8 -> !st_p8
  %ap11 = arith.addi %wr4, %c9 : index
  %ag11 = arith.addi %tm16, %ap11 : index
  %sa110 = hk.subtile %as[%ap11, %c0] : !st_stage8 -> !st_p8
  %ap12 = arith.addi %wr4, %c10 : index
  %ag12 = arith.addi %tm16, %ap12 : index
  %sa120 = hk.subtile %as[%ap12, %c0] : !st_stage8 -> !st_p8
  %ap13 = arith.addi %wr4, %c11 : index
  %ag13 = arith.addi %tm16, %ap13 : index
  %sa130 = hk.subtile %as[%ap13, %c0] : !st_stage8 -> !st_p8
  %bp00 = arith.addi %wc2, %c0 : index
  %bg00 = arith.addi %tn16, %bp00 : index
  %sb000 = hk.subtile %bs[%bp00, %c0] : !st_stage8 -> !st_p8
  %bp01 = arith.addi %wc2, %c1 : index
  %bg01 = arith.addi %tn16, %bp01 : index
  %sb010 = hk.subtile %bs[%bp01, %c0] : !st_stage8 -> !st_p8
  %bp10 = arith.addi %wc2, %c8 : index
  %bg10 = arith.addi %tn16, %bp10 : index
  %sb100 = hk.subtile %bs[%bp10, %c0] : !st_stage8 -> !st_p8
  %bp11 = arith.addi %wc2, %c9 : index
  %bg11 = arith.addi %tn16, %bp11 : index
  %sb110 = hk.subtile %bs[%bp11, %c0] : !st_stage8 -> !st_p8

  %k_len = memref.dim %A, %c1 : memref<?x?xi8>
  %blocks = memref.dim %SA, %c1 : memref<?x?xi8>
  %nk = arith.ceildivui %blocks, %c4 : index
  %nk_loop = arith.subi %nk, %c1 : index

  %k_full = arith.cmpi uge, %k_len, %c128 : index
  %ga0, %gb0, %gb1, %ga1 = scf.if %k_full
      -> (!rt_share8, !rt_share8, !rt_share8, !rt_share8) {
    %qa0 = hk.load %A[%a_row0, %sc] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share8
    %qb0 = hk.load %B[%b_row0, %sc] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share8
    %qb1 = hk.load %B[%b_row1, %sc] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share8
    %qa1 = hk.load %A[%a_row1, %sc] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share8
    scf.yield %qa0, %qb0, %qb1, %qa1 : !rt_share8, !rt_share8, !rt_share8,
        !rt_share8
  } else {
    %qa0 = hk.load %A[%a_row0, %sc] : memref<?x?xi8> -> !rt_share8
    %qb0 = hk.load %B[%b_row0, %sc] : memref<?x?xi8> -> !rt_share8
    %qb1 = hk.load %B[%b_row1, %sc] : memref<?x?xi8> -> !rt_share8
    %qa1 = hk.load %A[%a_row1, %sc] : memref<?x?xi8> -> !rt_share8
    scf.yield %qa0, %qb0, %qb1, %qa1 : !rt_share8, !rt_share8, !rt_share8,
        !rt_share8
  }
  %x0a000 = hk.load %SA[%ag00, %c0] : memref<?x?xi8> -> !si
  %x0a010 = hk.load %SA[%ag01, %c0] : memref<?x?xi8> -> !si
  %x0a020 = hk.load %SA[%ag02, %c0] : memref<?x?xi8> -> !si
  %x0a030 = hk.load %SA[%ag03, %c0] : memref<?x?xi8> -> !si
  %x0a100 = hk.load %SA[%ag10, %c0] : memref<?x?xi8> -> !si
  %x0a110 = hk.load %SA[%ag11, %c0] : memref<?x?xi8> -> !si
  %x0a120 = hk.load %SA[%ag12, %c0] : memref<?x?xi8> -> !si
  %x0a130 = hk.load %SA[%ag13, %c0] : memref<?x?xi8> -> !si
  %x0b000 = hk.load %SB[%bg00, %c0] : memref<?x?xi8> -> !si
  %x0b010 = hk.load %SB[%bg01, %c0] : memref<?x?xi8> -> !si
  %x0b100 = hk.load %SB[%bg10, %c0] : memref<?x?xi8> -> !si
  %x0b110 = hk.load %SB[%bg11, %c0] : memref<?x?xi8> -> !si
  hk.store %ga0, %as_share0 : !rt_share8, !st_share8
  hk.store %gb0, %bs_share0 : !rt_share8, !st_share8
  hk.store %gb1, %bs_share1 : !rt_share8, !st_share8
  hk.store %ga1, %as_share1 : !rt_share8, !st_share8
  hk.barrier
  %b0f00 = hk.load %sb000 : !st_p8 -> !rt_p8
  %b0f10 = hk.load %sb010 : !st_p8 -> !rt_p8

  %acc:32 = hk.ping_pong -> !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
      !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
      !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc {
    %r:46 = scf.for %k = %c0 to %nk_loop step %c1
        iter_args(%c0000 = %zero, %c0001 = %zero, %c0002 = %zero,
            %c0003 = %zero, %c0010 = %zero, %c0011 = %zero, %c0012 = %zero,
            %c0013 = %zero, %c0100 = %zero, %c0101 = %zero, %c0102 = %zero,
            %c0103 = %zero, %c0110 = %zero, %c0111 = %zero, %c0112 = %zero,
            %c0113 = %zero, %c1000 = %zero, %c1001 = %zero, %c1002 = %zero,
            %c1003 = %zero, %c1010 = %zero, %c1011 = %zero, %c1012 = %zero,
            %c1013 = %zero, %c1100 = %zero, %c1101 = %zero, %c1102 = %zero,
            %c1103 = %zero, %c1110 = %zero, %c1111 = %zero, %c1112 = %zero,
            %c1113 = %zero, %b000 = %b0f00, %b010 = %b0f10, %xa000 = %x0a000,
            %xa010 = %x0a010, %xa020 = %x0a020, %xa030 = %x0a030,
            %xa100 = %x0a100, %xa110 = %x0a110, %xa120 = %x0a120,
            %xa130 = %x0a130, %xb000 = %x0b000, %xb010 = %x0b010,
            %xb100 = %x0b100, %xb110 = %x0b110)
        -> (!acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !rt_p8,
            !rt_p8, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si,
            !si) {
      %kn1 = arith.addi %k, %c1 : index
      %kn2 = arith.muli %kn1, %c2 : index
      %kn = arith.addi %kn2, %sc : index
      %ea000 = arith.bitcast %xa000 : !si to !s
      %ea010 = arith.bitcast %xa010 : !si to !s
      %ea020 = arith.bitcast %xa020 : !si to !s
      %ea030 = arith.bitcast %xa030 : !si to !s
      %ea100 = arith.bitcast %xa100 : !si to !s
      %ea110 = arith.bitcast %xa110 : !si to !s
      %ea120 = arith.bitcast %xa120 : !si to !s
      %ea130 = arith.bitcast %xa130 : !si to !s
      %eb000 = arith.bitcast %xb000 : !si to !s
      %eb010 = arith.bitcast %xb010 : !si to !s
      %eb100 = arith.bitcast %xb100 : !si to !s
      %eb110 = arith.bitcast %xb110 : !si to !s
      // Cluster 0: the A0 slice (its B0 slice and every scale of the step
      // came with the previous step); in the loop, prefetch A0, B0 shares.
      %a0:6 = hk.cluster memory -> !rt_p8, !rt_p8, !rt_p8, !rt_p8, !rt_share8,
          !rt_share8 {
        %ra00 = hk.load %sa000 : !st_p8 -> !rt_p8
        %ra10 = hk.load %sa010 : !st_p8 -> !rt_p8
        %ra20 = hk.load %sa020 : !st_p8 -> !rt_p8
        %ra30 = hk.load %sa030 : !st_p8 -> !rt_p8
        %qa = hk.load %A[%a_row0, %kn] : memref<?x?xi8> -> !rt_share8
        %qb = hk.load %B[%b_row0, %kn] : memref<?x?xi8> -> !rt_share8
        hk.yield %ra00, %ra10, %ra20, %ra30, %qa, %qb : !rt_p8, !rt_p8, !rt_p8,
            !rt_p8, !rt_share8, !rt_share8
      }
      // C[0][0]^T += B0 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d00:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b000[%eb000], %a0#0[%ea000], %c0000 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m010 = hk.mma_scaled %b000[%eb000], %a0#1[%ea010], %c0001 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m020 = hk.mma_scaled %b000[%eb000], %a0#2[%ea020], %c0002 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m030 = hk.mma_scaled %b000[%eb000], %a0#3[%ea030], %c0003 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m100 = hk.mma_scaled %b010[%eb010], %a0#0[%ea000], %c0010 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m110 = hk.mma_scaled %b010[%eb010], %a0#1[%ea010], %c0011 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m120 = hk.mma_scaled %b010[%eb010], %a0#2[%ea020], %c0012 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m130 = hk.mma_scaled %b010[%eb010], %a0#3[%ea030], %c0013 : !rt_p8,
            !s, !rt_p8, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      // Cluster 2: the B1 slice; in the loop, store the A0, B0 shares of step
      // k + 1 (every wave read them in cluster 0) and prefetch B1.
      %b1:3 = hk.cluster memory -> !rt_p8, !rt_p8, !rt_share8 {
        %rb00 = hk.load %sb100 : !st_p8 -> !rt_p8
        %rb10 = hk.load %sb110 : !st_p8 -> !rt_p8
        hk.store %a0#4, %as_share0 : !rt_share8, !st_share8
        hk.store %a0#5, %bs_share0 : !rt_share8, !st_share8
        %qb = hk.load %B[%b_row1, %kn] : memref<?x?xi8> -> !rt_share8
        hk.yield %rb00, %rb10, %qb : !rt_p8, !rt_p8, !rt_share8
      }
      // C[0][1]^T += B1 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d01:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b1#0[%eb100], %a0#0[%ea000], %c0100 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m010 = hk.mma_scaled %b1#0[%eb100], %a0#1[%ea010], %c0101 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m020 = hk.mma_scaled %b1#0[%eb100], %a0#2[%ea020], %c0102 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m030 = hk.mma_scaled %b1#0[%eb100], %a0#3[%ea030], %c0103 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m100 = hk.mma_scaled %b1#1[%eb110], %a0#0[%ea000], %c0110 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m110 = hk.mma_scaled %b1#1[%eb110], %a0#1[%ea010], %c0111 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m120 = hk.mma_scaled %b1#1[%eb110], %a0#2[%ea020], %c0112 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m130 = hk.mma_scaled %b1#1[%eb110], %a0#3[%ea030], %c0113 : !rt_p8,
            !s, !rt_p8, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      // Cluster 4: the A1 slice; in the loop, store B1 of step k + 1 and
      // prefetch A1.
      %a1:5 = hk.cluster memory -> !rt_p8, !rt_p8, !rt_p8, !rt_p8, !rt_share8 {
        %ra00 = hk.load %sa100 : !st_p8 -> !rt_p8
        %ra10 = hk.load %sa110 : !st_p8 -> !rt_p8
        %ra20 = hk.load %sa120 : !st_p8 -> !rt_p8
        %ra30 = hk.load %sa130 : !st_p8 -> !rt_p8
        hk.store %b1#2, %bs_share1 : !rt_share8, !st_share8
        %qa = hk.load %A[%a_row1, %kn] : memref<?x?xi8> -> !rt_share8
        hk.yield %ra00, %ra10, %ra20, %ra30, %qa : !rt_p8, !rt_p8, !rt_p8,
            !rt_p8, !rt_share8
      }
      // C[1][0]^T += B0 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d10:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b000[%eb000], %a1#0[%ea100], %c1000 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m010 = hk.mma_scaled %b000[%eb000], %a1#1[%ea110], %c1001 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m020 = hk.mma_scaled %b000[%eb000], %a1#2[%ea120], %c1002 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m030 = hk.mma_scaled %b000[%eb000], %a1#3[%ea130], %c1003 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m100 = hk.mma_scaled %b010[%eb010], %a1#0[%ea100], %c1010 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m110 = hk.mma_scaled %b010[%eb010], %a1#1[%ea110], %c1011 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m120 = hk.mma_scaled %b010[%eb010], %a1#2[%ea120], %c1012 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m130 = hk.mma_scaled %b010[%eb010], %a1#3[%ea130], %c1013 : !rt_p8,
            !s, !rt_p8, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      // Cluster 6: store A1 of step k + 1; the next step's B0 slice and all
      // its scales (12 bytes per lane, one per 16-row piece).
      %b0n:14 = hk.cluster memory -> !rt_p8, !rt_p8, !si, !si, !si, !si, !si,
          !si, !si, !si, !si, !si, !si, !si {
        hk.store %a1#4, %as_share1 : !rt_share8, !st_share8
        %rb00 = hk.load %sb000 : !st_p8 -> !rt_p8
        %rb10 = hk.load %sb010 : !st_p8 -> !rt_p8
        %ya000 = hk.load %SA[%ag00, %kn1] : memref<?x?xi8> -> !si
        %ya010 = hk.load %SA[%ag01, %kn1] : memref<?x?xi8> -> !si
        %ya020 = hk.load %SA[%ag02, %kn1] : memref<?x?xi8> -> !si
        %ya030 = hk.load %SA[%ag03, %kn1] : memref<?x?xi8> -> !si
        %ya100 = hk.load %SA[%ag10, %kn1] : memref<?x?xi8> -> !si
        %ya110 = hk.load %SA[%ag11, %kn1] : memref<?x?xi8> -> !si
        %ya120 = hk.load %SA[%ag12, %kn1] : memref<?x?xi8> -> !si
        %ya130 = hk.load %SA[%ag13, %kn1] : memref<?x?xi8> -> !si
        %yb000 = hk.load %SB[%bg00, %kn1] : memref<?x?xi8> -> !si
        %yb010 = hk.load %SB[%bg01, %kn1] : memref<?x?xi8> -> !si
        %yb100 = hk.load %SB[%bg10, %kn1] : memref<?x?xi8> -> !si
        %yb110 = hk.load %SB[%bg11, %kn1] : memref<?x?xi8> -> !si
        hk.yield %rb00, %rb10, %ya000, %ya010, %ya020, %ya030, %ya100, %ya110,
            %ya120, %ya130, %yb000, %yb010, %yb100, %yb110 : !rt_p8, !rt_p8,
            !si, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si
      }
      // C[1][1]^T += B1 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d11:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b1#0[%eb100], %a1#0[%ea100], %c1100 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m010 = hk.mma_scaled %b1#0[%eb100], %a1#1[%ea110], %c1101 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m020 = hk.mma_scaled %b1#0[%eb100], %a1#2[%ea120], %c1102 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m030 = hk.mma_scaled %b1#0[%eb100], %a1#3[%ea130], %c1103 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m100 = hk.mma_scaled %b1#1[%eb110], %a1#0[%ea100], %c1110 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m110 = hk.mma_scaled %b1#1[%eb110], %a1#1[%ea110], %c1111 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m120 = hk.mma_scaled %b1#1[%eb110], %a1#2[%ea120], %c1112 : !rt_p8,
            !s, !rt_p8, !s, !acc
        %m130 = hk.mma_scaled %b1#1[%eb110], %a1#3[%ea130], %c1113 : !rt_p8,
            !s, !rt_p8, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      scf.yield %d00#0, %d00#1, %d00#2, %d00#3, %d00#4, %d00#5, %d00#6, %d00#7,
          %d01#0, %d01#1, %d01#2, %d01#3, %d01#4, %d01#5, %d01#6, %d01#7,
          %d10#0, %d10#1, %d10#2, %d10#3, %d10#4, %d10#5, %d10#6, %d10#7,
          %d11#0, %d11#1, %d11#2, %d11#3, %d11#4, %d11#5, %d11#6, %d11#7,
          %b0n#0, %b0n#1, %b0n#2, %b0n#3, %b0n#4, %b0n#5, %b0n#6, %b0n#7,
          %b0n#8, %b0n#9, %b0n#10, %b0n#11, %b0n#12, %b0n#13
          : !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
              !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
              !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
              !rt_p8, !rt_p8, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si,
              !si, !si
    }
    %ea000 = arith.bitcast %r#34 : !si to !s
    %ea010 = arith.bitcast %r#35 : !si to !s
    %ea020 = arith.bitcast %r#36 : !si to !s
    %ea030 = arith.bitcast %r#37 : !si to !s
    %ea100 = arith.bitcast %r#38 : !si to !s
    %ea110 = arith.bitcast %r#39 : !si to !s
    %ea120 = arith.bitcast %r#40 : !si to !s
    %ea130 = arith.bitcast %r#41 : !si to !s
    %eb000 = arith.bitcast %r#42 : !si to !s
    %eb010 = arith.bitcast %r#43 : !si to !s
    %eb100 = arith.bitcast %r#44 : !si to !s
    %eb110 = arith.bitcast %r#45 : !si to !s
    // Cluster 0: the A0 slice (its B0 slice and every scale of the step
    // came with the previous step); in the loop, prefetch A0, B0 shares.
    %a0:4 = hk.cluster memory -> !rt_p8, !rt_p8, !rt_p8, !rt_p8 {
      %ra00 = hk.load %sa000 : !st_p8 -> !rt_p8
      %ra10 = hk.load %sa010 : !st_p8 -> !rt_p8
      %ra20 = hk.load %sa020 : !st_p8 -> !rt_p8
      %ra30 = hk.load %sa030 : !st_p8 -> !rt_p8
      hk.yield %ra00, %ra10, %ra20, %ra30 : !rt_p8, !rt_p8, !rt_p8, !rt_p8
    }
    // C[0][0]^T += B0 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d00:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %r#32[%eb000], %a0#0[%ea000], %r#0 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m010 = hk.mma_scaled %r#32[%eb000], %a0#1[%ea010], %r#1 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m020 = hk.mma_scaled %r#32[%eb000], %a0#2[%ea020], %r#2 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m030 = hk.mma_scaled %r#32[%eb000], %a0#3[%ea030], %r#3 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m100 = hk.mma_scaled %r#33[%eb010], %a0#0[%ea000], %r#4 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m110 = hk.mma_scaled %r#33[%eb010], %a0#1[%ea010], %r#5 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m120 = hk.mma_scaled %r#33[%eb010], %a0#2[%ea020], %r#6 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m130 = hk.mma_scaled %r#33[%eb010], %a0#3[%ea030], %r#7 : !rt_p8, !s,
          !rt_p8, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    // Cluster 2: the B1 slice; in the loop, store the A0, B0 shares of step
    // k + 1 (every wave read them in cluster 0) and prefetch B1.
    %b1:2 = hk.cluster memory -> !rt_p8, !rt_p8 {
      %rb00 = hk.load %sb100 : !st_p8 -> !rt_p8
      %rb10 = hk.load %sb110 : !st_p8 -> !rt_p8
      hk.yield %rb00, %rb10 : !rt_p8, !rt_p8
    }
    // C[0][1]^T += B1 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d01:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %b1#0[%eb100], %a0#0[%ea000], %r#8 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m010 = hk.mma_scaled %b1#0[%eb100], %a0#1[%ea010], %r#9 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m020 = hk.mma_scaled %b1#0[%eb100], %a0#2[%ea020], %r#10 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m030 = hk.mma_scaled %b1#0[%eb100], %a0#3[%ea030], %r#11 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m100 = hk.mma_scaled %b1#1[%eb110], %a0#0[%ea000], %r#12 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m110 = hk.mma_scaled %b1#1[%eb110], %a0#1[%ea010], %r#13 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m120 = hk.mma_scaled %b1#1[%eb110], %a0#2[%ea020], %r#14 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m130 = hk.mma_scaled %b1#1[%eb110], %a0#3[%ea030], %r#15 : !rt_p8, !s,
          !rt_p8, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    // Cluster 4: the A1 slice; in the loop, store B1 of step k + 1 and
    // prefetch A1.
    %a1:4 = hk.cluster memory -> !rt_p8, !rt_p8, !rt_p8, !rt_p8 {
      %ra00 = hk.load %sa100 : !st_p8 -> !rt_p8
      %ra10 = hk.load %sa110 : !st_p8 -> !rt_p8
      %ra20 = hk.load %sa120 : !st_p8 -> !rt_p8
      %ra30 = hk.load %sa130 : !st_p8 -> !rt_p8
      hk.yield %ra00, %ra10, %ra20, %ra30 : !rt_p8, !rt_p8, !rt_p8, !rt_p8
    }
    // C[1][0]^T += B0 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d10:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %r#32[%eb000], %a1#0[%ea100], %r#16 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m010 = hk.mma_scaled %r#32[%eb000], %a1#1[%ea110], %r#17 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m020 = hk.mma_scaled %r#32[%eb000], %a1#2[%ea120], %r#18 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m030 = hk.mma_scaled %r#32[%eb000], %a1#3[%ea130], %r#19 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m100 = hk.mma_scaled %r#33[%eb010], %a1#0[%ea100], %r#20 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m110 = hk.mma_scaled %r#33[%eb010], %a1#1[%ea110], %r#21 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m120 = hk.mma_scaled %r#33[%eb010], %a1#2[%ea120], %r#22 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m130 = hk.mma_scaled %r#33[%eb010], %a1#3[%ea130], %r#23 : !rt_p8, !s,
          !rt_p8, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    // C[1][1]^T += B1 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d11:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %b1#0[%eb100], %a1#0[%ea100], %r#24 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m010 = hk.mma_scaled %b1#0[%eb100], %a1#1[%ea110], %r#25 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m020 = hk.mma_scaled %b1#0[%eb100], %a1#2[%ea120], %r#26 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m030 = hk.mma_scaled %b1#0[%eb100], %a1#3[%ea130], %r#27 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m100 = hk.mma_scaled %b1#1[%eb110], %a1#0[%ea100], %r#28 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m110 = hk.mma_scaled %b1#1[%eb110], %a1#1[%ea110], %r#29 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m120 = hk.mma_scaled %b1#1[%eb110], %a1#2[%ea120], %r#30 : !rt_p8, !s,
          !rt_p8, !s, !acc
      %m130 = hk.mma_scaled %b1#1[%eb110], %a1#3[%ea130], %r#31 : !rt_p8, !s,
          !rt_p8, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    hk.yield %d00#0, %d00#1, %d00#2, %d00#3, %d00#4, %d00#5, %d00#6, %d00#7,
        %d01#0, %d01#1, %d01#2, %d01#3, %d01#4, %d01#5, %d01#6, %d01#7, %d10#0,
        %d10#1, %d10#2, %d10#3, %d10#4, %d10#5, %d10#6, %d10#7, %d11#0, %d11#1,
        %d11#2, %d11#3, %d11#4, %d11#5, %d11#6, %d11#7 : !acc, !acc, !acc,
        !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc, !acc, !acc, !acc, !acc
  }
  %t0 = hk.transpose %acc#0 : !acc -> !c_f32
  %o0 = arith.truncf %t0 : !c_f32 to !out
  hk.store %o0, %C[%ag00, %bg00] : !out, memref<?x?xbf16>
  %t1 = hk.transpose %acc#1 : !acc -> !c_f32
  %o1 = arith.truncf %t1 : !c_f32 to !out
  hk.store %o1, %C[%ag01, %bg00] : !out, memref<?x?xbf16>
  %t2 = hk.transpose %acc#2 : !acc -> !c_f32
  %o2 = arith.truncf %t2 : !c_f32 to !out
  hk.store %o2, %C[%ag02, %bg00] : !out, memref<?x?xbf16>
  %t3 = hk.transpose %acc#3 : !acc -> !c_f32
  %o3 = arith.truncf %t3 : !c_f32 to !out
  hk.store %o3, %C[%ag03, %bg00] : !out, memref<?x?xbf16>
  %t4 = hk.transpose %acc#4 : !acc -> !c_f32
  %o4 = arith.truncf %t4 : !c_f32 to !out
  hk.store %o4, %C[%ag00, %bg01] : !out, memref<?x?xbf16>
  %t5 = hk.transpose %acc#5 : !acc -> !c_f32
  %o5 = arith.truncf %t5 : !c_f32 to !out
  hk.store %o5, %C[%ag01, %bg01] : !out, memref<?x?xbf16>
  %t6 = hk.transpose %acc#6 : !acc -> !c_f32
  %o6 = arith.truncf %t6 : !c_f32 to !out
  hk.store %o6, %C[%ag02, %bg01] : !out, memref<?x?xbf16>
  %t7 = hk.transpose %acc#7 : !acc -> !c_f32
  %o7 = arith.truncf %t7 : !c_f32 to !out
  hk.store %o7, %C[%ag03, %bg01] : !out, memref<?x?xbf16>
  %t8 = hk.transpose %acc#8 : !acc -> !c_f32
  %o8 = arith.truncf %t8 : !c_f32 to !out
  hk.store %o8, %C[%ag00, %bg10] : !out, memref<?x?xbf16>
  %t9 = hk.transpose %acc#9 : !acc -> !c_f32
  %o9 = arith.truncf %t9 : !c_f32 to !out
  hk.store %o9, %C[%ag01, %bg10] : !out, memref<?x?xbf16>
  %t10 = hk.transpose %acc#10 : !acc -> !c_f32
  %o10 = arith.truncf %t10 : !c_f32 to !out
  hk.store %o10, %C[%ag02, %bg10] : !out, memref<?x?xbf16>
  %t11 = hk.transpose %acc#11 : !acc -> !c_f32
  %o11 = arith.truncf %t11 : !c_f32 to !out
  hk.store %o11, %C[%ag03, %bg10] : !out, memref<?x?xbf16>
  %t12 = hk.transpose %acc#12 : !acc -> !c_f32
  %o12 = arith.truncf %t12 : !c_f32 to !out
  hk.store %o12, %C[%ag00, %bg11] : !out, memref<?x?xbf16>
  %t13 = hk.transpose %acc#13 : !acc -> !c_f32
  %o13 = arith.truncf %t13 : !c_f32 to !out
  hk.store %o13, %C[%ag01, %bg11] : !out, memref<?x?xbf16>
  %t14 = hk.transpose %acc#14 : !acc -> !c_f32
  %o14 = arith.truncf %t14 : !c_f32 to !out
  hk.store %o14, %C[%ag02, %bg11] : !out, memref<?x?xbf16>
  %t15 = hk.transpose %acc#15 : !acc -> !c_f32
  %o15 = arith.truncf %t15 : !c_f32 to !out
  hk.store %o15, %C[%ag03, %bg11] : !out, memref<?x?xbf16>
  %t16 = hk.transpose %acc#16 : !acc -> !c_f32
  %o16 = arith.truncf %t16 : !c_f32 to !out
  hk.store %o16, %C[%ag10, %bg00] : !out, memref<?x?xbf16>
  %t17 = hk.transpose %acc#17 : !acc -> !c_f32
  %o17 = arith.truncf %t17 : !c_f32 to !out
  hk.store %o17, %C[%ag11, %bg00] : !out, memref<?x?xbf16>
  %t18 = hk.transpose %acc#18 : !acc -> !c_f32
  %o18 = arith.truncf %t18 : !c_f32 to !out
  hk.store %o18, %C[%ag12, %bg00] : !out, memref<?x?xbf16>
  %t19 = hk.transpose %acc#19 : !acc -> !c_f32
  %o19 = arith.truncf %t19 : !c_f32 to !out
  hk.store %o19, %C[%ag13, %bg00] : !out, memref<?x?xbf16>
  %t20 = hk.transpose %acc#20 : !acc -> !c_f32
  %o20 = arith.truncf %t20 : !c_f32 to !out
  hk.store %o20, %C[%ag10, %bg01] : !out, memref<?x?xbf16>
  %t21 = hk.transpose %acc#21 : !acc -> !c_f32
  %o21 = arith.truncf %t21 : !c_f32 to !out
  hk.store %o21, %C[%ag11, %bg01] : !out, memref<?x?xbf16>
  %t22 = hk.transpose %acc#22 : !acc -> !c_f32
  %o22 = arith.truncf %t22 : !c_f32 to !out
  hk.store %o22, %C[%ag12, %bg01] : !out, memref<?x?xbf16>
  %t23 = hk.transpose %acc#23 : !acc -> !c_f32
  %o23 = arith.truncf %t23 : !c_f32 to !out
  hk.store %o23, %C[%ag13, %bg01] : !out, memref<?x?xbf16>
  %t24 = hk.transpose %acc#24 : !acc -> !c_f32
  %o24 = arith.truncf %t24 : !c_f32 to !out
  hk.store %o24, %C[%ag10, %bg10] : !out, memref<?x?xbf16>
  %t25 = hk.transpose %acc#25 : !acc -> !c_f32
  %o25 = arith.truncf %t25 : !c_f32 to !out
  hk.store %o25, %C[%ag11, %bg10] : !out, memref<?x?xbf16>
  %t26 = hk.transpose %acc#26 : !acc -> !c_f32
  %o26 = arith.truncf %t26 : !c_f32 to !out
  hk.store %o26, %C[%ag12, %bg10] : !out, memref<?x?xbf16>
  %t27 = hk.transpose %acc#27 : !acc -> !c_f32
  %o27 = arith.truncf %t27 : !c_f32 to !out
  hk.store %o27, %C[%ag13, %bg10] : !out, memref<?x?xbf16>
  %t28 = hk.transpose %acc#28 : !acc -> !c_f32
  %o28 = arith.truncf %t28 : !c_f32 to !out
  hk.store %o28, %C[%ag10, %bg11] : !out, memref<?x?xbf16>
  %t29 = hk.transpose %acc#29 : !acc -> !c_f32
  %o29 = arith.truncf %t29 : !c_f32 to !out
  hk.store %o29, %C[%ag11, %bg11] : !out, memref<?x?xbf16>
  %t30 = hk.transpose %acc#30 : !acc -> !c_f32
  %o30 = arith.truncf %t30 : !c_f32 to !out
  hk.store %o30, %C[%ag12, %bg11] : !out, memref<?x?xbf16>
  %t31 = hk.transpose %acc#31 : !acc -> !c_f32
  %o31 = arith.truncf %t31 : !c_f32 to !out
  hk.store %o31, %C[%ag13, %bg11] : !out, memref<?x?xbf16>
  hk.return
}


!st_stage4 = !hk.st<256x64xi8, 16x64>
!st_share4 = !hk.st<16x64xi8, 16x64>
!st_p4 = !hk.st<16x64xi8, 16x64>
!rt_share4 = tensor<16x64xi8, #hk.rt<row, 16x32>>
!rt_p4 = tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128, group = 32>>
hk.kernel @gemm_mx_fp4(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                       %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                       %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(4, 0), dim(4, 1)] ->
                    ((s0 ceildiv 256) * (s1 ceildiv 256))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : !acc

  %as = hk.alloc_shared : !st_stage4
  %bs = hk.alloc_shared : !st_stage4

  %m_len = memref.dim %C, %c0 : memref<?x?xbf16>
  %n_len = memref.dim %C, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m_len, %c256 : index
  %tiles_n = arith.ceildivui %n_len, %c256 : index
  %wg = hk.block_id x
  %count = hk.num_blocks x
  %wg2 = hk.xcd_remap %wg, %count xcds = 8, chunk = 64
  %tm, %tn = hk.group_remap %wg2, %tiles_m, %tiles_n group = 8

  %w = hk.wave_id
  %wr = arith.divui %w, %c4 : index
  %wc = arith.remui %w, %c4 : index

  %sr = arith.divui %w, %c2 : index
  %sc = arith.remui %w, %c2 : index
  %a_base = arith.muli %tm, %c16 : index
  %a_row0 = arith.addi %a_base, %w : index
  %a_row1 = arith.addi %a_row0, %c8 : index
  %b_base = arith.muli %tn, %c16 : index
  %b_row0 = arith.addi %b_base, %w : index
  %b_row1 = arith.addi %b_row0, %c8 : index
  %w8 = arith.addi %w, %c8 : index
  %as_share0 = hk.subtile %as[%w, %c0] : !st_stage4 -> !st_share4
  %as_share1 = hk.subtile %as[%w8, %c0] : !st_stage4 -> !st_share4
  %bs_share0 = hk.subtile %bs[%w, %c0] : !st_stage4 -> !st_share4
  %bs_share1 = hk.subtile %bs[%w8, %c0] : !st_stage4 -> !st_share4

  %wr4 = arith.muli %wr, %c4 : index
  %wc2 = arith.muli %wc, %c2 : index
  %tm16 = arith.muli %tm, %c16 : index
  %tn16 = arith.muli %tn, %c16 : index
  %ap00 = arith.addi %wr4, %c0 : index
  %ag00 = arith.addi %tm16, %ap00 : index
  %sa000 = hk.subtile %as[%ap00, %c0] : !st_stage4 -> !st_p4
  %ap01 = arith.addi %wr4, %c1 : index
  %ag01 = arith.addi %tm16, %ap01 : index
  %sa010 = hk.subtile %as[%ap01, %c0] : !st_stage4 -> !st_p4
  %ap02 = arith.addi %wr4, %c2 : index
  %ag02 = arith.addi %tm16, %ap02 : index
  %sa020 = hk.subtile %as[%ap02, %c0] : !st_stage4 -> !st_p4
  %ap03 = arith.addi %wr4, %c3 : index
  %ag03 = arith.addi %tm16, %ap03 : index
  %sa030 = hk.subtile %as[%ap03, %c0] : !st_stage4 -> !st_p4
  %ap10 = arith.addi %wr4, %c8 : index
  %ag10 = arith.addi %tm16, %ap10 : index
  %sa100 = hk.subtile %as[%ap10, %c0] : !st_stage4 -> !st_p4
  %ap11 = arith.addi %wr4, %c9 : index
  %ag11 = arith.addi %tm16, %ap11 : index
  %sa110 = hk.subtile %as[%ap11, %c0] : !st_stage4 -> !st_p4
  %ap12 = arith.addi %wr4, %c10 : index
  %ag12 = arith.addi %tm16, %ap12 : index
  %sa120 = hk.subtile %as[%ap12, %c0] : !st_stage4 -> !st_p4
  %ap13 = arith.addi %wr4, %c11 : index
  %ag13 = arith.addi %tm16, %ap13 : index
  %sa130 = hk.subtile %as[%ap13, %c0] : !st_stage4 -> !st_p4
  %bp00 = arith.addi %wc2, %c0 : index
  %bg00 = arith.addi %tn16, %bp00 : index
  %sb000 = hk.subtile %bs[%bp00, %c0] : !st_stage4 -> !st_p4
  %bp01 = arith.addi %wc2, %c1 : index
  %bg01 = arith.addi %tn16, %bp01 : index
  %sb010 = hk.subtile %bs[%bp01, %c0] : !st_stage4 -> !st_p4
  %bp10 = arith.addi %wc2, %c8 : index
  %bg10 = arith.addi %tn16, %bp10 : index
  %sb100 = hk.subtile %bs[%bp10, %c0] : !st_stage4 -> !st_p4
  %bp11 = arith.addi %wc2, %c9 : index
  %bg11 = arith.addi %tn16, %bp11 : index
  %sb110 = hk.subtile %bs[%bp11, %c0] : !st_stage4 -> !st_p4

  %k_len = memref.dim %A, %c1 : memref<?x?xi8>
  %blocks = memref.dim %SA, %c1 : memref<?x?xi8>
  %nk = arith.ceildivui %blocks, %c4 : index
  %nk_loop = arith.subi %nk, %c1 : index

  %k_full = arith.cmpi uge, %k_len, %c64 : index
  %ga0, %gb0, %gb1, %ga1 = scf.if %k_full
      -> (!rt_share4, !rt_share4, !rt_share4, !rt_share4) {
    %qa0 = hk.load %A[%a_row0, %c0] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share4
    %qb0 = hk.load %B[%b_row0, %c0] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share4
    %qb1 = hk.load %B[%b_row1, %c0] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share4
    %qa1 = hk.load %A[%a_row1, %c0] {hk.cols_in_bounds} : memref<?x?xi8>
        -> !rt_share4
    scf.yield %qa0, %qb0, %qb1, %qa1 : !rt_share4, !rt_share4, !rt_share4,
        !rt_share4
  } else {
    %qa0 = hk.load %A[%a_row0, %c0] : memref<?x?xi8> -> !rt_share4
    %qb0 = hk.load %B[%b_row0, %c0] : memref<?x?xi8> -> !rt_share4
    %qb1 = hk.load %B[%b_row1, %c0] : memref<?x?xi8> -> !rt_share4
    %qa1 = hk.load %A[%a_row1, %c0] : memref<?x?xi8> -> !rt_share4
    scf.yield %qa0, %qb0, %qb1, %qa1 : !rt_share4, !rt_share4, !rt_share4,
        !rt_share4
  }
  %x0a000 = hk.load %SA[%ag00, %c0] : memref<?x?xi8> -> !si
  %x0a010 = hk.load %SA[%ag01, %c0] : memref<?x?xi8> -> !si
  %x0a020 = hk.load %SA[%ag02, %c0] : memref<?x?xi8> -> !si
  %x0a030 = hk.load %SA[%ag03, %c0] : memref<?x?xi8> -> !si
  %x0a100 = hk.load %SA[%ag10, %c0] : memref<?x?xi8> -> !si
  %x0a110 = hk.load %SA[%ag11, %c0] : memref<?x?xi8> -> !si
  %x0a120 = hk.load %SA[%ag12, %c0] : memref<?x?xi8> -> !si
  %x0a130 = hk.load %SA[%ag13, %c0] : memref<?x?xi8> -> !si
  %x0b000 = hk.load %SB[%bg00, %c0] : memref<?x?xi8> -> !si
  %x0b010 = hk.load %SB[%bg01, %c0] : memref<?x?xi8> -> !si
  %x0b100 = hk.load %SB[%bg10, %c0] : memref<?x?xi8> -> !si
  %x0b110 = hk.load %SB[%bg11, %c0] : memref<?x?xi8> -> !si
  hk.store %ga0, %as_share0 : !rt_share4, !st_share4
  hk.store %gb0, %bs_share0 : !rt_share4, !st_share4
  hk.store %gb1, %bs_share1 : !rt_share4, !st_share4
  hk.store %ga1, %as_share1 : !rt_share4, !st_share4
  hk.barrier
  %b0f00 = hk.load %sb000 : !st_p4 -> !rt_p4
  %b0f10 = hk.load %sb010 : !st_p4 -> !rt_p4

  %acc:32 = hk.ping_pong -> !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
      !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
      !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc {
    %r:47 = scf.for %k = %c0 to %nk_loop step %c1
        iter_args(%c0000 = %zero, %c0001 = %zero, %c0002 = %zero,
            %c0003 = %zero, %c0010 = %zero, %c0011 = %zero, %c0012 = %zero,
            %c0013 = %zero, %c0100 = %zero, %c0101 = %zero, %c0102 = %zero,
            %c0103 = %zero, %c0110 = %zero, %c0111 = %zero, %c0112 = %zero,
            %c0113 = %zero, %c1000 = %zero, %c1001 = %zero, %c1002 = %zero,
            %c1003 = %zero, %c1010 = %zero, %c1011 = %zero, %c1012 = %zero,
            %c1013 = %zero, %c1100 = %zero, %c1101 = %zero, %c1102 = %zero,
            %c1103 = %zero, %c1110 = %zero, %c1111 = %zero, %c1112 = %zero,
            %c1113 = %zero, %b000 = %b0f00, %b010 = %b0f10, %xa000 = %x0a000,
            %xa010 = %x0a010, %xa020 = %x0a020, %xa030 = %x0a030,
            %xa100 = %x0a100, %xa110 = %x0a110, %xa120 = %x0a120,
            %xa130 = %x0a130, %xb000 = %x0b000, %xb010 = %x0b010,
            %xb100 = %x0b100, %xb110 = %x0b110, %pa1c = %ga1)
        -> (!acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !rt_p4,
            !rt_p4, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si,
            !rt_share4) {
      %kn1 = arith.addi %k, %c1 : index
      %kn2 = arith.muli %kn1, %c2 : index
      %kn = arith.addi %kn2, %sc : index
      %ea000 = arith.bitcast %xa000 : !si to !s
      %ea010 = arith.bitcast %xa010 : !si to !s
      %ea020 = arith.bitcast %xa020 : !si to !s
      %ea030 = arith.bitcast %xa030 : !si to !s
      %ea100 = arith.bitcast %xa100 : !si to !s
      %ea110 = arith.bitcast %xa110 : !si to !s
      %ea120 = arith.bitcast %xa120 : !si to !s
      %ea130 = arith.bitcast %xa130 : !si to !s
      %eb000 = arith.bitcast %xb000 : !si to !s
      %eb010 = arith.bitcast %xb010 : !si to !s
      %eb100 = arith.bitcast %xb100 : !si to !s
      %eb110 = arith.bitcast %xb110 : !si to !s
      // Cluster 0: the A0 slice (its B0 slice and every scale of the step
      // came with the previous step); in the loop, store this step's A1
      // share (loaded in the previous step's cluster 4) and prefetch the A0,
      // B0 shares of step k + 1; after it, store the last step's A1.
      %a0:6 = hk.cluster memory -> !rt_p4, !rt_p4, !rt_p4, !rt_p4, !rt_share4,
          !rt_share4 {
        %ra00 = hk.load %sa000 : !st_p4 -> !rt_p4
        %ra10 = hk.load %sa010 : !st_p4 -> !rt_p4
        %ra20 = hk.load %sa020 : !st_p4 -> !rt_p4
        %ra30 = hk.load %sa030 : !st_p4 -> !rt_p4
        hk.store %pa1c, %as_share1 : !rt_share4, !st_share4
        %qa = hk.load %A[%a_row0, %kn1] : memref<?x?xi8> -> !rt_share4
        %qb = hk.load %B[%b_row0, %kn1] : memref<?x?xi8> -> !rt_share4
        hk.yield %ra00, %ra10, %ra20, %ra30, %qa, %qb : !rt_p4, !rt_p4, !rt_p4,
            !rt_p4, !rt_share4, !rt_share4
      }
      // C[0][0]^T += B0 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d00:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b000[%eb000], %a0#0[%ea000], %c0000 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m010 = hk.mma_scaled %b000[%eb000], %a0#1[%ea010], %c0001 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m020 = hk.mma_scaled %b000[%eb000], %a0#2[%ea020], %c0002 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m030 = hk.mma_scaled %b000[%eb000], %a0#3[%ea030], %c0003 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m100 = hk.mma_scaled %b010[%eb010], %a0#0[%ea000], %c0010 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m110 = hk.mma_scaled %b010[%eb010], %a0#1[%ea010], %c0011 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m120 = hk.mma_scaled %b010[%eb010], %a0#2[%ea020], %c0012 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m130 = hk.mma_scaled %b010[%eb010], %a0#3[%ea030], %c0013 : !rt_p4,
            !s, !rt_p4, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      // Cluster 2: the B1 slice; in the loop, prefetch B1 of step k + 1.
      %b1:3 = hk.cluster memory -> !rt_p4, !rt_p4, !rt_share4 {
        %rb00 = hk.load %sb100 : !st_p4 -> !rt_p4
        %rb10 = hk.load %sb110 : !st_p4 -> !rt_p4
        %qb = hk.load %B[%b_row1, %kn1] : memref<?x?xi8> -> !rt_share4
        hk.yield %rb00, %rb10, %qb : !rt_p4, !rt_p4, !rt_share4
      }
      // C[0][1]^T += B1 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d01:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b1#0[%eb100], %a0#0[%ea000], %c0100 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m010 = hk.mma_scaled %b1#0[%eb100], %a0#1[%ea010], %c0101 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m020 = hk.mma_scaled %b1#0[%eb100], %a0#2[%ea020], %c0102 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m030 = hk.mma_scaled %b1#0[%eb100], %a0#3[%ea030], %c0103 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m100 = hk.mma_scaled %b1#1[%eb110], %a0#0[%ea000], %c0110 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m110 = hk.mma_scaled %b1#1[%eb110], %a0#1[%ea010], %c0111 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m120 = hk.mma_scaled %b1#1[%eb110], %a0#2[%ea020], %c0112 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m130 = hk.mma_scaled %b1#1[%eb110], %a0#3[%ea030], %c0113 : !rt_p4,
            !s, !rt_p4, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      // Cluster 4: the A1 slice; in the loop, store the A0, B0 shares of
      // step k + 1 (A0 last read in cluster 0, B0 in the previous step's
      // cluster 6) and prefetch A1.
      %a1:5 = hk.cluster memory -> !rt_p4, !rt_p4, !rt_p4, !rt_p4, !rt_share4 {
        %ra00 = hk.load %sa100 : !st_p4 -> !rt_p4
        %ra10 = hk.load %sa110 : !st_p4 -> !rt_p4
        %ra20 = hk.load %sa120 : !st_p4 -> !rt_p4
        %ra30 = hk.load %sa130 : !st_p4 -> !rt_p4
        hk.store %a0#4, %as_share0 : !rt_share4, !st_share4
        hk.store %a0#5, %bs_share0 : !rt_share4, !st_share4
        %qa = hk.load %A[%a_row1, %kn1] : memref<?x?xi8> -> !rt_share4
        hk.yield %ra00, %ra10, %ra20, %ra30, %qa : !rt_p4, !rt_p4, !rt_p4,
            !rt_p4, !rt_share4
      }
      // C[1][0]^T += B0 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d10:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b000[%eb000], %a1#0[%ea100], %c1000 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m010 = hk.mma_scaled %b000[%eb000], %a1#1[%ea110], %c1001 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m020 = hk.mma_scaled %b000[%eb000], %a1#2[%ea120], %c1002 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m030 = hk.mma_scaled %b000[%eb000], %a1#3[%ea130], %c1003 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m100 = hk.mma_scaled %b010[%eb010], %a1#0[%ea100], %c1010 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m110 = hk.mma_scaled %b010[%eb010], %a1#1[%ea110], %c1011 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m120 = hk.mma_scaled %b010[%eb010], %a1#2[%ea120], %c1012 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m130 = hk.mma_scaled %b010[%eb010], %a1#3[%ea130], %c1013 : !rt_p4,
            !s, !rt_p4, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      // Cluster 6: store B1 of step k + 1 (read in cluster 2); the next
      // step's B0 slice and all its scales (12 bytes per lane, one per 16-row
      // piece).
      %b0n:14 = hk.cluster memory -> !rt_p4, !rt_p4, !si, !si, !si, !si, !si,
          !si, !si, !si, !si, !si, !si, !si {
        hk.store %b1#2, %bs_share1 : !rt_share4, !st_share4
        %rb00 = hk.load %sb000 : !st_p4 -> !rt_p4
        %rb10 = hk.load %sb010 : !st_p4 -> !rt_p4
        %ya000 = hk.load %SA[%ag00, %kn1] : memref<?x?xi8> -> !si
        %ya010 = hk.load %SA[%ag01, %kn1] : memref<?x?xi8> -> !si
        %ya020 = hk.load %SA[%ag02, %kn1] : memref<?x?xi8> -> !si
        %ya030 = hk.load %SA[%ag03, %kn1] : memref<?x?xi8> -> !si
        %ya100 = hk.load %SA[%ag10, %kn1] : memref<?x?xi8> -> !si
        %ya110 = hk.load %SA[%ag11, %kn1] : memref<?x?xi8> -> !si
        %ya120 = hk.load %SA[%ag12, %kn1] : memref<?x?xi8> -> !si
        %ya130 = hk.load %SA[%ag13, %kn1] : memref<?x?xi8> -> !si
        %yb000 = hk.load %SB[%bg00, %kn1] : memref<?x?xi8> -> !si
        %yb010 = hk.load %SB[%bg01, %kn1] : memref<?x?xi8> -> !si
        %yb100 = hk.load %SB[%bg10, %kn1] : memref<?x?xi8> -> !si
        %yb110 = hk.load %SB[%bg11, %kn1] : memref<?x?xi8> -> !si
        hk.yield %rb00, %rb10, %ya000, %ya010, %ya020, %ya030, %ya100, %ya110,
            %ya120, %ya130, %yb000, %yb010, %yb100, %yb110 : !rt_p4, !rt_p4,
            !si, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si
      }
      // C[1][1]^T += B1 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
      // accumulator with a byte of scale per lane and operand.
      %d11:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
          !acc {
        %m000 = hk.mma_scaled %b1#0[%eb100], %a1#0[%ea100], %c1100 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m010 = hk.mma_scaled %b1#0[%eb100], %a1#1[%ea110], %c1101 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m020 = hk.mma_scaled %b1#0[%eb100], %a1#2[%ea120], %c1102 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m030 = hk.mma_scaled %b1#0[%eb100], %a1#3[%ea130], %c1103 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m100 = hk.mma_scaled %b1#1[%eb110], %a1#0[%ea100], %c1110 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m110 = hk.mma_scaled %b1#1[%eb110], %a1#1[%ea110], %c1111 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m120 = hk.mma_scaled %b1#1[%eb110], %a1#2[%ea120], %c1112 : !rt_p4,
            !s, !rt_p4, !s, !acc
        %m130 = hk.mma_scaled %b1#1[%eb110], %a1#3[%ea130], %c1113 : !rt_p4,
            !s, !rt_p4, !s, !acc
        hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
            !acc, !acc, !acc, !acc, !acc, !acc, !acc
      }
      scf.yield %d00#0, %d00#1, %d00#2, %d00#3, %d00#4, %d00#5, %d00#6, %d00#7,
          %d01#0, %d01#1, %d01#2, %d01#3, %d01#4, %d01#5, %d01#6, %d01#7,
          %d10#0, %d10#1, %d10#2, %d10#3, %d10#4, %d10#5, %d10#6, %d10#7,
          %d11#0, %d11#1, %d11#2, %d11#3, %d11#4, %d11#5, %d11#6, %d11#7,
          %b0n#0, %b0n#1, %b0n#2, %b0n#3, %b0n#4, %b0n#5, %b0n#6, %b0n#7,
          %b0n#8, %b0n#9, %b0n#10, %b0n#11, %b0n#12, %b0n#13, %a1#4
          : !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
              !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
              !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
              !rt_p4, !rt_p4, !si, !si, !si, !si, !si, !si, !si, !si, !si, !si,
              !si, !si, !rt_share4
    }
    %ea000 = arith.bitcast %r#34 : !si to !s
    %ea010 = arith.bitcast %r#35 : !si to !s
    %ea020 = arith.bitcast %r#36 : !si to !s
    %ea030 = arith.bitcast %r#37 : !si to !s
    %ea100 = arith.bitcast %r#38 : !si to !s
    %ea110 = arith.bitcast %r#39 : !si to !s
    %ea120 = arith.bitcast %r#40 : !si to !s
    %ea130 = arith.bitcast %r#41 : !si to !s
    %eb000 = arith.bitcast %r#42 : !si to !s
    %eb010 = arith.bitcast %r#43 : !si to !s
    %eb100 = arith.bitcast %r#44 : !si to !s
    %eb110 = arith.bitcast %r#45 : !si to !s
    // Cluster 0: the A0 slice (its B0 slice and every scale of the step
    // came with the previous step); in the loop, store this step's A1
    // share (loaded in the previous step's cluster 4) and prefetch the A0,
    // B0 shares of step k + 1; after it, store the last step's A1.
    %a0:4 = hk.cluster memory -> !rt_p4, !rt_p4, !rt_p4, !rt_p4 {
      %ra00 = hk.load %sa000 : !st_p4 -> !rt_p4
      %ra10 = hk.load %sa010 : !st_p4 -> !rt_p4
      %ra20 = hk.load %sa020 : !st_p4 -> !rt_p4
      %ra30 = hk.load %sa030 : !st_p4 -> !rt_p4
      hk.store %r#46, %as_share1 : !rt_share4, !st_share4
      hk.yield %ra00, %ra10, %ra20, %ra30 : !rt_p4, !rt_p4, !rt_p4, !rt_p4
    }
    // C[0][0]^T += B0 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d00:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %r#32[%eb000], %a0#0[%ea000], %r#0 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m010 = hk.mma_scaled %r#32[%eb000], %a0#1[%ea010], %r#1 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m020 = hk.mma_scaled %r#32[%eb000], %a0#2[%ea020], %r#2 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m030 = hk.mma_scaled %r#32[%eb000], %a0#3[%ea030], %r#3 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m100 = hk.mma_scaled %r#33[%eb010], %a0#0[%ea000], %r#4 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m110 = hk.mma_scaled %r#33[%eb010], %a0#1[%ea010], %r#5 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m120 = hk.mma_scaled %r#33[%eb010], %a0#2[%ea020], %r#6 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m130 = hk.mma_scaled %r#33[%eb010], %a0#3[%ea030], %r#7 : !rt_p4, !s,
          !rt_p4, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    // Cluster 2: the B1 slice; in the loop, prefetch B1 of step k + 1.
    %b1:2 = hk.cluster memory -> !rt_p4, !rt_p4 {
      %rb00 = hk.load %sb100 : !st_p4 -> !rt_p4
      %rb10 = hk.load %sb110 : !st_p4 -> !rt_p4
      hk.yield %rb00, %rb10 : !rt_p4, !rt_p4
    }
    // C[0][1]^T += B1 A0^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d01:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %b1#0[%eb100], %a0#0[%ea000], %r#8 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m010 = hk.mma_scaled %b1#0[%eb100], %a0#1[%ea010], %r#9 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m020 = hk.mma_scaled %b1#0[%eb100], %a0#2[%ea020], %r#10 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m030 = hk.mma_scaled %b1#0[%eb100], %a0#3[%ea030], %r#11 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m100 = hk.mma_scaled %b1#1[%eb110], %a0#0[%ea000], %r#12 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m110 = hk.mma_scaled %b1#1[%eb110], %a0#1[%ea010], %r#13 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m120 = hk.mma_scaled %b1#1[%eb110], %a0#2[%ea020], %r#14 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m130 = hk.mma_scaled %b1#1[%eb110], %a0#3[%ea030], %r#15 : !rt_p4, !s,
          !rt_p4, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    // Cluster 4: the A1 slice; in the loop, store the A0, B0 shares of
    // step k + 1 (A0 last read in cluster 0, B0 in the previous step's
    // cluster 6) and prefetch A1.
    %a1:4 = hk.cluster memory -> !rt_p4, !rt_p4, !rt_p4, !rt_p4 {
      %ra00 = hk.load %sa100 : !st_p4 -> !rt_p4
      %ra10 = hk.load %sa110 : !st_p4 -> !rt_p4
      %ra20 = hk.load %sa120 : !st_p4 -> !rt_p4
      %ra30 = hk.load %sa130 : !st_p4 -> !rt_p4
      hk.yield %ra00, %ra10, %ra20, %ra30 : !rt_p4, !rt_p4, !rt_p4, !rt_p4
    }
    // C[1][0]^T += B0 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d10:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %r#32[%eb000], %a1#0[%ea100], %r#16 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m010 = hk.mma_scaled %r#32[%eb000], %a1#1[%ea110], %r#17 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m020 = hk.mma_scaled %r#32[%eb000], %a1#2[%ea120], %r#18 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m030 = hk.mma_scaled %r#32[%eb000], %a1#3[%ea130], %r#19 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m100 = hk.mma_scaled %r#33[%eb010], %a1#0[%ea100], %r#20 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m110 = hk.mma_scaled %r#33[%eb010], %a1#1[%ea110], %r#21 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m120 = hk.mma_scaled %r#33[%eb010], %a1#2[%ea120], %r#22 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m130 = hk.mma_scaled %r#33[%eb010], %a1#3[%ea130], %r#23 : !rt_p4, !s,
          !rt_p4, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    // C[1][1]^T += B1 A1^T: 2 x 4 pieces of 16 rows, each a 16x16
    // accumulator with a byte of scale per lane and operand.
    %d11:8 = hk.cluster compute -> !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc {
      %m000 = hk.mma_scaled %b1#0[%eb100], %a1#0[%ea100], %r#24 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m010 = hk.mma_scaled %b1#0[%eb100], %a1#1[%ea110], %r#25 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m020 = hk.mma_scaled %b1#0[%eb100], %a1#2[%ea120], %r#26 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m030 = hk.mma_scaled %b1#0[%eb100], %a1#3[%ea130], %r#27 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m100 = hk.mma_scaled %b1#1[%eb110], %a1#0[%ea100], %r#28 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m110 = hk.mma_scaled %b1#1[%eb110], %a1#1[%ea110], %r#29 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m120 = hk.mma_scaled %b1#1[%eb110], %a1#2[%ea120], %r#30 : !rt_p4, !s,
          !rt_p4, !s, !acc
      %m130 = hk.mma_scaled %b1#1[%eb110], %a1#3[%ea130], %r#31 : !rt_p4, !s,
          !rt_p4, !s, !acc
      hk.yield %m000, %m010, %m020, %m030, %m100, %m110, %m120, %m130 : !acc,
          !acc, !acc, !acc, !acc, !acc, !acc, !acc
    }
    hk.yield %d00#0, %d00#1, %d00#2, %d00#3, %d00#4, %d00#5, %d00#6, %d00#7,
        %d01#0, %d01#1, %d01#2, %d01#3, %d01#4, %d01#5, %d01#6, %d01#7, %d10#0,
        %d10#1, %d10#2, %d10#3, %d10#4, %d10#5, %d10#6, %d10#7, %d11#0, %d11#1,
        %d11#2, %d11#3, %d11#4, %d11#5, %d11#6, %d11#7 : !acc, !acc, !acc,
        !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc, !acc,
        !acc, !acc, !acc, !acc, !acc
  }
  %t0 = hk.transpose %acc#0 : !acc -> !c_f32
  %o0 = arith.truncf %t0 : !c_f32 to !out
  hk.store %o0, %C[%ag00, %bg00] : !out, memref<?x?xbf16>
  %t1 = hk.transpose %acc#1 : !acc -> !c_f32
  %o1 = arith.truncf %t1 : !c_f32 to !out
  hk.store %o1, %C[%ag01, %bg00] : !out, memref<?x?xbf16>
  %t2 = hk.transpose %acc#2 : !acc -> !c_f32
  %o2 = arith.truncf %t2 : !c_f32 to !out
  hk.store %o2, %C[%ag02, %bg00] : !out, memref<?x?xbf16>
  %t3 = hk.transpose %acc#3 : !acc -> !c_f32
  %o3 = arith.truncf %t3 : !c_f32 to !out
  hk.store %o3, %C[%ag03, %bg00] : !out, memref<?x?xbf16>
  %t4 = hk.transpose %acc#4 : !acc -> !c_f32
  %o4 = arith.truncf %t4 : !c_f32 to !out
  hk.store %o4, %C[%ag00, %bg01] : !out, memref<?x?xbf16>
  %t5 = hk.transpose %acc#5 : !acc -> !c_f32
  %o5 = arith.truncf %t5 : !c_f32 to !out
  hk.store %o5, %C[%ag01, %bg01] : !out, memref<?x?xbf16>
  %t6 = hk.transpose %acc#6 : !acc -> !c_f32
  %o6 = arith.truncf %t6 : !c_f32 to !out
  hk.store %o6, %C[%ag02, %bg01] : !out, memref<?x?xbf16>
  %t7 = hk.transpose %acc#7 : !acc -> !c_f32
  %o7 = arith.truncf %t7 : !c_f32 to !out
  hk.store %o7, %C[%ag03, %bg01] : !out, memref<?x?xbf16>
  %t8 = hk.transpose %acc#8 : !acc -> !c_f32
  %o8 = arith.truncf %t8 : !c_f32 to !out
  hk.store %o8, %C[%ag00, %bg10] : !out, memref<?x?xbf16>
  %t9 = hk.transpose %acc#9 : !acc -> !c_f32
  %o9 = arith.truncf %t9 : !c_f32 to !out
  hk.store %o9, %C[%ag01, %bg10] : !out, memref<?x?xbf16>
  %t10 = hk.transpose %acc#10 : !acc -> !c_f32
  %o10 = arith.truncf %t10 : !c_f32 to !out
  hk.store %o10, %C[%ag02, %bg10] : !out, memref<?x?xbf16>
  %t11 = hk.transpose %acc#11 : !acc -> !c_f32
  %o11 = arith.truncf %t11 : !c_f32 to !out
  hk.store %o11, %C[%ag03, %bg10] : !out, memref<?x?xbf16>
  %t12 = hk.transpose %acc#12 : !acc -> !c_f32
  %o12 = arith.truncf %t12 : !c_f32 to !out
  hk.store %o12, %C[%ag00, %bg11] : !out, memref<?x?xbf16>
  %t13 = hk.transpose %acc#13 : !acc -> !c_f32
  %o13 = arith.truncf %t13 : !c_f32 to !out
  hk.store %o13, %C[%ag01, %bg11] : !out, memref<?x?xbf16>
  %t14 = hk.transpose %acc#14 : !acc -> !c_f32
  %o14 = arith.truncf %t14 : !c_f32 to !out
  hk.store %o14, %C[%ag02, %bg11] : !out, memref<?x?xbf16>
  %t15 = hk.transpose %acc#15 : !acc -> !c_f32
  %o15 = arith.truncf %t15 : !c_f32 to !out
  hk.store %o15, %C[%ag03, %bg11] : !out, memref<?x?xbf16>
  %t16 = hk.transpose %acc#16 : !acc -> !c_f32
  %o16 = arith.truncf %t16 : !c_f32 to !out
  hk.store %o16, %C[%ag10, %bg00] : !out, memref<?x?xbf16>
  %t17 = hk.transpose %acc#17 : !acc -> !c_f32
  %o17 = arith.truncf %t17 : !c_f32 to !out
  hk.store %o17, %C[%ag11, %bg00] : !out, memref<?x?xbf16>
  %t18 = hk.transpose %acc#18 : !acc -> !c_f32
  %o18 = arith.truncf %t18 : !c_f32 to !out
  hk.store %o18, %C[%ag12, %bg00] : !out, memref<?x?xbf16>
  %t19 = hk.transpose %acc#19 : !acc -> !c_f32
  %o19 = arith.truncf %t19 : !c_f32 to !out
  hk.store %o19, %C[%ag13, %bg00] : !out, memref<?x?xbf16>
  %t20 = hk.transpose %acc#20 : !acc -> !c_f32
  %o20 = arith.truncf %t20 : !c_f32 to !out
  hk.store %o20, %C[%ag10, %bg01] : !out, memref<?x?xbf16>
  %t21 = hk.transpose %acc#21 : !acc -> !c_f32
  %o21 = arith.truncf %t21 : !c_f32 to !out
  hk.store %o21, %C[%ag11, %bg01] : !out, memref<?x?xbf16>
  %t22 = hk.transpose %acc#22 : !acc -> !c_f32
  %o22 = arith.truncf %t22 : !c_f32 to !out
  hk.store %o22, %C[%ag12, %bg01] : !out, memref<?x?xbf16>
  %t23 = hk.transpose %acc#23 : !acc -> !c_f32
  %o23 = arith.truncf %t23 : !c_f32 to !out
  hk.store %o23, %C[%ag13, %bg01] : !out, memref<?x?xbf16>
  %t24 = hk.transpose %acc#24 : !acc -> !c_f32
  %o24 = arith.truncf %t24 : !c_f32 to !out
  hk.store %o24, %C[%ag10, %bg10] : !out, memref<?x?xbf16>
  %t25 = hk.transpose %acc#25 : !acc -> !c_f32
  %o25 = arith.truncf %t25 : !c_f32 to !out
  hk.store %o25, %C[%ag11, %bg10] : !out, memref<?x?xbf16>
  %t26 = hk.transpose %acc#26 : !acc -> !c_f32
  %o26 = arith.truncf %t26 : !c_f32 to !out
  hk.store %o26, %C[%ag12, %bg10] : !out, memref<?x?xbf16>
  %t27 = hk.transpose %acc#27 : !acc -> !c_f32
  %o27 = arith.truncf %t27 : !c_f32 to !out
  hk.store %o27, %C[%ag13, %bg10] : !out, memref<?x?xbf16>
  %t28 = hk.transpose %acc#28 : !acc -> !c_f32
  %o28 = arith.truncf %t28 : !c_f32 to !out
  hk.store %o28, %C[%ag10, %bg11] : !out, memref<?x?xbf16>
  %t29 = hk.transpose %acc#29 : !acc -> !c_f32
  %o29 = arith.truncf %t29 : !c_f32 to !out
  hk.store %o29, %C[%ag11, %bg11] : !out, memref<?x?xbf16>
  %t30 = hk.transpose %acc#30 : !acc -> !c_f32
  %o30 = arith.truncf %t30 : !c_f32 to !out
  hk.store %o30, %C[%ag12, %bg11] : !out, memref<?x?xbf16>
  %t31 = hk.transpose %acc#31 : !acc -> !c_f32
  %o31 = arith.truncf %t31 : !c_f32 to !out
  hk.store %o31, %C[%ag13, %bg11] : !out, memref<?x?xbf16>
  hk.return
}


