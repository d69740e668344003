// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefix=GFX942
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefix=GFX950
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s --check-prefix=ISA942
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA950

// i8 base tiles that keep 16 K values per lane (32x32) get gfx950's
// v_mfma_i32_32x32x32_i8, twice the K of gfx942's 32x32x16, which takes the
// same registers in two halves of 8. Tiles of 8 K values per lane (32x16)
// keep the 32x32x16 MFMA on both chips.
// GFX942-LABEL: gpu.func @i8_rate
// GFX942-COUNT-2: amdgpu.mfma 32x32x16 {{.*}} : vector<8xi8>, vector<8xi8>, vector<16xi32>
// GFX942-COUNT-2: amdgpu.mfma 32x32x16 {{.*}} : vector<8xi8>, vector<8xi8>, vector<16xi32>
// GFX942-NOT: amdgpu.mfma
// GFX950-LABEL: gpu.func @i8_rate
// GFX950: amdgpu.mfma 32x32x32 {{.*}} : vector<16xi8>, vector<16xi8>, vector<16xi32>
// GFX950-COUNT-2: amdgpu.mfma 32x32x16 {{.*}} : vector<8xi8>, vector<8xi8>, vector<16xi32>
// GFX950-NOT: amdgpu.mfma

// ISA942-LABEL: i8_rate:
// ISA942-COUNT-4: v_mfma_i32_32x32x16_i8
// ISA942-NOT: v_mfma
// ISA950-LABEL: i8_rate:
// ISA950: v_mfma_i32_32x32x32_i8
// ISA950-COUNT-2: v_mfma_i32_32x32x16_i8
// ISA950-NOT: v_mfma
hk.kernel @i8_rate(%I: memref<?x?xi8>, %P: memref<?x?xi32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0> : tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
  %a = hk.load %I[%c0, %c0] : memref<?x?xi8> -> tensor<32x32xi8, #hk.rt<row, 32x32>>
  %d = hk.mma abt %a, %a, %z : tensor<32x32xi8, #hk.rt<row, 32x32>>, tensor<32x32xi8, #hk.rt<row, 32x32>>, tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
  %b = hk.load %I[%c0, %c0] : memref<?x?xi8> -> tensor<32x32xi8, #hk.rt<row, 32x16>>
  %e = hk.mma abt %b, %b, %d : tensor<32x32xi8, #hk.rt<row, 32x16>>, tensor<32x32xi8, #hk.rt<row, 32x16>>, tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
  hk.store %e, %P[%c0, %c0] : tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>, memref<?x?xi32>
  hk.return
}
