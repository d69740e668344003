// RUN: not hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s 2>&1 | FileCheck %s

// Math ops that upstream would turn into ROCm device library calls stop the
// pass before any rewrite.
// CHECK: error: convert-hk-to-amdgpu: 'math.tan' would become a call into the ROCm device library (ocml), which is not linked; the math ops that lower are exp2, exp, log2, rsqrt, tanh, erf, sin, cos, absf, absi, copysign, log, fma, sqrt, round, roundeven, trunc, besides arith (chip gfx950)
hk.kernel @tan(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %t = math.tan %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// CHECK: error: convert-hk-to-amdgpu: 'math.exp2' has no device instruction for f64 (only f32, f16 and bf16), and the ROCm device library is not linked (chip gfx950)
hk.kernel @exp2_f64(%s: f64) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %e = math.exp2 %s : f64
  hk.return
}

// -----

// math.tanh has no f64 form either.
// CHECK: error: convert-hk-to-amdgpu: 'math.tanh' has no device instruction for f64 (only f32, f16 and bf16), and the ROCm device library is not linked (chip gfx950)
hk.kernel @tanh_f64(%s: f64) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %e = math.tanh %s : f64
  hk.return
}

// -----

// math.sin is computed from FMAs in f32 (Trig.cpp): f64 has no such form.
// CHECK: error: convert-hk-to-amdgpu: 'math.sin' has no lowering for this element type (only f32, f16 and bf16), and the ROCm device library is not linked (chip gfx950)
hk.kernel @sin_f64(%s: f64) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %e = math.sin %s : f64
  hk.return
}
