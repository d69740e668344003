// Register-only bf16 GEMM, C = A * B^T: one wave per 64x64 tile of C, K in
// steps of 32, everything through registers (no LDS). M, N, K come from the
// memrefs at run time; out-of-range tile loads read zeros and out-of-range
// stores are dropped by the buffer descriptors.
!rt_a = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x64xf32, #hk.rt<col, 16x16>>
!out = tensor<64x64xbf16, #hk.rt<col, 16x16>>

hk.kernel @gemm_reg(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                    %C: memref<?x?xbf16>) attributes {
    waves = 1 : i32,
    grid = #hk.grid<[dim(2, 0), dim(2, 1)] ->
                    (s0 ceildiv 64, s1 ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.0> : !acc
  %tm = hk.block_id x
  %tn = hk.block_id y
  %k_len = memref.dim %A, %c1 : memref<?x?xbf16>
  %k_pad = arith.addi %k_len, %c31 : index
  %nk = arith.divui %k_pad, %c32 : index
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%c = %zero) -> (!acc) {
    %a = hk.load %A[%tm, %k] : memref<?x?xbf16> -> !rt_a
    %b = hk.load %B[%tn, %k] : memref<?x?xbf16> -> !rt_a
    %d = hk.mma abt %a, %b, %c : !rt_a, !rt_a, !acc
    scf.yield %d : !acc
  }
  %o = arith.truncf %acc : !acc to !out
  hk.store %o, %C[%tm, %tn] : !out, memref<?x?xbf16>
  hk.return
}
