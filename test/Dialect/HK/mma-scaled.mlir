// RUN: hk-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// hk.mma_scaled: OCP MX operands (8-, 6- and 4-bit floats, A and B of
// different formats) with one e8m0 scale per 32 elements along K of each
// row of A and of B, round-tripped; then each verifier rule.

// CHECK-LABEL: func.func @mixed
// CHECK: hk.mma_scaled %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : tensor<32x256xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x256xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>, tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<32x16xf32, #hk.rt<col, 16x16>>
func.func @mixed(%a: tensor<32x256xf4E2M1FN, #hk.rt<row, 16x128>>, %sa: tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>, %b: tensor<16x256xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>, %sb: tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<32x16xf32, #hk.rt<col, 16x16>>) -> tensor<32x16xf32, #hk.rt<col, 16x16>> {
  %d = hk.mma_scaled %a[%sa], %b[%sb], %c : tensor<32x256xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<32x8xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x256xf8E4M3FN, #hk.rt<row, 16x128, group = 16>>, tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<32x16xf32, #hk.rt<col, 16x16>>
  return %d : tensor<32x16xf32, #hk.rt<col, 16x16>>
}

// CHECK-LABEL: func.func @fp6
// CHECK: hk.mma_scaled
func.func @fp6(%a: tensor<16x128xf6E2M3FN, #hk.rt<row, 16x128>>, %b: tensor<16x128xf6E3M2FN, #hk.rt<row, 16x128>>, %s: tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) -> tensor<16x16xf32, #hk.rt<col, 16x16>> {
  %d = hk.mma_scaled %a[%s], %b[%s], %c : tensor<16x128xf6E2M3FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x128xf6E3M2FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return %d : tensor<16x16xf32, #hk.rt<col, 16x16>>
}

// CHECK-LABEL: func.func @form32
// CHECK: hk.mma_scaled {{.*}} : tensor<64x128xf6E3M2FN, #hk.rt<row, 32x64>>, tensor<64x4xf8E8M0FNU, #hk.rt<row, 32x2>>, tensor<32x128xf8E5M2, #hk.rt<row, 32x64, group = 16>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 32x2>>, tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
func.func @form32(%a: tensor<64x128xf6E3M2FN, #hk.rt<row, 32x64>>, %sa: tensor<64x4xf8E8M0FNU, #hk.rt<row, 32x2>>, %b: tensor<32x128xf8E5M2, #hk.rt<row, 32x64, group = 16>>, %sb: tensor<32x4xf8E8M0FNU, #hk.rt<row, 32x2>>, %c: tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>) -> tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>> {
  %d = hk.mma_scaled %a[%sa], %b[%sb], %c : tensor<64x128xf6E3M2FN, #hk.rt<row, 32x64>>, tensor<64x4xf8E8M0FNU, #hk.rt<row, 32x2>>, tensor<32x128xf8E5M2, #hk.rt<row, 32x64, group = 16>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 32x2>>, tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
  return %d : tensor<64x32xf32, #hk.rt<col, 32x32, group = 4>>
}

// -----

