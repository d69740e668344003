// RUN: not hk-translate --hk-to-hipkittens -split-input-file %s 2>&1 | FileCheck %s

// Compare and select on tiles, math.tanh, math.erf, f32 or i8 MMAs and
// atomic adds of vectors have no HipKittens equivalent (its maps are add,
// sub, mul, div, max, min, exp, exp2, log, abs and copies; its mma takes
// bf16, f16 and 8-bit floats; the atomic add the translation defines takes
// tiles): the translation stops at the op, naming it, and prints no kernel.
// The lowering to AMDGPU handles all of them.
// CHECK-NOT: __global__
// CHECK: offset :{{[0-9]+}}:8: error: 'math.tanh' has no HipKittens equivalent
// CHECK: offset :{{[0-9]+}}:8: error: 'math.erf' has no HipKittens equivalent
// CHECK: offset :{{[0-9]+}}:8: error: 'arith.cmpf' has no HipKittens equivalent
// CHECK: offset :{{[0-9]+}}:8: error: 'math.tanh' has no HipKittens equivalent
// CHECK: offset :{{[0-9]+}}:8: error: 'hk.mma' has no HipKittens equivalent: its mma takes no f32 tiles
// i8 tiles stop the translation earlier, at the kernel.
// CHECK: offset :{{[0-9]+}}:1: error: HipKittens (cdna4) has no tile element type for 'i8'
// CHECK: offset :{{[0-9]+}}:3: error: 'hk.atomic_add' has no HipKittens equivalent: tile_atomic_add takes register tiles, not vectors
// CHECK-NOT: __global__
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @tanh_tile(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %t = math.tanh %x : !t
  hk.store %t, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
// -----
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @erf_tile(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %t = math.erf %x : !t
  hk.store %t, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
// -----
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @cmp_tile(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %z = arith.constant dense<0.0> : !t
  %p = arith.cmpf ogt, %x, %z : !t
  %s = arith.select %p, %x, %z : tensor<16x64xi1, #hk.rt<col, 16x16>>, !t
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
// -----
hk.kernel @tanh_scalar(%x: f32, %o: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = math.tanh %x : f32
  memref.store %t, %o[%c0] : memref<?xf32>
  hk.return
}
// -----
// HipKittens' mma is for bf16, f16 and 8-bit float tiles.
!a = tensor<16x16xf32, #hk.rt<row, 16x16>>
!c = tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @mma_f32(%X: memref<?x?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !a
  %z = arith.constant dense<0.0> : !c
  %d = hk.mma abt %a, %a, %z : !a, !a, !c
  hk.store %d, %X[%c0, %c0] : !c, memref<?x?xf32>
  hk.return
}
// -----
!a = tensor<16x32xi8, #hk.rt<row, 16x32>>
!c = tensor<16x16xi32, #hk.rt<col, 16x16>>
hk.kernel @mma_i8(%X: memref<?x?xi8>, %Y: memref<?x?xi32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = hk.load %X[%c0, %c0] : memref<?x?xi8> -> !a
  %z = arith.constant dense<0> : !c
  %d = hk.mma abt %a, %a, %z : !a, !a, !c
  hk.store %d, %Y[%c0, %c0] : !c, memref<?x?xi32>
  hk.return
}
// -----
// The translation's tile_atomic_add stores tiles.
!t = tensor<16x64xf32, #hk.rt<col, 16x16>>
!v = tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @atomic_vector(%X: memref<?x?xf32>, %S: memref<?xf32>) attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %r = hk.row_reduce sum %x : !t -> !v
  hk.atomic_add %r, %S[%c0] : !v, memref<?xf32>
  hk.return
}
