// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --split-input-file %s | FileCheck %s --check-prefixes=CHECK,GFX942

// Row max of a 32x64 col 16x16 tile (the attention score tile), from
// Layout.h by hand: E = 4, lane l holds column l%16 and rows 4*(l/16) + i
// of each base tile, in register t*4 + i with t = 4*tr + tc. The row vector
// keeps rows tr*16 + 4*(l/16) + i in register tr*4 + i (vector<8>). So
// vector register (tr, i) combines tile registers tr*16 + tc*4 + i over
// tc = 0..3: four shuffles. The lanes sharing a row are those with the same
// l/16: xor 1, 2, 4, 8 (DPP quad_perm, quad_perm, ds_swizzle, DPP
// row_ror:8), the same on both chips. init combines last.
// CHECK-LABEL: gpu.func @row_max
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [31] : f32 into vector<32xf32>
// CHECK: %[[A:.*]] = vector.shuffle %[[X]], %[[X]] [0, 1, 2, 3, 16, 17, 18, 19] : vector<32xf32>, vector<32xf32>
// CHECK: %[[B:.*]] = vector.shuffle %[[X]], %[[X]] [4, 5, 6, 7, 20, 21, 22, 23]
// CHECK: %[[AB:.*]] = arith.maxnumf %[[A]], %[[B]] : vector<8xf32>
// CHECK: vector.shuffle %[[X]], %[[X]] [8, 9, 10, 11, 24, 25, 26, 27]
// CHECK: vector.shuffle %[[X]], %[[X]] [12, 13, 14, 15, 28, 29, 30, 31]
// CHECK: %[[P:.*]] = arith.maxnumf %{{.*}} : vector<8xf32>
// CHECK-COUNT-8: amdgpu.dpp {{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) : f32
// CHECK: %[[D1:.*]] = vector.from_elements
// CHECK: %[[P1:.*]] = arith.maxnumf %[[P]], %[[D1]] : vector<8xf32>
// CHECK-COUNT-8: amdgpu.dpp {{.*}} quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32]) : f32
// CHECK: %[[P2:.*]] = arith.maxnumf %[[P1]], %{{.*}} : vector<8xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[S4:.*]], %{{.*}} = gpu.shuffle xor %[[P2]], %[[C4]], %{{.*}} : vector<8xf32>
// CHECK: %[[P4:.*]] = arith.maxnumf %[[P2]], %[[S4]] : vector<8xf32>
// CHECK-COUNT-8: amdgpu.dpp {{.*}} row_ror(8 : i32) : f32
// CHECK: %[[P8:.*]] = arith.maxnumf %[[P4]], %{{.*}} : vector<8xf32>
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: permlane_swap
// CHECK: %[[R:.*]] = arith.maxnumf %{{.*}}, %[[P8]] : vector<8xf32>
// CHECK: vector.{{[a-z_]+}} %[[R]]
hk.kernel @row_max(%X: memref<?x?xf32>, %O: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  %m0 = arith.constant dense<0xFF800000> : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %m = hk.row_reduce max %x init %m0 : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.store %m, %O[%c0] : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?xf32>
  hk.return
}

// -----

// Row sum of a 16x64 row 16x32 tile: E = 8, lane l holds row l%16, all
// its 16 registers are that row (vector<1>), summed as 8 pairs in a tree of
// vector<2> adds (4 + 2 + 1), then the last pair's halves. The lanes
// sharing a row are l%16 + 16*q: xor 16 and 32, v_permlane16/32_swap on
// gfx950, gpu.shuffle on gfx942.
// CHECK-LABEL: gpu.func @row_sum
// CHECK: %[[X:.*]] = vector.insert_strided_slice %{{.*}} {offsets = [12], strides = [1]} : vector<4xf32> into vector<16xf32>
// CHECK: %[[A:.*]] = vector.shuffle %[[X]], %[[X]] [0, 1] : vector<16xf32>, vector<16xf32>
// CHECK: %[[B:.*]] = vector.shuffle %[[X]], %[[X]] [2, 3] : vector<16xf32>, vector<16xf32>
// CHECK: vector.shuffle %[[X]], %[[X]] [14, 15]
// CHECK: arith.addf %[[A]], %[[B]] : vector<2xf32>
// CHECK-COUNT-6: arith.addf %{{.*}} : vector<2xf32>
// CHECK: %[[LO:.*]] = vector.shuffle %[[Q:.*]], %[[Q]] [0] : vector<2xf32>, vector<2xf32>
// CHECK: %[[HI:.*]] = vector.shuffle %[[Q]], %[[Q]] [1] : vector<2xf32>, vector<2xf32>
// CHECK: %[[P:.*]] = arith.addf %[[LO]], %[[HI]] : vector<1xf32>
// CHECK-NOT: amdgpu.dpp
// On gfx950 one v_permlane16_swap (then 32) of the value with itself leaves
// the lane's value and its partner's in its two results, in the same order
// in both lanes: their sum is the step, with no select of a swapped half.
// GFX950: %[[E16:.*]] = vector.extract %[[P]][0] : f32 from vector<1xf32>
// GFX950: %[[B16:.*]] = arith.bitcast %[[E16]] : f32 to i32
// GFX950: %[[W16:.*]] = rocdl.permlane16.swap %[[B16]], %[[B16]], false, false
// GFX950: %[[A16:.*]] = llvm.extractvalue %[[W16]][0]
// GFX950: %[[Z16:.*]] = llvm.extractvalue %[[W16]][1]
// GFX950: %[[FA:.*]] = arith.bitcast %[[A16]] : i32 to f32
// GFX950: %[[FZ:.*]] = arith.bitcast %[[Z16]] : i32 to f32
// GFX950: %[[S16:.*]] = arith.addf %[[FA]], %[[FZ]] : f32
// GFX950: %[[V16:.*]] = vector.from_elements %[[S16]] : vector<1xf32>
// GFX950: %[[E32:.*]] = vector.extract %[[V16]][0]
// GFX950: %[[B32:.*]] = arith.bitcast %[[E32]] : f32 to i32
// GFX950: %[[W32:.*]] = rocdl.permlane32.swap %[[B32]], %[[B32]], false, false
// GFX950: llvm.extractvalue %[[W32]][0]
// GFX950: llvm.extractvalue %[[W32]][1]
// GFX950: arith.addf %{{.*}}, %{{.*}} : f32
// GFX950-NOT: amdgpu.permlane_swap
// GFX942: %[[C16:.*]] = arith.constant 16 : i32
// GFX942: %[[S16:.*]], %{{.*}} = gpu.shuffle xor %[[P]], %[[C16]], %{{.*}} : vector<1xf32>
// GFX942: %[[P16:.*]] = arith.addf %[[P]], %[[S16]] : vector<1xf32>
// GFX942: %[[C32:.*]] = arith.constant 32 : i32
// GFX942: %[[S32:.*]], %{{.*}} = gpu.shuffle xor %[[P16]], %[[C32]], %{{.*}} : vector<1xf32>
// GFX942: arith.addf %[[P16]], %[[S32]] : vector<1xf32>
hk.kernel @row_sum(%X: memref<?x?xf32>, %O: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x64xf32, #hk.rt<row, 16x32>>
  %s = hk.row_reduce sum %x : tensor<16x64xf32, #hk.rt<row, 16x32>> -> tensor<16xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
  hk.store %s, %O[%c0] : tensor<16xf32, #hk.rv<row, #hk.rt<row, 16x32>>>, memref<?xf32>
  hk.return
}
