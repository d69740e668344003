// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --split-input-file %s | FileCheck %s --check-prefixes=CHECK,GFX942

// A row 16x32 tile is the A operand of the 16x16x32 MFMA (lane l: row
// l % 16, K = 8 * (l / 16) + 0..7). gfx950 takes all 8 values at once;
// gfx942's 16x16x16 takes 4, so the lane's run is split in two halves that
// cover disjoint K subsets, identically for A and B.
// CHECK-LABEL: gpu.func @mma16
// CHECK: %[[ACC:.*]] = vector.extract_strided_slice %[[C:.*]] {offsets = [0], sizes = [4], strides = [1]} : vector<4xf32> to vector<4xf32>
// GFX950: %[[A:.*]] = vector.extract_strided_slice %[[AV:.*]] {offsets = [0], sizes = [8], strides = [1]} : vector<8xbf16> to vector<8xbf16>
// GFX950: %[[B:.*]] = vector.extract_strided_slice %[[BV:.*]] {offsets = [0], sizes = [8], strides = [1]} : vector<8xbf16> to vector<8xbf16>
// GFX950: %[[D:.*]] = amdgpu.mfma 16x16x32 %[[A]] * %[[B]] + %[[ACC]] blgp = none : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
// GFX942: %[[A0:.*]] = vector.extract_strided_slice %[[AV:.*]] {offsets = [0], sizes = [4], strides = [1]} : vector<8xbf16> to vector<4xbf16>
// GFX942: %[[B0:.*]] = vector.extract_strided_slice %[[BV:.*]] {offsets = [0], sizes = [4], strides = [1]} : vector<8xbf16> to vector<4xbf16>
// GFX942: %[[D0:.*]] = amdgpu.mfma 16x16x16 %[[A0]] * %[[B0]] + %[[ACC]] blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// GFX942: %[[A1:.*]] = vector.extract_strided_slice %[[AV]] {offsets = [4], sizes = [4], strides = [1]} : vector<8xbf16> to vector<4xbf16>
// GFX942: %[[B1:.*]] = vector.extract_strided_slice %[[BV]] {offsets = [4], sizes = [4], strides = [1]} : vector<8xbf16> to vector<4xbf16>
// GFX942: %[[D:.*]] = amdgpu.mfma 16x16x16 %[[A1]] * %[[B1]] + %[[D0]] blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// CHECK-NOT: amdgpu.mfma
// CHECK: vector.insert_strided_slice %[[D]], %[[C]] {offsets = [0], strides = [1]} : vector<4xf32> into vector<4xf32>
hk.kernel @mma16(%A: memref<?x?xbf16>, %C: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %b = hk.load %A[%c1, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %d = hk.mma abt %a, %b, %z : tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x32xbf16, #hk.rt<row, 16x32>>, tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %d, %C[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// -----

// 32x32 accumulators (col 32x32, group 4: the D layout of the 32x32 MFMAs,
// 16 registers per lane): gfx950 32x32x16, gfx942 two 32x32x8.
// CHECK-LABEL: gpu.func @mma32
// GFX950: amdgpu.mfma 32x32x16 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<8xf16>, vector<8xf16>, vector<16xf32>
// GFX942-COUNT-2: amdgpu.mfma 32x32x8 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
// CHECK-NOT: amdgpu.mfma
hk.kernel @mma32(%A: memref<?x?xf16>, %C: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xf16> -> tensor<32x16xf16, #hk.rt<row, 32x16>>
  %z = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  %d = hk.mma abt %a, %a, %z : tensor<32x16xf16, #hk.rt<row, 32x16>>, tensor<32x16xf16, #hk.rt<row, 32x16>>, tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
  hk.store %d, %C[%c0, %c0] : tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>, memref<?x?xf32>
  hk.return
}

// -----

// 2 x 2 base tiles of C, one of K, kind ab: A (32x32, row 16x32) keeps base
// tile (m, 0) in registers 8m..8m+7; B (32x32 KxN, col 32x16) keeps (0, n)
// in 8n..8n+7; C tile (m, n) is registers 4 * (2m + n).
// CHECK-LABEL: gpu.func @tiles
// CHECK-DAG: %[[C00:.*]] = vector.extract_strided_slice %[[C:.*]] {offsets = [0], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
// CHECK-DAG: %[[C01:.*]] = vector.extract_strided_slice %[[C]] {offsets = [4], sizes = [4], strides = [1]}
// CHECK-DAG: %[[C10:.*]] = vector.extract_strided_slice %[[C]] {offsets = [8], sizes = [4], strides = [1]}
// CHECK-DAG: %[[C11:.*]] = vector.extract_strided_slice %[[C]] {offsets = [12], sizes = [4], strides = [1]}
// GFX950: %[[A0:.*]] = vector.extract_strided_slice %[[AV:.*]] {offsets = [0], sizes = [8], strides = [1]} : vector<16xbf16> to vector<8xbf16>
// GFX950: %[[B0:.*]] = vector.extract_strided_slice %[[BV:.*]] {offsets = [0], sizes = [8], strides = [1]} : vector<16xbf16> to vector<8xbf16>
// GFX950: %[[D00:.*]] = amdgpu.mfma 16x16x32 %[[A0]] * %[[B0]] + %[[C00]]
// GFX950: %[[B1:.*]] = vector.extract_strided_slice %[[BV]] {offsets = [8], sizes = [8], strides = [1]}
// GFX950: %[[D01:.*]] = amdgpu.mfma 16x16x32 %[[A0]] * %[[B1]] + %[[C01]]
// GFX950: %[[A1:.*]] = vector.extract_strided_slice %[[AV]] {offsets = [8], sizes = [8], strides = [1]}
// GFX950: %[[B0b:.*]] = vector.extract_strided_slice %[[BV]] {offsets = [0], sizes = [8], strides = [1]}
// GFX950: %[[D10:.*]] = amdgpu.mfma 16x16x32 %[[A1]] * %[[B0b]] + %[[C10]]
// GFX950: %[[B1b:.*]] = vector.extract_strided_slice %[[BV]] {offsets = [8], sizes = [8], strides = [1]}
// GFX950: %[[D11:.*]] = amdgpu.mfma 16x16x32 %[[A1]] * %[[B1b]] + %[[C11]]
// GFX950: %[[R0:.*]] = vector.insert_strided_slice %[[D00]], %[[C]] {offsets = [0], strides = [1]}
// GFX950: %[[R1:.*]] = vector.insert_strided_slice %[[D01]], %[[R0]] {offsets = [4], strides = [1]}
// GFX950: %[[R2:.*]] = vector.insert_strided_slice %[[D10]], %[[R1]] {offsets = [8], strides = [1]}
// GFX950: vector.insert_strided_slice %[[D11]], %[[R2]] {offsets = [12], strides = [1]}
// GFX942-COUNT-8: amdgpu.mfma 16x16x16
// CHECK-NOT: amdgpu.mfma
hk.kernel @tiles(%A: memref<?x?xbf16>, %C: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x32xbf16, #hk.rt<row, 16x32>>
  %b = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> tensor<32x32xbf16, #hk.rt<col, 32x16>>
  %z = arith.constant dense<0.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  %d = hk.mma ab %a, %b, %z : tensor<32x32xbf16, #hk.rt<row, 16x32>>, tensor<32x32xbf16, #hk.rt<col, 32x16>>, tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.store %d, %C[%c0, %c0] : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
