// hk.mma_scaled on one wave with every MX operand passed as bytes: A 32x256
// E2M1, two elements per byte (32 x 128 bytes), B 16x256 OCP E4M3 (16 x
// 256 bytes), and their e8m0 scales, all memref<?x?xi8> read by hk.load as
// the tiles' element types.
!a4 = tensor<32x256xf4E2M1FN, #hk.rt<row, 16x128>>
!b8 = tensor<16x256xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
!sa = tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!sb = tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<32x16xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_scaled_bytes(%A: memref<?x?xi8>, %SA: memref<?x?xi8>,
                            %B: memref<?x?xi8>, %SB: memref<?x?xi8>,
                            %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xi8> -> !a4
  %b = hk.load %B[%c0, %c0] : memref<?x?xi8> -> !b8
  %sa = hk.load %SA[%c0, %c0] : memref<?x?xi8> -> !sa
  %sb = hk.load %SB[%c0, %c0] : memref<?x?xi8> -> !sb
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%sa], %b[%sb], %z : !a4, !sa, !b8, !sb, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
