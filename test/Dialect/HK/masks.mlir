// RUN: hk-opt %s -split-input-file -verify-diagnostics

// i1 register tiles and vectors are masks: arith.cmpf / arith.cmpi on tiles
// give one, of the same shape and layout, and arith.select takes one. hk
// ops move and compute on data only.
!t = tensor<32x32xf32, #hk.rt<col, 16x16>>
!i = tensor<32x32xi32, #hk.rt<col, 16x16>>
!m = tensor<32x32xi1, #hk.rt<col, 16x16>>
!v = tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
!vm = tensor<32xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @masks(%X: memref<?x?xf32>, %N: memref<?x?xi32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !t
  %n = hk.load %N[%c0, %c0] : memref<?x?xi32> -> !i
  %zero = arith.constant dense<0.0> : !t
  %p = arith.cmpf ogt, %x, %zero : !t
  %zi = arith.constant dense<0> : !i
  %q = arith.cmpi slt, %n, %zi : !i
  %pq = arith.andi %p, %q : !m
  %s = arith.select %pq, %x, %zero : !m, !t
  %r = hk.row_reduce max %s : !t -> !v
  %vp = arith.cmpf olt, %r, %r : !v
  %vs = arith.select %vp, %r, %r : !vm, !v
  hk.store %s, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}

// -----

// A mask cannot be loaded: memory holds data.
hk.kernel @load_mask(%X: memref<?x?xi1>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.load' op result #0 must be register tile of data (tensor with #hk.rt encoding, not i1) or register vector of data (tensor with #hk.rv encoding, not i1), but got 'tensor<16x16xi1, #hk.rt<col, 16x16>>'}}
  %m = hk.load %X[%c0, %c0] : memref<?x?xi1> -> tensor<16x16xi1, #hk.rt<col, 16x16>>
  hk.return
}

// -----

// Nor stored: select data with it first.
hk.kernel @store_mask(%X: memref<?x?xf32>, %Y: memref<?x?xi1>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %m = arith.cmpf ogt, %x, %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.store' op operand #0 must be register tile of data (tensor with #hk.rt encoding, not i1) or register vector of data (tensor with #hk.rv encoding, not i1) or a tile in shared memory (LDS), but got 'tensor<16x16xi1, #hk.rt<col, 16x16>>'}}
  hk.store %m, %Y[%c0, %c0] : tensor<16x16xi1, #hk.rt<col, 16x16>>, memref<?x?xi1>
  hk.return
}

// -----

// Nor reduced, transposed or laid out anew by hk ops.
hk.kernel @reduce_mask(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %m = arith.cmpf ogt, %x, %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{custom op 'hk.row_reduce' 'result' must be register vector of data (tensor with #hk.rv encoding, not i1), but got 'tensor<16xi1, #hk.rv<row, #hk.rt<col, 16x16>>>'}}
  %r = hk.row_reduce max %m : tensor<16x16xi1, #hk.rt<col, 16x16>> -> tensor<16xi1, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

hk.kernel @transpose_mask(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %m = arith.cmpf ogt, %x, %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.transpose' op operand #0 must be register tile of data (tensor with #hk.rt encoding, not i1), but got 'tensor<16x16xi1, #hk.rt<col, 16x16>>'}}
  %t = hk.transpose %m : tensor<16x16xi1, #hk.rt<col, 16x16>> -> tensor<16x16xi1, #hk.rt<row, 16x16>>
  hk.return
}

// -----

// Shared tiles hold data only.
// expected-error @+1 {{shared tile element type must be f32, f16, bf16, an 8-bit float or i8 (bytes), got 'i1'}}
func.func private @shared_mask(!hk.st<16x16xi1, 16x16>)

// -----

// A mask selects the registers of its own layout: arith.select checks that
// the condition's type is the result's with i1 elements, encoding included.
hk.kernel @select_layouts(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #hk.rt<col, 16x16>>
  %p = arith.cmpf ogt, %x, %x : tensor<16x16xf32, #hk.rt<col, 16x16>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<row, 16x16>>
  // expected-error @+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'tensor<16x16xi1, #hk.rt<row, 16x16>>', but got 'tensor<16x16xi1, #hk.rt<col, 16x16>>'}}
  %s = arith.select %p, %z, %z : tensor<16x16xi1, #hk.rt<col, 16x16>>, tensor<16x16xf32, #hk.rt<row, 16x16>>
  hk.return
}
