// Chip limits checked by hk-check-target: LDS budget (64 KiB on gfx942,
// 160 KiB on gfx950), fp8 formats (FNUZ on gfx942, OCP on gfx950) and the
// 16x128 fp8 base tiles of gfx950's f8f6f4 MFMAs.

// RUN: split-file %s %t

// RUN: hk-opt %t/lds.mlir --hk-check-target=chip=gfx942 -verify-diagnostics
// RUN: hk-opt %t/lds.mlir --hk-check-target=chip=gfx950 | FileCheck %s --check-prefix=LDS950
// RUN: hk-opt %t/lds.mlir --hk-check-target | FileCheck %s --check-prefix=LDS950

// RUN: hk-opt %t/fnuz.mlir --hk-check-target=chip=gfx942 | FileCheck %s --check-prefix=FNUZ942
// RUN: hk-opt %t/fnuz.mlir --hk-check-target=chip=gfx950 -verify-diagnostics

// RUN: hk-opt %t/ocp.mlir --hk-check-target=chip=gfx950 | FileCheck %s --check-prefix=OCP950
// RUN: hk-opt %t/ocp.mlir --hk-check-target=chip=gfx942 -verify-diagnostics

// RUN: hk-opt %t/base128.mlir --hk-check-target=chip=gfx942 -verify-diagnostics

// RUN: not hk-opt %t/lds.mlir --hk-check-target=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown chip 'gfx90a'; supported: gfx942, gfx950

//--- lds.mlir
// Exactly 64 KiB fits gfx942.
hk.kernel @fits(%A: memref<?x?xbf16>) attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  hk.return
}

// 32 + 32 + 32 KiB: the third allocation crosses gfx942's 64 KiB.
hk.kernel @big(%A: memref<?x?xbf16>) attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  // expected-error @+1 {{'hk.alloc_shared' op brings @big to 98304 bytes of LDS, over the 65536 bytes of gfx942}}
  %c = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  hk.return
}

// 160 KiB: the most gfx950 has.
hk.kernel @full(%A: memref<?x?xbf16>) attributes {waves = 8 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.alloc_shared' op brings @full to 131072 bytes of LDS, over the 65536 bytes of gfx942}}
  %a = hk.alloc_shared : !hk.st<256x256xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
  hk.return
}

// LDS950-LABEL: hk.kernel @fits
// LDS950-LABEL: hk.kernel @big
// LDS950-COUNT-3: hk.alloc_shared
// LDS950-LABEL: hk.kernel @full
// LDS950: hk.alloc_shared : {{(!hk.st)?}}<256x256xbf16, 16x32>
// LDS950: hk.alloc_shared : {{(!hk.st)?}}<256x64xbf16, 16x32>

//--- fnuz.mlir
// FNUZ fp8 is what gfx942's MFMAs take; gfx950 takes OCP.
func.func @fnuz(%a: tensor<32x64xf8E4M3FNUZ, #hk.rt<row, 16x32>>, %b: tensor<32x64xf8E5M2FNUZ, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) -> tensor<32x32xf32, #hk.rt<col, 16x16>> {
  // expected-error @+1 {{'hk.mma' op has 'f8E4M3FNUZ' inputs, but gfx950's MFMAs take OCP formats (f8E4M3FN, f8E5M2)}}
  %d = hk.mma abt %a, %a, %c : tensor<32x64xf8E4M3FNUZ, #hk.rt<row, 16x32>>, tensor<32x64xf8E4M3FNUZ, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.mma' op has 'f8E5M2FNUZ' inputs, but gfx950's MFMAs take OCP formats (f8E4M3FN, f8E5M2)}}
  %e = hk.mma abt %b, %b, %d : tensor<32x64xf8E5M2FNUZ, #hk.rt<row, 16x32>>, tensor<32x64xf8E5M2FNUZ, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return %e : tensor<32x32xf32, #hk.rt<col, 16x16>>
}

// bf16 runs everywhere.
func.func @bf16(%a: tensor<32x32xbf16, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) -> tensor<32x32xf32, #hk.rt<col, 16x16>> {
  %d = hk.mma abt %a, %a, %c : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return %d : tensor<32x32xf32, #hk.rt<col, 16x16>>
}

// FNUZ942-LABEL: func.func @fnuz
// FNUZ942: hk.mma abt {{.*}} : tensor<32x64xf8E4M3FNUZ, #hk.rt<row, 16x32>>
// FNUZ942: hk.mma abt {{.*}} : tensor<32x64xf8E5M2FNUZ, #hk.rt<row, 16x32>>
// FNUZ942-LABEL: func.func @bf16
// FNUZ942: hk.mma abt

//--- ocp.mlir
// OCP fp8 is what gfx950's MFMAs take, including the 16x128 f8f6f4 shape.
func.func @ocp(%a: tensor<32x64xf8E4M3FN, #hk.rt<row, 16x32>>, %b: tensor<32x64xf8E5M2, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) -> tensor<32x32xf32, #hk.rt<col, 16x16>> {
  // expected-error @+1 {{'hk.mma' op has 'f8E4M3FN' inputs, but gfx942's MFMAs take FNUZ formats (f8E4M3FNUZ, f8E5M2FNUZ)}}
  %d = hk.mma abt %a, %a, %c : tensor<32x64xf8E4M3FN, #hk.rt<row, 16x32>>, tensor<32x64xf8E4M3FN, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.mma' op has 'f8E5M2' inputs, but gfx942's MFMAs take FNUZ formats (f8E4M3FNUZ, f8E5M2FNUZ)}}
  %e = hk.mma abt %b, %b, %d : tensor<32x64xf8E5M2, #hk.rt<row, 16x32>>, tensor<32x64xf8E5M2, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return %e : tensor<32x32xf32, #hk.rt<col, 16x16>>
}

func.func @ocp128(%a: tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
  // expected-error @+1 {{'hk.mma' op has 'f8E4M3FN' inputs, but gfx942's MFMAs take FNUZ formats}}
  %d = hk.mma abt %a, %a, %c : tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
}

// OCP950-LABEL: func.func @ocp
// OCP950: hk.mma abt {{.*}} : tensor<32x64xf8E4M3FN, #hk.rt<row, 16x32>>
// OCP950: hk.mma abt {{.*}} : tensor<32x64xf8E5M2, #hk.rt<row, 16x32>>
// OCP950-LABEL: func.func @ocp128
// OCP950: hk.mma abt {{.*}} : tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>

//--- base128.mlir
// gfx942 has no f8f6f4 MFMA, whatever the fp8 format.
func.func @a128(%a: tensor<16x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>, %b: tensor<16x128xf8E4M3FNUZ, #hk.rt<row, 16x32>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
  // expected-error @+1 {{'hk.mma' op uses 16x128 base tiles, made for the f8f6f4 MFMAs that gfx942 does not have}}
  %d = hk.mma abt %a, %a, %c : tensor<16x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>, tensor<16x128xf8E4M3FNUZ, #hk.rt<row, 16x128>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
}

// The transposed operand form: A given as K x M in col layout.
func.func @at128(%a: tensor<128x16xf8E5M2FNUZ, #hk.rt<col, 128x16>>, %b: tensor<16x128xf8E5M2FNUZ, #hk.rt<row, 16x128>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
  // expected-error @+1 {{'hk.mma' op uses 128x16 base tiles, made for the f8f6f4 MFMAs that gfx942 does not have}}
  %d = hk.mma atbt %a, %b, %c : tensor<128x16xf8E5M2FNUZ, #hk.rt<col, 128x16>>, tensor<16x128xf8E5M2FNUZ, #hk.rt<row, 16x128>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
}
