// RUN: hk-opt %s -split-input-file -verify-diagnostics

// Types and attributes of the hk dialect: #hk.rt, #hk.rv, !hk.st, #hk.grid.

//===----------------------------------------------------------------------===//
// #hk.rt
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected layout 'row' or 'col', got 'diag'}}
func.func private @f(tensor<16x16xf32, #hk.rt<diag, 16x16>>)

// -----

// expected-error @+1 {{expected a base tile shape RxC}}
func.func private @f(tensor<16x16xf32, #hk.rt<row, 16x16x2>>)

// -----

// expected-error @+1 {{base tile 8x8 is not one of 16x16, 16x32, 32x16, 32x32, 16x128, 128x16}}
func.func private @f(tensor<16x16xf32, #hk.rt<row, 8x8>>)

// -----

// A row layout puts one row per lane: 128 rows do not fit a wave.
// expected-error @+1 {{base tile 128x16 spreads 128 lanes along its rows, more than the 64 lanes of a wave}}
func.func private @f(tensor<128x16xf8E4M3FN, #hk.rt<row, 128x16>>)

// -----

// expected-error @+1 {{base tile 16x128 spreads 128 lanes along its columns, more than the 64 lanes of a wave}}
func.func private @f(tensor<16x128xf8E4M3FN, #hk.rt<col, 16x128>>)

// -----

// A 16x16 base tile leaves 4 elements per lane.
// expected-error @+1 {{group 3 must be a power of two dividing the 4 elements each lane keeps of a 16x16 base tile}}
func.func private @f(tensor<16x16xf32, #hk.rt<col, 16x16, group = 3>>)

// -----

// expected-error @+1 {{group 8 must be a power of two dividing the 4 elements each lane keeps of a 16x16 base tile}}
func.func private @f(tensor<16x16xf32, #hk.rt<col, 16x16, group = 8>>)

// -----

// expected-error @+1 {{group 0 must be a power of two dividing the 16 elements each lane keeps of a 32x32 base tile}}
func.func private @f(tensor<32x32xf32, #hk.rt<col, 32x32, group = 0>>)

// -----

// expected-error @+1 {{register tile must have rank 2, got rank 3}}
func.func private @f(tensor<2x16x16xf32, #hk.rt<row, 16x16>>)

// -----

// expected-error @+1 {{register tile must have a static shape}}
func.func private @f(tensor<?x16xf32, #hk.rt<row, 16x16>>)

// -----

// expected-error @+1 {{register tile element type must be f32, f16, bf16, an 8-bit float, f6E2M3FN, f6E3M2FN, f4E2M1FN, i8, i32 or i1 (a mask), got 'f64'}}
func.func private @f(tensor<16x16xf64, #hk.rt<row, 16x16>>)

// -----

// expected-error @+1 {{register tile element type must be f32, f16, bf16, an 8-bit float, f6E2M3FN, f6E3M2FN, f4E2M1FN, i8, i32 or i1 (a mask), got 'i16'}}
func.func private @f(tensor<16x16xi16, #hk.rt<row, 16x16>>)

// -----

// expected-error @+1 {{base tile 16x128 is only for 8-, 6- and 4-bit element types, got 'bf16'}}
func.func private @f(tensor<16x128xbf16, #hk.rt<row, 16x128>>)

// -----

// expected-error @+1 {{tile 24x16 is not a multiple of its 16x16 base tile}}
func.func private @f(tensor<24x16xf32, #hk.rt<row, 16x16>>)

// -----

// expected-error @+1 {{tile 16x40 is not a multiple of its 16x32 base tile}}
func.func private @f(tensor<16x40xbf16, #hk.rt<row, 16x32>>)

// -----

// 256*256 f32 is 4096 bytes per lane; a lane has 512 registers of 4 bytes.
// expected-error @+1 {{register tile needs 4096 bytes per lane, more than the 2048 bytes of registers (512 VGPRs and AGPRs) a lane has}}
func.func private @f(tensor<256x256xf32, #hk.rt<col, 16x16>>)

// -----

// The element count overflows 64 bits; this must be an error, not a wrap.
// expected-error @+1 {{register tile needs more than 2^63 bytes, more than the 2048 bytes of registers (512 VGPRs and AGPRs) a lane has}}
func.func private @f(tensor<4611686018427387904x4611686018427387904xf32, #hk.rt<col, 16x16>>)

//===----------------------------------------------------------------------===//
// #hk.rv
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{register vector must have rank 1, got rank 2}}
func.func private @f(tensor<16x1xf32, #hk.rv<row, #hk.rt<col, 16x16>>>)

// -----

// expected-error @+1 {{register vector must have a static length}}
func.func private @f(tensor<?xf32, #hk.rv<row, #hk.rt<col, 16x16>>>)

// -----

// expected-error @+1 {{register vector element type must be f32, f16, bf16, an 8-bit float, i8, i32 or i1 (a mask), got 'f64'}}
func.func private @f(tensor<16xf64, #hk.rv<row, #hk.rt<col, 16x16>>>)

// -----

// expected-error @+1 {{register vector length 24 is not a multiple of the base tile's rows (16)}}
func.func private @f(tensor<24xf32, #hk.rv<row, #hk.rt<col, 16x16>>>)

// -----

// A col vector of a 32x16 tile runs along its 16 columns.
// expected-error @+1 {{register vector length 8 is not a multiple of the base tile's columns (16)}}
func.func private @f(tensor<8xf32, #hk.rv<col, #hk.rt<row, 32x16>>>)

// -----

// expected-error @+2 {{base tile 8x8 is not one of}}
// expected-error @+1 {{failed to parse HK_RegVecLayoutAttr parameter 'tile'}}
func.func private @f(tensor<16xf32, #hk.rv<row, #hk.rt<col, 8x8>>>)

// -----

// expected-error @+2 {{expected ::hk::Layout to be one of: row, col}}
// expected-error @+1 {{failed to parse HK_RegVecLayoutAttr parameter 'axis'}}
func.func private @f(tensor<16xf32, #hk.rv<diag, #hk.rt<col, 16x16>>>)

//===----------------------------------------------------------------------===//
// !hk.st
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{shared tile must have rank 2, got rank 3}}
func.func private @f(!hk.st<2x16x16xbf16, 16x16>)

// -----

// expected-error @+1 {{shared tile element type must be f32, f16, bf16, an 8-bit float or i8 (bytes), got 'i16'}}
func.func private @f(!hk.st<64x64xi16, 16x32>)

// -----

// expected-error @+1 {{subtile dimensions must be powers of two of at least 8, got 24x32}}
func.func private @f(!hk.st<48x64xbf16, 24x32>)

// -----

// expected-error @+1 {{subtile dimensions must be powers of two of at least 8, got 4x64}}
func.func private @f(!hk.st<64x64xbf16, 4x64>)

// -----

// expected-error @+1 {{expected a subtile shape RxC}}
func.func private @f(!hk.st<64x64xbf16, 16x16x2>)

// -----

// expected-error @+1 {{shared tile 40x64 is not a multiple of its subtile 16x32}}
func.func private @f(!hk.st<40x64xbf16, 16x32>)

// -----

// 8x8 bf16 is 128 bytes: 2 bytes per lane.
// expected-error @+1 {{subtile 8x8 of 'bf16' is 128 bytes; a wave moves one subtile at 4, 8 or 16 bytes per lane (256, 512 or 1024 bytes)}}
func.func private @f(!hk.st<64x64xbf16, 8x8>)

// -----

// 32x32 f32 is 4096 bytes: 64 bytes per lane.
// expected-error @+1 {{subtile 32x32 of 'f32' is 4096 bytes; a wave moves one subtile at 4, 8 or 16 bytes per lane (256, 512 or 1024 bytes)}}
func.func private @f(!hk.st<64x64xf32, 32x32>)

// -----

// 512x256 f32 is 512 KiB.
// expected-error @+1 {{shared tile needs 524288 bytes of LDS, more than the 163840 bytes of the largest chip}}
func.func private @f(!hk.st<512x256xf32, 16x16>)

// -----

// One extent alone is larger than the LDS; the byte count must not overflow.
// expected-error @+1 {{shared tile 4611686018427387904x4611686018427387904 needs more than the 163840 bytes of LDS of the largest chip}}
func.func private @f(!hk.st<4611686018427387904x4611686018427387904xbf16, 16x16>)

//===----------------------------------------------------------------------===//
// #hk.grid
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expected 'dim' or 'arg', got 'size'}}
func.func private @f() attributes {g = #hk.grid<[size(0)] -> (s0)>}

// -----

// expected-error @+1 {{grid must have 1 to 3 dimensions, got 4}}
func.func private @f() attributes {g = #hk.grid<[] -> (1, 1, 1, 1)>}

// -----

// expected-error @+1 {{grid must have 1 to 3 dimensions, got 0}}
func.func private @f() attributes {g = #hk.grid<[] -> ()>}

// -----

// expected-error @+1 {{grid refers to negative argument -1}}
func.func private @f() attributes {g = #hk.grid<[arg(-1)] -> (s0)>}

// -----

// dim(0, -1) would otherwise read back as arg(0).
// expected-error @+1 {{grid symbol dimension must not be negative, got -1}}
func.func private @f() attributes {g = #hk.grid<[dim(0, -1)] -> (s0)>}

// -----

// Only the bound symbols exist.
// expected-error @+1 {{use of undeclared identifier}}
func.func private @f() attributes {g = #hk.grid<[arg(0)] -> (s1)>}
