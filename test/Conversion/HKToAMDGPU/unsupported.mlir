// RUN: not hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s 2>&1 | FileCheck %s --check-prefix=GFX950
// RUN: not hk-opt --convert-hk-to-amdgpu=chip=gfx942 --split-input-file %s 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: not hk-opt --convert-hk-to-amdgpu=chip=gfx1100 %s 2>&1 | FileCheck %s --check-prefix=CHIP

// Ops the lowering does not handle yet stop it with an error naming the op
// and the chip, and produce no output.

// CHIP: convert-hk-to-amdgpu: unknown chip 'gfx1100'; supported: gfx942, gfx950

// Schedule regions are expanded by hk-schedule before this lowering.
// GFX950: error: convert-hk-to-amdgpu: 'hk.ping_pong' is not supported yet (chip gfx950)
hk.kernel @unscheduled(%X: memref<?x?xf32>) attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    hk.cluster compute {
    }
  }
  hk.return
}

// -----

// OCP fp8 has no MFMA on gfx942, FNUZ fp8 none on gfx950.
// GFX942: error: convert-hk-to-amdgpu: 'hk.mma' no MFMA on gfx942 takes f8E4M3FN inputs (chip gfx942)
hk.kernel @fp8_ocp(%A: memref<?x?xf8E4M3FN>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %a, %z : tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>, tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// A register tile op outside hk that is not elementwise is named too.
// GFX950: error: convert-hk-to-amdgpu: 'tensor.extract' is not supported on register tiles yet (chip gfx950)
hk.kernel @extract(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %e = tensor.extract %x[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.return
}
