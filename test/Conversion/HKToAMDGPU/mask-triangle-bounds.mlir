// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s

// A 16x32 col 16x16 tile, by hand from Layout.h: lane l, register
// tc*4 + i holds element (4*(l/16) + i, tc*16 + l%16). The lane part is
// (4*(l/16), l%16); the register part (i, 16*tc), so col - row per register
// is [0, -1, -2, -3, 16, 15, 14, 13].
// CHECK-LABEL: gpu.func @masks
// CHECK-SAME: (%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %[[Q0:.*]]: index, %[[K0:.*]]: index, %[[N:.*]]: index, %[[FILL:.*]]: f32)
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [7] : f32 into vector<8xf32>
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c64
// CHECK: %[[L16:.*]] = arith.remui %[[LANE]], %c16
// CHECK: %[[G:.*]] = arith.divui %[[LANE]], %c16
// CHECK: %[[ROW:.*]] = arith.muli %[[G]], %c4
// CHECK: %[[R:.*]] = arith.addi %[[ROW]], %[[Q0]] : index
// CHECK: %[[R32:.*]] = arith.index_cast %[[R]] : index to i32
// CHECK: %[[C:.*]] = arith.addi %[[L16]], %[[K0]] : index
// CHECK: %[[C32:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK: %[[DIFF:.*]] = arith.subi %[[C32]], %[[R32]] : i32
// CHECK: %[[D:.*]] = llvm.freeze %[[DIFF]] : i32
// One compare per register here (the 8 offsets are distinct), each right
// before its register's select; the selected registers form the result.
// CHECK: %[[DIAG:.*]] = arith.constant 0 : i32
// CHECK: %[[O0:.*]] = arith.constant 0 : i32
// CHECK: %[[D0:.*]] = arith.addi %[[D]], %[[O0]] : i32
// CHECK: %[[K0:.*]] = arith.cmpi sle, %[[D0]], %[[DIAG]] : i32
// CHECK: %[[E0:.*]] = vector.extract %[[X]][0] : f32 from vector<8xf32>
// CHECK: %[[S0:.*]] = arith.select %[[K0]], %[[E0]], %[[FILL]] : f32
// CHECK: %[[O1:.*]] = arith.constant -1 : i32
// CHECK: %[[D1:.*]] = arith.addi %[[D]], %[[O1]] : i32
// CHECK: %[[K1:.*]] = arith.cmpi sle, %[[D1]], %[[DIAG]] : i32
// CHECK: %[[E1:.*]] = vector.extract %[[X]][1]
// CHECK: %[[S1:.*]] = arith.select %[[K1]], %[[E1]], %[[FILL]]
// CHECK: arith.constant -2 : i32
// CHECK: %[[S2:.*]] = arith.select
// CHECK: arith.constant -3 : i32
// CHECK: %[[S3:.*]] = arith.select
// CHECK: %[[O4:.*]] = arith.constant 16 : i32
// CHECK: %[[D4:.*]] = arith.addi %[[D]], %[[O4]] : i32
// CHECK: %[[K4:.*]] = arith.cmpi sle, %[[D4]], %[[DIAG]] : i32
// CHECK: %[[E4:.*]] = vector.extract %[[X]][4]
// CHECK: %[[S4:.*]] = arith.select %[[K4]], %[[E4]], %[[FILL]]
// CHECK: arith.constant 15 : i32
// CHECK: %[[S5:.*]] = arith.select
// CHECK: arith.constant 14 : i32
// CHECK: %[[S6:.*]] = arith.select
// CHECK: %[[O7:.*]] = arith.constant 13 : i32
// CHECK: %[[D7:.*]] = arith.addi %[[D]], %[[O7]] : i32
// CHECK: %[[K7:.*]] = arith.cmpi sle, %[[D7]], %[[DIAG]] : i32
// CHECK: %[[E7:.*]] = vector.extract %[[X]][7]
// CHECK: %[[S7:.*]] = arith.select %[[K7]], %[[E7]], %[[FILL]] : f32
// CHECK: %[[T:.*]] = vector.from_elements %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]] : vector<8xf32>
// triu with diagonal 1 keeps col - row >= 1.
// CHECK: %[[DIAG1:.*]] = arith.constant 1 : i32
// CHECK: %[[KEEPU:.*]] = arith.cmpi sge, %{{.*}}, %[[DIAG1]] : i32
// CHECK: %[[EU:.*]] = vector.extract %[[T]][0]
// CHECK: arith.select %[[KEEPU]], %[[EU]], %[[FILL]] : f32
// CHECK: %[[U:.*]] = vector.from_elements %{{.*}} : vector<8xf32>
// bounds_mask: rows [0, 1, 2, 3, 0, 1, 2, 3], columns [0 x4, 16 x4] after
// the lane part, unsigned against the extent: one scalar compare per
// distinct offset (4 rows, 2 columns), gathered per register.
// CHECK: %[[N32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[R0:.*]] = arith.addi %[[R32B:.*]], %c0_i32
// CHECK: %[[RI0:.*]] = arith.cmpi ult, %[[R0]], %[[N32]] : i32
// CHECK: %[[R1:.*]] = arith.addi %[[R32B]], %c1_i32
// CHECK: %[[RI1:.*]] = arith.cmpi ult, %[[R1]], %[[N32]] : i32
// CHECK: %[[R2:.*]] = arith.addi %[[R32B]], %c2_i32
// CHECK: %[[RI2:.*]] = arith.cmpi ult, %[[R2]], %[[N32]] : i32
// CHECK: %[[R3:.*]] = arith.addi %[[R32B]], %c3_i32
// CHECK: %[[RI3:.*]] = arith.cmpi ult, %[[R3]], %[[N32]] : i32
// CHECK: %[[RIN:.*]] = vector.from_elements %[[RI0]], %[[RI1]], %[[RI2]], %[[RI3]], %[[RI0]], %[[RI1]], %[[RI2]], %[[RI3]] : vector<8xi1>
// CHECK: %[[NC32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[C0P:.*]] = arith.addi %[[C32B:.*]], %c0_i32
// CHECK: %[[CI0:.*]] = arith.cmpi ult, %[[C0P]], %[[NC32]] : i32
// CHECK: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: %[[C16P:.*]] = arith.addi %[[C32B]], %[[C16]]
// CHECK: %[[CI16:.*]] = arith.cmpi ult, %[[C16P]], %[[NC32]] : i32
// CHECK: %[[CIN:.*]] = vector.from_elements %[[CI0]], %[[CI0]], %[[CI0]], %[[CI0]], %[[CI16]], %[[CI16]], %[[CI16]], %[[CI16]] : vector<8xi1>
// CHECK: %[[IN:.*]] = arith.andi %[[RIN]], %[[CIN]] : vector<8xi1>
// CHECK: arith.select %[[IN]], %[[U]], %{{.*}} : vector<8xi1>, vector<8xf32>
hk.kernel @masks(%X: memref<?x?xf32>, %O: memref<?x?xf32>, %q0: index, %k0: index, %n: index, %fill: f32) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %t = hk.tril %x at [%q0, %k0] fill %fill : tensor<16x32xf32, #hk.rt<col, 16x16>>
  %u = hk.triu %t at [%q0, %k0] fill %fill diagonal = 1 : tensor<16x32xf32, #hk.rt<col, 16x16>>
  %b = hk.bounds_mask %u at [%q0, %k0] within [%n, %n] fill %fill : tensor<16x32xf32, #hk.rt<col, 16x16>>
  hk.store %b, %O[%c0, %c0] : tensor<16x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// A limit that is the tile's own end (offset + a constant of at least the
