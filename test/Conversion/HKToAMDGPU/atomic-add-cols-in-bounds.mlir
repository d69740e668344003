// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s
// RUN: hkc %s --chip gfx950 --emit=asm -o %t && awk '/^marked:/,/Lfunc_end0/' %t.gfx950.s | grep -c 'buffer_atomic_add_f32 .* offen offset:64$' | FileCheck %s --check-prefix=IMM
// RUN: hkc %s --chip gfx942 --emit=asm -o %t && awk '/^marked:/,/Lfunc_end0/' %t.gfx942.s | grep -c 'buffer_atomic_add_f32 .* offen offset:64$' | FileCheck %s --check-prefix=IMM
// RUN: hkc %s --chip gfx950 --emit=asm -o %t && awk '/^column_tiles:/,/Lfunc_end2/' %t.gfx950.s | grep -c v_cndmask | FileCheck %s --check-prefix=SHARED
// RUN: hkc %s --chip gfx942 --emit=asm -o %t && awk '/^column_tiles:/,/Lfunc_end2/' %t.gfx942.s | grep -c v_cndmask | FileCheck %s --check-prefix=SHARED

// hk.atomic_add of a 32x32 f32 col 16x16 tile marked hk.cols_in_bounds
// (hk-peel-bounds: every column it covers is inside the memref). In the
// MFMA accumulator layout (../shared/amd/mfma-layouts, 16x16 D) lane l holds
// column l % 16 and rows 4 * (l / 16) + 0..3 of each 16x16 block, so its 16
// registers sit at rows {0, 1, 2, 3, 16, 17, 18, 19} and columns {0, 16}
// relative to the lane's first element: 8 distinct row offsets, each
// checked once (one compare against the row count, one select of the
// offset or the extent), and the two registers of a row differ by the
// column, 0 or 16, carried as the atomic's index offset. No column compare.
// The checks are 32-bit: the tile's rows in range (the row count past the
// tile's first row, 32 at most, 0 when the tile starts past the end) less
// the lane's row 4 * (l / 16), against each register row. Each row's
// offset steps from the row below it (row 16 from row 3: 13 strides).

// CHECK-LABEL: gpu.func @marked
// CHECK-SAME: (%[[D:.*]]: memref<?x?xf32>
// CHECK: %{{.*}}, %{{.*}}, %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[D]]
// CHECK-NOT: arith.cmpi ult, %{{.*}}, %[[SZ]]#1
// CHECK: %[[G:.*]] = arith.divui %{{.*}}, %c16
// CHECK: %[[LR:.*]] = arith.muli %[[G]], %c4
// CHECK: %[[ORG:.*]] = arith.muli %block_id_x, %c32
// CHECK: %[[STARTS:.*]] = arith.cmpi ult, %[[ORG]], %[[SZ]]#0 : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[SZ]]#0, %[[ORG]] : index
// CHECK: %[[AT_MOST:.*]] = arith.minui %[[LEFT]], %c32
// CHECK: %[[ROWS:.*]] = arith.select %[[STARTS]], %[[AT_MOST]], %c0
// CHECK: %[[ROWS32:.*]] = arith.index_castui %[[ROWS]] : index to i32
// CHECK: %[[LR32:.*]] = arith.index_castui %[[LR]] : index to i32
// CHECK: %[[LANE_ROWS:.*]] = arith.subi %[[ROWS32]], %[[LR32]] : i32
// CHECK: %[[IN_ROWS:.*]] = llvm.freeze %[[LANE_ROWS]] : i32
// CHECK: %[[OFF:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[RS:.*]] = arith.index_castui %[[ST]]#0 : index to i32
// CHECK: %[[EXT:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[IN0:.*]] = arith.cmpi sgt, %[[IN_ROWS]], %c0_i32 : i32
// CHECK-NEXT: %[[S0:.*]] = arith.select %[[IN0]], %[[OFF]], %[[EXT]] : i32
// CHECK: amdgpu.raw_buffer_atomic_fadd {indexOffset = 0 : i32} %{{.*}}[%[[S0]]]
// CHECK: %[[O1:.*]] = arith.addi %[[OFF]], %[[RS]] : i32
// CHECK: %[[F1:.*]] = llvm.freeze %[[O1]] : i32
// CHECK: %[[IN1:.*]] = arith.cmpi sgt, %[[IN_ROWS]], %c1_i32 : i32
// CHECK: %[[S1:.*]] = arith.select %[[IN1]], %[[F1]], %[[EXT]] : i32
// CHECK: amdgpu.raw_buffer_atomic_fadd {indexOffset = 0 : i32} %{{.*}}[%[[S1]]]
// CHECK: %[[O2:.*]] = arith.addi %[[F1]], %[[RS]] : i32
// CHECK: %[[F2:.*]] = llvm.freeze %[[O2]] : i32
// CHECK: arith.cmpi sgt, %[[IN_ROWS]], %c2_i32
// CHECK: %[[O3:.*]] = arith.addi %[[F2]], %[[RS]] : i32
// CHECK: %[[F3:.*]] = llvm.freeze %[[O3]] : i32
// CHECK: arith.cmpi sgt, %[[IN_ROWS]], %c3_i32
// CHECK: amdgpu.raw_buffer_atomic_fadd {indexOffset = 16 : i32} %{{.*}}[%[[S0]]]
// CHECK: amdgpu.raw_buffer_atomic_fadd {indexOffset = 16 : i32} %{{.*}}[%[[S1]]]
// CHECK: %[[BY13:.*]] = arith.muli %c13_i32, %[[RS]] : i32
// CHECK: %[[O16:.*]] = arith.addi %[[F3]], %[[BY13]] : i32
// CHECK: %[[F16:.*]] = llvm.freeze %[[O16]] : i32
// CHECK: %[[IN16:.*]] = arith.cmpi sgt, %[[IN_ROWS]], %c16_i32
// CHECK: arith.select %[[IN16]], %[[F16]], %[[EXT]] : i32
// CHECK: arith.cmpi sgt, %[[IN_ROWS]], %c19_i32
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.muli
// CHECK: gpu.return

