// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s

// A scalar argument splatted over a register vector and a tile becomes the
// scalar broadcast into each lane's registers: a row vector of a 32x16
// col 16x16 tile keeps 4 values per base tile row block (2 blocks: 8), the
// tile itself 4 per base tile (2 base tiles: 8).

// CHECK-LABEL: gpu.func @eps
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32>, %[[EPS:.*]]: f32)
// CHECK: %[[V:.*]] = vector.broadcast %[[EPS]] : f32 to vector<8xf32>
// CHECK: %[[T:.*]] = vector.broadcast %[[EPS]] : f32 to vector<8xf32>
// CHECK-NOT: tensor.splat
hk.kernel @eps(%X: memref<?x?xf32>, %eps: f32) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = tensor.splat %eps : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %t = tensor.splat %eps : tensor<32x16xf32, #hk.rt<col, 16x16>>
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x16xf32, #hk.rt<col, 16x16>>
  %y = hk.row_broadcast add %x, %v : tensor<32x16xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  %z = arith.mulf %y, %t : tensor<32x16xf32, #hk.rt<col, 16x16>>
  hk.store %z, %X[%c0, %c0] : tensor<32x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
