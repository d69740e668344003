// A double-buffered bf16 GEMM with asynchronous copies: the form of the
// library GEMM (kernels/gemm_bf16) before it moved to one LDS stage with
// register prefetch (examples/gemm_bf16.mlir before commit 3f219de), with
// its ping-pong clusters flattened into plain barriers, since hk.ping_pong
// now places its own. Same arguments and grid mapping as then: C = A * B^T,
// A: MxK, B: NxK, C: MxN bf16, one 256x256 tile of C per workgroup on a
// (ceildiv(M, 256), ceildiv(N, 256)) grid, 8 waves in a 2 x 4 grid each
// owning four 64x32 accumulators.
//
// A and B stages of 256x64 bf16 are copied global -> LDS by all eight waves
// with hk.load_async, two stages per operand (128 KiB: gfx950 only). Every
// K step k waits for its stage (issued two steps earlier), reads it after a
// barrier, and, after a second barrier, refills it with step k + 2. The
// last two prefetches address K tiles past the end of A and B (zeros) and
// are waited for before the kernel ends.

!st_stage2 = !hk.st<512x64xbf16, 16x32>
!st_stage = !hk.st<256x64xbf16, 16x32>
!st_a = !hk.st<64x64xbf16, 16x32>
!st_b = !hk.st<32x64xbf16, 16x32>
!rt_a = tensor<64x64xbf16, #hk.rt<row, 16x32>>
!rt_b = tensor<32x64xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
!out = tensor<64x32xbf16, #hk.rt<col, 16x16>>

hk.kernel @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xbf16>) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 256, s1 ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
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

  // K steps: ceildiv(K, 64).
  %k_len = memref.dim %A, %c1 : memref<?x?xbf16>
  %k_pad = arith.addi %k_len, %c63 : index
  %nk = arith.divui %k_pad, %c64 : index

  // Prologue: K steps 0 and 1 into stages 0 and 1.
  %as0 = hk.subtile %as[%c0, %c0] : !st_stage2 -> !st_stage
  %bs0 = hk.subtile %bs[%c0, %c0] : !st_stage2 -> !st_stage
  %as1 = hk.subtile %as[%c1, %c0] : !st_stage2 -> !st_stage
  %bs1 = hk.subtile %bs[%c1, %c0] : !st_stage2 -> !st_stage
  %ta0 = hk.load_async %A[%tm, %c0], %as0 : memref<?x?xbf16>, !st_stage
  %tb0 = hk.load_async %B[%tn, %c0], %bs0 : memref<?x?xbf16>, !st_stage
  %ta1 = hk.load_async %A[%tm, %c1], %as1 : memref<?x?xbf16>, !st_stage
  %tb1 = hk.load_async %B[%tn, %c1], %bs1 : memref<?x?xbf16>, !st_stage

  %r:8 = scf.for %k = %c0 to %nk step %c1
      iter_args(%c00 = %zero, %c01 = %zero, %c10 = %zero, %c11 = %zero,
                %ta = %ta0, %tb = %tb0, %tan = %ta1, %tbn = %tb1)
      -> (!acc, !acc, !acc, !acc, !hk.token, !hk.token, !hk.token,
          !hk.token) {
    %s = arith.remui %k, %c2 : index
    %a_stage = hk.subtile %as[%s, %c0] : !st_stage2 -> !st_stage
    %b_stage = hk.subtile %bs[%s, %c0] : !st_stage2 -> !st_stage

    // Stage s holds K step k once every wave's share of it has landed:
    // each wave waits for its own copies, the barrier for everyone's.
    hk.wait %ta, %tb
    hk.barrier
    %ri1 = arith.addi %wr, %c2 : index
    %cj1 = arith.addi %wc, %c4 : index
    %sa0 = hk.subtile %a_stage[%wr, %c0] : !st_stage -> !st_a
    %sa1 = hk.subtile %a_stage[%ri1, %c0] : !st_stage -> !st_a
    %sb0 = hk.subtile %b_stage[%wc, %c0] : !st_stage -> !st_b
    %sb1 = hk.subtile %b_stage[%cj1, %c0] : !st_stage -> !st_b
    %a0 = hk.load %sa0 : !st_a -> !rt_a
    %a1 = hk.load %sa1 : !st_a -> !rt_a
    %b0 = hk.load %sb0 : !st_b -> !rt_b
    %b1 = hk.load %sb1 : !st_b -> !rt_b

    %d00 = hk.mma abt %a0, %b0, %c00 : !rt_a, !rt_b, !acc
    %d01 = hk.mma abt %a0, %b1, %c01 : !rt_a, !rt_b, !acc
    %d10 = hk.mma abt %a1, %b0, %c10 : !rt_a, !rt_b, !acc
    %d11 = hk.mma abt %a1, %b1, %c11 : !rt_a, !rt_b, !acc

    // Every wave has read stage s into registers: refill it with K step
    // k + 2.
    hk.barrier
    %k2 = arith.addi %k, %c2 : index
    %na = hk.load_async %A[%tm, %k2], %a_stage : memref<?x?xbf16>, !st_stage
    %nb = hk.load_async %B[%tn, %k2], %b_stage : memref<?x?xbf16>, !st_stage
    scf.yield %d00, %d01, %d10, %d11, %tan, %tbn, %na, %nb
        : !acc, !acc, !acc, !acc, !hk.token, !hk.token, !hk.token, !hk.token
  }
  // The two prefetches past the end of K.
  hk.wait %r#4, %r#5, %r#6, %r#7

  // Store: accumulator C[i][j] is the 64x32 tile (in units of 64x32) at
  // row 4*tm + 2*i + wr and column 8*tn + 4*j + wc.
  %row_base = arith.muli %tm, %c4 : index
  %row0 = arith.addi %row_base, %wr : index
  %row1 = arith.addi %row0, %c2 : index
  %col_base = arith.muli %tn, %c8 : index
  %col0 = arith.addi %col_base, %wc : index
  %col1 = arith.addi %col0, %c4 : index
  %o00 = arith.truncf %r#0 : !acc to !out
  %o01 = arith.truncf %r#1 : !acc to !out
  %o10 = arith.truncf %r#2 : !acc to !out
  %o11 = arith.truncf %r#3 : !acc to !out
  hk.store %o00, %C[%row0, %col0] : !out, memref<?x?xbf16>
  hk.store %o01, %C[%row0, %col1] : !out, memref<?x?xbf16>
  hk.store %o10, %C[%row1, %col0] : !out, memref<?x?xbf16>
  hk.store %o11, %C[%row1, %col1] : !out, memref<?x?xbf16>
  hk.return
}
