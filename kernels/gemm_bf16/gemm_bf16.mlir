// bf16 GEMM: C = A * B^T, bf16 inputs, f32 accumulation, bf16 output.
//
// Arguments:
//   %A : memref<?x?xbf16>  M x K, row-major
//   %B : memref<?x?xbf16>  N x K, row-major (C = A * B^T, so both are K-minor)
//   %C : memref<?x?xbf16>  M x N, row-major
// M, N and K are taken from the memrefs at run time and need not be multiples
// of the tiles: tile loads outside A or B read zeros (which add nothing to a
// dot product) and tile stores outside C are dropped.
//
// Grid: one workgroup per 256x256 tile of C, as a 1-D grid of
//   ceildiv(M, 256) * ceildiv(N, 256) workgroups; 8 waves (512 threads) each.
//
// Work split, as in HipKittens' 8-wave bf16 GEMM (256x256 output, K step 64;
// the single-stage, register-prefetch form of its CDNA3 kernel):
//   * the linear workgroup id is remapped first across XCDs
//     (chiplet_transform_chunked, 8 XCDs, chunks of 64) and then into WGM=8
//     row groups, so workgroups that run together share A and B tiles in L2;
//   * waves form a 2 x 4 grid (wave_row = w / 4, wave_col = w % 4); wave
//     (r, c) owns four 64x32 accumulators C[i][j] at rows
//     i*128 + r*64 and columns j*128 + c*32 of the block (i, j in {0, 1}),
//     128 f32 registers per lane;
//   * LDS holds one stage: the 256x64 A and B tiles of the current K step
//     (2 x 32 KiB = 64 KiB, which fits gfx942 as well as gfx950), seen as
//     two halves, K columns 0-31 (H0) and 32-63 (H1). The next K step is
//     prefetched from global memory into registers, each wave loading its
//     32x32 share of each half of A and of B (rows 32*w of the stage), and
//     written to a half of the stage once every wave has read that half;
//   * each wave reads its 64x32 A and 32x32 B slices of one half at a time
//     into 16x32 row tiles (the A/B layout of v_mfma_f32_16x16x32_bf16,
//     which also feeds two 16x16x16 MFMAs on gfx942) and accumulates with
//     mma_ABt into 16x16 col tiles.
//
// The K loop runs in an 8-wave ping-pong with four clusters per K step k:
//   0 memory:  read the slices of H0 (step k); store the registers holding
//              H1 of step k (prefetched in the previous step's cluster 2,
//              or by the prologue) into H1; prefetch H0 of step k+1;
//   1 compute: C[i][j] += A_i B_j^T over K columns 0-31 (all four);
//   2 memory:  read the slices of H1 (step k); store H0 of step k+1 (from
//              cluster 0's registers) into H0; prefetch H1 of step k+1;
//   3 compute: C[i][j] += A_i B_j^T over K columns 32-63.
// Reading one half per memory cluster halves the slice registers: at the
// end of each memory cluster a wave holds the accumulators (128), one
// half's slices (2 x 16 + 2 x 8 = 48) and one half's prefetch (2 x 8 =
// 16), 192 registers of data, where reading the whole step at once held
// 96 slice and 32 prefetch registers next to the accumulators, 256 in all,
// and spilled.
//
// Hazards. hk-schedule ends every cluster with a barrier and runs waves 4-7
// one cluster behind waves 0-3 (docs/schedules.md). Counting clusters from
// the start of the loop (cluster c of step k is number 4k + c), the barrier
// that ends cluster i of waves 0-3 also ends cluster i-1 of waves 4-7, so
// an access in cluster i is ordered before an access of any other wave in
// cluster i+2 or later, but not i+1: waves 4-7 may still be in cluster i
// while waves 0-3 run cluster i+1. Every wave reads what other waves wrote,
// so each access to a half must be two clusters from the last access to it
// that conflicts. Per half, in order:
//   H1: written with step k in 4k, read in 4k+2 (2 later), written with
//       step k+1 in 4k+4 (2 after the read), read in 4k+6, ...
//   H0: written with step k+1 in 4k+2, two clusters after its reads of step
//       k in 4k, and read in 4k+4 (2 later); written again in 4k+6, ...
// The two halves are disjoint, so the read of H0 and the store into H1 in
// the same cluster, and the read of H1 and the store into H0 in cluster 2,
// never conflict, whatever the waves around them do; the compute clusters
// touch no LDS. Before the loop, the prologue stores H0 of step 0 and
// ends with a barrier, which orders it before every access in the region;
// H1 of step 0 is first written in cluster 0, with no earlier read. After
// the loop nothing reads the stage. The loop runs K steps 0 to nk - 2, each
// prefetching the next; step nk - 1 follows it as the same four clusters
// without the prefetch and without the store of a next step's H0, so no
// load reaches past the end of K (a loop whose last trip loaded the tile
// past the end would have that trip split off with checked loads by
// hk-peel-bounds). With K = 0 (nk = 0) the loop runs no trip and the last
// step multiplies the zeros the prologue loaded.

