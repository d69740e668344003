// Grouped bf16 GEMM (Mixture-of-Experts): for each group g of G,
//   C[o_g : o_{g+1}, :] = A[o_g : o_{g+1}, :] * B[g]^T,
// bf16 inputs, f32 accumulation, bf16 output, all groups in one launch.
//
// Arguments:
//   %A       : memref<?x?xbf16>    [sum M, K], the groups' rows packed in
//                                  group order, row-major
//   %B       : memref<?x?x?xbf16>  [G, N, K], one N x K matrix per group
//                                  (C_g = A_g * B_g^T, K-minor like A)
//   %C       : memref<?x?xbf16>    [sum M, N], packed like A
//   %offsets : memref<?xi32>       [G + 1], o_0 = 0 <= o_1 <= ... <= o_G =
//                                  sum M: group g holds rows [o_g, o_{g+1})
//                                  of A and C; groups may be empty
//   %workgroups : index            the number of workgroups to launch
// G, N and K come from B, sum M from A; M_g = o_{g+1} - o_g are read from
// device memory by the kernel and need not be multiples of anything: a
// group's rows are a view of A (and of C) of M_g rows, so tile loads past
// its end read zeros and tile stores past it are dropped, as at the edges
// of the dense GEMM.
//
// B is [G, N, K] rather than [G, K, N] because the dense GEMM's operand
// tiles are 16x32 row tiles along K for both A and B (C = A * B^T): with B
// K-minor, each wave's share of B is loaded by rows exactly as in
// gemm_bf16, and its B tiles address the leading group dimension directly
// (hk.load %B[%g, %row, %k]).
//
// Grid: a persistent 1-D grid of %workgroups workgroups, 8 waves each. The
// host chooses it from the chip without reading the group sizes (one per
// compute unit, the residency of this kernel, and no more than
// (sum M ceildiv 256 + G - 1) * (N ceildiv 256), a bound on the tile count);
// any positive count is correct.
//
// Tile scheduler. The output tiles of all groups, 256x256 each, form one
// list: group 0's ceildiv(M_0, 256) * ceildiv(N, 256) tiles, then group
// 1's, and so on. Workgroup w computes tiles w, w + P, w + 2P, ... (P the
// grid size). Every workgroup walks the groups in order, reading each
// group's end o_{g+1} with a scalar load (its start is the previous end),
// and carries its next tile counted from the group's first tile: inside
// the group it runs from there in steps of P, and what is left past the
// group's end carries on into the next group. Tiles inside a group are
// taken in WGM = 8
// order (hk.group_remap), as in gemm_bf16. Every wave of a workgroup runs
// the same loops (all their bounds are uniform), so the barriers of one
// tile match across the waves.
//
// One tile is gemm_bf16's workgroup: the same stage, shares, slices and
// 8-wave ping-pong K loop over four clusters (its header explains the
// clusters and why the single LDS stage is safe under the ping-pong
// stagger), with its last K step after the loop: the loop runs steps 0 to
// nk - 2, each prefetching the next, and step nk - 1 follows without the
// prefetch, so no load reaches past the end of K. Between tiles: the ping-pong region ends with waves 0-3
// waiting at a barrier for waves 4-7's last cluster, so every wave has
// finished its reads of the stage before any wave's next prologue writes
// half 0 of it again; the prologue ends with a barrier before the next K
// loop reads it.

!st_stage = !hk.st<256x64xbf16, 16x32>
!st_share = !hk.st<32x32xbf16, 16x32>
!st_a = !hk.st<64x32xbf16, 16x32>
!st_b = !hk.st<32x32xbf16, 16x32>
!rt_share = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!rt_a = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!rt_b = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
!out = tensor<64x32xbf16, #hk.rt<col, 16x16>>
!rows = memref<?x?xbf16, strided<[?, 1], offset: ?>>

