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

// -----

// hk.bounds_mask keeps (i, j) iff 0 <= row0 + i < rows and
// 0 <= col0 + j < cols. HipKittens' fills take tile-relative indices:
// lower_fill(dst, src, r, v) fills rows i >= r and right_fill columns
// j >= c, so the mask is lower_fill at rows - row0 and right_fill at
// cols - col0. Offsets built from block and wave ids and loop counters
// from 0 cannot be negative, so the fills of rows and columns before the
// tile are left out. The source dies here: the fills work in place.

!s = tensor<32x64xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void bounds(
// CHECK:        const int q0 = ((blockIdx.x * 4) + __builtin_amdgcn_readfirstlane(warpid())) * 32;
// CHECK:        for (int j = 0; j < n; ++j) {
// CHECK-NEXT:     rt_fl<32, 64, col_l, rt_16x16_s> s;
// CHECK-NEXT:     load(s, X, {0, 0, 0, j});
// CHECK-NEXT:     lower_fill(s, s, m - q0, -INFINITY);
// CHECK-NEXT:     right_fill(s, s, n - (j * 64), -INFINITY);
// CHECK-NEXT:     store(X, s, {0, 0, 0, j});
// CHECK-NEXT:   }
hk.kernel @bounds(%X: memref<?x?xf32>, %m: index, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %ninf = arith.constant 0xFF800000 : f32
  %blk = hk.block_id x
  %w = hk.wave_id
  %blk4 = arith.muli %blk, %c4 : index
  %tile = arith.addi %blk4, %w : index
  %q0 = arith.muli %tile, %c32 : index
  scf.for %j = %c0 to %n step %c1 {
    %k0 = arith.muli %j, %c64 : index
    %s = hk.load %X[%c0, %j] : memref<?x?xf32> -> !s
    %m2 = hk.bounds_mask %s at [%q0, %k0] within [%m, %n] fill %ninf : !s
    hk.store %m2, %X[%c0, %j] : !s, memref<?x?xf32>
  }
  hk.return
}

// -----

// Constant offsets and limits fold: rows past 40 - 32 = 8 and columns past
// 100 - 64 = 36 are filled. A zero column offset leaves the limit alone.
// The source is still used after the mask, so the result starts as a copy:
// HipKittens' row-layout fills return without writing dst when there is
// nothing to fill, so they must run in place.

!r = tensor<32x64xf32, #hk.rt<row, 16x32>>

// CHECK-LABEL: void bounds_const(
// CHECK:        rt_fl<32, 64, row_l, rt_16x32_s> s;
// CHECK-NEXT:   load(s, X, {0, 0, 0, 0});
// CHECK-NEXT:   rt_fl<32, 64, row_l, rt_16x32_s> a;
// CHECK-NEXT:   copy(a, s);
// CHECK-NEXT:   lower_fill(a, a, 8, 0.0f);
// CHECK-NEXT:   right_fill(a, a, 36, 0.0f);
// CHECK-NEXT:   rt_fl<32, 64, row_l, rt_16x32_s> b;
// CHECK-NEXT:   copy(b, s);
// CHECK-NEXT:   lower_fill(b, b, 40 - r0, 0.0f);
// CHECK-NEXT:   right_fill(b, b, n, 0.0f);
// CHECK-NEXT:   upper_fill(b, b, -r0, 0.0f);
// CHECK-NEXT:   add(a, a, b);
// CHECK-NEXT:   add(a, a, s);
hk.kernel @bounds_const(%X: memref<?x?xf32>, %r0: index, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  %s = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !r
  %a = hk.bounds_mask %s at [%c32, %c64] within [%c40, %c100] fill %zero : !r
  %b = hk.bounds_mask %s at [%r0, %c0] within [%c40, %n] fill %zero : !r
  %ab = arith.addf %a, %b : !r
  %abs = arith.addf %ab, %s : !r
  hk.store %abs, %X[%c0, %c0] : !r, memref<?x?xf32>
  hk.return
}

// -----

// Offsets the translation cannot prove non-negative (here kernel arguments,
// or a difference) also fill what lies before the array: upper_fill fills
// rows i < -row0 and left_fill columns j < -col0.

!s = tensor<16x16xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: void bounds_signed(
// CHECK:        lower_fill(s, s, m - q0, -INFINITY);
// CHECK-NEXT:   right_fill(s, s, n - (k0 - q0), -INFINITY);
// CHECK-NEXT:   upper_fill(s, s, -q0, -INFINITY);
// CHECK-NEXT:   left_fill(s, s, -(k0 - q0), -INFINITY);
// CHECK-NEXT:   store(X, s, {0, 0, 0, 0});
hk.kernel @bounds_signed(%X: memref<?x?xf32>, %q0: index, %k0: index,
                         %m: index, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %d = arith.subi %k0, %q0 : index
  %s = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %m2 = hk.bounds_mask %s at [%q0, %d] within [%m, %n] fill %ninf : !s
  hk.store %m2, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}