// hk.template: !st_stage_a = !hk.st<${BM}x64xbf16, 16x32>
!st_stage_a = !hk.st<256x64xbf16, 16x32>
// hk.template: !st_stage_b = !hk.st<${BN}x64xbf16, 16x32>
!st_stage_b = !hk.st<256x64xbf16, 16x32>
// hk.template: !st_share_a = !hk.st<${BM / 8}x32xbf16, 16x32>
!st_share_a = !hk.st<32x32xbf16, 16x32>
// hk.template: !st_share_b = !hk.st<${BN / 8}x32xbf16, 16x32>
!st_share_b = !hk.st<32x32xbf16, 16x32>
// hk.template: !st_a = !hk.st<${BM / 4}x32xbf16, 16x32>
!st_a = !hk.st<64x32xbf16, 16x32>
// hk.template: !st_b = !hk.st<${BN / 8}x32xbf16, 16x32>
!st_b = !hk.st<32x32xbf16, 16x32>
// hk.template: !rt_share_a = tensor<${BM / 8}x32xbf16, #hk.rt<row, 16x32>>
!rt_share_a = tensor<32x32xbf16, #hk.rt<row, 16x32>>
// hk.template: !rt_share_b = tensor<${BN / 8}x32xbf16, #hk.rt<row, 16x32>>
!rt_share_b = tensor<32x32xbf16, #hk.rt<row, 16x32>>
// hk.template: !rt_a = tensor<${BM / 4}x32xbf16, #hk.rt<row, 16x32>>
!rt_a = tensor<64x32xbf16, #hk.rt<row, 16x32>>
// hk.template: !rt_b = tensor<${BN / 8}x32xbf16, #hk.rt<row, 16x32>>
!rt_b = tensor<32x32xbf16, #hk.rt<row, 16x32>>
// hk.template: !acc = tensor<${BM / 4}x${BN / 8}xf32, #hk.rt<col, 16x16>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
// hk.template: !out = tensor<${BM / 4}x${BN / 8}xbf16, #hk.rt<col, 16x16>>
!out = tensor<64x32xbf16, #hk.rt<col, 16x16>>

