// bf16 GEMM with a K step of 32: C = A * B^T, bf16 inputs, f32 accumulation,
// bf16 output. The variant of gemm_bf16.mlir whose LDS fits every supported
// chip.
//
// Arguments, grid, tile order, wave split, ping-pong schedule and bounds
// handling are those of gemm_bf16.mlir:
//   %A : memref<?x?xbf16>  M x K;  %B : memref<?x?xbf16>  N x K;
//   %C : memref<?x?xbf16>  M x N;  runtime M, N, K of any size.
//   Grid (ceildiv(M, 256), ceildiv(N, 256)), 8 waves, 256x256 of C per
//   workgroup, four 64x32 f32 accumulators per wave.
// The only change is the K step, 32 instead of 64, so that the double-buffered
// stages take 2 operands x 2 stages x 256x32 bf16 = 64 KiB, exactly the LDS of
// gfx942. A wave's A and B slices are then 64x32 and 32x32 row tiles with
// 16x32 base tiles: one v_mfma_f32_16x16x32_bf16 (gfx950) or two
// v_mfma_f32_16x16x16_bf16 (gfx942) per 16x16 output block and K step.
// HipKittens' CDNA3 GEMM keeps K step 64 and stages its global loads through
// registers (buffer_load, then ds_write); here the prefetch is hk.load_async
// into a double buffer, which therefore has to fit in LDS.
//
// The last two prefetches read K tiles past the end of A and B (zeros) and
// are waited for before the kernel ends.

!st_stage2 = !hk.st<512x32xbf16, 16x32>
!st_stage = !hk.st<256x32xbf16, 16x32>
!st_a = !hk.st<64x32xbf16, 16x32>
!st_b = !hk.st<32x32xbf16, 16x32>
!rt_a = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!rt_b = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
!out = tensor<64x32xbf16, #hk.rt<col, 16x16>>

hk.kernel @gemm_bf16_k32(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 256, s1 ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.0> : !acc

  // Two stages of each operand; stage s is rows [256*s, 256*s + 256).
  %as = hk.alloc_shared : !st_stage2
  %bs = hk.alloc_shared : !st_stage2

  // Tile order: XCD chunking, then WGM = 8 grouping.
  %bx = hk.block_id x
  %by = hk.block_id y
  %tiles_m = hk.num_blocks x
  %tiles_n = hk.num_blocks y
  %by_n = arith.muli %by, %tiles_m : index
  %wg = arith.addi %by_n, %bx : index
  %count = arith.muli %tiles_m, %tiles_n : index
  %wg2 = hk.xcd_remap %wg, %count xcds = 8, chunk = 64
  %tm, %tn = hk.group_remap %wg2, %tiles_m, %tiles_n group = 8

  %w = hk.wave_id
  %wr = arith.divui %w, %c4 : index
  %wc = arith.remui %w, %c4 : index

  // K steps: ceildiv(K, 32).
  %k_len = memref.dim %A, %c1 : memref<?x?xbf16>
  %k_pad = arith.addi %k_len, %c31 : index
  %nk = arith.divui %k_pad, %c32 : index

  // Prologue: K steps 0 and 1 into stages 0 and 1.
  %as0 = hk.subtile %as[%c0, %c0] : !st_stage2 -> !st_stage
  %bs0 = hk.subtile %bs[%c0, %c0] : !st_stage2 -> !st_stage
  %as1 = hk.subtile %as[%c1, %c0] : !st_stage2 -> !st_stage
  %bs1 = hk.subtile %bs[%c1, %c0] : !st_stage2 -> !st_stage
  %ta0 = hk.load_async %A[%tm, %c0], %as0 : memref<?x?xbf16>, !st_stage
  %tb0 = hk.load_async %B[%tn, %c0], %bs0 : memref<?x?xbf16>, !st_stage
  %ta1 = hk.load_async %A[%tm, %c1], %as1 : memref<?x?xbf16>, !st_stage
  %tb1 = hk.load_async %B[%tn, %c1], %bs1 : memref<?x?xbf16>, !st_stage

  %acc:8 = hk.ping_pong -> !acc, !acc, !acc, !acc, !hk.token, !hk.token,
                            !hk.token, !hk.token {
    %r:8 = scf.for %k = %c0 to %nk step %c1
        iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero,
                  %ta = %ta0, %tb = %tb0, %tan = %ta1, %tbn = %tb1)
        -> (!acc, !acc, !acc, !acc, !hk.token, !hk.token, !hk.token,
            !hk.token) {
      %s = arith.remui %k, %c2 : index
      %a_stage = hk.subtile %as[%s, %c0] : !st_stage2 -> !st_stage
      %b_stage = hk.subtile %bs[%s, %c0] : !st_stage2 -> !st_stage

      // Stage s holds K step k once every wave's share of it has landed.
      %a0, %a1, %b0, %b1 = hk.cluster memory -> !rt_a, !rt_a, !rt_b, !rt_b {
        hk.wait %ta, %tb
        hk.barrier
        %ri1 = arith.addi %wr, %c2 : index
        %cj1 = arith.addi %wc, %c4 : index
        %sa0 = hk.subtile %a_stage[%wr, %c0] : !st_stage -> !st_a
        %sa1 = hk.subtile %a_stage[%ri1, %c0] : !st_stage -> !st_a
        %sb0 = hk.subtile %b_stage[%wc, %c0] : !st_stage -> !st_b
        %sb1 = hk.subtile %b_stage[%cj1, %c0] : !st_stage -> !st_b
        %ra0 = hk.load %sa0 : !st_a -> !rt_a
        %ra1 = hk.load %sa1 : !st_a -> !rt_a
        %rb0 = hk.load %sb0 : !st_b -> !rt_b
        %rb1 = hk.load %sb1 : !st_b -> !rt_b
        hk.yield %ra0, %ra1, %rb0, %rb1 : !rt_a, !rt_a, !rt_b, !rt_b
      }

      %d00, %d01, %d10, %d11 = hk.cluster compute -> !acc, !acc, !acc, !acc {
        %e00 = hk.mma abt %a0, %b0, %c00 : !rt_a, !rt_b, !acc
        %e01 = hk.mma abt %a0, %b1, %c01 : !rt_a, !rt_b, !acc
        %e10 = hk.mma abt %a1, %b0, %c10 : !rt_a, !rt_b, !acc
        %e11 = hk.mma abt %a1, %b1, %c11 : !rt_a, !rt_b, !acc
        hk.yield %e00, %e01, %e10, %e11 : !acc, !acc, !acc, !acc
      }

      // Every wave has read stage s into registers: refill it with K step
      // k + 2.
      %na, %nb = hk.cluster memory -> !hk.token, !hk.token {
        hk.barrier
        %k2 = arith.addi %k, %c2 : index
        %t0 = hk.load_async %A[%tm, %k2], %a_stage : memref<?x?xbf16>, !st_stage
        %t1 = hk.load_async %B[%tn, %k2], %b_stage : memref<?x?xbf16>, !st_stage
        hk.yield %t0, %t1 : !hk.token, !hk.token
      }
      scf.yield %d00, %d01, %d10, %d11, %tan, %tbn, %na, %nb
          : !acc, !acc, !acc, !acc, !hk.token, !hk.token, !hk.token, !hk.token
    }
    hk.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7
        : !acc, !acc, !acc, !acc, !hk.token, !hk.token, !hk.token, !hk.token
  }
  // The two prefetches past the end of K.
  hk.wait %acc#4, %acc#5, %acc#6, %acc#7

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
