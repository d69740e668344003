// RUN: hk-opt --hk-resolve-fp8=chip=gfx950 --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt --hk-resolve-fp8=chip=gfx942 --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefix=GFX942
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA950

// gfx950's 8-bit floats go to the f8f6f4 MFMAs (32 K values per lane, four
// times the K of v_mfma_f32_16x16x32_fp8_fp8 in twice its cycles) when the
// tile's K allows it: a 16x128 base tile holds 32 K values per lane; tiles
// of 16x32 (or 32x16) base tiles give 8 per base tile, and four of them
// along K make one f8f6f4 MFMA. The same tiles on gfx942 keep its
// 16x16x32 (32x32x16) fp8 MFMAs.

// GFX950-LABEL: gpu.func @k128_base
// GFX950-COUNT-2: amdgpu.mfma 16x16x128 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<4xf32>
// GFX950-NOT: amdgpu.mfma
hk.kernel @k128_base(%A: memref<?x?x!hk.fp8>, %C: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?x!hk.fp8> -> tensor<16x256x!hk.fp8, #hk.rt<row, 16x128>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %a, %z : tensor<16x256x!hk.fp8, #hk.rt<row, 16x128>>, tensor<16x256x!hk.fp8, #hk.rt<row, 16x128>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %d, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// Four 16x32 base tiles along K: one MFMA takes their 8 + 8 + 8 + 8
// registers, adjacent in a row-major A (one slice). gfx942 takes them one
// base tile at a time.
// GFX950-LABEL: gpu.func @k128_gathered
// GFX950: %[[A:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [32], strides = [1]} : vector<32xf8E5M2> to vector<32xf8E5M2>
// GFX950: amdgpu.mfma 16x16x128 %[[A]] * %{{.*}} + %{{.*}} blgp = none : vector<32xf8E5M2>, vector<32xf8E5M2>, vector<4xf32>
// GFX950-NOT: amdgpu.mfma
// GFX942-LABEL: gpu.func @k128_gathered
// GFX942-COUNT-4: amdgpu.mfma 16x16x32 {{.*}} : vector<8xf8E5M2FNUZ>, vector<8xf8E5M2FNUZ>, vector<4xf32>
// GFX942-NOT: amdgpu.mfma
hk.kernel @k128_gathered(%A: memref<?x?x!hk.bf8>, %B: memref<?x?x!hk.bf8>, %C: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?x!hk.bf8> -> tensor<16x128x!hk.bf8, #hk.rt<row, 16x32>>
  %b = hk.load %B[%c0, %c0] : memref<?x?x!hk.bf8> -> tensor<16x128x!hk.bf8, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %b, %z : tensor<16x128x!hk.bf8, #hk.rt<row, 16x32>>, tensor<16x128x!hk.bf8, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %d, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// B transposed (ab: B is K x N of 32x16 col base tiles): its K base tiles
// are N tiles apart in the registers, so the MFMA's operand is their four
// slices concatenated. 32x32 accumulators take the 32x32x64 form.
// GFX950-LABEL: gpu.func @k64_32x32_concat
// GFX942-LABEL: gpu.func @k64_32x32_concat
// GFX950: vector.shuffle
// GFX950: amdgpu.mfma 32x32x64 {{.*}} : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
// GFX950: amdgpu.mfma 32x32x64 {{.*}} : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
// GFX950-NOT: amdgpu.mfma
hk.kernel @k64_32x32_concat(%A: memref<?x?x!hk.fp8>, %B: memref<?x?x!hk.fp8>, %C: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?x!hk.fp8> -> tensor<32x64x!hk.fp8, #hk.rt<row, 32x16>>
  %b = hk.load %B[%c0, %c0] : memref<?x?x!hk.fp8> -> tensor<64x64x!hk.fp8, #hk.rt<col, 16x32>>
  %z = arith.constant dense<0.0> : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
  %d = hk.mma ab %a, %b, %z : tensor<32x64x!hk.fp8, #hk.rt<row, 32x16>>, tensor<64x64x!hk.fp8, #hk.rt<col, 16x32>>, tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>
  hk.store %d, %C[%c0, %c0] : tensor<32x64xf32, #hk.rt<col, 32x32, group = 4>>, memref<?x?xf32>
  hk.return
}

// A K of 64 (two 16x32 base tiles, 16 values per lane) is too short for
// the 16x16x128 form: the 16x16x32 MFMAs stay.
// GFX950-LABEL: gpu.func @k64_short
// GFX950-COUNT-2: amdgpu.mfma 16x16x32 {{.*}} : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
// GFX950-NOT: amdgpu.mfma
hk.kernel @k64_short(%A: memref<?x?x!hk.fp8>, %C: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?x!hk.fp8> -> tensor<16x64x!hk.fp8, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %a, %z : tensor<16x64x!hk.fp8, #hk.rt<row, 16x32>>, tensor<16x64x!hk.fp8, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %d, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// ISA950-LABEL: k128_base:
// ISA950-COUNT-2: v_mfma_f32_16x16x128_f8f6f4
// ISA950-LABEL: k128_gathered:
// ISA950: v_mfma_f32_16x16x128_f8f6f4 {{.*}} cbsz:1 blgp:1
// ISA950-LABEL: k64_32x32_concat:
// ISA950-COUNT-2: v_mfma_f32_32x32x64_f8f6f4
// ISA950-LABEL: k64_short:
// ISA950-COUNT-2: v_mfma_f32_16x16x32_fp8_fp8