// Unmarked, the same tile checks its rows and columns for each register.
// CHECK-LABEL: gpu.func @unmarked
// CHECK-SAME: (%[[U:.*]]: memref<?x?xf32>
// CHECK: %{{.*}}, %{{.*}}, %[[USZ:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[U]]
// CHECK-COUNT-16: arith.cmpi ult, %{{.*}}, %[[USZ]]#1
// CHECK-NOT: indexOffset
// CHECK: gpu.return

// In the code object, the 8 atomics of column 16 carry it as the immediate
// byte offset 64 (16 f32).
// IMM: {{^}}8{{$}}
hk.kernel @marked(%D: memref<?x?xf32>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.block_id x
  %one = arith.constant dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.atomic_add %one, %D[%x, %c0] {hk.cols_in_bounds} : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

hk.kernel @unmarked(%D: memref<?x?xf32>) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.block_id x
  %one = arith.constant dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.atomic_add %one, %D[%x, %c0] : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// A constant column tile index goes into the immediate with the register's
// column: tile 1 of 32 columns adds at 32 + {0, 16} from the same row
// offsets as tile 0, whose compares and selects it then shares (after CSE,
// 8 v_cndmask for both). A column tile index known only at run time keeps
// it in the offset: 8 selects of its own, 16 in all (24 when tile 1 had
// its own too).
// CHECK-LABEL: gpu.func @column_tiles
// CHECK-COUNT-8: amdgpu.raw_buffer_atomic_fadd {indexOffset = {{0|16}} : i32}
// CHECK-COUNT-8: amdgpu.raw_buffer_atomic_fadd {indexOffset = {{32|48}} : i32}
// CHECK-COUNT-8: amdgpu.raw_buffer_atomic_fadd {indexOffset = {{0|16}} : i32}
// CHECK: gpu.return
// SHARED: {{^}}16{{$}}
hk.kernel @column_tiles(%D: memref<?x?xf32>, %j: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = hk.block_id x
  %one = arith.constant dense<1.0> : tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.atomic_add %one, %D[%x, %c0] {hk.cols_in_bounds} : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.atomic_add %one, %D[%x, %c1] {hk.cols_in_bounds} : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.atomic_add %one, %D[%x, %j] {hk.cols_in_bounds} : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