// tile's extent on that axis) keeps every position of that axis, with no
// compare. Rows end at q0 + 16, the tile's 16 rows: only the two column
// compares remain, with no andi.
// CHECK-LABEL: gpu.func @rows_to_tile_end
// CHECK-SAME: %[[N:[^:]*]]: index, %{{[^:]*}}: f32)
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [7] : f32 into vector<8xf32>
// CHECK-NOT: : i32
// CHECK: %[[NC:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[CI0:.*]] = arith.cmpi ult, %{{.*}}, %[[NC]] : i32
// CHECK: %[[CI16:.*]] = arith.cmpi ult, %{{.*}}, %[[NC]] : i32
// CHECK: %[[CIN:.*]] = vector.from_elements %[[CI0]], %[[CI0]], %[[CI0]], %[[CI0]], %[[CI16]], %[[CI16]], %[[CI16]], %[[CI16]] : vector<8xi1>
// CHECK-NEXT: vector.broadcast
// CHECK-NEXT: arith.select %[[CIN]], %[[X]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NOT: : i32
// CHECK: gpu.return
hk.kernel @rows_to_tile_end(%X: memref<?x?xf32>, %O: memref<?x?xf32>, %q0: index, %k0: index, %n: index, %fill: f32) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %q_end = arith.addi %q0, %c16 : index
  %m = hk.bounds_mask %x at [%q0, %k0] within [%q_end, %n] fill %fill : tensor<16x32xf32, #hk.rt<col, 16x16>>
  hk.store %m, %O[%c0, %c0] : tensor<16x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// Both limits at the tile's end (columns as 32 + k0, a constant past the
