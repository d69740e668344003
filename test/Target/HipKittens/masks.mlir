// RUN: hk-translate --hk-to-hipkittens -split-input-file %s | FileCheck %s

// HipKittens' tril/triu(dst, src, row_idx, fill) keep col - row <= -row_idx
// (>= for triu) in tile coordinates; hk compares global positions
// (row_off + i, col_off + j) with the diagonal, so
// row_idx = col_off - row_off - diagonal.

!s = tensor<32x64xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void masks(
// CHECK:        tril(s, s, 32, -INFINITY);
// CHECK-NEXT:   triu(s, s, 31, 0.0f);
// CHECK-NEXT:   tril(s, s, k0 - q0 + 2, -INFINITY);
hk.kernel @masks(%X: memref<?x?xf32>, %q0: index, %k0: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %s = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %a = hk.tril %s at [%c32, %c64] fill %ninf : !s
  %b = hk.triu %a at [%c32, %c64] fill %zero diagonal = 1 : !s
  %c = hk.tril %b at [%q0, %k0] fill %ninf diagonal = -2 : !s
  hk.store %c, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}
