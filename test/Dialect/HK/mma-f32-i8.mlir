// RUN: hk-opt %s -split-input-file -verify-diagnostics

// f32 inputs accumulate in f32 (v_mfma_f32_16x16x4_f32, 32x32x2_f32), i8
// inputs in i32 (v_mfma_i32_16x16x32_i8, 32x32x16_i8); both chips have all
// four. The operand layouts follow the same rules as for bf16.
func.func @f32_16(%a: tensor<32x16xf32, #hk.rt<row, 16x16>>, %b: tensor<16x16xf32, #hk.rt<row, 16x16>>, %c: tensor<32x16xf32, #hk.rt<col, 16x16>>) {
  %d = hk.mma abt %a, %b, %c : tensor<32x16xf32, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<row, 16x16>>, tensor<32x16xf32, #hk.rt<col, 16x16>>
  return
}
func.func @f32_32(%a: tensor<32x16xf32, #hk.rt<row, 32x16>>, %b: tensor<32x16xf32, #hk.rt<row, 32x16>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  %d = hk.mma abt %a, %b, %c : tensor<32x16xf32, #hk.rt<row, 32x16>>, tensor<32x16xf32, #hk.rt<row, 32x16>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}
func.func @i8_16(%a: tensor<16x64xi8, #hk.rt<row, 16x32>>, %b: tensor<16x64xi8, #hk.rt<row, 16x32>>, %c: tensor<16x16xi32, #hk.rt<col, 16x16>>) {
  %d = hk.mma abt %a, %b, %c : tensor<16x64xi8, #hk.rt<row, 16x32>>, tensor<16x64xi8, #hk.rt<row, 16x32>>, tensor<16x16xi32, #hk.rt<col, 16x16>>
  return
}
func.func @i8_32(%a: tensor<32x64xi8, #hk.rt<row, 32x16>>, %b: tensor<32x64xi8, #hk.rt<row, 32x16>>, %c: tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>) {
  %d = hk.mma abt %a, %b, %c : tensor<32x64xi8, #hk.rt<row, 32x16>>, tensor<32x64xi8, #hk.rt<row, 32x16>>, tensor<32x32xi32, #hk.rt<col, 32x32, group = 4>>
  return
}

// -----

// i8 products are summed in i32, not f32.
func.func @i8_f32_acc(%a: tensor<16x64xi8, #hk.rt<row, 16x32>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects an i32 accumulator for 'i8' inputs, in col layout with 16x16 or 32x32 (group = 4) base tiles, got 'tensor<16x16xf32, #hk.rt<col, 16x16>>'}}
  %d = hk.mma abt %a, %a, %c : tensor<16x64xi8, #hk.rt<row, 16x32>>, tensor<16x64xi8, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

// f32 products are summed in f32.
func.func @f32_i32_acc(%a: tensor<16x16xf32, #hk.rt<row, 16x16>>, %c: tensor<16x16xi32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects an f32 accumulator for 'f32' inputs, in col layout with 16x16 or 32x32 (group = 4) base tiles, got 'tensor<16x16xi32, #hk.rt<col, 16x16>>'}}
  %d = hk.mma abt %a, %a, %c : tensor<16x16xf32, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<row, 16x16>>, tensor<16x16xi32, #hk.rt<col, 16x16>>
  return
}

// -----

// A and B share one element type.
func.func @mixed(%a: tensor<16x32xi8, #hk.rt<row, 16x32>>, %b: tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>, %c: tensor<16x16xi32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma' op expects A and B of one element type, got 'i8' and 'f8E4M3FN'}}
  %d = hk.mma abt %a, %b, %c : tensor<16x32xi8, #hk.rt<row, 16x32>>, tensor<16x32xf8E4M3FN, #hk.rt<row, 16x32>>, tensor<16x16xi32, #hk.rt<col, 16x16>>
  return
}
