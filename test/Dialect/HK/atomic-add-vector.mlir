// RUN: hk-opt %s -split-input-file -verify-diagnostics

// hk.atomic_add takes register vectors too, indexed in vector units in the
// memref's last dimension.
!t = tensor<32x64xf32, #hk.rt<col, 16x16>>
!rv = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @vector(%X: memref<?x?xf32>, %S: memref<?x?xf32>, %i: index) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %r = hk.row_reduce sum %x : !t -> !rv
  hk.atomic_add %r, %S[%c0, %i] : !rv, memref<?x?xf32>
  hk.return
}

// -----

// f32 only, as for tiles.
!v = tensor<32xbf16, #hk.rv<row, #hk.rt<col, 16x16>>>
func.func @bf16_vector(%S: memref<?xbf16>, %v: tensor<32xbf16, #hk.rv<row, #hk.rt<col, 16x16>>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.atomic_add' op adds f32 tiles only, got 'bf16'}}
  hk.atomic_add %v, %S[%c0] : !v, memref<?xbf16>
  return
}

// -----

// One index per memref dimension.
!v = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
func.func @indices(%S: memref<?x?xf32>, %v: tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.atomic_add' op expects 2 indices for a memref of rank 2, got 1}}
  hk.atomic_add %v, %S[%c0] : !v, memref<?x?xf32>
  return
}
