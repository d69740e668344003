// An arith.truncf to bf16 or a narrower float with a rounding mode is refused
// at the op by hk-check-target. Before, arith-to-llvm made it a constrained
// fptrunc, on which LLVM's AMDGPU backend stopped with the fatal error
// "unsupported library call operation" (bf16, tiles or scalars, either chip)
// or the translation to LLVM IR failed (8-bit floats). f16 compiles.
// RUN: split-file %s %t
// RUN: not hkc %t/tile.mlir --chip gfx942,gfx950 -o %t.hkrt 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not hkc %t/tile.mlir --chip gfx950 -o %t.hkrt 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: tile.mlir:7:8: error: 'arith.truncf' op rounds to 'bf16' toward_zero, but code generation rounds to bf16 and narrower floats only to nearest even, the default (no rounding mode)
// TILE-NOT: LLVM stopped
// RUN: not hkc %t/scalar.mlir --chip gfx942 -o %t.hkrt 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: scalar.mlir:5:8: error: 'arith.truncf' op rounds to 'bf16' to_nearest_even, but
// RUN: not hkc %t/fp8.mlir --chip gfx950 -o %t.hkrt 2>&1 | FileCheck %s --check-prefix=FP8
// FP8: fp8.mlir:7:8: error: 'arith.truncf' op rounds to 'f8E4M3FN' downward, but
// RUN: hkc %t/f16.mlir --chip gfx942,gfx950 -o %t.hkrt
// The lowering test whose kernel first showed it, compiled whole.
// RUN: not hkc %S/../Conversion/HKToAMDGPU/truncf-nnan.mlir --chip gfx942,gfx950 -o %t.hkrt 2>&1 | FileCheck %s --check-prefix=NNAN
// NNAN: truncf-nnan.mlir:{{[0-9]+}}:8: error: 'arith.truncf' op rounds to 'bf16' toward_zero, but

//--- tile.mlir
!f = tensor<32x32xf32, #hk.rt<row, 32x32, group = 4>>
!b = tensor<32x32xbf16, #hk.rt<row, 32x32, group = 4>>
hk.kernel @t(%x: memref<32x32xf32>, %y: memref<32x32xbf16>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = hk.load %x[%c0, %c0] : memref<32x32xf32> -> !f
  // Rounded toward zero.
  %c = arith.truncf %v toward_zero : !f to !b
  hk.store %c, %y[%c0, %c0] : !b, memref<32x32xbf16>
  hk.return
}

//--- scalar.mlir
hk.kernel @t(%x: memref<32xf32>, %y: memref<32xbf16>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<32xf32>
  // Even the default mode, when named, becomes a constrained fptrunc.
  %c = arith.truncf %v to_nearest_even : f32 to bf16
  memref.store %c, %y[%c0] : memref<32xbf16>
  hk.return
}

//--- fp8.mlir
!f = tensor<32x32xf32, #hk.rt<row, 32x32, group = 4>>
!b = tensor<32x32xf8E4M3FN, #hk.rt<row, 32x32, group = 4>>
hk.kernel @t(%x: memref<32x32xf32>, %y: memref<32x32xf8E4M3FN>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = hk.load %x[%c0, %c0] : memref<32x32xf32> -> !f
  // Rounded downward.
  %c = arith.truncf %v downward : !f to !b
  hk.store %c, %y[%c0, %c0] : !b, memref<32x32xf8E4M3FN>
  hk.return
}

//--- f16.mlir
!f = tensor<32x32xf32, #hk.rt<row, 32x32, group = 4>>
!h = tensor<32x32xf16, #hk.rt<row, 32x32, group = 4>>
hk.kernel @t(%x: memref<32x32xf32>, %y: memref<32x32xf16>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = hk.load %x[%c0, %c0] : memref<32x32xf32> -> !f
  %c = arith.truncf %v toward_zero : !f to !h
  hk.store %c, %y[%c0, %c0] : !h, memref<32x32xf16>
  hk.return
}
