// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA

// hk.load reads 6-bit MX data passed as bytes (an i8 memref), four
// elements in three bytes, element j of a row at bits 6j to 6j + 5 of the
// row's bytes: the scaled MFMA's own packing of its f6 operands, so each
// lane's 32 consecutive elements of a base tile are 24 consecutive bytes
// (a 16-byte and an 8-byte run) reinterpreted as they are. A 32x128 E2M3
// tile is two base tiles (48 bytes per lane), a 32x64 E3M2 tile in the
// 32x64 base tiles of the 32x32x64 form one (24 bytes).
// CHECK-LABEL: gpu.func @f6
// CHECK: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
// CHECK: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi8>
// CHECK: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
// CHECK: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi8>
// CHECK: vector.bitcast {{.*}} : vector<48xi8> to vector<64xf6E2M3FN>
// CHECK: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
// CHECK: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi8>
// CHECK: vector.bitcast {{.*}} : vector<24xi8> to vector<32xf6E3M2FN>

// ISA-LABEL: f6:
// ISA-COUNT-3: buffer_load_dwordx4
// ISA-DAG: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}} cbsz:2 blgp:2
// ISA-DAG: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}} cbsz:3 blgp:3
!a6 = tensor<32x128xf6E2M3FN, #hk.rt<row, 16x128>>
!b6 = tensor<32x64xf6E3M2FN, #hk.rt<row, 32x64>>
!s16 = tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>
!s32 = tensor<32x2xf8E8M0FNU, #hk.rt<row, 32x2>>
!acc16 = tensor<32x32xf32, #hk.rt<col, 16x16>>
!acc32 = tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @f6(%A: memref<?x?xi8>, %B: memref<?x?xi8>, %S: memref<?x?xf8E8M0FNU>,
              %C: memref<?x?xf32>, %D: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xi8> -> !a6
  %b = hk.load %B[%c0, %c0] : memref<?x?xi8> -> !b6
  %s16 = hk.load %S[%c0, %c0] : memref<?x?xf8E8M0FNU> -> !s16
  %s32 = hk.load %S[%c0, %c0] : memref<?x?xf8E8M0FNU> -> !s32
  %z16 = arith.constant dense<0.0> : !acc16
  %z32 = arith.constant dense<0.0> : !acc32
  %d16 = hk.mma_scaled %a[%s16], %a[%s16], %z16 : !a6, !s16, !a6, !s16, !acc16
  %d32 = hk.mma_scaled %b[%s32], %b[%s32], %z32 : !b6, !s32, !b6, !s32, !acc32
  hk.store %d16, %C[%c0, %c0] : !acc16, memref<?x?xf32>
  hk.store %d32, %D[%c0, %c0] : !acc32, memref<?x?xf32>
  hk.return
}
