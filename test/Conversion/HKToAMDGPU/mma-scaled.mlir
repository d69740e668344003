// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA
// RUN: not hkc %s --chip gfx942 -o %t 2>&1 | FileCheck %s --check-prefix=GFX942

// hk.mma_scaled lowers to one amdgpu.scaled_mfma 16x16x128 per (M, N, K)
// base tile, K outermost. A 32x256 A has 2x2 base tiles and 2x2 scales per
// lane (A's scales: a group of four, each MFMA naming its byte); B's 1x2
// scales per lane go one at a time. A is OCP E4M3 (cbsz 0), B E2M1 (blgp 4).
// CHECK-LABEL: gpu.func @mx
// CHECK: amdgpu.scaled_mfma 16x16x128 (%{{.*}}[0] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
// CHECK: amdgpu.scaled_mfma 16x16x128 (%{{.*}}[2] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
// CHECK: amdgpu.scaled_mfma 16x16x128 (%{{.*}}[1] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
// CHECK: amdgpu.scaled_mfma 16x16x128 (%{{.*}}[3] * %{{.*}}) * (%{{.*}}[0] * %{{.*}}) + %{{.*}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
// CHECK-NOT: amdgpu.scaled_mfma
// CHECK-NOT: amdgpu.mfma

// The scale byte is op_sel (bit 0) and op_sel_hi (bit 1) of each source.
// ISA-LABEL: mx:
// ISA-COUNT-4: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}} blgp:4
// ISA-NOT: v_mfma

// GFX942: error: 'hk.mma_scaled' op needs the scaled f8f6f4 MFMAs (OCP MX), which gfx942 does not have
!a8 = tensor<32x256xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>
!b4 = tensor<16x256xf4E2M1FN, #hk.rt<row, 16x128>>
!sa = tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!sb = tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>
!acc = tensor<32x16xf32, #hk.rt<col, 16x16>>
hk.kernel @mx(%A: memref<?x?xf8E4M3FN>, %SA: memref<?x?xf8E8M0FNU>, %SB: memref<?x?xf8E8M0FNU>, %C: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> !a8
  %sa = hk.load %SA[%c0, %c0] : memref<?x?xf8E8M0FNU> -> !sa
  %sb = hk.load %SB[%c0, %c0] : memref<?x?xf8E8M0FNU> -> !sb
  %b = arith.constant dense<1.5> : !b4
  %z = arith.constant dense<0.0> : !acc
  %d = hk.mma_scaled %a[%sa], %b[%sb], %z : !a8, !sa, !b4, !sb, !acc
  hk.store %d, %C[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}
