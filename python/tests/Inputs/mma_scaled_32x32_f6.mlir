// The 32x32x64 form with A 64x128 E3M2 read from bytes (96 bytes per row,
// four elements in three bytes) and B 32x128 OCP E5M2 read from bytes (one
// per element), e8m0 scales as bytes.
!a6 = tensor<64x128xf6E3M2FN, #hk.rt<row, 32x64>>
!b8 = tensor<32x128xf8E5M2, #hk.rt<row, 32x64, group = 16>>
!sa = tensor<64x4xf8E8M0FNU, #hk.rt<row, 32x2>>
!sb = tensor<32x4xf8E8M0FNU, #hk.rt<row, 32x2>>
!acc = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @mma_scaled_32x32_f6(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                               %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                               %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xi8> -> !a6
  %b = hk.load %B[%c0, %c0] : memref<?x?xi8> -> !b8
  %sa = hk.load %SA[%c0, %c0] : memref<?x?xi8> -> !sa
  %sb = hk.load %SB[%c0, %c0] : memref<?x?xi8> -> !sb
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%sa], %b[%sb], %z : !a6, !sa, !b8, !sb, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
