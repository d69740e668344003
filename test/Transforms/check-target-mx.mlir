// RUN: hk-opt --hk-check-target=chip=gfx942 %s -verify-diagnostics
// RUN: hk-opt --hk-check-target=chip=gfx950 %s | FileCheck %s

// hk.mma_scaled needs the scaled f8f6f4 MFMAs (ChipInfo::hasScaledMfma):
// refused at the op on gfx942, kept on gfx950.
// CHECK: hk.mma_scaled
hk.kernel @mx(%C: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = arith.constant dense<1.0> : tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>
  %s = arith.constant dense<1.0> : tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.mma_scaled' op needs the scaled f8f6f4 MFMAs (OCP MX), which gfx942 does not have}}
  %d = hk.mma_scaled %a[%s], %a[%s], %z : tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %d, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
