// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s --check-prefix=ISA
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA

// f32 and i8 MMAs, the same on both chips (AMD's CDNA3 and CDNA4 tables,
// ../shared/amd/mfma-layouts): v_mfma_f32_16x16x4_f32 and 32x32x2_f32 take
// one f32 register of A and of B per lane (K x M / 64 = 1), so a 16x16 (32x16)
// base tile, which keeps 4 (8) K values per lane, is 4 (8) MFMAs, each on one
// register; v_mfma_i32_16x16x32_i8 and 32x32x16_i8 take 8 i8 values per lane,
// exactly what a 16x32 (32x16) i8 base tile keeps, into 4 (16) i32
// accumulator registers.
// CHECK-LABEL: gpu.func @mma_f32_i8
// 32x16 f32 A (2 base tiles of 4 registers), 16x16 B, 32x16 C: 2 x 4 MFMAs,
// registers 0..3 of A's first base tile with those of B.
// CHECK: %[[A0:.*]] = vector.extract %[[A:.*]][0] : f32 from vector<8xf32>
// CHECK: %[[B0:.*]] = vector.extract %[[B:.*]][0] : f32 from vector<4xf32>
// CHECK: amdgpu.mfma 16x16x4 %[[A0]] * %[[B0]] + %{{.*}} blgp = none : f32, f32, vector<4xf32>
// CHECK: %[[A1:.*]] = vector.extract %[[A]][1] : f32 from vector<8xf32>
// CHECK: %[[B1:.*]] = vector.extract %[[B]][1] : f32 from vector<4xf32>
// CHECK: amdgpu.mfma 16x16x4 %[[A1]] * %[[B1]] + %{{.*}} : f32, f32, vector<4xf32>
// CHECK-COUNT-6: amdgpu.mfma 16x16x4 {{.*}} : f32, f32, vector<4xf32>
// 32x16 f32 A and B in 32x16 base tiles (8 registers), 32x32 C: 8 MFMAs.
// CHECK-COUNT-8: amdgpu.mfma 32x32x2 {{.*}} : f32, f32, vector<16xf32>
// i8: one MFMA per base tile pair and K step.
// CHECK-COUNT-2: amdgpu.mfma 16x16x32 {{.*}} : vector<8xi8>, vector<8xi8>, vector<4xi32>
// CHECK-COUNT-4: amdgpu.mfma 32x32x16 {{.*}} : vector<8xi8>, vector<8xi8>, vector<16xi32>
// CHECK-NOT: amdgpu.mfma

// ISA-LABEL: mma_f32_i8:
// ISA-COUNT-8: v_mfma_f32_16x16x4_f32
// ISA-COUNT-8: v_mfma_f32_32x32x2_f32
// ISA-COUNT-2: v_mfma_i32_16x16x32_i8
// ISA-COUNT-4: v_mfma_i32_32x32x16_i8
// ISA: s_endpgm
hk.kernel @mma_f32_i8(%F: memref<?x?xf32>, %I: memref<?x?xi8>, %O: memref<?x?xf32>, %P: memref<?x?xi32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %F[%c0, %c0] : memref<?x?xf32> -> tensor<32x16xf32, #hk.rt<row, 16x16>>
  %b = hk.load %F[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<row, 16x16>>
  %z = arith.constant dense<0.0> : tensor<32x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %b, %z : tensor<32x16xf32, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<row, 16x16>>, tensor<32x16xf32, #hk.rt<col, 16x16>>
  hk.store %d, %O[%c0, %c0] : tensor<32x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  %a2 = hk.load %F[%c0, %c0] : memref<?x?xf32> -> tensor<32x16xf32, #hk.rt<row, 32x16>>
  %z2 = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  %d2 = hk.mma abt %a2, %a2, %z2 : tensor<32x16xf32, #hk.rt<row, 32x16>>, tensor<32x16xf32, #hk.rt<row, 32x16>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  hk.store %d2, %O[%c0, %c0] : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>, memref<?x?xf32>
  %i = hk.load %I[%c0, %c0] : memref<?x?xi8> -> tensor<16x64xi8, #hk.rt<row, 16x32>>
  %zi = arith.constant dense<0> : tensor<16x16xi32, #hk.rt<col, 16x16>>
  %di = hk.mma abt %i, %i, %zi : tensor<16x64xi8, #hk.rt<row, 16x32>>, tensor<16x64xi8, #hk.rt<row, 16x32>>, tensor<16x16xi32, #hk.rt<col, 16x16>>
  hk.store %di, %P[%c0, %c0] : tensor<16x16xi32, #hk.rt<col, 16x16>>, memref<?x?xi32>
  %j = hk.load %I[%c0, %c0] : memref<?x?xi8> -> tensor<32x64xi8, #hk.rt<row, 32x16>>
  %zj = arith.constant dense<0> : tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
  %dj = hk.mma abt %j, %j, %zj : tensor<32x64xi8, #hk.rt<row, 32x16>>, tensor<32x64xi8, #hk.rt<row, 32x16>>, tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
  hk.store %dj, %P[%c0, %c0] : tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>, memref<?x?xi32>
  hk.return
}
