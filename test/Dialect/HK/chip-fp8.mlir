// RUN: hk-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// !hk.fp8 and !hk.bf8 are 8-bit floats wherever a builtin one may be:
// memrefs, register tiles, shared tiles, arith casts and constants.
// CHECK-LABEL: hk.kernel @chip_fp8(
// CHECK-SAME:    memref<?x?x!hk.fp8>, %{{.*}}: memref<?x?x!hk.bf8>
// CHECK:         hk.alloc_shared : !hk.st<32x64x!hk.bf8, 16x64>
// CHECK:         hk.load %{{.*}} -> tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>>
// CHECK:         arith.extf %{{.*}} : tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>> to tensor<32x64xbf16, #hk.rt<row, 16x32>>
// CHECK:         arith.truncf %{{.*}} : tensor<32x64xbf16, #hk.rt<row, 16x32>> to tensor<32x64x!hk.bf8, #hk.rt<row, 16x32>>
// CHECK:         hk.mma abt %{{.*}} : tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>>
hk.kernel @chip_fp8(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x!hk.bf8>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = hk.alloc_shared : !hk.st<32x64x!hk.bf8, 16x64>
  %a = hk.load %A[%c0, %c0] : memref<?x?x!hk.fp8> -> tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>>
  %w = arith.extf %a : tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>> to tensor<32x64xbf16, #hk.rt<row, 16x32>>
  %n = arith.truncf %w : tensor<32x64xbf16, #hk.rt<row, 16x32>> to tensor<32x64x!hk.bf8, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %a, %z : tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>>, tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// The chip's formats are two distinct types: no mixing A and B.
func.func @mixed(%a: tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>>, %b: tensor<32x64x!hk.bf8, #hk.rt<row, 16x32>>, %c: tensor<32x32xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{expects A and B of one element type, got '!hk.fp8' and '!hk.bf8'}}
  %d = hk.mma abt %a, %b, %c : tensor<32x64x!hk.fp8, #hk.rt<row, 16x32>>, tensor<32x64x!hk.bf8, #hk.rt<row, 16x32>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  return
}

// -----

// An extension must widen: !hk.fp8 is 8 bits wide.
func.func @narrowing_ext(%a: tensor<16x32xf32, #hk.rt<row, 16x32>>) {
  // expected-error @+1 {{'arith.extf' op operand type 'tensor<16x32xf32, #hk.rt<row, 16x32>>' and result type 'tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>' are cast incompatible}}
  %b = arith.extf %a : tensor<16x32xf32, #hk.rt<row, 16x32>> to tensor<16x32x!hk.fp8, #hk.rt<row, 16x32>>
  return
}
