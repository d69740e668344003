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
// Grid: ceildiv(M, 128) x ceildiv(N, 128) workgroups of 4 waves. Wave w
// computes the 64x64 part of the 128x128 block at rows 64 * (w / 2) and
// columns 64 * (w % 2), stepping through K 64 at a time with tile loads
// straight from global memory; the operands are 16x32 base tiles (8 K
// values per lane: v_mfma_f32_16x16x32_fp8_fp8 on both chips) and the
// accumulators 16x16 col tiles. The scales multiply the f32 sums once, after
// the K loop.
!ab = tensor<64x64x!hk.fp8, #hk.rt<row, 16x32>>
!acc = tensor<64x64xf32, #hk.rt<col, 16x16>>
!out = tensor<64x64xbf16, #hk.rt<col, 16x16>>
!rows = tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!cols = tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>

hk.kernel @gemm_fp8(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x!hk.fp8>,
                    %sa: memref<?xf32>, %sb: memref<?xf32>,
                    %C: memref<?x?xbf16>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(4, 0), dim(4, 1)] -> (s0 ceildiv 128, s1 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
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
  %K = memref.dim %A, %c1 : memref<?x?x!hk.fp8>
  %steps = arith.ceildivui %K, %c64 : index
  %zero = arith.constant dense<0.0> : !acc
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%c = %zero) -> (!acc) {
    %a = hk.load %A[%m, %k] : memref<?x?x!hk.fp8> -> !ab
    %b = hk.load %B[%n, %k] : memref<?x?x!hk.fp8> -> !ab
    %d = hk.mma abt %a, %b, %c : !ab, !ab, !acc
    scf.yield %d : !acc
  }
  %ra = hk.load %sa[%m] : memref<?xf32> -> !rows
  %cb = hk.load %sb[%n] : memref<?xf32> -> !cols
  %r = hk.row_broadcast mul %acc, %ra : !acc, !rows
  %rc = hk.col_broadcast mul %r, %cb : !acc, !cols
  %o = arith.truncf %rc : !acc to !out
  hk.store %o, %C[%m, %n] : !out, memref<?x?xbf16>
  hk.return
}

hk.kernel @gemm_fp8_tensor(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x!hk.fp8>,
                           %s: f32, %C: memref<?x?xbf16>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(3, 0), dim(3, 1)] -> (s0 ceildiv 128, s1 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %bm = hk.block_id x
  %bn = hk.block_id y
  %w = hk.wave_id
  %wr = arith.divui %w, %c2 : index
  %wc = arith.remui %w, %c2 : index
  %m2 = arith.muli %bm, %c2 : index
  %m = arith.addi %m2, %wr : index
  %n2 = arith.muli %bn, %c2 : index
  %n = arith.addi %n2, %wc : index
  %K = memref.dim %A, %c1 : memref<?x?x!hk.fp8>
  %steps = arith.ceildivui %K, %c64 : index
  %zero = arith.constant dense<0.0> : !acc
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%c = %zero) -> (!acc) {
    %a = hk.load %A[%m, %k] : memref<?x?x!hk.fp8> -> !ab
    %b = hk.load %B[%n, %k] : memref<?x?x!hk.fp8> -> !ab
    %d = hk.mma abt %a, %b, %c : !ab, !ab, !acc
    scf.yield %d : !acc
  }
  %st = tensor.splat %s : !acc
  %r = arith.mulf %acc, %st : !acc
  %o = arith.truncf %r : !acc to !out
  hk.store %o, %C[%m, %n] : !out, memref<?x?xbf16>
  hk.return
}
