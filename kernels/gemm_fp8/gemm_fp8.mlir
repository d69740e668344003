// fp8 GEMM with f32 scales and bf16 output, one source for both chips:
//   @gemm_fp8:        C[i, j] = bf16(sa[i] sb[j] sum_k A[i, k] B[j, k])
//                     (per-row scales of A, per-column scales of B);
//   @gemm_fp8_tensor: C[i, j] = bf16(s sum_k A[i, k] B[j, k])
//                     (one scale for the product of the two tensors).
// A and B are !hk.fp8, the chip's E4M3: FNUZ on gfx942, OCP on gfx950
// (hk-resolve-fp8); the host encodes them for the chip (Python: hk.fp8).
//
// Arguments:
//   %A  : memref<?x?x!hk.fp8>  M x K, row-major
//   %B  : memref<?x?x!hk.fp8>  N x K, row-major (C = A B^T: both K-minor)
//   %sa : memref<?xf32>        M (@gemm_fp8)
//   %sb : memref<?xf32>        N (@gemm_fp8)
//   %s  : f32                  (@gemm_fp8_tensor)
//   %C  : memref<?x?xbf16>     M x N, row-major
// M, N and K need not be multiples of the tiles: loads outside A, B, sa or
// sb read zeros, which add nothing, and stores outside C are dropped.
//
// Grid: one workgroup per 256x256 tile of C, as a 1-D grid of
//   ceildiv(M, 256) * ceildiv(N, 256) workgroups; 8 waves (512 threads) each.
//
// Work split, as in HipKittens' 8-wave FP8 GEMM (256x256 output, K step
// 128), with gemm_bf16's single LDS stage and register prefetch so that one
// source fits gfx942's 64 KiB of LDS as well as gfx950's:
//   * the linear workgroup id is remapped across XCDs (8, chunks of 64) and
//     into WGM = 8 row groups, as in gemm_bf16;
//   * waves form a 2 x 4 grid (wave_row = w / 4, wave_col = w % 4); wave
//     (r, c) owns four 64x32 tiles C[i][j] at rows i*128 + r*64 and
//     columns j*128 + c*32 of the block (i, j in {0, 1}), accumulated as
//     their 32x64 transposes (below), 128 f32 registers per lane;
//   * LDS holds one stage, the 256x128 A and B tiles of the current K step
//     (2 x 32 KiB), seen as four regions of 128 rows: A0 (A rows 0-127), A1
//     (rows 128-255), B0 and B1. Each wave loads the next step's 32x64
//     share of every region from global memory into registers (32x32 base
//     tiles: 16 consecutive bytes of a row per lane, one 16-byte load and
//     one 16-byte LDS write per base tile) and stores it into the stage
//     once every wave has read the region;
//   * the stage's subtiles are 32x16 (16-byte rows), so that a lane's 16
//     bytes of a slice are one ds_read_b128, and each 32-row base tile lies
//     in one subtile, whose rows SharedLayout.h places so that the rows of
//     one LDS phase (r and r + 16 among them) fall on different banks;
//   * each wave reads whole-K slices, a 64x128 A slice (32 registers) and
//     32x128 B slices (16 each), into 32x32 row tiles, and every compute
//     cluster is one 32x64x128 hk.mma abt of a B slice by an A slice, into
//     the 32x32 accumulator tiles of C[i][j]^T (col layout, group 4): on
//     gfx950 two K base tiles make the 32 K values per lane of one
//     v_mfma_f32_32x32x64_f8f6f4 (four per cluster), on gfx942 each base
//     tile feeds two v_mfma_f32_32x32x16_fp8_fp8. Against 16x16 output
//     tiles this halves the MFMA instructions for the same work (0.87
//     instructions per MFMA-equivalent in the gfx950 hot loop against 1.01,
//     scripts/bench-hotloops.sh). Accumulating C^T rather than C costs
//     nothing in the loop (the MFMA takes its operands either way round)
//     and pays in the epilogue: hk.transpose makes a col tile of C^T a row
//     tile of C, each lane 4 consecutive columns of a row, stored with one
//     8-byte store per 4 values where C's own col layout (4 rows of a
//     column) takes a 2-byte store per value.
// The K loop runs in an 8-wave ping-pong with eight clusters per K step k;
// like HipKittens' FP8 kernel it holds one A slice and both B slices at a
// time and changes one operand per memory cluster:
//   0 memory:  read A0 and B0 slices (step k); prefetch A0, B0 of step k+1;
//   1 compute: C[0][0]^T += B0 A0^T;
//   2 memory:  read the B1 slice; store A0, B0 of step k+1; prefetch B1;
//   3 compute: C[0][1]^T += B1 A0^T;
//   4 memory:  read the A1 slice; store B1 of step k+1; prefetch A1;
//   5 compute: C[1][0]^T += B0 A1^T;
//   6 memory:  store A1 of step k+1;
//   7 compute: C[1][1]^T += B1 A1^T.
// At the end of a memory cluster a wave holds the accumulators (128), the
// slices (64) and at most 16 registers of prefetch: 208 registers of data.
//
// Hazards. hk-schedule ends every cluster with a barrier and runs waves 4-7
// one cluster behind waves 0-3 (docs/schedules.md), so an access in
// cluster i is ordered before another wave's access in cluster i+2 or
// later, not i+1. Numbering the clusters of step k 8k to 8k+7, per region:
//   A0, B0: read (step k) in 8k, written (step k+1) in 8k+2, read in 8k+8;
//   B1:     read in 8k+2, written in 8k+4, read in 8k+10;
//   A1:     read in 8k+4, written in 8k+6, read in 8k+12;
// every write two clusters after the last read of the region and six
// before the next; different waves write different rows, so writes never
// conflict with each other. The prologue stores all four regions of step 0
// and ends with a barrier; when K >= 128 its loads carry
// hk.cols_in_bounds (step 0's columns are all in range), as hk-peel-bounds
// marks the loop's: without it each load zeroes the bytes past K with a
// compare and a select per byte, about 400 VALU instructions per wave that
// delay the first MFMA. The loop runs steps 0 to nk - 2, each
// prefetching the next; step nk - 1 follows it as the same clusters
// without the prefetches and stores, so no load reaches past the end of K.
// With K = 0 (nk = 0) the loop runs no trip and the last step multiplies
// the zeros the prologue loaded.