// The fp8 variant's types (@gemm_grouped_fp8, below).
!fst_stage = !hk.st<256x128x!hk.fp8, 32x16>
!fst_share = !hk.st<32x64x!hk.fp8, 32x16>
!fst_a = !hk.st<64x128x!hk.fp8, 32x16>
!fst_b = !hk.st<32x128x!hk.fp8, 32x16>
!frt_share = tensor<32x64x!hk.fp8, #hk.rt<row, 32x32>>
!frt_a = tensor<64x128x!hk.fp8, #hk.rt<row, 32x32>>
!frt_b = tensor<32x128x!hk.fp8, #hk.rt<row, 32x32>>
!facc = tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
!fc = tensor<64x32xf32, #hk.rt<row, 32x32, group = 4>>
!fout = tensor<64x32xbf16, #hk.rt<row, 32x32, group = 4>>
!frows = tensor<64xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
!fcols = tensor<32xf32, #hk.rv<col, #hk.rt<row, 32x32, group = 4>>>
!frows_g = memref<?x?x!hk.fp8, strided<[?, 1], offset: ?>>
!fvec = memref<?xf32, strided<[1], offset: ?>>
!brows = memref<?x?xbf16, strided<[?, 1], offset: ?>>

hk.kernel @gemm_grouped(%A: memref<?x?xbf16>, %B: memref<?x?x?xbf16>,
                        %C: memref<?x?xbf16>, %offsets: memref<?xi32>,
                        %workgroups: index) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[arg(4)] -> (s0)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : !acc

  // One stage of each operand.
  %as = hk.alloc_shared : !st_stage
  %bs = hk.alloc_shared : !st_stage

  %groups = memref.dim %B, %c0 : memref<?x?x?xbf16>
  %n_len = memref.dim %B, %c1 : memref<?x?x?xbf16>
  %k_len = memref.dim %B, %c2 : memref<?x?x?xbf16>
  %tiles_n = arith.ceildivui %n_len, %c256 : index
  %wg = hk.block_id x
  %count = hk.num_blocks x

  %w = hk.wave_id
  %wr = arith.divui %w, %c4 : index
  %wc = arith.remui %w, %c4 : index

  // This wave's 32x32 shares of each half of the stage (rows 32*w).
  %as_share0 = hk.subtile %as[%w, %c0] : !st_stage -> !st_share
  %as_share1 = hk.subtile %as[%w, %c1] : !st_stage -> !st_share
  %bs_share0 = hk.subtile %bs[%w, %c0] : !st_stage -> !st_share
  %bs_share1 = hk.subtile %bs[%w, %c1] : !st_stage -> !st_share

  // This wave's slices of each half of the stage: A rows 64*wr and
  // 64*(wr + 2), B rows 32*wc and 32*(wc + 4).
  %ri1 = arith.addi %wr, %c2 : index
  %cj1 = arith.addi %wc, %c4 : index
  %sa00 = hk.subtile %as[%wr, %c0] : !st_stage -> !st_a
  %sa10 = hk.subtile %as[%ri1, %c0] : !st_stage -> !st_a
  %sb00 = hk.subtile %bs[%wc, %c0] : !st_stage -> !st_b
  %sb10 = hk.subtile %bs[%cj1, %c0] : !st_stage -> !st_b
  %sa01 = hk.subtile %as[%wr, %c1] : !st_stage -> !st_a
  %sa11 = hk.subtile %as[%ri1, %c1] : !st_stage -> !st_a
  %sb01 = hk.subtile %bs[%wc, %c1] : !st_stage -> !st_b
  %sb11 = hk.subtile %bs[%cj1, %c1] : !st_stage -> !st_b

  // K steps of 64; the global loads address 32-column halves.
  %k_pad = arith.addi %k_len, %c63 : index
  %nk = arith.divui %k_pad, %c64 : index
  %nk_loop = arith.subi %nk, %c1 : index

  // The groups in order. %rel is this workgroup's next tile, counted from
  // the first tile of group g; %lo is the group's first row.
  %first_lo_i32 = memref.load %offsets[%c0] : memref<?xi32>
  %first_lo = arith.index_castui %first_lo_i32 : i32 to index
  %end:2 = scf.for %g = %c0 to %groups step %c1
      iter_args(%rel = %wg, %lo = %first_lo) -> (index, index) {
    %g1 = arith.addi %g, %c1 : index
    %hi_i32 = memref.load %offsets[%g1] : memref<?xi32>
    %hi = arith.index_castui %hi_i32 : i32 to index
    %m_len = arith.subi %hi, %lo : index
    %tiles_m = arith.ceildivui %m_len, %c256 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index

    // The group's rows of A and C.
    %a_g = memref.subview %A[%lo, 0] [%m_len, %k_len] [1, 1]
        : memref<?x?xbf16> to !rows
    %c_g = memref.subview %C[%lo, 0] [%m_len, %n_len] [1, 1]
        : memref<?x?xbf16> to !rows

    // This workgroup's tiles of the group, %rel, %rel + count, ... The
    // loop also counts them on: %past is the first of its tiles at or
    // after the group's end (%rel itself if there is none in the group),
    // which, less the group's tiles, is %rel of the next group. Stepping
    // by addition spares the 64-bit divisions a residue would take in
    // every group.
    %past = scf.for %t = %rel to %tiles step %count
        iter_args(%at = %rel) -> (index) {
      %tm, %tn = hk.group_remap %t, %tiles_m, %tiles_n group = 8
      // This wave's 32x32 shares of the tile's operands: 32x32 tile row
      // 8*tm + w of A_g (8*tn + w of B_g).
      %a_row_base = arith.muli %tm, %c8 : index
      %a_row = arith.addi %a_row_base, %w : index
      %b_row_base = arith.muli %tn, %c8 : index
      %b_row = arith.addi %b_row_base, %w : index

      // Prologue: half 0 of K step 0 into the stage; half 1 stays in
      // registers and is stored by the loop's first cluster.
      %ga0 = hk.load %a_g[%a_row, %c0] : !rows -> !rt_share
      %gb0 = hk.load %B[%g, %b_row, %c0] : memref<?x?x?xbf16> -> !rt_share
      %ga1 = hk.load %a_g[%a_row, %c1] : !rows -> !rt_share
      %gb1 = hk.load %B[%g, %b_row, %c1] : memref<?x?x?xbf16> -> !rt_share
      hk.store %ga0, %as_share0 : !rt_share, !st_share
      hk.store %gb0, %bs_share0 : !rt_share, !st_share
      hk.barrier

      %acc:4 = hk.ping_pong -> !acc, !acc, !acc, !acc {
        %r:6 = scf.for %k = %c0 to %nk_loop step %c1
            iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero,
                      %ha1 = %ga1, %hb1 = %gb1)
            -> (!acc, !acc, !acc, !acc, !rt_share, !rt_share) {
          // Cluster 0: read half 0 (step k); store half 1 of step k;
          // prefetch half 0 of step k + 1.
          %a00, %a10, %b00, %b10, %fa0, %fb0 = hk.cluster memory
              -> !rt_a, !rt_a, !rt_b, !rt_b, !rt_share, !rt_share {
            %ra00 = hk.load %sa00 : !st_a -> !rt_a
            %ra10 = hk.load %sa10 : !st_a -> !rt_a
            %rb00 = hk.load %sb00 : !st_b -> !rt_b
            %rb10 = hk.load %sb10 : !st_b -> !rt_b
            hk.store %ha1, %as_share1 : !rt_share, !st_share
            hk.store %hb1, %bs_share1 : !rt_share, !st_share
            %k2 = arith.muli %k, %c2 : index
            %kn0 = arith.addi %k2, %c2 : index
            %pa0 = hk.load %a_g[%a_row, %kn0] : !rows -> !rt_share
            %pb0 = hk.load %B[%g, %b_row, %kn0]
                : memref<?x?x?xbf16> -> !rt_share
            hk.yield %ra00, %ra10, %rb00, %rb10, %pa0, %pb0
                : !rt_a, !rt_a, !rt_b, !rt_b, !rt_share, !rt_share
          }

          // Cluster 1: K columns 0-31 of every accumulator.
          %d00, %d01, %d10, %d11 = hk.cluster compute
              -> !acc, !acc, !acc, !acc {
            %e00 = hk.mma abt %a00, %b00, %c00 : !rt_a, !rt_b, !acc
            %e01 = hk.mma abt %a00, %b10, %c01 : !rt_a, !rt_b, !acc
            %e10 = hk.mma abt %a10, %b00, %c10 : !rt_a, !rt_b, !acc
            %e11 = hk.mma abt %a10, %b10, %c11 : !rt_a, !rt_b, !acc
            hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
          }

          // Cluster 2: read half 1 (step k); store half 0 of step k + 1;
          // prefetch half 1 of step k + 1.
          %a01, %a11, %b01, %b11, %fa1, %fb1 = hk.cluster memory
              -> !rt_a, !rt_a, !rt_b, !rt_b, !rt_share, !rt_share {
            %ra01 = hk.load %sa01 : !st_a -> !rt_a
            %ra11 = hk.load %sa11 : !st_a -> !rt_a
            %rb01 = hk.load %sb01 : !st_b -> !rt_b
            %rb11 = hk.load %sb11 : !st_b -> !rt_b
            hk.store %fa0, %as_share0 : !rt_share, !st_share
            hk.store %fb0, %bs_share0 : !rt_share, !st_share
            %k2 = arith.muli %k, %c2 : index
            %kn1 = arith.addi %k2, %c3 : index
            %pa1 = hk.load %a_g[%a_row, %kn1] : !rows -> !rt_share
            %pb1 = hk.load %B[%g, %b_row, %kn1]
                : memref<?x?x?xbf16> -> !rt_share
            hk.yield %ra01, %ra11, %rb01, %rb11, %pa1, %pb1
                : !rt_a, !rt_a, !rt_b, !rt_b, !rt_share, !rt_share
          }

          // Cluster 3: K columns 32-63 of every accumulator.
          %f00, %f01, %f10, %f11 = hk.cluster compute
              -> !acc, !acc, !acc, !acc {
            %e00 = hk.mma abt %a01, %b01, %d00 : !rt_a, !rt_b, !acc
            %e01 = hk.mma abt %a01, %b11, %d01 : !rt_a, !rt_b, !acc
            %e10 = hk.mma abt %a11, %b01, %d10 : !rt_a, !rt_b, !acc
            %e11 = hk.mma abt %a11, %b11, %d11 : !rt_a, !rt_b, !acc
            hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
          }
          scf.yield %f00, %f01, %f10, %f11, %fa1, %fb1
              : !acc, !acc, !acc, !acc, !rt_share, !rt_share
        }

        // The last K step: clusters 0-3 of the loop without the prefetch
        // and without storing a next step's half 0.
        %a00, %a10, %b00, %b10 = hk.cluster memory
            -> !rt_a, !rt_a, !rt_b, !rt_b {
          %ra00 = hk.load %sa00 : !st_a -> !rt_a
          %ra10 = hk.load %sa10 : !st_a -> !rt_a
          %rb00 = hk.load %sb00 : !st_b -> !rt_b
          %rb10 = hk.load %sb10 : !st_b -> !rt_b
          hk.store %r#4, %as_share1 : !rt_share, !st_share
          hk.store %r#5, %bs_share1 : !rt_share, !st_share
          hk.yield %ra00, %ra10, %rb00, %rb10 : !rt_a, !rt_a, !rt_b, !rt_b
        }
        %d00, %d01, %d10, %d11 = hk.cluster compute
            -> !acc, !acc, !acc, !acc {
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
        %f00, %f01, %f10, %f11 = hk.cluster compute
            -> !acc, !acc, !acc, !acc {
          %e00 = hk.mma abt %a01, %b01, %d00 : !rt_a, !rt_b, !acc
          %e01 = hk.mma abt %a01, %b11, %d01 : !rt_a, !rt_b, !acc
          %e10 = hk.mma abt %a11, %b01, %d10 : !rt_a, !rt_b, !acc
          %e11 = hk.mma abt %a11, %b11, %d11 : !rt_a, !rt_b, !acc
          hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
        }
        hk.yield %f00, %f01, %f10, %f11 : !acc, !acc, !acc, !acc
      }

      // Store: accumulator C[i][j] is the 64x32 tile (in units of 64x32)
      // at row 4*tm + 2*i + wr and column 8*tn + 4*j + wc of C_g.
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
      hk.store %o00, %c_g[%row0, %col0] : !out, !rows
      hk.store %o01, %c_g[%row0, %col1] : !out, !rows
      hk.store %o10, %c_g[%row1, %col0] : !out, !rows
      hk.store %o11, %c_g[%row1, %col1] : !out, !rows
      %at_next = arith.addi %at, %count : index
      scf.yield %at_next : index
    }
    %rel_next = arith.subi %past, %tiles : index
    scf.yield %rel_next, %hi : index, index
  }
  hk.return
}

