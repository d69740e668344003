// What the verifier refuses of the position ops (test/Dialect/HK/positions.mlir).
hk.kernel @k() attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.iota' op on a register tile needs an axis: row (the row index of each element) or col}}
  %i = hk.iota : tensor<32x64xi32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.iota' op on a register vector takes no axis: each element gets its index}}
  %i = hk.iota row : tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

hk.kernel @k() attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  // expected-error @+1 {{'hk.iota' op expects an i32 or f32 result, got 'bf16'}}
  %i = hk.iota col : tensor<32x64xbf16, #hk.rt<col, 16x16>>
  hk.return
}

// -----

hk.kernel @k(%X: memref<?x?xbf16>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.row_scan' op operand #0 must be register tile of f32 or i32}}
  %s = hk.row_scan sum inclusive %x : tensor<32x64xbf16, #hk.rt<col, 16x16>>
  hk.return
}

// -----

hk.kernel @k(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  %v = hk.col_reduce sum %x : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
  // expected-error @+1 {{'hk.row_scan' op expects init to be a row vector, got a col vector}}
  %s = hk.row_scan sum inclusive %x init %v : tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

hk.kernel @k(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  %v = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32xf32, #hk.rv<col, #hk.rt<row, 32x16>>>
  // expected-error @+1 {{'hk.col_scan' op expects init laid out for tile layout #hk.rt<col, 16x16>, got #hk.rt<row, 32x16>}}
  %s = hk.col_scan max exclusive %x init %v : tensor<32xf32, #hk.rv<col, #hk.rt<row, 32x16>>> : tensor<32x64xf32, #hk.rt<col, 16x16>>
  hk.return
}

// -----

hk.kernel @k(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.row_arg' op takes max or min, not sum: a sum has no position}}
  %v, %i = hk.row_arg sum %x : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

hk.kernel @k(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.col_arg' op expects the value of length 64, got 32}}
  %v, %i = hk.col_arg max %x : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<col, #hk.rt<col, 16x16>>>, tensor<64xi32, #hk.rv<col, #hk.rt<col, 16x16>>>
  hk.return
}

// -----

hk.kernel @k(%X: memref<?x?xf32>) attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> tensor<32x64xf32, #hk.rt<col, 16x16>>
  // expected-error @+1 {{'hk.row_arg' op expects the value of element type 'f32', got 'i32'}}
  %v, %i = hk.row_arg max %x : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>, tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
  hk.return
}
