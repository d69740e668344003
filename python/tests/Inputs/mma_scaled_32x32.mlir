// hk.mma_scaled in its 32x32x64 form on one wave: C = (sa . A) (sb . B)^T
// with A 64x128 OCP E4M3 and B 32x128 E2M1, one e8m0 scale per 32 elements
// along K, the operands in the 32x64 base tiles of
// v_mfma_scale_f32_32x32x64_f8f6f4 and the accumulator in its 32x32 layout.
// Every operand arrives as bytes (i8): E2M1 two per byte, low nibble first.
!a8 = tensor<64x128xf8E4M3FN, #hk.rt<row, 32x64, group = 16>>
!b4 = tensor<32x128xf4E2M1FN, #hk.rt<row, 32x64>>
!sa = tensor<64x4xf8E8M0FNU, #hk.rt<row, 32x2>>
!sb = tensor<32x4xf8E8M0FNU, #hk.rt<row, 32x2>>
!acc = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @mma_scaled_32x32(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                            %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                            %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xi8> -> !a8
  %b = hk.load %B[%c0, %c0] : memref<?x?xi8> -> !b4
  %sa = hk.load %SA[%c0, %c0] : memref<?x?xi8> -> !sa
  %sb = hk.load %SB[%c0, %c0] : memref<?x?xi8> -> !sb
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%sa], %b[%sb], %z : !a8, !sa, !b4, !sb, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
