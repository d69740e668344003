// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA
// RUN: not hkc %s --chip gfx942 -o %t 2>&1 | FileCheck %s --check-prefix=GFX942

// hk.mma_scaled with a 32x32 (group = 4) accumulator lowers to one
// amdgpu.scaled_mfma 32x32x64 per (M, N, K) base tile, K outermost. A is
// 64x128 E2M3 in 32x64 base tiles (2x2 base tiles, so 2x2 scales per lane:
// one group of four, each MFMA naming its byte); B is 32x128 E5M2 (1x2
// scales per lane, one at a time). Each accumulator is 16 registers.
// CHECK-LABEL: gpu.func @mx32
// CHECK: amdgpu.scaled_mfma 32x32x64 (%{{.*}}[0] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf6E2M3FN>, f8E8M0FNU, vector<32xf8E5M2>, vector<16xf32>
// CHECK: amdgpu.scaled_mfma 32x32x64 (%{{.*}}[2] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf6E2M3FN>, f8E8M0FNU, vector<32xf8E5M2>, vector<16xf32>
// CHECK: amdgpu.scaled_mfma 32x32x64 (%{{.*}}[1] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf6E2M3FN>, f8E8M0FNU, vector<32xf8E5M2>, vector<16xf32>
// CHECK: amdgpu.scaled_mfma 32x32x64 (%{{.*}}[3] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf6E2M3FN>, f8E8M0FNU, vector<32xf8E5M2>, vector<16xf32>
// CHECK-NOT: amdgpu.scaled_mfma
// CHECK-NOT: amdgpu.mfma

// A is E2M3 (cbsz 2), B E5M2 (blgp 1).
// ISA-LABEL: mx32:
// ISA-COUNT-4: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}} cbsz:2 blgp:1
// ISA-NOT: v_mfma

// GFX942: error: 'hk.mma_scaled' op needs the scaled f8f6f4 MFMAs (OCP MX), which gfx942 does not have
!a6 = tensor<64x128xf6E2M3FN, #hk.rt<row, 32x64>>
!b8 = tensor<32x128xf8E5M2, #hk.rt<row, 32x64, group = 16>>
!sa = tensor<64x4xf8E8M0FNU, #hk.rt<row, 32x2>>
!sb = tensor<32x4xf8E8M0FNU, #hk.rt<row, 32x2>>
!acc = tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
hk.kernel @mx32(%B: memref<?x?xf8E5M2>, %SA: memref<?x?xf8E8M0FNU>, %SB: memref<?x?xf8E8M0FNU>, %C: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %b = hk.load %B[%c0, %c0] : memref<?x?xf8E5M2> -> !b8
  %sa = hk.load %SA[%c0, %c0] : memref<?x?xf8E8M0FNU> -> !sa
  %sb = hk.load %SB[%c0, %c0] : memref<?x?xf8E8M0FNU> -> !sb
  %a = arith.constant dense<1.5> : !a6
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%sa], %b[%sb], %z : !a6, !sa, !b8, !sb, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
