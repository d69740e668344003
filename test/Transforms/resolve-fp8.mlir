// hk-resolve-fp8 gives !hk.fp8 / !hk.bf8 the chip's formats: FNUZ on
// gfx942, OCP on gfx950, in argument, value and nested types, and in
// constants, re-encoded (saturated to the format's largest finite value).

// RUN: hk-opt --hk-resolve-fp8=chip=gfx942 %s | FileCheck %s --check-prefix=GFX942
// RUN: hk-opt --hk-resolve-fp8=chip=gfx950 %s | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt --hk-resolve-fp8 %s | FileCheck %s --check-prefix=GFX950
// RUN: not hk-opt --hk-resolve-fp8=chip=gfx90a %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown chip 'gfx90a'; supported: gfx942, gfx950

// GFX942-LABEL: hk.kernel @k(%{{.*}}: memref<?x?xf8E4M3FNUZ>, %{{.*}}: memref<?x?xf8E5M2FNUZ>, %{{.*}}: memref<?x?xf32>)
// GFX942: hk.alloc_shared : !hk.st<32x64xf8E4M3FNUZ, 16x64>
// GFX942: hk.load %{{.*}} : memref<?x?xf8E4M3FNUZ> -> tensor<16x32xf8E4M3FNUZ, #hk.rt<row, 16x32>>
// GFX942: arith.constant dense<2.400000e+02> : tensor<16x32xf8E4M3FNUZ, #hk.rt<row, 16x32>>
// GFX942: arith.constant dense<-1.250000e-01> : tensor<16x32xf8E5M2FNUZ, #hk.rt<row, 16x32>>
// GFX942: arith.extf %{{.*}} : tensor<16x32xf8E4M3FNUZ, #hk.rt<row, 16x32>> to tensor<16x32xf32, #hk.rt<row, 16x32>>
// GFX942: arith.truncf %{{.*}} : tensor<16x32xf32, #hk.rt<row, 16x32>> to tensor<16x32xf8E5M2FNUZ, #hk.rt<row, 16x32>>
// GFX942-NOT: !hk.fp8
// GFX942-NOT: !hk.bf8

// GFX950-LABEL: hk.kernel @k(%{{.*}}: memref<?x?xf8E4M3FN>, %{{.*}}: memref<?x?xf8E5M2>, %{{.*}}: memref<?x?xf32>)
// GFX950: hk.alloc_shared : !hk.st<32x64xf8E4M3FN, 16x64>
// GFX950: hk.load %{{.*}} : memref<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>
// GFX950: arith.constant dense<2.880000e+02> : tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>
// GFX950: arith.constant dense<-1.250000e-01> : tensor<16x32xf8E5M2, #hk.rt<row, 16x32>>
// GFX950: arith.extf %{{.*}} : tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>> to tensor<16x32xf32, #hk.rt<row, 16x32>>
// GFX950: arith.truncf %{{.*}} : tensor<16x32xf32, #hk.rt<row, 16x32>> to tensor<16x32xf8E5M2, #hk.rt<row, 16x32>>
// GFX950-NOT: !hk.fp8
// GFX950-NOT: !hk.bf8
hk.kernel @k(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x!hk.bf8>, %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<32x64x!hk.fp8, 16x64>
  %a = hk.load %A[%c0, %c0] : memref<?x?x!hk.fp8> -> tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>
  // 300 is past gfx942's largest E4M3 (240) and rounds to 288 in OCP's.
  %big = arith.constant dense<300.0> : tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>
  %neg = arith.constant dense<-0.125> : tensor<16x32x!hk.bf8, #hk.rt<row, 16x32>>
  %f = arith.extf %a : tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>> to tensor<16x32xf32, #hk.rt<row, 16x32>>
  %t = arith.truncf %f : tensor<16x32xf32, #hk.rt<row, 16x32>> to tensor<16x32x!hk.bf8, #hk.rt<row, 16x32>>
  hk.return
}
