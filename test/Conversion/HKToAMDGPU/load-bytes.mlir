// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA

// hk.load reads MX data passed as bytes (an i8 memref) as the tile's
// element type: a 64x128 E2M1 tile is 64 bytes of each of its 64 rows, one
// 16-byte run per lane and 16x128 base tile (32 elements, two per byte),
// reinterpreted as 32 E2M1 elements; an OCP E4M3 tile keeps its byte per
// element (two 16-byte runs per lane of a 16x128 base tile with group 16);
// e8m0 scales are one byte per lane.
// CHECK-LABEL: gpu.func @bytes
// CHECK-COUNT-4: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
// CHECK: vector.bitcast {{.*}} : vector<64xi8> to vector<128xf4E2M1FN>
// CHECK-COUNT-2: vector.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
// CHECK: vector.bitcast {{.*}} : vector<32xi8> to vector<32xf8E4M3FN>
// CHECK: memref.load {{.*}} : memref<?xi8, #amdgpu.address_space<fat_raw_buffer>>
// CHECK: vector.bitcast {{.*}} : vector<4xi8> to vector<4xf8E8M0FNU>
// CHECK: amdgpu.scaled_mfma 16x16x128

// ISA-LABEL: bytes:
// ISA-COUNT-6: buffer_load_dwordx4
// ISA: v_mfma_scale_f32_16x16x128_f8f6f4
!a4 = tensor<64x128xf4E2M1FN, #hk.rt<row, 16x128>>
!b8 = tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
!sa = tensor<64x4xf8E8M0FNU, #hk.rt<row, 16x4>>
!sb = tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<64x16xf32, #hk.rt<col, 16x16>>
hk.kernel @bytes(%A: memref<?x?xi8>, %SA: memref<?x?xi8>, %B: memref<?x?xi8>,
                 %SB: memref<?x?xi8>, %C: memref<?x?xf32>)
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