// The template's parameters (docs/kernels.md, "Templates"): hkc --param,
// hk.compile(..., params=...), hk.autotune. The defaults are the kernel
// described above.
module attributes {hk.params = {
    BM = {values = [128, 256], default = 256,
          doc = "rows of C per workgroup"},
    BN = {values = [128, 256], default = 256,
          doc = "columns of C per workgroup"},
    WGM = {values = [1, 2, 4, 8, 16], default = 8,
           doc = "row group of the workgroup order (hk.group_remap)"}}} {

hk.kernel @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    // hk.template: grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> ((s0 ceildiv ${BM}) * (s1 ceildiv ${BN}))>} {
    grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> ((s0 ceildiv 256) * (s1 ceildiv 256))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  // hk.template: %bm = arith.constant ${BM} : index
  %bm = arith.constant 256 : index
  // hk.template: %bn = arith.constant ${BN} : index
  %bn = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : !acc

  // One stage of each operand.
  %as = hk.alloc_shared : !st_stage_a
  %bs = hk.alloc_shared : !st_stage_b

  // Tile order: the linear workgroup id, XCD chunking, then WGM = 8 grouping.
  %m_len = memref.dim %C, %c0 : memref<?x?xbf16>
  %n_len = memref.dim %C, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m_len, %bm : index
  %tiles_n = arith.ceildivui %n_len, %bn : index
  %wg = hk.block_id x
  %count = hk.num_blocks x
  %wg2 = hk.xcd_remap %wg, %count xcds = 8, chunk = 64
  // hk.template: %tm, %tn = hk.group_remap %wg2, %tiles_m, %tiles_n group = ${WGM}
  %tm, %tn = hk.group_remap %wg2, %tiles_m, %tiles_n group = 8

  %w = hk.wave_id
  %wr = arith.divui %w, %c4 : index
  %wc = arith.remui %w, %c4 : index

  // This wave's 32x32 shares of each half of the stage: rows 32*w, i.e.
  // 32x32 tile row 8*tm + w of A (8*tn + w of B) along M (N).
  %a_row_base = arith.muli %tm, %c8 : index
  %a_row = arith.addi %a_row_base, %w : index
  %b_row_base = arith.muli %tn, %c8 : index
  %b_row = arith.addi %b_row_base, %w : index
  %as_share0 = hk.subtile %as[%w, %c0] : !st_stage_a -> !st_share_a
  %as_share1 = hk.subtile %as[%w, %c1] : !st_stage_a -> !st_share_a
  %bs_share0 = hk.subtile %bs[%w, %c0] : !st_stage_b -> !st_share_b
  %bs_share1 = hk.subtile %bs[%w, %c1] : !st_stage_b -> !st_share_b

  // This wave's slices of each half of the stage: A rows 64*wr and
  // 64*(wr + 2), B rows 32*wc and 32*(wc + 4); columns 0-31 (half 0) and
  // 32-63 (half 1).
  %ri1 = arith.addi %wr, %c2 : index
  %cj1 = arith.addi %wc, %c4 : index
  %sa00 = hk.subtile %as[%wr, %c0] : !st_stage_a -> !st_a
  %sa10 = hk.subtile %as[%ri1, %c0] : !st_stage_a -> !st_a
  %sb00 = hk.subtile %bs[%wc, %c0] : !st_stage_b -> !st_b
  %sb10 = hk.subtile %bs[%cj1, %c0] : !st_stage_b -> !st_b
  %sa01 = hk.subtile %as[%wr, %c1] : !st_stage_a -> !st_a
  %sa11 = hk.subtile %as[%ri1, %c1] : !st_stage_a -> !st_a
  %sb01 = hk.subtile %bs[%wc, %c1] : !st_stage_b -> !st_b
  %sb11 = hk.subtile %bs[%cj1, %c1] : !st_stage_b -> !st_b

  // K steps: ceildiv(K, 64); the global loads address 32-column halves.
  %k_len = memref.dim %A, %c1 : memref<?x?xbf16>
  %k_pad = arith.addi %k_len, %c63 : index
  %nk = arith.divui %k_pad, %c64 : index
  %nk_loop = arith.subi %nk, %c1 : index

  // Prologue: half 0 of K step 0 through registers into the stage, visible
  // to every wave before the loop reads it; half 1 stays in registers and
  // is stored by the first cluster of the loop.
  %ga0 = hk.load %A[%a_row, %c0] : memref<?x?xbf16> -> !rt_share_a
  %gb0 = hk.load %B[%b_row, %c0] : memref<?x?xbf16> -> !rt_share_b
  %ga1 = hk.load %A[%a_row, %c1] : memref<?x?xbf16> -> !rt_share_a
  %gb1 = hk.load %B[%b_row, %c1] : memref<?x?xbf16> -> !rt_share_b
  hk.store %ga0, %as_share0 : !rt_share_a, !st_share_a
  hk.store %gb0, %bs_share0 : !rt_share_b, !st_share_b
  hk.barrier

  %acc:4 = hk.ping_pong -> !acc, !acc, !acc, !acc {
    %r:6 = scf.for %k = %c0 to %nk_loop step %c1
        iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero,
                  %ha1 = %ga1, %hb1 = %gb1)
        -> (!acc, !acc, !acc, !acc, !rt_share_a, !rt_share_b) {
      // Cluster 0: half 0 of the stage holds K step k; read it. Store half
      // 1 of step k, prefetch half 0 of step k + 1.
      %a00, %a10, %b00, %b10, %fa0, %fb0 = hk.cluster memory
          -> !rt_a, !rt_a, !rt_b, !rt_b, !rt_share_a, !rt_share_b {
        %ra00 = hk.load %sa00 : !st_a -> !rt_a
        %ra10 = hk.load %sa10 : !st_a -> !rt_a
        %rb00 = hk.load %sb00 : !st_b -> !rt_b
        %rb10 = hk.load %sb10 : !st_b -> !rt_b
        hk.store %ha1, %as_share1 : !rt_share_a, !st_share_a
        hk.store %hb1, %bs_share1 : !rt_share_b, !st_share_b
        %k2 = arith.muli %k, %c2 : index
        %kn0 = arith.addi %k2, %c2 : index
        %pa0 = hk.load %A[%a_row, %kn0] : memref<?x?xbf16> -> !rt_share_a
        %pb0 = hk.load %B[%b_row, %kn0] : memref<?x?xbf16> -> !rt_share_b
        hk.yield %ra00, %ra10, %rb00, %rb10, %pa0, %pb0
            : !rt_a, !rt_a, !rt_b, !rt_b, !rt_share_a, !rt_share_b
      }

      // Cluster 1: K columns 0-31 of every accumulator.
      %d00, %d01, %d10, %d11 = hk.cluster compute -> !acc, !acc, !acc, !acc {
        %e00 = hk.mma abt %a00, %b00, %c00 : !rt_a, !rt_b, !acc
        %e01 = hk.mma abt %a00, %b10, %c01 : !rt_a, !rt_b, !acc
        %e10 = hk.mma abt %a10, %b00, %c10 : !rt_a, !rt_b, !acc
        %e11 = hk.mma abt %a10, %b10, %c11 : !rt_a, !rt_b, !acc
        hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
      }

      // Cluster 2: half 1 of the stage holds K step k (stored in cluster 0,
      // two clusters back); read it. Every wave has read half 0 (cluster 0):
      // overwrite it with step k + 1; prefetch half 1 of step k + 1.
      %a01, %a11, %b01, %b11, %fa1, %fb1 = hk.cluster memory
          -> !rt_a, !rt_a, !rt_b, !rt_b, !rt_share_a, !rt_share_b {
        %ra01 = hk.load %sa01 : !st_a -> !rt_a
        %ra11 = hk.load %sa11 : !st_a -> !rt_a
        %rb01 = hk.load %sb01 : !st_b -> !rt_b
        %rb11 = hk.load %sb11 : !st_b -> !rt_b
        hk.store %fa0, %as_share0 : !rt_share_a, !st_share_a
        hk.store %fb0, %bs_share0 : !rt_share_b, !st_share_b
        %k2 = arith.muli %k, %c2 : index
        %kn1 = arith.addi %k2, %c3 : index
        %pa1 = hk.load %A[%a_row, %kn1] : memref<?x?xbf16> -> !rt_share_a
        %pb1 = hk.load %B[%b_row, %kn1] : memref<?x?xbf16> -> !rt_share_b
        hk.yield %ra01, %ra11, %rb01, %rb11, %pa1, %pb1
            : !rt_a, !rt_a, !rt_b, !rt_b, !rt_share_a, !rt_share_b
      }

      // Cluster 3: K columns 32-63 of every accumulator.
      %f00, %f01, %f10, %f11 = hk.cluster compute -> !acc, !acc, !acc, !acc {
        %e00 = hk.mma abt %a01, %b01, %d00 : !rt_a, !rt_b, !acc
        %e01 = hk.mma abt %a01, %b11, %d01 : !rt_a, !rt_b, !acc
        %e10 = hk.mma abt %a11, %b01, %d10 : !rt_a, !rt_b, !acc
        %e11 = hk.mma abt %a11, %b11, %d11 : !rt_a, !rt_b, !acc
        hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
      }
      scf.yield %f00, %f01, %f10, %f11, %fa1, %fb1
          : !acc, !acc, !acc, !acc, !rt_share_a, !rt_share_b
    }

    // The last K step: clusters 0-3 of the loop without the prefetch and
    // without storing a next step's half 0.
    %a00, %a10, %b00, %b10 = hk.cluster memory
        -> !rt_a, !rt_a, !rt_b, !rt_b {
      %ra00 = hk.load %sa00 : !st_a -> !rt_a
      %ra10 = hk.load %sa10 : !st_a -> !rt_a
      %rb00 = hk.load %sb00 : !st_b -> !rt_b
      %rb10 = hk.load %sb10 : !st_b -> !rt_b
      hk.store %r#4, %as_share1 : !rt_share_a, !st_share_a
      hk.store %r#5, %bs_share1 : !rt_share_b, !st_share_b
      hk.yield %ra00, %ra10, %rb00, %rb10 : !rt_a, !rt_a, !rt_b, !rt_b
    }
    %d00, %d01, %d10, %d11 = hk.cluster compute -> !acc, !acc, !acc, !acc {
      %e00 = hk.mma abt %a00, %b00, %r#0 : !rt_a, !rt_b, !acc
      %e01 = hk.mma abt %a00, %b10, %r#1 : !rt_a, !rt_b, !acc
      %e10 = hk.mma abt %a10, %b00, %r#2 : !rt_a, !rt_b, !acc
      %e11 = hk.mma abt %a10, %b10, %r#3 : !rt_a, !rt_b, !acc
      hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
    }
    %a01, %a11, %b01, %b11 = hk.cluster memory
        -> !rt_a, !rt_a, !rt_b, !rt_b {
      %ra01 = hk.load %sa01 : !st_a -> !rt_a
      %ra11 = hk.load %sa11 : !st_a -> !rt_a
      %rb01 = hk.load %sb01 : !st_b -> !rt_b
      %rb11 = hk.load %sb11 : !st_b -> !rt_b
      hk.yield %ra01, %ra11, %rb01, %rb11 : !rt_a, !rt_a, !rt_b, !rt_b
    }
    %f00, %f01, %f10, %f11 = hk.cluster compute -> !acc, !acc, !acc, !acc {
      %e00 = hk.mma abt %a01, %b01, %d00 : !rt_a, !rt_b, !acc
      %e01 = hk.mma abt %a01, %b11, %d01 : !rt_a, !rt_b, !acc
      %e10 = hk.mma abt %a11, %b01, %d10 : !rt_a, !rt_b, !acc
      %e11 = hk.mma abt %a11, %b11, %d11 : !rt_a, !rt_b, !acc
      hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
    }
    hk.yield %f00, %f01, %f10, %f11 : !acc, !acc, !acc, !acc
  }

  // Store: accumulator C[i][j] is the 64x32 tile (in units of 64x32) at
  // row 4*tm + 2*i + wr and column 8*tn + 4*j + wc.
  %row_base = arith.muli %tm, %c4 : index
  %row0 = arith.addi %row_base, %wr : index
  %row1 = arith.addi %row0, %c2 : index
  %col_base = arith.muli %tn, %c8 : index
  %col0 = arith.addi %col_base, %wc : index
  %col1 = arith.addi %col0, %c4 : index
  %o00 = arith.truncf %acc#0 : !acc to !out
  %o01 = arith.truncf %acc#1 : !acc to !out
  %o10 = arith.truncf %acc#2 : !acc to !out
  %o11 = arith.truncf %acc#3 : !acc to !out
  hk.store %o00, %C[%row0, %col0] : !out, memref<?x?xbf16>
  hk.store %o01, %C[%row0, %col1] : !out, memref<?x?xbf16>
  hk.store %o10, %C[%row1, %col0] : !out, memref<?x?xbf16>
  hk.store %o11, %C[%row1, %col1] : !out, memref<?x?xbf16>
  hk.return
}

} // module
