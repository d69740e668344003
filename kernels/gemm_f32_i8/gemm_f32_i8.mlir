// Two GEMMs, C = A * B^T (A: MxK, B: NxK, C: MxN), on the f32 and i8 MFMAs:
//   @gemm_f32: f32 A, B, C; v_mfma_f32_16x16x4_f32 (one K value per lane).
//   @gemm_i8:  i8 A, B, i32 C; v_mfma_i32_32x32x16_i8 (8 K values per
//              lane), exact.
//
// Arguments (each kernel):
//   %A : memref<?x?xf32> / memref<?x?xi8>   [M, K]
//   %B : memref<?x?xf32> / memref<?x?xi8>   [N, K]
//   %C : memref<?x?xf32> / memref<?x?xi32>  [M, N]
//
// Grid: ceildiv(M, 32) x ceildiv(N, 32) workgroups of one wave; the wave
// computes one 32x32 tile of C, stepping through K 16 (f32) or 64 (i8)
// at a time. Out-of-range parts of ragged tiles read zeros, which add
// nothing, and their stores are dropped. HipKittens' mma takes no f32 tiles
// and HipKittens has no i8 tiles: hk-translate stops at @gemm_f32's hk.mma.
!a32 = tensor<32x16xf32, #hk.rt<row, 16x16>>
!c32 = tensor<32x32xf32, #hk.rt<col, 16x16>>
!a8 = tensor<32x64xi8, #hk.rt<row, 32x16>>
!c8 = tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>

hk.kernel @gemm_f32(%A: memref<?x?xf32>, %B: memref<?x?xf32>,
                    %C: memref<?x?xf32>)
    attributes {
      waves = 1 : i32,
      grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 32, s1 ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m = hk.block_id x
  %n = hk.block_id y
  %K = memref.dim %A, %c1 : memref<?x?xf32>
  %steps = arith.ceildivui %K, %c16 : index
  %zero = arith.constant dense<0.0> : !c32
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%c = %zero) -> (!c32) {
    %a = hk.load %A[%m, %k] : memref<?x?xf32> -> !a32
    %b = hk.load %B[%n, %k] : memref<?x?xf32> -> !a32
    %d = hk.mma abt %a, %b, %c : !a32, !a32, !c32
    scf.yield %d : !c32
  }
  hk.store %acc, %C[%m, %n] : !c32, memref<?x?xf32>
  hk.return
}

hk.kernel @gemm_i8(%A: memref<?x?xi8>, %B: memref<?x?xi8>,
                   %C: memref<?x?xi32>)
    attributes {
      waves = 1 : i32,
      grid = #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 32, s1 ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = hk.block_id x
  %n = hk.block_id y
  %K = memref.dim %A, %c1 : memref<?x?xi8>
  %steps = arith.ceildivui %K, %c64 : index
  %zero = arith.constant dense<0> : !c8
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%c = %zero) -> (!c8) {
    %a = hk.load %A[%m, %k] : memref<?x?xi8> -> !a8
    %b = hk.load %B[%n, %k] : memref<?x?xi8> -> !a8
    %d = hk.mma abt %a, %b, %c : !a8, !a8, !c8
    scf.yield %d : !c8
  }
  hk.store %acc, %C[%m, %n] : !c8, memref<?x?xi32>
  hk.return
}
