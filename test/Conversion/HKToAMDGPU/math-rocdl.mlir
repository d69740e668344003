// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s | FileCheck %s
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 --split-input-file %s \
// RUN: | mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefix=LLVM
// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx942 --split-input-file %s \
// RUN: | mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,amdgpu-resolve-strided-metadata,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx942}),reconcile-unrealized-casts)' \
// RUN: | FileCheck %s --check-prefix=LLVM

// math.exp2 / math.log2 become v_exp_f32 / v_log_f32 per register, rsqrt
// 1 / sqrt, on tiles and on scalars alike; nothing calls the device library.
// CHECK-LABEL: gpu.func @math
// CHECK-SAME: %[[S:[a-z0-9]+]]: f32
// CHECK: %[[X:.*]] = vector.insert %{{.*}} [3] : f32 into vector<4xf32>
// CHECK: %[[X0:.*]] = vector.extract %[[X]][0] : f32 from vector<4xf32>
// CHECK: %[[E0:.*]] = rocdl.exp2 %[[X0]] f32 -> f32
// CHECK: %[[X3:.*]] = vector.extract %[[X]][3] : f32 from vector<4xf32>
// CHECK: %[[E3:.*]] = rocdl.exp2 %[[X3]] f32 -> f32
// CHECK: %[[E:.*]] = vector.from_elements %[[E0]], %{{.*}}, %{{.*}}, %[[E3]] : vector<4xf32>
// CHECK-COUNT-4: rocdl.log %{{.*}} f32 -> f32
// CHECK: %[[L:.*]] = vector.from_elements
// CHECK: %[[R:.*]] = math.sqrt %[[L]] fastmath<afn> : vector<4xf32>
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK: arith.divf %[[ONE]], %[[R]] fastmath<afn> : vector<4xf32>
// CHECK: rocdl.exp2 %[[S]] f32 -> f32
// bf16 goes through f32.
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[WE:.*]] = rocdl.exp2 %[[W]] f32 -> f32
// CHECK: arith.truncf %[[WE]] : f32 to bf16
// CHECK-NOT: math.exp2
// CHECK-NOT: math.log2
// CHECK-NOT: math.rsqrt

// LLVM-LABEL: llvm.func @math
// LLVM-COUNT-4: rocdl.exp2
// LLVM-COUNT-4: rocdl.log
// LLVM: llvm.intr.sqrt
// LLVM: llvm.fdiv
// LLVM-NOT: ocml
hk.kernel @math(%X: memref<?x?xf32>, %H: memref<?x?xbf16>, %O: memref<?x?xf32>, %s: f32, %o: memref<?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %e = math.exp2 %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %l = math.log2 %e : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %r = math.rsqrt %l fastmath<afn> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %r, %O[%c0, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  %se = math.exp2 %s : f32
  memref.store %se, %o[%c0] : memref<?xf32>
  %h = hk.load %H[%c0, %c0] : memref<?x?xbf16> -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  %he = math.exp2 %h : tensor<16x32xbf16, #hk.rt<row, 16x32>>
  hk.store %he, %H[%c0, %c0] : tensor<16x32xbf16, #hk.rt<row, 16x32>>, memref<?x?xbf16>
  hk.return
}
