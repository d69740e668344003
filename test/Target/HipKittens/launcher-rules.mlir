// The launcher's division rule on small kernels: which divisions become
// checks, how they are spelled, and the errors for divisions it cannot
// check.
// RUN: hk-translate --hk-to-hipkittens -split-input-file -verify-diagnostics %s | FileCheck %s

!t = tensor<16x16xf32, #hk.rt<row, 16x16>>

// Every division of a size or scalar argument becomes a check: ceildivui
// (spelled ceildiv), the (x + c - 1) / c idiom (x, not x + c - 1), a floor
// quotient by a constant, a quotient by a scalar argument (nonzero), through
// shifts and casts. Divisions of ids, of static sizes and by 1 do not.
// CHECK-LABEL: hipError_t launch_divisions(
// X_dim0 % 16 (the tile) follows from X_dim0 % 48.
// CHECK-NOT:     X_dim0 % 16
// CHECK:         // Dimension 1 of X is tiled by 16
// CHECK:         if (X_dim1 % 16 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // `a` = ceildiv(X_dim0, 48) must not count a partial step, whose tiles would
// CHECK-NEXT:    // lie partly or wholly past an array.
// CHECK-NEXT:    if (X_dim0 % 48 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // `b` = ceildiv(n, 8) must not count a partial step
// CHECK-NEXT:    // partly or wholly past an array.
// CHECK-NEXT:    if (n % 8 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // `c` = (X_dim1 << 1) / 3 must be exact: a remainder would leave indices
// CHECK-NEXT:    // derived from it past an array.
// CHECK-NEXT:    if ((X_dim1 << 1) % 3 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // `d` = X_dim1 / n must be exact
// CHECK-NEXT:    // from it past an array.
// CHECK-NEXT:    if (n == 0 || X_dim1 % n != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // #hk.grid<[dim(0, 0)] -> (s0 floordiv 16)>
hk.kernel @divisions(%X: memref<?x?xf32>, %S: memref<64x?xf32>, %n: index,
                     %m: i32) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 floordiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c48 = arith.constant 48 : index
  %rows = memref.dim %X, %c0 : memref<?x?xf32>
  %cols = memref.dim %X, %c1 : memref<?x?xf32>
  %a = arith.ceildivui %rows, %c48 : index
  %n_pad = arith.addi %c7, %n : index
  %b = arith.divui %n_pad, %c8 : index
  %cols2 = arith.shli %cols, %c1 : index
  %c = arith.divsi %cols2, %c3 : index
  %d = arith.divui %cols, %n : index
  // No checks: a static size, a division by 1, a wave id.
  %srows = memref.dim %S, %c0 : memref<64x?xf32>
  %e = arith.divui %srows, %c4 : index
  %f = arith.divui %rows, %c1 : index
  %w = hk.wave_id
  %g = arith.divui %w, %c4 : index
  %i0 = arith.addi %a, %b : index
  %i1 = arith.addi %c, %d : index
  %i2 = arith.addi %e, %f : index
  %i3 = arith.addi %i2, %g : index
  %i4 = arith.addi %i0, %i1 : index
  %i = arith.addi %i3, %i4 : index
  %x = hk.load %X[%i, %c0] : memref<?x?xf32> -> !t
  hk.store %x, %X[%c0, %i] : !t, memref<?x?xf32>
  hk.return
}

// -----

!t = tensor<16x16xf32, #hk.rt<row, 16x16>>

// A grid ceildiv by a constant is checked like one in the body; a
// condition implied by a stronger one (x % 16 by x % 64) is dropped.
// CHECK-LABEL: hipError_t launch_grid(
// CHECK-NOT:     % 16
// CHECK:         // The grid's ceildiv(X_dim0, 64) must not count a partial workgroup, whose
// CHECK-NEXT:    // tiles would lie partly or wholly past an array.
// CHECK-NEXT:    if (X_dim0 % 64 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // The grid's ceildiv(n, 2)
// CHECK-NEXT:    // would lie partly or wholly past an array.
// CHECK-NEXT:    if (n % 2 != 0)
hk.kernel @grid(%X: memref<?x16xf32>, %n: index) attributes {
    waves = 4 : i32,
    grid = #hk.grid<[dim(0, 0), arg(1)] -> (s0 ceildiv 64, s1 ceildiv 2)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x16xf32> -> !t
  hk.store %x, %X[%c0, %c0] : !t, memref<?x16xf32>
  hk.return
}

// -----

!t = tensor<16x16xf32, #hk.rt<row, 16x16>>

// A size divided by a value only the device knows cannot be checked.
hk.kernel @device_divisor(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %rows = memref.dim %X, %c0 : memref<?x?xf32>
  %w = hk.wave_id
  // expected-error @below {{the launcher cannot check that this division of X_dim0 is exact: its divisor is computed on the device}}
  %q = arith.divui %rows, %w : index
  %x = hk.load %X[%q, %c0] : memref<?x?xf32> -> !t
  hk.store %x, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}

// -----

!t = tensor<16x16xf32, #hk.rt<row, 16x16>>

// Arith on sizes that the launcher cannot spell (a comparison) under a
// division is an error rather than a dropped check.
hk.kernel @unspelled(%X: memref<?x?xf32>, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %rows = memref.dim %X, %c0 : memref<?x?xf32>
  // expected-error @below {{the launcher cannot spell this operation on sizes and scalar arguments, so it cannot check that the division using it is exact}}
  %big = arith.cmpi ugt, %rows, %n : index
  %v = arith.select %big, %rows, %n : index
  %q = arith.divui %v, %c4 : index
  %x = hk.load %X[%q, %c0] : memref<?x?xf32> -> !t
  hk.store %x, %X[%c0, %c0] : !t, memref<?x?xf32>
  hk.return
}