// 32 columns): no mask, the loaded vector is stored as it is.
// CHECK-LABEL: gpu.func @all_to_tile_end
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [7] : f32 into vector<8xf32>
// CHECK-NOT: : i32
// CHECK-NOT: vector<8xi1>
// CHECK: vector.extract %[[X]][0] : f32 from vector<8xf32>
// CHECK-NOT: vector<8xi1>
// CHECK: gpu.return
hk.kernel @all_to_tile_end(%X: memref<?x?xf32>, %O: memref<?x?xf32>, %q0: index, %k0: index, %fill: f32) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c40 = arith.constant 40 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %q_end = arith.addi %q0, %c16 : index
  %k_end = arith.addi %c40, %k0 : index
  %m = hk.bounds_mask %x at [%q0, %k0] within [%q_end, %k_end] fill %fill : tensor<16x32xf32, #hk.rt<col, 16x16>>
  hk.store %m, %O[%c0, %c0] : tensor<16x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// q0 + 15 is one row short of the tile: its four row compares stay (and
// the columns, at the tile's end, have none).
// CHECK-LABEL: gpu.func @rows_short_of_tile_end
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c15 : index
// CHECK: %[[E32:.*]] = arith.index_cast %[[END]] : index to i32
// CHECK-COUNT-4: arith.cmpi ult, %{{.*}}, %[[E32]] : i32
// CHECK-NOT: arith.cmpi ult, %{{.*}} : i32
// CHECK: %[[RIN:.*]] = vector.from_elements
// CHECK-NEXT: vector.broadcast
// CHECK-NEXT: arith.select %[[RIN]]
// CHECK: gpu.return
hk.kernel @rows_short_of_tile_end(%X: memref<?x?xf32>, %O: memref<?x?xf32>, %q0: index, %k0: index, %fill: f32) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c15 = arith.constant 15 : index
  %c32 = arith.constant 32 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x32xf32, #hk.rt<col, 16x16>>
  %q_end = arith.addi %q0, %c15 : index
  %k_end = arith.addi %k0, %c32 : index
  %m = hk.bounds_mask %x at [%q0, %k0] within [%q_end, %k_end] fill %fill : tensor<16x32xf32, #hk.rt<col, 16x16>>
  hk.store %m, %O[%c0, %c0] : tensor<16x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}

// Registers that share a col - row offset share its compare, and their
// selects follow it. A 32x32 col 16x16 tile: register (2*tr + tc)*4 + i
// holds (16*tr + 4*(l/16) + i, 16*tc + l%16), so its offset is
// 16*(tc - tr) - i: registers i and 12 + i (tr = tc) share offset -i.
// CHECK-LABEL: gpu.func @tril_shared
// CHECK: %[[DIFF:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[D:.*]] = llvm.freeze %[[DIFF]] : i32
// CHECK: %[[DIAG:.*]] = arith.constant 0 : i32
// CHECK: %[[O0:.*]] = arith.constant 0 : i32
// CHECK: %[[D0:.*]] = arith.addi %[[D]], %[[O0]] : i32
// CHECK: %[[K0:.*]] = arith.cmpi sle, %[[D0]], %[[DIAG]] : i32
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<16xf32>
// CHECK-NEXT: arith.select %[[K0]]
// CHECK-NEXT: vector.extract %{{.*}}[12] : f32 from vector<16xf32>
// CHECK-NEXT: arith.select %[[K0]]
// CHECK: arith.constant -1 : i32
// CHECK: %[[K1:.*]] = arith.cmpi sle
// CHECK: vector.extract %{{.*}}[1] : f32 from vector<16xf32>
// CHECK-NEXT: arith.select %[[K1]]
// CHECK-NEXT: vector.extract %{{.*}}[13] : f32 from vector<16xf32>
// CHECK-NEXT: arith.select %[[K1]]
// CHECK: arith.constant 16 : i32
// CHECK: arith.constant -16 : i32
// CHECK: arith.constant -19 : i32
// CHECK: %[[K11:.*]] = arith.cmpi sle
// CHECK-NEXT: vector.extract %{{.*}}[11] : f32 from vector<16xf32>
// CHECK-NEXT: arith.select %[[K11]]
// Registers 12-15 reuse the first four compares: no 13th.
// CHECK-NOT: arith.cmpi sle
// CHECK: gpu.return
hk.kernel @tril_shared(%X: memref<?x?xf32>, %O: memref<?x?xf32>, %q0: index, %k0: index, %fill: f32) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x32xf32, #hk.rt<col, 16x16>>
  %t = hk.tril %x at [%q0, %k0] fill %fill : tensor<32x32xf32, #hk.rt<col, 16x16>>
  hk.store %t, %O[%c0, %c0] : tensor<32x32xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
