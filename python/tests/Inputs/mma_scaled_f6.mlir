// hk.mma_scaled on one wave with 6-bit operands read from bytes: A 32x256
// E2M3 and B 16x256 E3M2 in the 16x16x128 form, each row of 256 elements
// passed as 192 bytes (four elements in three bytes, element j at bits 6j
// to 6j + 5 of the row's bytes as a little-endian number), and their e8m0
// scales as bytes.
!a6 = tensor<32x256xf6E2M3FN, #hk.rt<row, 16x128>>
!b6 = tensor<16x256xf6E3M2FN, #hk.rt<row, 16x128>>
!sa = tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!sb = tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<32x16xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_scaled_f6(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                         %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                         %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xi8> -> !a6
  %b = hk.load %B[%c0, %c0] : memref<?x?xi8> -> !b6
  %sa = hk.load %SA[%c0, %c0] : memref<?x?xi8> -> !sa
  %sb = hk.load %SB[%c0, %c0] : memref<?x?xi8> -> !sb
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%sa], %b[%sb], %z : !a6, !sa, !b6, !sb, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
