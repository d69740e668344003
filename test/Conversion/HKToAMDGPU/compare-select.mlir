// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hkc %s --chip gfx942 --emit=asm -o - | FileCheck %s --check-prefix=ISA
// RUN: hkc %s --chip gfx950 --emit=asm -o - | FileCheck %s --check-prefix=ISA

// Compare and select on tiles are elementwise: a 32x32 col 16x16 tile is 16
// registers per lane (2 x 2 base tiles of 4), its mask vector<16xi1>, and
// each lane compares and selects its own registers. A row vector of that
// tile is 8 registers (vector<8x...>).
// CHECK-LABEL: gpu.func @compare_select
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [15] : f32 into vector<16xf32>
// CHECK: %[[N:.*]] = vector.insert %{{.*}} [15] : i32 into vector<16xi32>
// CHECK: %[[P:.*]] = arith.cmpf ogt, %[[X]], %[[ZERO:.*]] : vector<16xf32>
// CHECK: %[[Q:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : vector<16xi32>
// CHECK: %[[PQ:.*]] = arith.andi %[[P]], %[[Q]] : vector<16xi1>
// CHECK: %[[S:.*]] = arith.select %[[PQ]], %[[X]], %[[ZERO]] : vector<16xi1>, vector<16xf32>
// CHECK: %[[VP:.*]] = arith.cmpf olt, %[[R:.*]], %[[R]] : vector<8xf32>
// CHECK: arith.select %[[VP]], %[[R]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NOT: tensor<

// The backend compares into a lane mask and selects with v_cndmask_b32.
// ISA-LABEL: compare_select:
// ISA: v_cmp_{{.*}}_f32
// ISA: v_cmp_{{.*}}_i32
// ISA: v_cndmask_b32
// ISA: s_endpgm
!t = tensor<32x32xf32, #hk.rt<col, 16x16>>
!i = tensor<32x32xi32, #hk.rt<col, 16x16>>
!m = tensor<32x32xi1, #hk.rt<col, 16x16>>
!v = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!vm = tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @compare_select(%X: memref<?x?xf32>, %N: memref<?x?xi32>, %V: memref<?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %n = hk.load %N[%c0, %c0] : memref<?x?xi32> -> !i
  %zero = arith.constant dense<0.0> : !t
  %p = arith.cmpf ogt, %x, %zero : !t
  %zi = arith.constant dense<0> : !i
  %q = arith.cmpi slt, %n, %zi : !i
  %pq = arith.andi %p, %q : !m
  %s = arith.select %pq, %x, %zero : !m, !t
  %r = hk.row_reduce max %s : !t -> !v
  %neg = arith.negf %r : !v
  %vp = arith.cmpf olt, %r, %r : !v
  %vs = arith.select %vp, %r, %neg : !vm, !v
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.store %vs, %V[%c0] : !v, memref<?xf32>
  hk.return
}
