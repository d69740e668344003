// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s --check-prefixes=CHECK,GFX942

// Column min of a 32x64 col 16x16 tile, by hand from Layout.h: lane l holds
// column l%16 of every base tile, so the col vector (vector<4>) keeps column
// tc*16 + l%16 in register tc, and tile register (4*tr + tc)*4 + i belongs to
// vector register tc: eight shuffles (tr = 0..1, i = 0..3). The lanes sharing
// a column are l%16 + 16*q: xor 16 and 32.
// CHECK-LABEL: gpu.func @col_min
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [31] : f32 into vector<32xf32>
// CHECK: vector.shuffle %[[X]], %[[X]] [0, 4, 8, 12] : vector<32xf32>, vector<32xf32>
// CHECK: vector.shuffle %[[X]], %[[X]] [1, 5, 9, 13]
// CHECK: arith.minnumf %{{.*}} : vector<4xf32>
// CHECK: vector.shuffle %[[X]], %[[X]] [3, 7, 11, 15]
// CHECK: vector.shuffle %[[X]], %[[X]] [16, 20, 24, 28]
// CHECK: vector.shuffle %[[X]], %[[X]] [19, 23, 27, 31]
// CHECK: %[[P:.*]] = arith.minnumf %{{.*}} : vector<4xf32>
// GFX950-COUNT-4: rocdl.permlane16.swap
// GFX950: %[[S16:.*]] = vector.from_elements %{{.*}} : vector<4xf32>
// GFX950-COUNT-4: rocdl.permlane32.swap
// GFX950: %[[R:.*]] = vector.from_elements %{{.*}} : vector<4xf32>
// GFX942: gpu.shuffle xor %[[P]], %{{.*}}, %{{.*}} : vector<4xf32>
// GFX942: gpu.shuffle xor
// GFX942: %[[R:.*]] = arith.minnumf %{{.*}} : vector<4xf32>
// CHECK-NOT: arith.minnumf
// CHECK: vector.{{[a-z_]+}} %[[R]]
hk.kernel @col_min(%X: memref<?x?xf32>, %O: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  %m = hk.col_reduce min %x : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  hk.store %m, %O[%c0] : tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>, memref<?xf32>
  hk.return
}
