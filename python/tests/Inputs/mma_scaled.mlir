// hk.mma_scaled on one wave: C = (sa . A) (sb . B)^T with A 32x256 OCP E4M3
// and B 16x256 OCP E5M2, one e8m0 scale per 32 elements along K. The scales
// arrive as their bytes (i8) and are reinterpreted as f8E8M0FNU tiles.
!a8 = tensor<32x256xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
!b8 = tensor<16x256xf8E5M2, #hk.rt<row, 16x128, group = 16>>
!sa = tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!sb = tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<32x16xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_scaled(%A: memref<?x?xf8E4M3FN>, %SA: memref<?x?xi8>,
                      %B: memref<?x?xf8E5M2>, %SB: memref<?x?xi8>,
                      %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> !a8
  %b = hk.load %B[%c0, %c0] : memref<?x?xf8E5M2> -> !b8
  %sai = hk.load %SA[%c0, %c0] : memref<?x?xi8> -> tensor<32x8xi8, #hk.rt<row, 16x4>>
  %sbi = hk.load %SB[%c0, %c0] : memref<?x?xi8> -> tensor<16x8xi8, #hk.rt<row, 16x4>>
  %sa = arith.bitcast %sai : tensor<32x8xi8, #hk.rt<row, 16x4>> to !sa
  %sb = arith.bitcast %sbi : tensor<16x8xi8, #hk.rt<row, 16x4>> to !sb
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%sa], %b[%sb], %z : !a8, !sa, !b8, !sb, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
