// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefix=GFX942
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefix=GFX950

// f32 -> bf16 marked nnan on gfx942 (no bf16 conversion instruction) is
// rounded to nearest even as integer code, without LLVM's NaN test:
// bits + 0x7fff + bit 16 of bits, upper half. Without the flag, with another
// rounding mode, or on gfx950 the truncf stays for LLVM.
// GFX942-LABEL: gpu.func @t
// GFX942: %[[B:.*]] = arith.bitcast %[[X:.*]] : vector<16xf32> to vector<16xi32>
// GFX942: %[[C16:.*]] = arith.constant dense<16> : vector<16xi32>
// GFX942: %[[S:.*]] = arith.shrui %[[B]], %[[C16]] : vector<16xi32>
// GFX942: %[[C1:.*]] = arith.constant dense<1> : vector<16xi32>
// GFX942: %[[L:.*]] = arith.andi %[[S]], %[[C1]] : vector<16xi32>
// GFX942: %[[HALF:.*]] = arith.constant dense<32767> : vector<16xi32>
// GFX942: %[[A:.*]] = arith.addi %[[B]], %[[HALF]] : vector<16xi32>
// GFX942: %[[R:.*]] = arith.addi %[[A]], %[[L]] : vector<16xi32>
// GFX942: %[[C16B:.*]] = arith.constant dense<16> : vector<16xi32>
// GFX942: %[[H:.*]] = arith.shrui %[[R]], %[[C16B]] : vector<16xi32>
// GFX942: %[[T:.*]] = arith.trunci %[[H]] : vector<16xi32> to vector<16xi16>
// GFX942: arith.bitcast %[[T]] : vector<16xi16> to vector<16xbf16>
// GFX942-NOT: arith.bitcast
// GFX942: arith.truncf %[[X]] : vector<16xf32> to vector<16xbf16>
// GFX942: arith.truncf %[[X]] toward_zero fastmath<nnan> : vector<16xf32> to vector<16xbf16>
// GFX942: arith.truncf %[[X]] fastmath<nnan> : vector<16xf32> to vector<16xf16>
// GFX950-LABEL: gpu.func @t
// GFX950-NOT: arith.bitcast
// GFX950: arith.truncf %[[X:.*]] fastmath<nnan> : vector<16xf32> to vector<16xbf16>
// GFX950: arith.truncf %[[X]] : vector<16xf32> to vector<16xbf16>
!f = tensor<32x32xf32, #hk.rt<row, 32x32, group = 4>>
!b = tensor<32x32xbf16, #hk.rt<row, 32x32, group = 4>>
!h = tensor<32x32xf16, #hk.rt<row, 32x32, group = 4>>
hk.kernel @t(%x: memref<32x32xf32>, %y: memref<32x32xbf16>, %z: memref<32x32xf16>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = hk.load %x[%c0, %c0] : memref<32x32xf32> -> !f
  %a = arith.truncf %v fastmath<nnan> : !f to !b
  hk.store %a, %y[%c0, %c0] : !b, memref<32x32xbf16>
  %b = arith.truncf %v : !f to !b
  hk.store %b, %y[%c0, %c0] : !b, memref<32x32xbf16>
  %c = arith.truncf %v toward_zero fastmath<nnan> : !f to !b
  hk.store %c, %y[%c0, %c0] : !b, memref<32x32xbf16>
  %d = arith.truncf %v fastmath<nnan> : !f to !h
  hk.store %d, %z[%c0, %c0] : !h, memref<32x32xf16>
  hk.return
}
