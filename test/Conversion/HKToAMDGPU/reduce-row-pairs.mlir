// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// A float row sum into one vector register per lane (row layout 32x32,
// group 4: lane l holds 16 elements of row l % 32 per base tile, 32 here)
// adds the lane's elements as 16 pairs in a balanced tree of
// vector<2xf32> adds (v_pk_add_f32): 8 + 4 + 2 + 1 of them, then one
// scalar add of the last pair's halves, then the one exchange with lane
// l ^ 32. A max keeps the chain of 31 scalar ops.
// CHECK-LABEL: gpu.func @sums
// CHECK-COUNT-16: vector.shuffle %{{.*}}, %{{.*}} [{{[0-9]+}}, {{[0-9]+}}] : vector<32xf32>, vector<32xf32>
// CHECK-COUNT-15: arith.addf %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK: %[[LO:.*]] = vector.shuffle %[[P:.*]], %[[P]] [0] : vector<2xf32>, vector<2xf32>
// CHECK: %[[HI:.*]] = vector.shuffle %[[P]], %[[P]] [1] : vector<2xf32>, vector<2xf32>
// CHECK: arith.addf %[[LO]], %[[HI]] : vector<1xf32>
// CHECK-NOT: arith.addf %{{.*}} : vector<2xf32>
// CHECK-COUNT-31: arith.maxnumf %{{.*}}, %{{.*}} : vector<1xf32>
!t = tensor<32x64xf32, #hk.rt<row, 32x32, group = 4>>
!v = tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
hk.kernel @sums(%X: memref<?x?xf32>, %S: memref<?xf32>, %M: memref<?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = hk.row_reduce sum %x : !t -> !v
  %m = hk.row_reduce max %x : !t -> !v
  hk.store %s, %S[%c0] : !v, memref<?xf32>
  hk.store %m, %M[%c0] : !v, memref<?xf32>
  hk.return
}
