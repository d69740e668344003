// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// fp8 MFMAs take 8 values per lane on both chips (FNUZ formats on gfx942).
// CHECK-LABEL: gpu.func @fp8
// CHECK: amdgpu.mfma 16x16x32 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<8xf8E4M3FNUZ>, vector<8xf8E4M3FNUZ>, vector<4xf32>
// CHECK-NOT: amdgpu.mfma
hk.kernel @fp8(%A: memref<?x?xf8E4M3FNUZ>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FNUZ> -> tensor<16x32xf8E4M3FNUZ, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %a, %z : tensor<16x32xf8E4M3FNUZ, #hk.rt<row, 16x32>>, tensor<16x32xf8E4M3FNUZ, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.return
}
