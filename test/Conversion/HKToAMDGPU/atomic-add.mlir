// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// One f32 atomic add per register into the memref's fat raw buffer. A
// 16x16 col 16x16 tile: lane l, register i is element (4*(l/16) + i,
// l%16). Positions outside the memref get the extent as offset, which the
// buffer hardware drops.
// CHECK-LABEL: gpu.func @acc
// CHECK-SAME: (%[[DQ:.*]]: memref<?x?x?xf32>, %[[B:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZES:.*]]:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata %[[DQ]]
// CHECK: %[[EXT:.*]] = arith.select
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c16
// CHECK: %[[LROW:.*]] = arith.muli %[[G]], %c4
// CHECK: %[[ROW0:.*]] = arith.addi %{{.*}}, %[[LROW]] : index
// Register 2: row + 2, column + 0.
// CHECK: arith.addi %[[ROW0]], %c2
// CHECK: arith.cmpi ult, %[[B]], %[[SIZES]]#0
// CHECK: %[[OFF:.*]] = arith.select %{{.*}}, %{{.*}}, %[[EXT]] : index
// CHECK: %[[V:.*]] = vector.extract %{{.*}}[2] : f32 from vector<4xf32>
// CHECK: memref.atomic_rmw addf %[[V]], %[[BUF]][%[[OFF]]] : (f32, memref<?xf32, #amdgpu.address_space<fat_raw_buffer>>) -> f32
// CHECK: vector.extract %{{.*}}[3] : f32 from vector<4xf32>
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: memref.atomic_rmw
hk.kernel @acc(%dQ: memref<?x?x?xf32>, %b: index, %i: index, %j: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %z = arith.constant dense<1.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.atomic_add %z, %dQ[%b, %i, %j] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?x?xf32>
  hk.return
}