func.func @bf16_operand(%a: tensor<16x128xbf16, #hk.rt<row, 16x32>>, %b: tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, %s: tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A of f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or f4E2M1FN, got 'bf16'}}
  %d = hk.mma_scaled %a[%s], %b[%s], %c : tensor<16x128xbf16, #hk.rt<row, 16x32>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

// 8-bit operands need group = 16: with the default 32, a lane's values of
// a row would straddle the MFMA's scale blocks.
func.func @fp8_group(%a: tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, %s: tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A in row layout with 16x128 base tiles and group = 16 for 'f8E4M3FN', got #hk.rt<row, 16x128>}}
  %d = hk.mma_scaled %a[%s], %a[%s], %c : tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x128xf8E4M3FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @fp4_group(%a: tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128, group = 16>>, %s: tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{expects A in row layout with 16x128 base tiles and group = 32 for 'f4E2M1FN', got #hk.rt<row, 16x128, group = 16>}}
  %d = hk.mma_scaled %a[%s], %a[%s], %c : tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128, group = 16>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128, group = 16>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @k_mismatch(%a: tensor<16x256xf4E2M1FN, #hk.rt<row, 16x128>>, %sa: tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>, %b: tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, %sb: tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma_scaled' op A has K = 256 but B has K = 128}}
  %d = hk.mma_scaled %a[%sa], %b[%sb], %c : tensor<16x256xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x8xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @m_mismatch(%a: tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, %sa: tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %s: tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %b: tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A with 16 rows, got 32}}
  %d = hk.mma_scaled %a[%sa], %b[%s], %c : tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

// One scale per 32 elements: a 16x256 operand has 16x8 scales.
func.func @scale_shape(%a: tensor<16x256xf4E2M1FN, #hk.rt<row, 16x128>>, %sa: tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A's scales of 16x8 (one scale per 32 elements along K), got 16x4}}
  %d = hk.mma_scaled %a[%sa], %a[%sa], %c : tensor<16x256xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x256xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @scale_type(%a: tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, %s: tensor<16x4xi8, #hk.rt<row, 16x4>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A's scales of f8E8M0FNU, got 'i8'}}
  %d = hk.mma_scaled %a[%s], %a[%s], %c : tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xi8, #hk.rt<row, 16x4>>, tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x4xi8, #hk.rt<row, 16x4>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @scale_layout(%a: tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, %s: tensor<16x16xf8E8M0FNU, #hk.rt<row, 16x16>>, %c: tensor<16x16xf32, #hk.rt<col, 16x16>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A's scales in row layout with 16x4 base tiles, got #hk.rt<row, 16x16>}}
  %d = hk.mma_scaled %a[%s], %a[%s], %c : tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x16xf8E8M0FNU, #hk.rt<row, 16x16>>, tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<16x16xf8E8M0FNU, #hk.rt<row, 16x16>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  return
}

// -----

func.func @acc(%a: tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, %s: tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects an f32 accumulator in col layout with 16x16 base tiles, or 32x32 base tiles and group = 4, got 'tensor<32x32xf32, #hk.rt<col, 32x32>>'}}
  %d = hk.mma_scaled %a[%s], %a[%s], %c : tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<32x32xf32, #hk.rt<col, 32x32>>
  return
}

// -----

// The 32x32x64 form: a 32x32 accumulator names it, and then the operands
// must be in its 32x64 layouts, not the 16x128 ones.
func.func @form_mismatch(%a: tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, %s: tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A in row layout with 32x64 base tiles and group = 32 for 'f4E2M1FN', got #hk.rt<row, 16x128>}}
  %d = hk.mma_scaled %a[%s], %a[%s], %c : tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<32x128xf4E2M1FN, #hk.rt<row, 16x128>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}

// -----

func.func @form32_fp8_group(%a: tensor<32x64xf8E4M3FN, #hk.rt<row, 32x64>>, %s: tensor<32x2xf8E8M0FNU, #hk.rt<row, 32x2>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects A in row layout with 32x64 base tiles and group = 16 for 'f8E4M3FN', got #hk.rt<row, 32x64>}}
  %d = hk.mma_scaled %a[%s], %a[%s], %c : tensor<32x64xf8E4M3FN, #hk.rt<row, 32x64>>, tensor<32x2xf8E8M0FNU, #hk.rt<row, 32x2>>, tensor<32x64xf8E4M3FN, #hk.rt<row, 32x64>>, tensor<32x2xf8E8M0FNU, #hk.rt<row, 32x2>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}

// -----

func.func @form32_scale_layout(%a: tensor<32x64xf4E2M1FN, #hk.rt<row, 32x64>>, %s: tensor<32x2xf8E8M0FNU, #hk.rt<row, 32x2>>, %t: tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, %c: tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>) {
  // expected-error @+1 {{'hk.mma_scaled' op expects B's scales in row layout with 32x2 base tiles, got #hk.rt<row, 16x4>}}
  %d = hk.mma_scaled %a[%s], %a[%t], %c : tensor<32x64xf4E2M1FN, #hk.rt<row, 32x64>>, tensor<32x2xf8E8M0FNU, #hk.rt<row, 32x2>>, tensor<32x64xf4E2M1FN, #hk.rt<row, 32x64>>, tensor<32x4xf8E8M0FNU, #hk.rt<row, 16x4>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  return
}

// -----

// 32x64 base tiles are for the 8-, 6- and 4-bit types, as 16x128.
// expected-error @+1 {{base tile 32x64 is only for 8-, 6- and 4-bit element types, got 'bf16'}}
func.func private @wide_32x64(tensor<32x64xbf16, #hk.rt<row, 32x64>>)

// -----

// MX data passed as bytes: hk.load reads an i8 memref as E2M1 (two per
// byte), E2M3 and E3M2 (four in three bytes), 8-bit floats and e8m0 tiles.
// CHECK-LABEL: func.func @bytes
// CHECK: hk.load {{.*}} : memref<?x?xi8> -> tensor<16x128xf4E2M1FN
// CHECK: hk.load {{.*}} : memref<?x?xi8> -> tensor<16x128xf6E2M3FN
// CHECK: hk.load {{.*}} : memref<?x?xi8> -> tensor<32x64xf6E3M2FN
// CHECK: hk.load {{.*}} : memref<?x?xi8> -> tensor<16x4xf8E8M0FNU
func.func @bytes(%m: memref<?x?xi8>, %i: index) {
  %a = hk.load %m[%i, %i] : memref<?x?xi8> -> tensor<16x128xf4E2M1FN, #hk.rt<row, 16x128>>
  %b = hk.load %m[%i, %i] : memref<?x?xi8> -> tensor<16x128xf6E2M3FN, #hk.rt<row, 16x128>>
  %c = hk.load %m[%i, %i] : memref<?x?xi8> -> tensor<32x64xf6E3M2FN, #hk.rt<row, 32x64>>
  %s = hk.load %m[%i, %i] : memref<?x?xi8> -> tensor<16x4xf8E8M0FNU, #hk.rt<row, 16x4>>
  return
}

// -----

// Only bytes (i8) are read as MX data.
func.func @f6_from_i16(%m: memref<?x?xi16>, %i: index) {
  // expected-error @+1 {{'hk.load' op element type of the memref ('i16') differs from the tile's ('f6E2M3FN')}}
  %a = hk.load %m[%i, %i] : memref<?x?xi16> -> tensor<16x128xf6E2M3FN, #hk.rt<row, 16x128>>
  return
}

// -----

// A shared tile of bytes holds whole elements per byte: 6-bit floats (four
// in three bytes) are read from global memory only.
func.func @f6_from_shared_bytes(%s: !hk.st<16x128xi8, 16x64>) {
  // expected-error @+1 {{'hk.load' op reads a shared tile of bytes (i8) as 'f6E2M3FN'; only 8- and 4-bit floats are read from bytes}}
  %a = hk.load %s : !hk.st<16x128xi8, 16x64> -> tensor<16x128xf6E2M3FN, #hk.rt<row, 16x128>>
  return
}

// -----

// Four 6-bit elements per three bytes: a 32x2 tile (one scale layout)
// cannot be read as E2M3.
func.func @f6_columns(%m: memref<?x?xi8>, %i: index) {
  // expected-error @+1 {{'hk.load' op reads 4 elements per 3 bytes: the tile's columns (2) must be a multiple of 4}}
  %a = hk.load %m[%i, %i] : memref<?x?xi8> -> tensor<32x2xf6E2M3FN, #hk.rt<row, 32x2>>
  return
}
