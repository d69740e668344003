// RUN: hk-opt --hk-expand-remaps --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s
// RUN: not hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s 2>&1 | FileCheck %s --check-prefix=ORDER

// Grid remaps are expanded by hk-expand-remaps before the lowering: index
// arithmetic, no hk op left. (The formulas are checked in that pass's tests.)
// ORDER: 'hk.xcd_remap' is expanded by hk-expand-remaps, which must run first
// CHECK-LABEL: gpu.func @remap
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: arith.remui %[[BX]], %c8
// CHECK: arith.select
// CHECK: arith.minsi
// CHECK-NOT: hk.
hk.kernel @remap(%O: memref<?x?xf32>, %n: index, %r: index, %c: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %bx = hk.block_id x
  %id = hk.xcd_remap %bx, %n xcds = 8, chunk = 64
  %row, %col = hk.group_remap %id, %r, %c group = 8
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %z, %O[%row, %col] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
