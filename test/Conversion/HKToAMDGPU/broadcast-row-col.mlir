// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// No data moves between lanes: each tile register combines with the vector
// register holding its row (column). For a 32x64 col 16x16 tile (registers
// (4*tr + tc)*4 + i hold row tr*16 + 4*(l/16) + i, column tc*16 + l%16),
// by hand from Layout.h: the row vector register is tr*4 + i, the column
// vector register is tc.
// CHECK-LABEL: gpu.func @bcast
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [31] : f32 into vector<32xf32>
// CHECK: %[[M:.*]] = vector.insert_strided_slice %{{.*}} {offsets = [4], strides = [1]} : vector<4xf32> into vector<8xf32>
// CHECK: %[[V:.*]] = vector.insert %{{.*}} [3] : f32 into vector<4xf32>
// CHECK: %[[MS:.*]] = vector.shuffle %[[M]], %[[M]] [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7] : vector<8xf32>, vector<8xf32>
// CHECK: %[[S:.*]] = arith.subf %[[X]], %[[MS]] : vector<32xf32>
// CHECK: %[[VS:.*]] = vector.shuffle %[[V]], %[[V]] [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3] : vector<4xf32>, vector<4xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[S]], %[[VS]] : vector<32xf32>
// CHECK: %[[Q:.*]] = arith.maxnumf %[[P]], %{{.*}} : vector<32xf32>
// CHECK: %[[R:.*]] = arith.divf %[[Q]], %{{.*}} : vector<32xf32>
// The copy kind is the spread vector itself.
// CHECK: %[[C:.*]] = vector.shuffle %[[V]], %[[V]]
// CHECK: arith.addf %[[R]], %[[C]] : vector<32xf32>
// CHECK-NOT: gpu.shuffle
hk.kernel @bcast(%X: memref<?x?xf32>, %Vr: memref<?xf32>, %Vc: memref<?xf32>, %O: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  %m = hk.load %Vr[%c0] : memref<?xf32> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %v = hk.load %Vc[%c0] : memref<?xf32> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %s = hk.row_broadcast sub %x, %m : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %p = hk.col_broadcast mul %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %q = hk.row_broadcast max %p, %m : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %r = hk.row_broadcast div %q, %m : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %c = hk.col_broadcast copy %r, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  %t = arith.addf %r, %c : tensor<32x64xf32, #hk.rt<col, 16x16>>
  hk.store %t, %O[%c0, %c0] : tensor<32x64xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// A row layout: a 32x64 row 16x32 tile keeps row tr*16 + l%16 in all 8
// registers of base tiles (tr, 0..1); its row vector has one register per
// tr (vector<2>).
// CHECK-LABEL: gpu.func @bcast_row_layout
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
// CHECK: arith.addf {{.*}} : vector<32xbf16>
hk.kernel @bcast_row_layout(%X: memref<?x?xbf16>, %V: memref<?xbf16>, %O: memref<?x?xbf16>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16, #hk.rt<row, 16x32>>
  %v = hk.load %V[%c0] : memref<?xbf16> -> tensor<32xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
  %y = hk.row_broadcast add %x, %v : tensor<32x64xbf16, #hk.rt<row, 16x32>>, tensor<32xbf16, #hk.rv<row, #hk.rt<row, 16x32>>>
  hk.store %y, %O[%c0, %c0] : tensor<32x64xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}
