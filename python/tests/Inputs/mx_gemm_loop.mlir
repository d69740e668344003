// An MX GEMM C = (sa . A) (sb . B)^T in the 32x32x64 form: one wave per
// 32x32 tile of C, a K loop of 64 elements per step. A is E3M2 passed as
// bytes (M x 3K/4, four elements in three bytes), B OCP E5M2 as bytes
// (N x K), the scales as bytes (M x K/32, N x K/32). M, N and K need not
// be multiples of the tiles (K a multiple of 32, one scale per block):
// out-of-range bytes read as zeros and out-of-range stores are dropped.
!a6 = tensor<32x64xf6E3M2FN, #hk.rt<row, 32x64>>
!b8 = tensor<32x64xf8E5M2, #hk.rt<row, 32x64, group = 16>>
!s = tensor<32x2xf8E8M0FNU, #hk.rt<row, 32x2>>
!acc = tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @mx_gemm_loop(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                        %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                        %C: memref<?x?xf32>)
    attributes {waves = 1 : i32,
                grid = #hk.grid<[dim(4, 0), dim(4, 1)] -> (s0 ceildiv 32, s1 ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = hk.block_id x
  %n = hk.block_id y
  %blocks = memref.dim %SA, %c1 : memref<?x?xi8>
  %steps = arith.ceildivui %blocks, %c2 : index
  %zero = arith.constant dense<0.0> : !acc
  %out = scf.for %k = %c0 to %steps step %c1 iter_args(%acc = %zero) -> !acc {
    %a = hk.load %A[%m, %k] : memref<?x?xi8> -> !a6
    %sa = hk.load %SA[%m, %k] : memref<?x?xi8> -> !s
    %b = hk.load %B[%n, %k] : memref<?x?xi8> -> !b8
    %sb = hk.load %SB[%n, %k] : memref<?x?xi8> -> !s
    %d = hk.mma_scaled %a[%sa], %b[%sb], %acc : !a6, !s, !b8, !s, !acc
    scf.yield %d : !acc
  }
  hk.store %out, %C[%m, %n] : !acc, memref<?x?xf32>
  hk.return
}
