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

// hk.swap_layout from col 16x16 to row 16x16, by hand from Layout.h: result
// register i of lane l is element (l%16, 4*(l/16) + i), which the col
// layout keeps in lane 16*((l%16)/4) + 4*(l/16) + i, register l%4. As xor
// functions of the lane bits: source lane = i ^ (b2?16) ^ (b3?32) ^ (b4?4)
// ^ (b5?8); source register = (b0?1) ^ (b1?2), four candidates each.
// CHECK-LABEL: gpu.func @swap
// CHECK: %[[LANE:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: arith.andi %[[LANE]], %c4_i32
// CHECK: arith.select %{{.*}}, %c16_i32
// CHECK: arith.andi %[[LANE]], %c8_i32
// CHECK: arith.select %{{.*}}, %c32_i32
// CHECK: arith.andi %[[LANE]], %c16_i32
// CHECK: arith.select %{{.*}}, %c4_i32
// CHECK: arith.andi %[[LANE]], %c32_i32
// CHECK: arith.select %{{.*}}, %c8_i32
// CHECK: %[[SRC0:.*]] = arith.xori
// CHECK: %[[E0:.*]] = vector.extract %[[X:.*]][0] : f32 from vector<4xf32>
// CHECK: %[[V0:.*]], %{{.*}} = gpu.shuffle idx %[[E0]], %[[SRC0]], %c64_i32
// CHECK: arith.andi %[[LANE]], %c1_i32
// CHECK: arith.andi %[[LANE]], %c2_i32
// CHECK: %[[REG:.*]] = arith.xori
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[REG]], %c1_i32
// CHECK: %[[E1:.*]] = vector.extract %[[X]][1] : f32 from vector<4xf32>
// CHECK: %[[V1:.*]], %{{.*}} = gpu.shuffle idx %[[E1]], %[[SRC0]], %c64_i32
// CHECK: arith.select %[[IS1]], %[[V1]], %[[V0]] : f32
// CHECK-COUNT-14: gpu.shuffle idx
// CHECK-NOT: gpu.shuffle
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
hk.kernel @swap(%X: memref<?x?xf32>, %O: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %y = hk.swap_layout %x : tensor<16x16xf32, #hk.rt<col, 16x16>> -> tensor<16x16xf32, #hk.rt<row, 16x16>>
  hk.store %y, %O[%c0, %c0] : tensor<16x16xf32, #hk.rt<row, 16x16>>, memref<?x?xf32>
  hk.return
}
