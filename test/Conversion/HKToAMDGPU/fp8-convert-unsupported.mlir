// A builtin 8-bit format the chip does not convert is named, with the chip,
// before anything is rewritten: OCP on gfx942, FNUZ on gfx950.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s -verify-diagnostics -split-input-file

hk.kernel @ocp_on_gfx942(%A: memref<?x?xf8E4M3FN>, %C: memref<?x?xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>
  // expected-error @+1 {{convert-hk-to-amdgpu: 'arith.extf' converts f8E4M3FN, but gfx942's conversion instructions take FNUZ formats (f8E4M3FNUZ, f8E5M2FNUZ; !hk.fp8, !hk.bf8) (chip gfx942)}}
  %f = arith.extf %a : tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>> to tensor<16x32xf32, #hk.rt<row, 16x32>>
  hk.store %f, %C[%c0, %c0] : tensor<16x32xf32, #hk.rt<row, 16x32>>, memref<?x?xf32>
  hk.return
}
