// i8 GEMM with exact i32 accumulation: C = A * B^T (A: MxK, B: NxK, C: MxN),
// on each chip's fastest i8 MFMA.
//
// Arguments:
//   %A : memref<?x?xi8>   M x K, row-major
//   %B : memref<?x?xi8>   N x K, row-major (both K-minor)
//   %C : memref<?x?xi32>  M x N, row-major
// M, N and K need not be multiples of the tiles: loads outside A or B read
// zeros, which add nothing, and stores outside C are dropped.
//
// Grid: ceildiv(M, 128) x ceildiv(N, 128) workgroups of 4 waves. Wave w
// computes the 64x64 part of the 128x128 block at rows 64 * (w / 2) and
// columns 64 * (w % 2), stepping through K 64 at a time.
//
// The operands are 32x32 base tiles of i8, 16 K values per lane: the A/B
// layout of gfx950's v_mfma_i32_32x32x32_i8 (twice the K per instruction of
// gfx942's, so twice the rate), which also feeds two v_mfma_i32_32x32x16_i8
// on gfx942 (an MFMA sums over K, so the 16 K values a lane holds can go in
// two halves, permuted alike in A and B). The accumulators are 32x32 col
// tiles. HipKittens has no i8 tiles: hk-translate stops at the first load.
!ab = tensor<64x64xi8, #hk.rt<row, 32x32>>
!acc = tensor<64x64xi32, #hk.rt<col, 32x32, group = 4>>

hk.kernel @gemm_i8(%A: memref<?x?xi8>, %B: memref<?x?xi8>,
                   %C: memref<?x?xi32>)
    attributes {
      waves = 4 : i32,
      grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 128, s1 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %bm = hk.block_id x
  %bn = hk.block_id y
  %w = hk.wave_id
  %wr = arith.divui %w, %c2 : index
  %wc = arith.remui %w, %c2 : index
  // This wave's 64x64 tile of C, in 64-row and 64-column tile units.
  %m2 = arith.muli %bm, %c2 : index
  %m = arith.addi %m2, %wr : index
  %n2 = arith.muli %bn, %c2 : index
  %n = arith.addi %n2, %wc : index
  %K = memref.dim %A, %c1 : memref<?x?xi8>
  %steps = arith.ceildivui %K, %c64 : index
  %zero = arith.constant dense<0> : !acc
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%c = %zero) -> (!acc) {
    %a = hk.load %A[%m, %k] : memref<?x?xi8> -> !ab
    %b = hk.load %B[%n, %k] : memref<?x?xi8> -> !ab
    %d = hk.mma abt %a, %b, %c : !ab, !ab, !acc
    scf.yield %d : !acc
  }
  hk.store %acc, %C[%m, %n] : !acc, memref<?x?xi32>
  hk.return
}