!st_stage = !hk.st<256x128x!hk.fp8, 32x16>
!st_share = !hk.st<32x64x!hk.fp8, 32x16>
!st_a = !hk.st<64x128x!hk.fp8, 32x16>
!st_b = !hk.st<32x128x!hk.fp8, 32x16>
!rt_share = tensor<32x64x!hk.fp8, #hk.rt<row, 32x32>>
!rt_a = tensor<64x128x!hk.fp8, #hk.rt<row, 32x32>>
!rt_b = tensor<32x128x!hk.fp8, #hk.rt<row, 32x32>>
!acc = tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
!c_f32 = tensor<64x32xf32, #hk.rt<row, 32x32, group = 4>>
!out = tensor<64x32xbf16, #hk.rt<row, 32x32, group = 4>>
!rows = tensor<64xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!cols = tensor<32xf32, #hk.rv<col, #hk.rt<row, 32x32, group = 4>>>

hk.kernel @gemm_fp8(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x!hk.fp8>,
                    %sa: memref<?xf32>, %sb: memref<?xf32>,
                    %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(4, 0), dim(4, 1)] ->
                    ((s0 ceildiv 256) * (s1 ceildiv 256))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : !acc

  // One stage of each operand.
  %as = hk.alloc_shared : !st_stage
  %bs = hk.alloc_shared : !st_stage

  // Tile order: the linear workgroup id, XCD chunking, then WGM = 8 grouping.
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

  // This wave's 32x64 shares of the regions: rows 32*(w/2), K columns
  // 64*(w%2) of each, i.e. 32x64 tile (8*tm + w/2, 2*k + w%2) of A in
  // region 0 and (8*tm + 4 + w/2, ...) in region 1, the same of B with tn.
  // A lane holds 16 consecutive bytes of a row per 32x32 base tile: two
  // 16-byte global loads and LDS writes per share.
  %sr = arith.divui %w, %c2 : index
  %sc = arith.remui %w, %c2 : index
  %a_base = arith.muli %tm, %c8 : index
  %a_row0 = arith.addi %a_base, %sr : index
  %a_row1 = arith.addi %a_row0, %c4 : index
  %b_base = arith.muli %tn, %c8 : index
  %b_row0 = arith.addi %b_base, %sr : index
  %b_row1 = arith.addi %b_row0, %c4 : index
  %sr4 = arith.addi %sr, %c4 : index
  %as_share0 = hk.subtile %as[%sr, %sc] : !st_stage -> !st_share
  %as_share1 = hk.subtile %as[%sr4, %sc] : !st_stage -> !st_share
  %bs_share0 = hk.subtile %bs[%sr, %sc] : !st_stage -> !st_share
  %bs_share1 = hk.subtile %bs[%sr4, %sc] : !st_stage -> !st_share

  // This wave's slices: A rows 64*wr (region 0) and 128 + 64*wr (region
  // 1), B rows 32*wc and 128 + 32*wc.
  %ri1 = arith.addi %wr, %c2 : index
  %cj1 = arith.addi %wc, %c4 : index
  %sa0 = hk.subtile %as[%wr, %c0] : !st_stage -> !st_a
  %sa1 = hk.subtile %as[%ri1, %c0] : !st_stage -> !st_a
  %sb0 = hk.subtile %bs[%wc, %c0] : !st_stage -> !st_b
  %sb1 = hk.subtile %bs[%cj1, %c0] : !st_stage -> !st_b

  // K steps: ceildiv(K, 128).
  %k_len = memref.dim %A, %c1 : memref<?x?x!hk.fp8>
  %k_pad = arith.addi %k_len, %c127 : index
  %nk = arith.divui %k_pad, %c128 : index
  %nk_loop = arith.subi %nk, %c1 : index

  // Prologue: step 0 of every region through registers into the stage,
  // visible to every wave before the loop reads it; its columns are in
  // range when K >= 128.
  %k_full = arith.cmpi uge, %k_len, %c128 : index
  %ga0, %gb0, %gb1, %ga1 = scf.if %k_full
      -> (!rt_share, !rt_share, !rt_share, !rt_share) {
    %qa0 = hk.load %A[%a_row0, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    %qb0 = hk.load %B[%b_row0, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    %qb1 = hk.load %B[%b_row1, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    %qa1 = hk.load %A[%a_row1, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    scf.yield %qa0, %qb0, %qb1, %qa1
        : !rt_share, !rt_share, !rt_share, !rt_share
  } else {
    %qa0 = hk.load %A[%a_row0, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    %qb0 = hk.load %B[%b_row0, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    %qb1 = hk.load %B[%b_row1, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    %qa1 = hk.load %A[%a_row1, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    scf.yield %qa0, %qb0, %qb1, %qa1
        : !rt_share, !rt_share, !rt_share, !rt_share
  }
  hk.store %ga0, %as_share0 : !rt_share, !st_share
  hk.store %gb0, %bs_share0 : !rt_share, !st_share
  hk.store %gb1, %bs_share1 : !rt_share, !st_share
  hk.store %ga1, %as_share1 : !rt_share, !st_share
  hk.barrier
  // The B0 slice of step 0; the loop reads each next step's B0 slice in its
  // last memory cluster.
  %b0_first = hk.load %sb0 : !st_b -> !rt_b

  %acc:4 = hk.ping_pong -> !acc, !acc, !acc, !acc {
    %r:5 = scf.for %k = %c0 to %nk_loop step %c1
        iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero,
                  %b0 = %b0_first)
        -> (!acc, !acc, !acc, !acc, !rt_b) {
      %kn1 = arith.addi %k, %c1 : index
      %kn2 = arith.muli %kn1, %c2 : index
      %kn = arith.addi %kn2, %sc : index
      // Cluster 0: read the A0 slice of step k (its B0 slice was read by
      // the previous step's cluster 6, or before the loop); prefetch A0, B0
      // of step k + 1.
      %a0, %pa0, %pb0 = hk.cluster memory
          -> !rt_a, !rt_share, !rt_share {
        %ra = hk.load %sa0 : !st_a -> !rt_a
        %qa = hk.load %A[%a_row0, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        %qb = hk.load %B[%b_row0, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        hk.yield %ra, %qa, %qb : !rt_a, !rt_share, !rt_share
      }
      %d00 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b0, %a0, %c00 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      // Cluster 2: read the B1 slice; every wave has read A0 and B0
      // (cluster 0): overwrite them with step k + 1; prefetch B1.
      %b1, %pb1 = hk.cluster memory -> !rt_b, !rt_share {
        %rb = hk.load %sb1 : !st_b -> !rt_b
        hk.store %pa0, %as_share0 : !rt_share, !st_share
        hk.store %pb0, %bs_share0 : !rt_share, !st_share
        %qb = hk.load %B[%b_row1, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        hk.yield %rb, %qb : !rt_b, !rt_share
      }
      %d01 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b1, %a0, %c01 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      // Cluster 4: read the A1 slice; store B1 of step k + 1 (read in
      // cluster 2); prefetch A1.
      %a1, %pa1 = hk.cluster memory -> !rt_a, !rt_share {
        %ra = hk.load %sa1 : !st_a -> !rt_a
        hk.store %pb1, %bs_share1 : !rt_share, !st_share
        %qa = hk.load %A[%a_row1, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        hk.yield %ra, %qa : !rt_a, !rt_share
      }
      %d10 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b0, %a1, %c10 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      // Cluster 6: store A1 of step k + 1 (read in cluster 4); read the B0
      // slice of step k + 1 (stored in cluster 2; cluster 5 was the last
      // use of step k's).
      %b0n = hk.cluster memory -> !rt_b {
        hk.store %pa1, %as_share1 : !rt_share, !st_share
        %rb = hk.load %sb0 : !st_b -> !rt_b
        hk.yield %rb : !rt_b
      }
      %d11 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b1, %a1, %c11 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      scf.yield %d00, %d01, %d10, %d11, %b0n
          : !acc, !acc, !acc, !acc, !rt_b
    }

    // The last K step: the loop's clusters without prefetches and stores.
    %a0 = hk.cluster memory -> !rt_a {
      %ra = hk.load %sa0 : !st_a -> !rt_a
      hk.yield %ra : !rt_a
    }
    %d00 = hk.cluster compute -> !acc {
      %e = hk.mma abt %r#4, %a0, %r#0 : !rt_b, !rt_a, !acc
      hk.yield %e : !acc
    }
    %b1 = hk.cluster memory -> !rt_b {
      %rb = hk.load %sb1 : !st_b -> !rt_b
      hk.yield %rb : !rt_b
    }
    %d01 = hk.cluster compute -> !acc {
      %e = hk.mma abt %b1, %a0, %r#1 : !rt_b, !rt_a, !acc
      hk.yield %e : !acc
    }
    %a1 = hk.cluster memory -> !rt_a {
      %ra = hk.load %sa1 : !st_a -> !rt_a
      hk.yield %ra : !rt_a
    }
    %d1:2 = hk.cluster compute -> !acc, !acc {
      %e10 = hk.mma abt %r#4, %a1, %r#2 : !rt_b, !rt_a, !acc
      %e11 = hk.mma abt %b1, %a1, %r#3 : !rt_b, !rt_a, !acc
      hk.yield %e10, %e11 : !acc, !acc
    }
    hk.yield %d00, %d01, %d1#0, %d1#1 : !acc, !acc, !acc, !acc
  }

  // Epilogue: accumulator C[i][j]^T, transposed (no data movement), is the
  // 64x32 tile C[i][j] (in units of 64x32) at row 4*tm + 2*i + wr and
  // column 8*tn + 4*j + wc; the scales of its rows and columns are the 64-
  // and 32-element vectors at the same indices.
  %row_base = arith.muli %tm, %c4 : index
  %row0 = arith.addi %row_base, %wr : index
  %row1 = arith.addi %row0, %c2 : index
  %col_base = arith.muli %tn, %c8 : index
  %col0 = arith.addi %col_base, %wc : index
  %col1 = arith.addi %col0, %c4 : index
  %t00 = hk.transpose %acc#0 : !acc -> !c_f32
  %t01 = hk.transpose %acc#1 : !acc -> !c_f32
  %t10 = hk.transpose %acc#2 : !acc -> !c_f32
  %t11 = hk.transpose %acc#3 : !acc -> !c_f32
  %ra0 = hk.load %sa[%row0] : memref<?xf32> -> !rows
  %ra1 = hk.load %sa[%row1] : memref<?xf32> -> !rows
  %cb0 = hk.load %sb[%col0] : memref<?xf32> -> !cols
  %cb1 = hk.load %sb[%col1] : memref<?xf32> -> !cols
  %x00 = hk.row_broadcast mul %t00, %ra0 : !c_f32, !rows
  %x01 = hk.row_broadcast mul %t01, %ra0 : !c_f32, !rows
  %x10 = hk.row_broadcast mul %t10, %ra1 : !c_f32, !rows
  %x11 = hk.row_broadcast mul %t11, %ra1 : !c_f32, !rows
  %y00 = hk.col_broadcast mul %x00, %cb0 : !c_f32, !cols
  %y01 = hk.col_broadcast mul %x01, %cb1 : !c_f32, !cols
  %y10 = hk.col_broadcast mul %x10, %cb0 : !c_f32, !cols
  %y11 = hk.col_broadcast mul %x11, %cb1 : !c_f32, !cols
  %o00 = arith.truncf %y00 : !c_f32 to !out
  %o01 = arith.truncf %y01 : !c_f32 to !out
  %o10 = arith.truncf %y10 : !c_f32 to !out
  %o11 = arith.truncf %y11 : !c_f32 to !out
  hk.store %o00, %C[%row0, %col0] : !out, memref<?x?xbf16>
  hk.store %o01, %C[%row0, %col1] : !out, memref<?x?xbf16>
  hk.store %o10, %C[%row1, %col0] : !out, memref<?x?xbf16>
  hk.store %o11, %C[%row1, %col1] : !out, memref<?x?xbf16>
  hk.return
}

// The same K loop; the epilogue multiplies by one scale.
hk.kernel @gemm_fp8_tensor(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x!hk.fp8>,
                           %s: f32, %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(3, 0), dim(3, 1)] ->
                    ((s0 ceildiv 256) * (s1 ceildiv 256))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : !acc

  // One stage of each operand.
  %as = hk.alloc_shared : !st_stage
  %bs = hk.alloc_shared : !st_stage

  // Tile order: the linear workgroup id, XCD chunking, then WGM = 8 grouping.
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

  // This wave's 32x64 shares of the regions: rows 32*(w/2), K columns
  // 64*(w%2) of each, i.e. 32x64 tile (8*tm + w/2, 2*k + w%2) of A in
  // region 0 and (8*tm + 4 + w/2, ...) in region 1, the same of B with tn.
  // A lane holds 16 consecutive bytes of a row per 32x32 base tile: two
  // 16-byte global loads and LDS writes per share.
  %sr = arith.divui %w, %c2 : index
  %sc = arith.remui %w, %c2 : index
  %a_base = arith.muli %tm, %c8 : index
  %a_row0 = arith.addi %a_base, %sr : index
  %a_row1 = arith.addi %a_row0, %c4 : index
  %b_base = arith.muli %tn, %c8 : index
  %b_row0 = arith.addi %b_base, %sr : index
  %b_row1 = arith.addi %b_row0, %c4 : index
  %sr4 = arith.addi %sr, %c4 : index
  %as_share0 = hk.subtile %as[%sr, %sc] : !st_stage -> !st_share
  %as_share1 = hk.subtile %as[%sr4, %sc] : !st_stage -> !st_share
  %bs_share0 = hk.subtile %bs[%sr, %sc] : !st_stage -> !st_share
  %bs_share1 = hk.subtile %bs[%sr4, %sc] : !st_stage -> !st_share

  // This wave's slices: A rows 64*wr (region 0) and 128 + 64*wr (region
  // 1), B rows 32*wc and 128 + 32*wc.
  %ri1 = arith.addi %wr, %c2 : index
  %cj1 = arith.addi %wc, %c4 : index
  %sa0 = hk.subtile %as[%wr, %c0] : !st_stage -> !st_a
  %sa1 = hk.subtile %as[%ri1, %c0] : !st_stage -> !st_a
  %sb0 = hk.subtile %bs[%wc, %c0] : !st_stage -> !st_b
  %sb1 = hk.subtile %bs[%cj1, %c0] : !st_stage -> !st_b

  // K steps: ceildiv(K, 128).
  %k_len = memref.dim %A, %c1 : memref<?x?x!hk.fp8>
  %k_pad = arith.addi %k_len, %c127 : index
  %nk = arith.divui %k_pad, %c128 : index
  %nk_loop = arith.subi %nk, %c1 : index

  // Prologue: step 0 of every region through registers into the stage,
  // visible to every wave before the loop reads it; its columns are in
  // range when K >= 128.
  %k_full = arith.cmpi uge, %k_len, %c128 : index
  %ga0, %gb0, %gb1, %ga1 = scf.if %k_full
      -> (!rt_share, !rt_share, !rt_share, !rt_share) {
    %qa0 = hk.load %A[%a_row0, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    %qb0 = hk.load %B[%b_row0, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    %qb1 = hk.load %B[%b_row1, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    %qa1 = hk.load %A[%a_row1, %sc] {hk.cols_in_bounds}
        : memref<?x?x!hk.fp8> -> !rt_share
    scf.yield %qa0, %qb0, %qb1, %qa1
        : !rt_share, !rt_share, !rt_share, !rt_share
  } else {
    %qa0 = hk.load %A[%a_row0, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    %qb0 = hk.load %B[%b_row0, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    %qb1 = hk.load %B[%b_row1, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    %qa1 = hk.load %A[%a_row1, %sc] : memref<?x?x!hk.fp8> -> !rt_share
    scf.yield %qa0, %qb0, %qb1, %qa1
        : !rt_share, !rt_share, !rt_share, !rt_share
  }
  hk.store %ga0, %as_share0 : !rt_share, !st_share
  hk.store %gb0, %bs_share0 : !rt_share, !st_share
  hk.store %gb1, %bs_share1 : !rt_share, !st_share
  hk.store %ga1, %as_share1 : !rt_share, !st_share
  hk.barrier
  // The B0 slice of step 0; the loop reads each next step's B0 slice in its
  // last memory cluster.
  %b0_first = hk.load %sb0 : !st_b -> !rt_b

  %acc:4 = hk.ping_pong -> !acc, !acc, !acc, !acc {
    %r:5 = scf.for %k = %c0 to %nk_loop step %c1
        iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero,
                  %b0 = %b0_first)
        -> (!acc, !acc, !acc, !acc, !rt_b) {
      %kn1 = arith.addi %k, %c1 : index
      %kn2 = arith.muli %kn1, %c2 : index
      %kn = arith.addi %kn2, %sc : index
      // Cluster 0: read the A0 slice of step k (its B0 slice was read by
      // the previous step's cluster 6, or before the loop); prefetch A0, B0
      // of step k + 1.
      %a0, %pa0, %pb0 = hk.cluster memory
          -> !rt_a, !rt_share, !rt_share {
        %ra = hk.load %sa0 : !st_a -> !rt_a
        %qa = hk.load %A[%a_row0, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        %qb = hk.load %B[%b_row0, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        hk.yield %ra, %qa, %qb : !rt_a, !rt_share, !rt_share
      }
      %d00 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b0, %a0, %c00 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      // Cluster 2: read the B1 slice; every wave has read A0 and B0
      // (cluster 0): overwrite them with step k + 1; prefetch B1.
      %b1, %pb1 = hk.cluster memory -> !rt_b, !rt_share {
        %rb = hk.load %sb1 : !st_b -> !rt_b
        hk.store %pa0, %as_share0 : !rt_share, !st_share
        hk.store %pb0, %bs_share0 : !rt_share, !st_share
        %qb = hk.load %B[%b_row1, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        hk.yield %rb, %qb : !rt_b, !rt_share
      }
      %d01 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b1, %a0, %c01 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      // Cluster 4: read the A1 slice; store B1 of step k + 1 (read in
      // cluster 2); prefetch A1.
      %a1, %pa1 = hk.cluster memory -> !rt_a, !rt_share {
        %ra = hk.load %sa1 : !st_a -> !rt_a
        hk.store %pb1, %bs_share1 : !rt_share, !st_share
        %qa = hk.load %A[%a_row1, %kn] : memref<?x?x!hk.fp8> -> !rt_share
        hk.yield %ra, %qa : !rt_a, !rt_share
      }
      %d10 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b0, %a1, %c10 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      // Cluster 6: store A1 of step k + 1 (read in cluster 4); read the B0
      // slice of step k + 1 (stored in cluster 2; cluster 5 was the last
      // use of step k's).
      %b0n = hk.cluster memory -> !rt_b {
        hk.store %pa1, %as_share1 : !rt_share, !st_share
        %rb = hk.load %sb0 : !st_b -> !rt_b
        hk.yield %rb : !rt_b
      }
      %d11 = hk.cluster compute -> !acc {
        %e = hk.mma abt %b1, %a1, %c11 : !rt_b, !rt_a, !acc
        hk.yield %e : !acc
      }
      scf.yield %d00, %d01, %d10, %d11, %b0n
          : !acc, !acc, !acc, !acc, !rt_b
    }

    // The last K step: the loop's clusters without prefetches and stores.
    %a0 = hk.cluster memory -> !rt_a {
      %ra = hk.load %sa0 : !st_a -> !rt_a
      hk.yield %ra : !rt_a
    }
    %d00 = hk.cluster compute -> !acc {
      %e = hk.mma abt %r#4, %a0, %r#0 : !rt_b, !rt_a, !acc
      hk.yield %e : !acc
    }
    %b1 = hk.cluster memory -> !rt_b {
      %rb = hk.load %sb1 : !st_b -> !rt_b
      hk.yield %rb : !rt_b
    }
    %d01 = hk.cluster compute -> !acc {
      %e = hk.mma abt %b1, %a0, %r#1 : !rt_b, !rt_a, !acc
      hk.yield %e : !acc
    }
    %a1 = hk.cluster memory -> !rt_a {
      %ra = hk.load %sa1 : !st_a -> !rt_a
      hk.yield %ra : !rt_a
    }
    %d1:2 = hk.cluster compute -> !acc, !acc {
      %e10 = hk.mma abt %r#4, %a1, %r#2 : !rt_b, !rt_a, !acc
      %e11 = hk.mma abt %b1, %a1, %r#3 : !rt_b, !rt_a, !acc
      hk.yield %e10, %e11 : !acc, !acc
    }
    hk.yield %d00, %d01, %d1#0, %d1#1 : !acc, !acc, !acc, !acc
  }

  // Epilogue: accumulator C[i][j]^T, transposed (no data movement), is the
  // 64x32 tile C[i][j] (in units of 64x32) at row 4*tm + 2*i + wr and
  // column 8*tn + 4*j + wc.
  %row_base = arith.muli %tm, %c4 : index
  %row0 = arith.addi %row_base, %wr : index
  %row1 = arith.addi %row0, %c2 : index
  %col_base = arith.muli %tn, %c8 : index
  %col0 = arith.addi %col_base, %wc : index
  %col1 = arith.addi %col0, %c4 : index
  %t00 = hk.transpose %acc#0 : !acc -> !c_f32
  %t01 = hk.transpose %acc#1 : !acc -> !c_f32
  %t10 = hk.transpose %acc#2 : !acc -> !c_f32
  %t11 = hk.transpose %acc#3 : !acc -> !c_f32
  %st = tensor.splat %s : !c_f32
  %y00 = arith.mulf %t00, %st : !c_f32
  %y01 = arith.mulf %t01, %st : !c_f32
  %y10 = arith.mulf %t10, %st : !c_f32
  %y11 = arith.mulf %t11, %st : !c_f32
  %o00 = arith.truncf %y00 : !c_f32 to !out
  %o01 = arith.truncf %y01 : !c_f32 to !out
  %o10 = arith.truncf %y10 : !c_f32 to !out
  %o11 = arith.truncf %y11 : !c_f32 to !out
  hk.store %o00, %C[%row0, %col0] : !out, memref<?x?xbf16>
  hk.store %o01, %C[%row0, %col1] : !out, memref<?x?xbf16>
  hk.store %o10, %C[%row1, %col0] : !out, memref<?x?xbf16>
  hk.store %o11, %C[%row1, %col1] : !out, memref<?x?xbf16>
  hk.return
}