// The fp8 variant: gemm_grouped on !hk.fp8 (the chip's E4M3, one source for
// both chips) with per-group scales, bf16 out:
//   C[o_g + i, j] = bf16(sa[o_g + i] sb[g, j] sum_k A[o_g + i, k] B[g, j, k])
// Arguments as @gemm_grouped, plus
//   %sa : memref<?xf32>    [sum M], a scale per row of A (per token)
//   %sb : memref<?x?xf32>  [G, N], a scale per column of each group's B
//                          (per expert and output channel)
// and A, B of !hk.fp8. The tile scheduler is @gemm_grouped's; one tile is
// gemm_fp8's workgroup (kernels/gemm_fp8/gemm_fp8.mlir: K step 128, one
// 64 KiB stage refilled through registers by 128-row regions, eight
// clusters per step, the last K step after the loop; its header gives the
// hazards), on the group's views of A, B, sa, sb and C, with what gemm_fp8
// measured to pay (docs/report.md, "fp8 GEMMs against HipKittens' FP8
// kernels"):
//   * 32x16 subtiles of the stage, whose rows SharedLayout.h places so that
//     the 16-byte reads of a 32x32 base tile meet no bank conflicts
//     (16x16 subtiles put rows r and r + 16 on the same banks);
//   * when K >= 128 the prologue's loads of step 0 carry hk.cols_in_bounds:
//     they check rows only (the group's, for A), not each byte's column;
//   * the accumulators hold C^T (each compute cluster multiplies the B
//     slice by the A slice), relabelled as row tiles of C by hk.transpose,
//     so that a lane stores 4 consecutive columns with one 8-byte store
//     instead of one 2-byte store per value. Rows past the group's end are
//     outside the view of C and their stores are dropped, as before.
// Between tiles the region's mirror barrier orders every read of the stage
// before the next tile's prologue writes it.
hk.kernel @gemm_grouped_fp8(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x?x!hk.fp8>,
                            %sa: memref<?xf32>, %sb: memref<?x?xf32>,
                            %C: memref<?x?xbf16>, %offsets: memref<?xi32>,
                            %workgroups: index) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[arg(6)] -> (s0)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : !facc

  // One stage of each operand.
  %as = hk.alloc_shared : !fst_stage
  %bs = hk.alloc_shared : !fst_stage

  %groups = memref.dim %B, %c0 : memref<?x?x?x!hk.fp8>
  %n_len = memref.dim %B, %c1 : memref<?x?x?x!hk.fp8>
  %k_len = memref.dim %B, %c2 : memref<?x?x?x!hk.fp8>
  %tiles_n = arith.ceildivui %n_len, %c256 : index
  %wg = hk.block_id x
  %count = hk.num_blocks x

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
  %sr4 = arith.addi %sr, %c4 : index
  %as_share0 = hk.subtile %as[%sr, %sc] : !fst_stage -> !fst_share
  %as_share1 = hk.subtile %as[%sr4, %sc] : !fst_stage -> !fst_share
  %bs_share0 = hk.subtile %bs[%sr, %sc] : !fst_stage -> !fst_share
  %bs_share1 = hk.subtile %bs[%sr4, %sc] : !fst_stage -> !fst_share

  // This wave's slices: A rows 64*wr (region 0) and 128 + 64*wr (region
  // 1), B rows 32*wc and 128 + 32*wc.
  %ri1 = arith.addi %wr, %c2 : index
  %cj1 = arith.addi %wc, %c4 : index
  %sa0 = hk.subtile %as[%wr, %c0] : !fst_stage -> !fst_a
  %sa1 = hk.subtile %as[%ri1, %c0] : !fst_stage -> !fst_a
  %sb0 = hk.subtile %bs[%wc, %c0] : !fst_stage -> !fst_b
  %sb1 = hk.subtile %bs[%cj1, %c0] : !fst_stage -> !fst_b

  // K steps of 128; step 0's columns are all in range when K >= 128.
  %k_pad = arith.addi %k_len, %c127 : index
  %nk = arith.divui %k_pad, %c128 : index
  %nk_loop = arith.subi %nk, %c1 : index
  %k_full = arith.cmpi uge, %k_len, %c128 : index

  // The groups in order, as in @gemm_grouped.
  %first_lo_i32 = memref.load %offsets[%c0] : memref<?xi32>
  %first_lo = arith.index_castui %first_lo_i32 : i32 to index
  %end:2 = scf.for %g = %c0 to %groups step %c1
      iter_args(%rel = %wg, %lo = %first_lo) -> (index, index) {
    %g1 = arith.addi %g, %c1 : index
    %hi_i32 = memref.load %offsets[%g1] : memref<?xi32>
    %hi = arith.index_castui %hi_i32 : i32 to index
    %m_len = arith.subi %hi, %lo : index
    %tiles_m = arith.ceildivui %m_len, %c256 : index
    %tiles = arith.muli %tiles_m, %tiles_n : index

    // The group's rows of A, C and sa, and its scales of B.
    %a_g = memref.subview %A[%lo, 0] [%m_len, %k_len] [1, 1]
        : memref<?x?x!hk.fp8> to !frows_g
    %c_g = memref.subview %C[%lo, 0] [%m_len, %n_len] [1, 1]
        : memref<?x?xbf16> to !brows
    %sa_g = memref.subview %sa[%lo] [%m_len] [1] : memref<?xf32> to !fvec
    %sb_g = memref.subview %sb[%g, 0] [1, %n_len] [1, 1]
        : memref<?x?xf32> to !fvec

    %past = scf.for %t = %rel to %tiles step %count
        iter_args(%at = %rel) -> (index) {
      %tm, %tn = hk.group_remap %t, %tiles_m, %tiles_n group = 8
      %a_base = arith.muli %tm, %c8 : index
      %a_row0 = arith.addi %a_base, %sr : index
      %a_row1 = arith.addi %a_row0, %c4 : index
      %b_base = arith.muli %tn, %c8 : index
      %b_row0 = arith.addi %b_base, %sr : index
      %b_row1 = arith.addi %b_row0, %c4 : index

      // Prologue: step 0 of every region through registers into the stage,
      // visible to every wave before the loop reads it. When K >= 128 its
      // columns are in range and only the rows (the group's, for A) are
      // checked.
      %ga0, %gb0, %gb1, %ga1 = scf.if %k_full
          -> (!frt_share, !frt_share, !frt_share, !frt_share) {
        %qa0 = hk.load %a_g[%a_row0, %sc] {hk.cols_in_bounds}
            : !frows_g -> !frt_share
        %qb0 = hk.load %B[%g, %b_row0, %sc] {hk.cols_in_bounds}
            : memref<?x?x?x!hk.fp8> -> !frt_share
        %qb1 = hk.load %B[%g, %b_row1, %sc] {hk.cols_in_bounds}
            : memref<?x?x?x!hk.fp8> -> !frt_share
        %qa1 = hk.load %a_g[%a_row1, %sc] {hk.cols_in_bounds}
            : !frows_g -> !frt_share
        scf.yield %qa0, %qb0, %qb1, %qa1
            : !frt_share, !frt_share, !frt_share, !frt_share
      } else {
        %qa0 = hk.load %a_g[%a_row0, %sc] : !frows_g -> !frt_share
        %qb0 = hk.load %B[%g, %b_row0, %sc]
            : memref<?x?x?x!hk.fp8> -> !frt_share
        %qb1 = hk.load %B[%g, %b_row1, %sc]
            : memref<?x?x?x!hk.fp8> -> !frt_share
        %qa1 = hk.load %a_g[%a_row1, %sc] : !frows_g -> !frt_share
        scf.yield %qa0, %qb0, %qb1, %qa1
            : !frt_share, !frt_share, !frt_share, !frt_share
      }
      hk.store %ga0, %as_share0 : !frt_share, !fst_share
      hk.store %gb0, %bs_share0 : !frt_share, !fst_share
      hk.store %gb1, %bs_share1 : !frt_share, !fst_share
      hk.store %ga1, %as_share1 : !frt_share, !fst_share
      hk.barrier
      // The B0 slice of step 0; the loop reads each next step's B0 slice in its
      // last memory cluster.
      %b0_first = hk.load %sb0 : !fst_b -> !frt_b

      %acc:4 = hk.ping_pong -> !facc, !facc, !facc, !facc {
        %r:5 = scf.for %k = %c0 to %nk_loop step %c1
            iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero,
                      %b0 = %b0_first)
            -> (!facc, !facc, !facc, !facc, !frt_b) {
          %kn1 = arith.addi %k, %c1 : index
          %kn2 = arith.muli %kn1, %c2 : index
          %kn = arith.addi %kn2, %sc : index
          // Cluster 0: read the A0 slice of step k (its B0 slice was read by
          // the previous step's cluster 6, or before the loop); prefetch A0, B0
          // of step k + 1.
          %a0, %pa0, %pb0 = hk.cluster memory
              -> !frt_a, !frt_share, !frt_share {
            %ra = hk.load %sa0 : !fst_a -> !frt_a
            %qa = hk.load %a_g[%a_row0, %kn] : !frows_g -> !frt_share
            %qb = hk.load %B[%g, %b_row0, %kn]
                : memref<?x?x?x!hk.fp8> -> !frt_share
            hk.yield %ra, %qa, %qb : !frt_a, !frt_share, !frt_share
          }
          %d00 = hk.cluster compute -> !facc {
            %e = hk.mma abt %b0, %a0, %c00 : !frt_b, !frt_a, !facc
            hk.yield %e : !facc
          }
          // Cluster 2: read the B1 slice; every wave has read A0 and B0
          // (cluster 0): overwrite them with step k + 1; prefetch B1.
          %b1, %pb1 = hk.cluster memory -> !frt_b, !frt_share {
            %rb = hk.load %sb1 : !fst_b -> !frt_b
            hk.store %pa0, %as_share0 : !frt_share, !fst_share
            hk.store %pb0, %bs_share0 : !frt_share, !fst_share
            %qb = hk.load %B[%g, %b_row1, %kn]
                : memref<?x?x?x!hk.fp8> -> !frt_share
            hk.yield %rb, %qb : !frt_b, !frt_share
          }
          %d01 = hk.cluster compute -> !facc {
            %e = hk.mma abt %b1, %a0, %c01 : !frt_b, !frt_a, !facc
            hk.yield %e : !facc
          }
          // Cluster 4: read the A1 slice; store B1 of step k + 1 (read in
          // cluster 2); prefetch A1.
          %a1, %pa1 = hk.cluster memory -> !frt_a, !frt_share {
            %ra = hk.load %sa1 : !fst_a -> !frt_a
            hk.store %pb1, %bs_share1 : !frt_share, !fst_share
            %qa = hk.load %a_g[%a_row1, %kn] : !frows_g -> !frt_share
            hk.yield %ra, %qa : !frt_a, !frt_share
          }
          %d10 = hk.cluster compute -> !facc {
            %e = hk.mma abt %b0, %a1, %c10 : !frt_b, !frt_a, !facc
            hk.yield %e : !facc
          }
          // Cluster 6: store A1 of step k + 1 (read in cluster 4); read the B0
          // slice of step k + 1 (stored in cluster 2; cluster 5 was the last
          // use of step k's).
          %b0n = hk.cluster memory -> !frt_b {
            hk.store %pa1, %as_share1 : !frt_share, !fst_share
            %rb = hk.load %sb0 : !fst_b -> !frt_b
            hk.yield %rb : !frt_b
          }
          %d11 = hk.cluster compute -> !facc {
            %e = hk.mma abt %b1, %a1, %c11 : !frt_b, !frt_a, !facc
            hk.yield %e : !facc
          }
          scf.yield %d00, %d01, %d10, %d11, %b0n
              : !facc, !facc, !facc, !facc, !frt_b
        }

        // The last K step: the loop's clusters without prefetches and stores.
        %a0 = hk.cluster memory -> !frt_a {
          %ra = hk.load %sa0 : !fst_a -> !frt_a
          hk.yield %ra : !frt_a
        }
        %d00 = hk.cluster compute -> !facc {
          %e = hk.mma abt %r#4, %a0, %r#0 : !frt_b, !frt_a, !facc
          hk.yield %e : !facc
        }
        %b1 = hk.cluster memory -> !frt_b {
          %rb = hk.load %sb1 : !fst_b -> !frt_b
          hk.yield %rb : !frt_b
        }
        %d01 = hk.cluster compute -> !facc {
          %e = hk.mma abt %b1, %a0, %r#1 : !frt_b, !frt_a, !facc
          hk.yield %e : !facc
        }
        %a1 = hk.cluster memory -> !frt_a {
          %ra = hk.load %sa1 : !fst_a -> !frt_a
          hk.yield %ra : !frt_a
        }
        %d1:2 = hk.cluster compute -> !facc, !facc {
          %e10 = hk.mma abt %r#4, %a1, %r#2 : !frt_b, !frt_a, !facc
          %e11 = hk.mma abt %b1, %a1, %r#3 : !frt_b, !frt_a, !facc
          hk.yield %e10, %e11 : !facc, !facc
        }
        hk.yield %d00, %d01, %d1#0, %d1#1 : !facc, !facc, !facc, !facc
      }

      // Epilogue: accumulator C[i][j]^T, transposed (no data movement), is
      // the 64x32 tile C[i][j] (in units of 64x32) at row 4*tm + 2*i + wr
      // and column 8*tn + 4*j + wc of C_g, 4 consecutive columns of a row
      // per lane; the scales of its rows and columns are the 64- and
      // 32-element vectors at the same indices. Rows past the group's end
      // are outside the views of C and sa: their stores are dropped.
      %row_base = arith.muli %tm, %c4 : index
      %row0 = arith.addi %row_base, %wr : index
      %row1 = arith.addi %row0, %c2 : index
      %col_base = arith.muli %tn, %c8 : index
      %col0 = arith.addi %col_base, %wc : index
      %col1 = arith.addi %col0, %c4 : index
      %t00 = hk.transpose %acc#0 : !facc -> !fc
      %t01 = hk.transpose %acc#1 : !facc -> !fc
      %t10 = hk.transpose %acc#2 : !facc -> !fc
      %t11 = hk.transpose %acc#3 : !facc -> !fc
      %ra0 = hk.load %sa_g[%row0] : !fvec -> !frows
      %ra1 = hk.load %sa_g[%row1] : !fvec -> !frows
      %cb0 = hk.load %sb_g[%col0] : !fvec -> !fcols
      %cb1 = hk.load %sb_g[%col1] : !fvec -> !fcols
      %x00 = hk.row_broadcast mul %t00, %ra0 : !fc, !frows
      %x01 = hk.row_broadcast mul %t01, %ra0 : !fc, !frows
      %x10 = hk.row_broadcast mul %t10, %ra1 : !fc, !frows
      %x11 = hk.row_broadcast mul %t11, %ra1 : !fc, !frows
      %y00 = hk.col_broadcast mul %x00, %cb0 : !fc, !fcols
      %y01 = hk.col_broadcast mul %x01, %cb1 : !fc, !fcols
      %y10 = hk.col_broadcast mul %x10, %cb0 : !fc, !fcols
      %y11 = hk.col_broadcast mul %x11, %cb1 : !fc, !fcols
      %o00 = arith.truncf %y00 : !fc to !fout
      %o01 = arith.truncf %y01 : !fc to !fout
      %o10 = arith.truncf %y10 : !fc to !fout
      %o11 = arith.truncf %y11 : !fc to !fout
      hk.store %o00, %c_g[%row0, %col0] : !fout, !brows
      hk.store %o01, %c_g[%row0, %col1] : !fout, !brows
      hk.store %o10, %c_g[%row1, %col0] : !fout, !brows
      hk.store %o11, %c_g[%row1, %col1] : !fout, !brows
      %at_next = arith.addi %at, %count : index
      scf.yield %at_next : index
    }
    %rel_next = arith.subi %past, %tiles : index
    scf.yield %rel_next, %hi : index, index
  }
  hk.return
}
