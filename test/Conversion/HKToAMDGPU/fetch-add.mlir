// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s | FileCheck %s
// RUN: hkc %s --chip gfx942,gfx950 --emit=asm -o %t
// RUN: FileCheck %s --check-prefix=ASM --input-file %t.gfx950.s
// RUN: FileCheck %s --check-prefix=ASM --input-file %t.gfx942.s

// hk.fetch_add: the wave's first active lane (its lane id equals the
// readfirstlane of the lane ids) makes the one atomic add, and the old
// value reaches the wave through a second readfirstlane. In the code
// object: one returning 32-bit integer atomic add (sc0 on gfx942 and
// gfx950: the returned value), its result read into an SGPR.

// CHECK-LABEL: gpu.func @ticket
// CHECK: %[[LANE:.*]] = gpu.lane_id
// CHECK: %[[L32:.*]] = arith.index_castui %[[LANE]] : index to i32
// CHECK: %[[FIRST:.*]] = rocdl.readfirstlane %[[L32]] : i32
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[L32]], %[[FIRST]] : i32
// CHECK: %[[OLD:.*]] = scf.if %[[IS]] -> (i32) {
// CHECK:   %[[A:.*]] = memref.atomic_rmw addi %{{.*}}, %arg0[%{{.*}}] : (i32, memref<?xi32>) -> i32
// CHECK:   scf.yield %[[A]] : i32
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : i32
// CHECK: }
// CHECK: rocdl.readfirstlane %[[OLD]] : i32
// CHECK-NOT: hk.fetch_add

// ASM-LABEL: ticket:
// ASM: {{(global|flat)}}_atomic_add {{v[0-9]+}}, {{.*}} sc0
// ASM-NOT: _atomic_
// ASM: v_readfirstlane_b32
// ASM: s_endpgm
hk.kernel @ticket(%counter: memref<?xi32>, %out: memref<?x?xi32>, %step: i32)
    attributes {waves = 2 : i32, grid = #hk.grid<[] -> (4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %old = hk.fetch_add %step, %counter[%c1] : memref<?xi32>
  %i = arith.index_cast %old : i32 to index
  %t = arith.constant dense<1> : tensor<16x16xi32, #hk.rt<col, 16x16>>
  hk.store %t, %out[%i, %c0] : tensor<16x16xi32, #hk.rt<col, 16x16>>, memref<?x?xi32>
  hk.return
}
