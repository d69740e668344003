// RUN: not hk-translate --hk-to-hipkittens %s 2>&1 | FileCheck %s

// hk.fetch_add has no HipKittens equivalent (HipKittens has no scalar
// atomics; its kernels call HIP's atomicAdd themselves), and the i32
// memref it adds to has no HipKittens global layout: the translation
// stops at the kernel's signature, located, and prints no kernel (were
// i32 globals accepted, the op would fall to the translation's default,
// "'hk.fetch_add' has no HipKittens equivalent"). The lowering to AMDGPU
// handles it (test/Conversion/HKToAMDGPU/fetch-add.mlir).
// CHECK-NOT: __global__
// CHECK: fetch-add-refused.mlir:[[# @LINE + 2]]:1: error: HipKittens (cdna4) has no tile element type for 'i32'
// CHECK-NOT: __global__
hk.kernel @ticket(%counter: memref<?xi32>, %out: memref<?x?xf32>, %step: i32)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %old = hk.fetch_add %step, %counter[%c1] : memref<?xi32>
  %i = arith.index_cast %old : i32 to index
  %t = arith.constant dense<1.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  hk.store %t, %out[%i, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  hk.return
}
