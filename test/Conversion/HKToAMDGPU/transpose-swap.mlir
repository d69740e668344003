// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// hk.transpose renumbers registers only. A 32x64 row 16x32 tile is a 2x2
// grid of base tiles (8 registers each); its transpose, 64x32 col 32x16, has
// base tile (j, i) where this one has (i, j): result blocks 0, 1, 2, 3 are
// source blocks 0, 2, 1, 3.
// CHECK-LABEL: gpu.func @transpose_grid
// CHECK: %[[X:.*]] = vector.insert_strided_slice %{{.*}} {offsets = [24], strides = [1]} : vector<8xbf16> into vector<32xbf16>
// CHECK: %[[T:.*]] = vector.shuffle %[[X]], %[[X]] [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<32xbf16>, vector<32xbf16>
// CHECK-NOT: gpu.shuffle
// CHECK: vector.extract{{.*}} %[[T]]
hk.kernel @transpose_grid(%X: memref<?x?xbf16>, %O: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
  %t = hk.transpose %x : tensor<32x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x32xbf16, #hk.rt<col, 32x16>>
  hk.store %t, %O[%c0, %c0] : tensor<64x32xbf16, #hk.rt<col, 32x16>>, memref<?x?xbf16>
  hk.return
}

// A 1-D grid (16x64 row 16x32 -> 64x16 col 32x16) keeps every register.
// CHECK-LABEL: gpu.func @transpose_row
// CHECK-NOT: vector.shuffle
// CHECK: gpu.return
hk.kernel @transpose_row(%X: memref<?x?xbf16>, %O: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> tensor<16x64xbf16, #hk.rt<row, 16x32>>
  %t = hk.transpose %x : tensor<16x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x16xbf16, #hk.rt<col, 32x16>>
  hk.store %t, %O[%c0, %c0] : tensor<64x16xbf16, #hk.rt<col, 32x16>>, memref<?x?xbf16>
  hk.return
}

// hk.swap_layout from col 16x16 to row 16x16, by hand from Layout.h: the
// col layout keeps element (r, c) in lane c + 16 (r / 4), register r % 4;
// the row layout in lane r + 16 (c / 4), register c % 4. As bits, (lane 0-5,
// register 0-1) = (c0 c1 c2 c3 r2 r3, r0 r1) becomes (r0 r1 r2 r3 c2 c3, c0
// c1): r0 and c0 trade places by a butterfly over lane bit 0 and register
// bit 0 (DPP quad_perm [1, 0, 3, 2], one per register sent), r1 and c1 over
// lane bit 1 and register bit 1 (quad_perm [2, 3, 0, 1]); then c2 c3 r2 r3
// still sit at lane bits 2 3 4 5 where r2 r3 c2 c3 belong: one ds_bpermute
// per register, from lane (l0, l1, l4, l5, l2, l3) as bits; the register
// bits are in place.
// CHECK-LABEL: gpu.func @swap
// CHECK: %[[LANE:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[B0:.*]] = arith.andi %[[LANE]], %c1_i32
// CHECK: %[[S0:.*]] = arith.cmpi ne, %[[B0]]
// CHECK: %[[LO0:.*]] = vector.shuffle %[[X:.*]], %[[X]] [0, 2] : vector<4xf32>, vector<4xf32>
// CHECK: %[[HI0:.*]] = vector.shuffle %[[X]], %[[X]] [1, 3] : vector<4xf32>, vector<4xf32>
// CHECK: %[[SEND0:.*]] = arith.select %[[S0]], %[[LO0]], %[[HI0]] : vector<2xf32>
// CHECK-COUNT-2: amdgpu.dpp {{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) : f32
// CHECK: %[[RECV0:.*]] = vector.from_elements
// CHECK: %[[N0:.*]] = arith.select %[[S0]], %[[RECV0]], %[[LO0]] : vector<2xf32>
// CHECK: %[[N1:.*]] = arith.select %[[S0]], %[[HI0]], %[[RECV0]] : vector<2xf32>
// CHECK: vector.shuffle %[[N0]], %[[N1]] [0, 2, 1, 3]
// CHECK: arith.andi %[[LANE]], %c2_i32
// CHECK-COUNT-2: amdgpu.dpp {{.*}} quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32]) : f32
// CHECK: arith.andi %[[LANE]], %c4_i32
// CHECK: arith.select %{{.*}}, %c16_i32
// CHECK: arith.andi %[[LANE]], %c8_i32
// CHECK: arith.select %{{.*}}, %c32_i32
// CHECK: arith.andi %[[LANE]], %c16_i32
// CHECK: arith.select %{{.*}}, %c4_i32
// CHECK: arith.andi %[[LANE]], %c32_i32
// CHECK: arith.select %{{.*}}, %c8_i32
// CHECK-COUNT-4: gpu.shuffle idx
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: amdgpu.dpp
hk.kernel @swap(%X: memref<?x?xf32>, %O: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %y = hk.swap_layout %x : tensor<16x16xf32, #hk.rt<col, 16x16>> -> tensor<16x16xf32, #hk.rt<row, 16x16>>
  hk.store %y, %O[%c0, %c0] : tensor<16x16xf32, #hk.rt<row, 16x16>>, memref<?x?xf32>
  hk.return
}
