// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s --split-input-file | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s --split-input-file | FileCheck %s

// A load marked hk.cols_in_bounds (hk-peel-bounds: every column of the tile
// is in range) checks the row only, and selects between the lane's offset
// within the tile and the extent (out of range: reads 0) before adding the
// tile origin's column offset, which is all that changes when the column
// index moves; its 8-element run is loaded whole, with no per-element mask.
// The same load unmarked checks the row and the column, selects the whole
// offset, and zeroes the elements of the run past the end of the row.
// A 16x32 bf16 row tile: lane l holds row l % 16, columns 8 * (l / 16) + 0..7.

// CHECK-LABEL: gpu.func @cols_in_bounds
// CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %{{.*}}: memref<?x?xbf16>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[META:.*]], %{{.*}}, %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[SPAN:.*]] = arith.select
// CHECK: %[[EXT:.*]] = arith.addi %[[SPAN]], %{{.*}} : index
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [%[[EXT]]]
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast
// Marked: the row check, the lane's offset, the origin added after.
// CHECK: %[[LANECOL:.*]] = arith.muli %{{.*}}, %c8{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[ORIGIN:.*]] = arith.muli %[[J]], %c32{{.*}} : index
// CHECK: %[[ROWOK:.*]] = arith.cmpi ult, %[[ROW]], %[[SZ]]#0 : index
// CHECK-NOT: arith.cmpi
// CHECK: %[[R:.*]] = arith.muli %[[ROW]], %[[ST]]#0 : index
// CHECK: %[[C:.*]] = arith.muli %[[LANECOL]], %[[ST]]#1 : index
// CHECK: %[[INNER:.*]] = arith.addi %[[R]], %[[C]] : index
// CHECK: %[[SEL:.*]] = arith.select %[[ROWOK]], %[[INNER]], %[[EXT]] : index
// CHECK: %[[O:.*]] = arith.muli %[[ORIGIN]], %[[ST]]#1 : index
// CHECK: %[[OFF:.*]] = arith.addi %[[SEL]], %[[O]] : index
// CHECK: %[[V:.*]] = vector.load %[[BUF]][%[[OFF]]] : {{.*}}, vector<8xbf16>
// CHECK-NOT: vector<8xi1>
// CHECK: vector.insert_strided_slice %[[V]]
// Unmarked: row and column checks, then the mask of the run.
// CHECK: arith.cmpi ult, %{{.*}}, %[[SZ]]#0 : index
// CHECK: arith.cmpi ult, %{{.*}}, %[[SZ]]#1 : index
// CHECK: vector.load %[[BUF]]
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xbf16>
hk.kernel @cols_in_bounds(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>,
                          %i: index, %j: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %A[%i, %j] {hk.cols_in_bounds} : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %b = hk.load %A[%i, %j] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.store %a, %C[%i, %c0] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.store %b, %C[%i, %j] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}

// -----

// Marked hk.in_bounds as well (the rows and leading indices are in range
// too): no compare at all, and no select against the extent; the offset is
// the lane's row times the row stride plus its column, plus the origin.

// A's buffer, set up at the load.
// CHECK-LABEL: gpu.func @in_bounds
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast
// CHECK-NOT: arith.cmpi
// CHECK: %[[R:.*]] = arith.muli %{{.*}}, %[[ST]]#0 : index
// CHECK: %[[C:.*]] = arith.muli %{{.*}}, %[[ST]]#1 : index
// CHECK: %[[INNER:.*]] = arith.addi %[[R]], %[[C]] : index
// CHECK-NOT: arith.select
// CHECK: %[[O:.*]] = arith.muli %{{.*}}, %[[ST]]#1 : index
// CHECK: %[[OFF:.*]] = arith.addi %[[INNER]], %[[O]] : index
// CHECK: vector.load %[[BUF]][%[[OFF]]] : {{.*}}, vector<8xbf16>
hk.kernel @in_bounds(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>,
                     %i: index, %j: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %a = hk.load %A[%i, %j] {hk.cols_in_bounds, hk.in_bounds} : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.store %a, %C[%i, %j] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}
