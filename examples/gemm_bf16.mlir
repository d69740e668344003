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
//     (2 x 32 KiB = 64 KiB, which fits gfx942 as well as gfx950). The next
//     K step is prefetched from global memory into registers, each wave
//     loading its 32x64 share of A and of B (rows 32*w of the stage), and
//     written to the stage once every wave has read the current one;
//   * each wave reads its 64x64 A and 32x64 B slices into 16x32 row tiles
//     (the A/B layout of v_mfma_f32_16x16x32_bf16, which also feeds two
//     16x16x16 MFMAs on gfx942) and accumulates with mma_ABt into 16x16 col
//     tiles.
//
// The K loop runs in an 8-wave ping-pong with four clusters per K step, as
// in HipKittens' CDNA3 kernel:
//   0 memory:  read the stage (K step k) into registers, prefetch K step k+1
//              from global memory into registers;
//   1 compute: C[0][0], C[0][1] += A0 * B^T;
//   2 memory:  write the prefetched K step k+1 into the stage;
//   3 compute: C[1][0], C[1][1] += A1 * B^T.
// hk-schedule ends every cluster with a barrier and runs waves 4-7 one
// cluster behind waves 0-3 (docs/schedules.md). Counting clusters from the
// start of the loop (cluster c of step k is number 4k + c), the barrier
// that ends cluster i of waves 0-3 also ends cluster i-1 of waves 4-7, so
// an access in cluster i is ordered before an access of any other wave in
// cluster i+2 or later (not i+1: waves 4-7 may still be in cluster i while
// waves 0-3 run cluster i+1). The single stage is therefore safe: a wave
// reads the stage in cluster 4k, and it is overwritten in 4k+2; it is
// written in 4k+2 and read again in 4k+4. The prologue's barrier, before
// the region, makes K step 0 visible to every wave.
// The last step prefetches the K tile past the end of A and B (zeros) into
// the stage; it is never read.

!st_stage = !hk.st<256x64xbf16, 16x32>
!st_share = !hk.st<32x64xbf16, 16x32>
!st_a = !hk.st<64x64xbf16, 16x32>
!st_b = !hk.st<32x64xbf16, 16x32>
!rt_share = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!rt_a = tensor<64x64xbf16, #hk.rt<row, 16x32>>
!rt_b = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
!out = tensor<64x32xbf16, #hk.rt<col, 16x16>>

hk.kernel @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(2, 0), dim(2, 1)] ->
                    ((s0 ceildiv 256) * (s1 ceildiv 256))>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
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

  // This wave's 32x64 share of each stage: rows 32*w, i.e. 32x64 tile
  // 8*tm + w of A (8*tn + w of B) along M (N).
  %a_row_base = arith.muli %tm, %c8 : index
  %a_row = arith.addi %a_row_base, %w : index
  %b_row_base = arith.muli %tn, %c8 : index
  %b_row = arith.addi %b_row_base, %w : index
  %as_share = hk.subtile %as[%w, %c0] : !st_stage -> !st_share
  %bs_share = hk.subtile %bs[%w, %c0] : !st_stage -> !st_share

  // This wave's slices of the stage: A rows 64*wr and 64*(wr + 2), B rows
  // 32*wc and 32*(wc + 4).
  %ri1 = arith.addi %wr, %c2 : index
  %cj1 = arith.addi %wc, %c4 : index
  %sa0 = hk.subtile %as[%wr, %c0] : !st_stage -> !st_a
  %sa1 = hk.subtile %as[%ri1, %c0] : !st_stage -> !st_a
  %sb0 = hk.subtile %bs[%wc, %c0] : !st_stage -> !st_b
  %sb1 = hk.subtile %bs[%cj1, %c0] : !st_stage -> !st_b

  // K steps: ceildiv(K, 64).
  %k_len = memref.dim %A, %c1 : memref<?x?xbf16>
  %k_pad = arith.addi %k_len, %c63 : index
  %nk = arith.divui %k_pad, %c64 : index

  // Prologue: K step 0 through registers into the stage, visible to every
  // wave before the loop reads it.
  %ga0 = hk.load %A[%a_row, %c0] : memref<?x?xbf16> -> !rt_share
  %gb0 = hk.load %B[%b_row, %c0] : memref<?x?xbf16> -> !rt_share
  hk.store %ga0, %as_share : !rt_share, !st_share
  hk.store %gb0, %bs_share : !rt_share, !st_share
  hk.barrier

  %acc:4 = hk.ping_pong -> !acc, !acc, !acc, !acc {
    %r:4 = scf.for %k = %c0 to %nk step %c1
        iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero)
        -> (!acc, !acc, !acc, !acc) {
      // Cluster 0: the stage holds K step k; read it, prefetch step k + 1.
      %a0, %a1, %b0, %b1, %ga, %gb = hk.cluster memory
          -> !rt_a, !rt_a, !rt_b, !rt_b, !rt_share, !rt_share {
        %ra0 = hk.load %sa0 : !st_a -> !rt_a
        %ra1 = hk.load %sa1 : !st_a -> !rt_a
        %rb0 = hk.load %sb0 : !st_b -> !rt_b
        %rb1 = hk.load %sb1 : !st_b -> !rt_b
        %k1 = arith.addi %k, %c1 : index
        %pa = hk.load %A[%a_row, %k1] : memref<?x?xbf16> -> !rt_share
        %pb = hk.load %B[%b_row, %k1] : memref<?x?xbf16> -> !rt_share
        hk.yield %ra0, %ra1, %rb0, %rb1, %pa, %pb
            : !rt_a, !rt_a, !rt_b, !rt_b, !rt_share, !rt_share
      }

      // Cluster 1: the first row of accumulators.
      %d00, %d01 = hk.cluster compute -> !acc, !acc {
        %e00 = hk.mma abt %a0, %b0, %c00 : !rt_a, !rt_b, !acc
        %e01 = hk.mma abt %a0, %b1, %c01 : !rt_a, !rt_b, !acc
        hk.yield %e00, %e01 : !acc, !acc
      }

      // Cluster 2: every wave has read K step k (in cluster 0, two clusters
      // back): overwrite the stage with K step k + 1.
      hk.cluster memory {
        hk.store %ga, %as_share : !rt_share, !st_share
        hk.store %gb, %bs_share : !rt_share, !st_share
        hk.yield
      }

      // Cluster 3: the second row of accumulators.
      %d10, %d11 = hk.cluster compute -> !acc, !acc {
        %e10 = hk.mma abt %a1, %b0, %c10 : !rt_a, !rt_b, !acc
        %e11 = hk.mma abt %a1, %b1, %c11 : !rt_a, !rt_b, !acc
        hk.yield %e10, %e11 : !acc, !acc
      }
      scf.yield %d00, %d01, %d10, %d11 : !acc, !acc, !acc, !acc
    }
    hk.yield %r#0, %r#1, %r#2, %r#3 : !acc, !acc, !acc, !acc
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
