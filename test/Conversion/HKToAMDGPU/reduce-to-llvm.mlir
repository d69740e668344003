// The cross-lane steps of reductions, swap_layout and atomic_add go through
// the upstream pipeline to ROCDL, with no device library calls.
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s \
// RUN: | mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 %s \
// RUN: | mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx942}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefixes=CHECK,GFX942

// Row max of a col 16x16 tile: DPP quad_perm [1,0,3,2] (177) and [2,3,0,1]
// (78) per register, xor 4 as ds_swizzle, DPP row_ror:8 (0x128 = 296).
// CHECK-LABEL: llvm.func @row_max
// CHECK-COUNT-8: rocdl.update.dpp {{.*}} with 177, 15, 15, false : f32
// CHECK-COUNT-8: rocdl.update.dpp {{.*}} with 78, 15, 15, false : f32
// CHECK: rocdl.ds_swizzle
// CHECK-COUNT-8: rocdl.update.dpp {{.*}} with 296, 15, 15, false : f32
// Row sum of a row 16x32 tile: xor 16 and 32.
// CHECK-LABEL: llvm.func @row_sum
// GFX950: rocdl.permlane16.swap
// GFX950: rocdl.permlane32.swap
// GFX942: rocdl.ds_swizzle
// GFX942: rocdl.ds_bpermute
// col 16x16 -> row 16x16 (transpose-swap.mlir): butterflies over lane
// bits 0 and 1 (DPP quad_perm, 2 registers each), then the lane
// permutation, one ds_bpermute per register.
// CHECK-LABEL: llvm.func @swap_acc
// CHECK-COUNT-2: rocdl.update.dpp {{.*}} with 177, 15, 15, false : f32
// CHECK-COUNT-2: rocdl.update.dpp {{.*}} with 78, 15, 15, false : f32
// CHECK-COUNT-4: rocdl.ds_bpermute
// CHECK-NOT: rocdl.ds_bpermute
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.atomic.fadd {{.*}} : f32
// CHECK-NOT: ocml
hk.kernel @row_max(%X: memref<?x?xf32>, %O: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  %m = hk.row_reduce max %x : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.store %m, %O[%c0] : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?xf32>
  hk.return
}
hk.kernel @row_sum(%X: memref<?x?xf32>, %O: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x64xf32, #hk.rt<row, 16x32>>
  %s = hk.row_reduce sum %x : tensor<16x64xf32, #hk.rt<row, 16x32>> -> tensor<16xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
  hk.store %s, %O[%c0] : tensor<16xf32, #hk.rv<row, #hk.rt<row, 16x32>>>, memref<?xf32>
  hk.return
}
hk.kernel @swap_acc(%X: memref<?x?xf32>, %O: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %y = hk.swap_layout %x : tensor<16x16xf32, #hk.rt<col, 16x16>> -> tensor<16x16xf32, #hk.rt<row, 16x16>>
  hk.atomic_add %y, %O[%c0, %c0] : tensor<16x16xf32, #hk.rt<row, 16x16>>, memref<?x?xf32>
  hk.return
}
