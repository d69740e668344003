// Blockwise-scaled fp8 GEMM (DeepSeek-V3 style), bf16 out, one source for
// both chips:
//   C[i, j] = bf16( sum_kb sa[kb, i] sb[j / 128, kb]
//                          sum_{k in block kb} A[i, k] B[j, k] )
// with one f32 scale per 1x128 block of A (a row, 128 values of K) and one
// per 128x128 block of B. A and B are !hk.fp8, the chip's E4M3 (FNUZ on
// gfx942, OCP on gfx950; hk-resolve-fp8).
//
// Arguments:
//   %A  : memref<?x?x!hk.fp8>  M x K, row-major
//   %B  : memref<?x?x!hk.fp8>  N x K, row-major (C = A B^T: both K-minor)
//   %sa : memref<?x?xf32>      K/128 x M: the scales of A, MN-major (as
//                              DeepGEMM takes them), so that the scales of
//                              one K block are one contiguous vector
//   %sb : memref<?x?xf32>      ceildiv(N, 128) x K/128, row-major
//   %C  : memref<?x?xbf16>     M x N, row-major
// K must be a multiple of 128 (a block of K is a scale block; the host
// checks it); M and N need not be: loads outside A, B and sa read zeros and
// stores outside C are dropped. K = 0 writes zeros.
//
// Grid: ceildiv(M, 128) x ceildiv(N, 128) workgroups of 4 waves. A
// workgroup's 128 columns are exactly one 128-column block of B, so each K
// step uses one scale of B, sb[block_id y, kb], a scalar load. Wave w
// computes the 64x64 part of the 128x128 block at rows 64 * (w / 2) and
// columns 64 * (w % 2). Each K step (one scale block, 128 wide) loads its
// 64x128 A and B tiles straight from global memory into 16x32 fp8 base
// tiles, accumulates them with one hk.mma abt into a temporary f32
// accumulator started at zero (gfx950: v_mfma_f32_16x16x128_f8f6f4, gfx942:
// v_mfma_f32_16x16x32_fp8_fp8), and then adds it into the running
// accumulator scaled per row: acc += tmp * (sa[kb, rows] * sb[n, kb]). The
// scales must multiply each block's partial sum before the blocks are
// added, so the scaling sits in the loop, on f32 (64 lane registers, a
// 64-element vector of row scales: 16 per lane in the 16x16 col layout).
// Not tuned: no shared memory and no prefetch.
!ab = tensor<64x128x!hk.fp8, #hk.rt<row, 16x32>>
!acc = tensor<64x64xf32, #hk.rt<col, 16x16>>
!out = tensor<64x64xbf16, #hk.rt<col, 16x16>>
!rows = tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!srow = memref<?xf32, strided<[1], offset: ?>>

hk.kernel @gemm_fp8_blockwise(%A: memref<?x?x!hk.fp8>,
                              %B: memref<?x?x!hk.fp8>, %sa: memref<?x?xf32>,
                              %sb: memref<?x?xf32>, %C: memref<?x?xbf16>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(4, 0), dim(4, 1)] -> (s0 ceildiv 128, s1 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %bm = hk.block_id x
  %bn = hk.block_id y
  %w = hk.wave_id
  %wr = arith.divui %w, %c2 : index
  %wc = arith.remui %w, %c2 : index
  // This wave's 64x64 tile of C, in tile units.
  %m2 = arith.muli %bm, %c2 : index
  %m = arith.addi %m2, %wr : index
  %n2 = arith.muli %bn, %c2 : index
  %n = arith.addi %n2, %wc : index
  %M = memref.dim %A, %c0 : memref<?x?x!hk.fp8>
  %K = memref.dim %A, %c1 : memref<?x?x!hk.fp8>
  %steps = arith.divui %K, %c128 : index
  %zero = arith.constant dense<0.0> : !acc
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%c = %zero) -> (!acc) {
    %a = hk.load %A[%m, %k] : memref<?x?x!hk.fp8> -> !ab
    %b = hk.load %B[%n, %k] : memref<?x?x!hk.fp8> -> !ab
    // The scales of this K block: A's for the wave's 64 rows, B's for the
    // workgroup's 128 columns.
    %sa_k = memref.subview %sa[%k, 0] [1, %M] [1, 1]
        : memref<?x?xf32> to !srow
    %ra = hk.load %sa_k[%m] : !srow -> !rows
    %sbk = memref.load %sb[%bn, %k] : memref<?x?xf32>
    %sbv = tensor.splat %sbk : !rows
    %s = arith.mulf %ra, %sbv : !rows
    // This block's sum on its own, then scaled into the accumulator.
    %t = hk.mma abt %a, %b, %zero : !ab, !ab, !acc
    %ts = hk.row_broadcast mul %t, %s : !acc, !rows
    %d = arith.addf %c, %ts : !acc
    scf.yield %d : !acc
  }
  %o = arith.truncf %acc : !acc to !out
  hk.store %o, %C[%m, %n] : !out, memref<?x?xbf16>
  hk.return
}
