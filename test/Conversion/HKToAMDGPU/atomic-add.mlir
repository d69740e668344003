// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// One f32 buffer atomic add per register (amdgpu.raw_buffer_atomic_fadd,
// not memref.atomic_rmw, which LLVM expands to a compare-and-swap loop) on
// the 1-D view of the memref that its fat raw buffer is cast from: same
// base, extent elements of range. A 16x16 col 16x16 tile: lane l, register
// i is element (4*(l/16) + i, l%16). Positions outside the memref get the
// extent as offset, which the buffer hardware drops. The batch index is
// checked once: rows are compared against the row count when it is in
// range, else against 0 (a limit behind llvm.freeze, which keeps LLVM from
// splitting the compare back into two).
// CHECK-LABEL: gpu.func @acc
// CHECK-SAME: (%[[DQ:.*]]: memref<?x?x?xf32>, %[[B:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[BASE:.*]], %{{.*}}, %[[SIZES:.*]]:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata %[[DQ]]
// CHECK: %[[EXT:.*]] = arith.select
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%{{.*}}], sizes: [%[[EXT]]], strides: [1]
// CHECK: amdgpu.fat_raw_buffer_cast %[[FLAT]] resetOffset
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c16
// CHECK: %[[LROW:.*]] = arith.muli %[[G]], %c4
// CHECK: %[[ROW0:.*]] = arith.addi %{{.*}}, %[[LROW]] : index
// CHECK: %[[BIN:.*]] = arith.cmpi ult, %[[B]], %[[SIZES]]#0
// CHECK: %[[SEL:.*]] = arith.select %[[BIN]], %[[SIZES]]#1, %{{.*}} : index
// CHECK: %[[SEL64:.*]] = arith.index_castui %[[SEL]] : index to i64
// CHECK: %[[FRZ:.*]] = llvm.freeze %[[SEL64]] : i64
// CHECK: %[[RLIM:.*]] = arith.index_castui %[[FRZ]] : i64 to index
// Register 2: row + 2, column + 0.
// CHECK: %[[ROW2:.*]] = arith.addi %[[ROW0]], %c2
// CHECK: arith.cmpi ult, %[[ROW2]], %[[RLIM]]
// CHECK: %[[OFF:.*]] = arith.select %{{.*}}, %{{.*}}, %[[EXT]] : index
// CHECK: %[[OFF32:.*]] = arith.index_cast %[[OFF]] : index to i32
// CHECK: %[[V:.*]] = vector.extract %{{.*}}[2] : f32 from vector<4xf32>
// CHECK: amdgpu.raw_buffer_atomic_fadd %[[V]] -> %[[FLAT]][%[[OFF32]]] : f32 -> memref<?xf32, strided<[1], offset: ?>>, i32
// CHECK: vector.extract %{{.*}}[3] : f32 from vector<4xf32>
// CHECK: amdgpu.raw_buffer_atomic_fadd
// CHECK-NOT: amdgpu.raw_buffer_atomic_fadd
// CHECK-NOT: memref.atomic_rmw
hk.kernel @acc(%dQ: memref<?x?x?xf32>, %b: index, %i: index, %j: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %z = arith.constant dense<1.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.atomic_add %z, %dQ[%b, %i, %j] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?x?xf32>
  hk.return
}
