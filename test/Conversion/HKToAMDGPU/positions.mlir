// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s --check-prefix=G950

// The position ops and math.sin / math.cos lowered to lane-level IR
// (Positions.cpp, Scans.cpp, Trig.cpp). Their results are checked against
// float64 on the ISA simulator by kernels/scans and kernels/sincos.

// hk.iota: the lane part of the layout (lane % 16 is the column of a col
// 16x16 tile) plus one constant per register (base tile 1 is 16 columns on).
// CHECK-LABEL: gpu.func @iota
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c64
// CHECK: %[[COL:.*]] = arith.remui %[[LANE]], %c16
// CHECK: %[[COL32:.*]] = arith.index_cast %[[COL]] : index to i32
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[COL32]] : i32 to vector<8xi32>
// CHECK: %[[OFF:.*]] = arith.constant dense<[0, 0, 0, 0, 16, 16, 16, 16]> : vector<8xi32>
// CHECK: arith.addi %[[SPLAT]], %[[OFF]] : vector<8xi32>
!t = tensor<16x32xf32, #hk.rt<col, 16x16>>
!ti = tensor<16x32xi32, #hk.rt<col, 16x16>>
!rv = tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!ri = tensor<16xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @iota(%O: memref<?x?xi32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %i = hk.iota col : !ti
  hk.store %i, %O[%c0, %c0] : !ti, memref<?x?xi32>
  hk.return
}

// A row scan of a col 16x16 tile: 16 lanes share a row (xor 1, 2, 4, 8),
// one element each per base tile. Per lane bit: the partner's total (DPP
// or a shuffle), added to the prefix where the lane's bit is set, and to
// the total everywhere; then the block carry and the element.
// CHECK-LABEL: gpu.func @scan
// CHECK: amdgpu.dpp {{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) : f32
// CHECK: %[[TID1:.*]] = gpu.thread_id x
// CHECK: %[[BIT1:.*]] = arith.andi %[[TID1]], %c1
// CHECK: %[[AFTER1:.*]] = arith.cmpi ne, %[[BIT1]]
// CHECK: %[[SUM1:.*]] = arith.addf %[[THEIRS1:.*]], %[[ID:.*]] : vector<8xf32>
// CHECK: arith.select %[[AFTER1]], %[[SUM1]], %[[ID]] : vector<8xf32>
// CHECK: amdgpu.dpp {{.*}} quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32]) : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c64_i32 : vector<8xf32>
// CHECK: amdgpu.dpp {{.*}} row_ror(8 : i32) : f32
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// CHECK-NOT: hk.row_scan
hk.kernel @scan(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = hk.row_scan sum inclusive %x : !t
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}

// hk.row_arg: the value and its column travel together; y replaces x when
// it is larger, equal at a lower index, or when x is NaN (and y a number or
// a NaN at a lower index).
// CHECK-LABEL: gpu.func @arg
// CHECK: %[[LOWER:.*]] = arith.cmpi slt, %[[YI:.*]], %[[XI:.*]] : vector<4xi32>
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[Y:.*]], %[[X:.*]] : vector<4xf32>
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[Y]], %[[X]] : vector<4xf32>
// CHECK: %[[XNAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<4xf32>
// CHECK: %[[YNUM:.*]] = arith.cmpf ord, %[[Y]], %[[Y]] : vector<4xf32>
// CHECK: arith.select %[[TAKE:.*]], %[[Y]], %[[X]] : vector<4xi1>, vector<4xf32>
// CHECK: arith.select %[[TAKE]], %[[YI]], %[[XI]] : vector<4xi1>, vector<4xi32>
// CHECK: amdgpu.dpp {{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) : i32
hk.kernel @arg(%X: memref<?x?xf32>, %I: memref<?xi32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %v, %j = hk.row_arg max %x : !t -> !rv, !ri
  hk.store %j, %I[%c0] : !ri, memref<?xi32>
  hk.return
}

// math.sin: quarter turns from f32(2/pi) and its remainder, with the
// product's error from an FMA; the nearest quarter turn; Taylor polynomials
// on theta; the quadrant picks. No call, no v_sin_f32.
// CHECK-LABEL: gpu.func @sin
// CHECK: %[[C0:.*]] = arith.constant dense<0.636619746> : vector<8xf32>
// CHECK: %[[H:.*]] = arith.mulf %[[X:.*]], %[[C0]] : vector<8xf32>
// CHECK: %[[NH:.*]] = arith.negf %[[H]]
// CHECK: math.fma %[[X]], %{{.*}}, %[[NH]] : vector<8xf32>
// CHECK: arith.constant dense<2.5682553E-8> : vector<8xf32>
// CHECK: math.roundeven %[[H]] : vector<8xf32>
// CHECK: arith.constant dense<1.57079637> : vector<8xf32>
// CHECK: math.floor
// CHECK-NOT: math.sin
// CHECK-NOT: rocdl.sin
// G950-LABEL: gpu.func @sin
// G950: math.fma
// G950-NOT: math.sin
hk.kernel @sin(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %s = math.sin %x : !t
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}

// math.cos of a bf16 scalar: through f32, the same code.
// CHECK-LABEL: gpu.func @cos_scalar
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: math.fma
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: math.cos
hk.kernel @cos_scalar(%s: bf16, %O: memref<?xbf16>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c = math.cos %s : bf16
  memref.store %c, %O[%c0] : memref<?xbf16>
  hk.return
}
