// RUN: hk-opt %s --hk-peel-bounds --cse --split-input-file | FileCheck %s

// A K loop that loads the 32-column tiles 2k+2 and 2k+3 of A (a prefetch
// one step ahead, as the GEMM does) is split where the later one could
// first cross the last column. Tile c covers columns 32c..32c+31, in range
// when 0 <= c and (c + 1) * 32 <= K, i.e. c + 1 <= K floordiv 32. For
// c = 2k + b: k <= (K/32 - b - 1) floordiv 2, so the first loop ends at
// (K/32 - b - 1) floordiv 2 + 1 if c is not negative at lb (else at lb),
// the smaller over both loads, clamped to [lb, ub].

!rt = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!rtb = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @k_loop
// CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[K:.*]] = memref.dim %[[A]], %[[C1]]
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[T:.*]] = arith.divui %[[K]], %[[C32]]
// CHECK: %[[R:.*]] = arith.subi %[[T]], %[[C1]]
// load 2k + 2: bound (K/32 - 1 - 2) floordiv 2 + 1, if 2 * lb + 2 >= 0
// CHECK: %[[S0:.*]] = arith.subi %[[R]], %[[C2]]
// CHECK: %[[L0:.*]] = arith.floordivsi %[[S0]], %[[C2]]
// CHECK: %[[E0:.*]] = arith.addi %[[L0]], %[[C1]]
// CHECK: %[[LB2:.*]] = arith.muli %[[C0]], %[[C2]]
// CHECK: %[[F0:.*]] = arith.addi %[[LB2]], %[[C2]]
// CHECK: %[[NN0:.*]] = arith.cmpi sge, %[[F0]], %[[C0]]
// CHECK: %[[B0:.*]] = arith.select %[[NN0]], %[[E0]], %[[C0]]
// load 2k + 3
// CHECK: %[[S1:.*]] = arith.subi %[[R]], %[[C3]]
// CHECK: %[[L1:.*]] = arith.floordivsi %[[S1]], %[[C2]]
// CHECK: %[[E1:.*]] = arith.addi %[[L1]], %[[C1]]
// CHECK: %[[F1:.*]] = arith.addi %[[LB2]], %[[C3]]
// CHECK: %[[NN1:.*]] = arith.cmpi sge, %[[F1]], %[[C0]]
// CHECK: %[[B1:.*]] = arith.select %[[NN1]], %[[E1]], %[[C0]]
// CHECK: %[[MIN:.*]] = arith.minsi %[[B0]], %[[B1]]
// CHECK: %[[UB:.*]] = arith.minsi %[[MIN]], %[[N:[^ ]+]]
// CHECK: %[[SPLIT:.*]] = arith.maxsi %[[UB]], %[[C0]]
// The first loop, [lb, split), with its loads marked.
// CHECK: %[[FIRST:.*]] = scf.for %{{.*}} = %[[C0]] to %[[SPLIT]] step %[[C1]] iter_args(%{{.*}} = %{{.*}})
// CHECK: hk.load %[[A]][%{{.*}}, %{{.*}}] {hk.cols_in_bounds}
// CHECK: hk.load %[[A]][%{{.*}}, %{{.*}}] {hk.cols_in_bounds}
// CHECK: hk.mma
// The original loop, [split, ub), from the first's result, unmarked.
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step %[[C1]] iter_args(%{{.*}} = %[[FIRST]])
// CHECK-NOT: hk.cols_in_bounds
// CHECK: hk.mma
hk.kernel @k_loop(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index,
                  %r: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant dense<0.0> : !acc
  %out = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> !acc {
    %k2 = arith.muli %k, %c2 : index
    %j0 = arith.addi %k2, %c2 : index
    %j1 = arith.addi %k2, %c3 : index
    %a = hk.load %A[%r, %j0] : memref<?x?xbf16> -> !rt
    %b = hk.load %A[%r, %j1] : memref<?x?xbf16> -> !rtb
    %d = hk.mma abt %a, %b, %acc : !rt, !rtb, !acc
    scf.yield %d : !acc
  }
  hk.store %out, %C[%r, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// Left alone: a loop without hk.mma (duplicating it costs registers the
// checks it saves do not pay for), a column index that is not linear in the
// loop, and a step other than 1.

!rt = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @left_alone
// CHECK-NOT: hk.cols_in_bounds
// CHECK-COUNT-3: scf.for
// CHECK-NOT: scf.for
// CHECK-NOT: hk.cols_in_bounds
hk.kernel @left_alone(%A: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index,
                      %r: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : !acc
  %first = hk.load %A[%r, %c0] : memref<?x?xbf16> -> !rt
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%x = %first) -> !rt {
    %a = hk.load %A[%r, %k] : memref<?x?xbf16> -> !rt
    scf.yield %a : !rt
  }
  hk.store %s, %A[%r, %c0] : !rt, memref<?x?xbf16>
  %u = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> !acc {
    %sq = arith.muli %k, %k : index
    %a = hk.load %A[%r, %sq] : memref<?x?xbf16> -> !rt
    %d = hk.mma abt %a, %a, %acc : !rt, !rt, !acc
    scf.yield %d : !acc
  }
  %v = scf.for %k = %c0 to %n step %c2 iter_args(%acc = %u) -> !acc {
    %a = hk.load %A[%r, %k] : memref<?x?xbf16> -> !rt
    %d = hk.mma abt %a, %a, %acc : !rt, !rt, !acc
    scf.yield %d : !acc
  }
  hk.store %v, %C[%r, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// A global tile load whose column tile index does not change in the loop
// (hk-transpose-shared's copies of attention's V blocks through registers)
// is in range in every iteration or in none: 0 <= 2 and 2 + 1 <= cols
// floordiv 32; so is its row tile index: 0 <= r and r + 1 <= rows floordiv
// 32. The first loop runs all iterations or none, and its load goes
// unchecked (hk.in_bounds).

!rt = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<32x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @invariant_columns
// CHECK: %[[COLS:.*]] = memref.dim %{{.*}}, %c1
// CHECK: %[[TILES:.*]] = arith.divui %[[COLS]], %c32
// CHECK: %[[END:.*]] = arith.addi %c2, %c1
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[END]], %[[TILES]]
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[FITS]]
// CHECK: %[[COLBOUND:.*]] = arith.select %[[OK]], %{{.*}}, %c0
// CHECK: %[[ROWS:.*]] = memref.dim %{{.*}}, %c0
// CHECK: %[[RTILES:.*]] = arith.divui %[[ROWS]], %c32
// CHECK: %[[REND:.*]] = arith.addi %[[R:.*]], %c1
// CHECK: %[[RFITS:.*]] = arith.cmpi sle, %[[REND]], %[[RTILES]]
// CHECK: %[[ROK:.*]] = arith.andi %{{.*}}, %[[RFITS]]
// CHECK: %[[ROWBOUND:.*]] = arith.select %[[ROK]], %{{.*}}, %c0
// CHECK: arith.minsi %[[COLBOUND]], %[[ROWBOUND]]
// CHECK: scf.for
// CHECK: hk.load %{{.*}}[%[[R]], %c2] {hk.cols_in_bounds, hk.in_bounds}
// CHECK: scf.for
// CHECK: hk.load %{{.*}}[%{{.*}}, %c2] :
hk.kernel @invariant_columns(%A: memref<?x?xbf16>, %C: memref<?x?xf32>,
                             %n: index, %r: index) attributes {
    waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : !acc
  %t = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> !acc {
    %a = hk.load %A[%r, %c2] : memref<?x?xbf16> -> !rt
    %d = hk.mma abt %a, %a, %acc : !rt, !rt, !acc
    scf.yield %d : !acc
  }
  hk.store %t, %C[%r, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// Attention's KV loop: the key mask, the causal mask (under an invariant
// scf.if) and the K block copy. Block j covers keys 64j .. 64j+63.
//  * hk.bounds_mask at [q0, 64j] within [qe, n] of a 32x64 tile keeps every
//    element when 0 <= 64j, 64j + 64 <= n (j <= (n - 64) floordiv 64, given
//    64 * lb >= 0) and, for the rows, which do not move, 0 <= q0 and
//    q0 + 32 <= qe (then every iteration, else none);
//  * hk.tril at [q0, 64j] keeps col - row <= 0: all of the tile when its
//    largest col - row, 64j + 63 - q0, is <= 0, i.e.
//    j <= (0 - 64 + 1 - (0 - q0)) floordiv 64 = (q0 - 63) floordiv 64; the
//    bound only applies when %causal is set (else the op does not run);
//  * hk.load_async at column tile 0 of K (64 columns) is in range in every
//    iteration or in none: 0 <= 0 and 0 + 1 <= D floordiv 64; its row
//    block j is while j + 1 <= rows floordiv 64 (j <= (rows floordiv 64 - 1)
//    floordiv 1, given 1 * lb >= 0).
// In the first loop the masks are gone and the copy is marked in range in
// its columns and in every index (hk.in_bounds).

!s = tensor<32x64xf32, #hk.rt<row, 16x16>>
!k = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!q = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>
!st = !hk.st<64x64xbf16, 16x32>

// CHECK-LABEL: hk.kernel @attention_loop
// CHECK-SAME: (%[[K:[^:]*]]: memref<?x?xbf16>, %{{.*}}: memref<?x?xf32>, %[[N:[^:]*]]: index, %[[Q0:[^:]*]]: index, %[[QE:[^:]*]]: index, %[[CAUSAL:[^:]*]]: i1)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// The copy: D floordiv 64 tiles, column tile 0 in range when 0 + 1 <= it.
// CHECK: %[[D:.*]] = memref.dim %[[K]], %[[C1]]
// CHECK: %[[TILES:.*]] = arith.divui %[[D]], %[[C64]]
// CHECK: %[[END:.*]] = arith.addi %[[C0]], %[[C1]]
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[END]], %[[TILES]]
// CHECK: %[[ROWS:.*]] = memref.dim %[[K]], %[[C0]]
// CHECK: %[[RT:.*]] = arith.divui %[[ROWS]], %[[C64]]
// CHECK: %[[RR:.*]] = arith.subi %[[RT]], %[[C1]]
// CHECK: %[[RL:.*]] = arith.floordivsi %{{.*}}, %[[C1]]
// CHECK: arith.addi %[[RL]], %[[C1]]
// The key mask's columns: (n - 64 - 0) floordiv 64 + 1.
// CHECK: %[[R0:.*]] = arith.subi %[[N]], %[[C64]]
// CHECK: %[[R1:.*]] = arith.subi %[[R0]], %[[C0]]
// CHECK: %[[L:.*]] = arith.floordivsi %[[R1]], %[[C64]]
// CHECK: arith.addi %[[L]], %[[C1]]
// The causal mask: (q0 - 63) floordiv 64 + 1 when causal.
// CHECK: %[[DIFF:.*]] = arith.subi %[[C0]], %[[Q0]]
// CHECK: %[[ROOM:.*]] = arith.subi %{{.*}}, %[[DIFF]]
// CHECK: %[[TL:.*]] = arith.floordivsi %[[ROOM]], %[[C64]]
// CHECK: %[[TB:.*]] = arith.addi %[[TL]], %[[C1]]
// CHECK: arith.select %[[CAUSAL]], %[[TB]], %[[UB:[^ ]+]]
// CHECK: %[[SPLIT:.*]] = arith.maxsi
// The first loop: no masks, the copy marked.
// CHECK: %[[FIRST:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[SPLIT]] step %[[C1]]
// CHECK-NOT: hk.bounds_mask
// CHECK-NOT: hk.tril
// CHECK: hk.load_async %[[K]]{{.*}} {hk.cols_in_bounds, hk.in_bounds}
// CHECK-NOT: hk.bounds_mask
// CHECK-NOT: hk.tril
// CHECK: scf.yield
// The original loop, checked, from the split on.
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %[[UB]] step %[[C1]] iter_args(%{{.*}} = %[[FIRST]]#0, %{{.*}} = %[[FIRST]]#1)
// CHECK: hk.mma
// CHECK: hk.bounds_mask
// CHECK: hk.tril
// CHECK-NOT: hk.cols_in_bounds
// CHECK-NOT: hk.in_bounds
hk.kernel @attention_loop(%K: memref<?x?xbf16>, %O: memref<?x?xf32>,
                          %n: index, %q0: index, %qe: index, %causal: i1)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %nblocks = arith.ceildivui %n, %c64 : index
  %neginf = arith.constant 0xFF800000 : f32
  %zero = arith.constant dense<0.0> : !acc
  %init = arith.constant dense<0.0> : !s
  %ks = hk.alloc_shared : !st
  %q = hk.load %K[%c0, %c0] : memref<?x?xbf16> -> !q
  %r:2 = scf.for %j = %c0 to %nblocks step %c1
      iter_args(%sum = %init, %x = %zero) -> (!s, !acc) {
    %k0 = arith.muli %j, %c64 : index
    %t = hk.load_async %K[%j, %c0], %ks : memref<?x?xbf16>, !st
    hk.wait %t
    %kt = hk.load %K[%j, %c0] : memref<?x?xbf16> -> !k
    %st = hk.mma abt %kt, %q, %x : !k, !q, !acc
    %sr = hk.transpose %st : !acc -> !s
    %m = hk.bounds_mask %sr at [%q0, %k0] within [%qe, %n]
        fill %neginf : !s
    %c = scf.if %causal -> !s {
      %tr = hk.tril %m at [%q0, %k0] fill %neginf : !s
      scf.yield %tr : !s
    } else {
      scf.yield %m : !s
    }
    %s2 = arith.addf %sum, %c : !s
    scf.yield %s2, %st : !s, !acc
  }
  hk.store %r#0, %O[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// Masks left in every loop: a causal mask whose row offset is not a linear
// form of the loop's variable and a key mask whose limit changes in the
// loop. The loop is not split at all: nothing else in it could go.

!s = tensor<32x64xf32, #hk.rt<row, 16x16>>
!q = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!k = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @masks_left_alone
// CHECK-COUNT-1: scf.for
// CHECK-NOT: scf.for
// CHECK: hk.tril
// CHECK: hk.bounds_mask
hk.kernel @masks_left_alone(%K: memref<?x?xbf16>, %O: memref<?x?xf32>,
                            %n: index)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %neginf = arith.constant 0xFF800000 : f32
  %zero = arith.constant dense<0.0> : !acc
  %init = arith.constant dense<0.0> : !s
  %q = hk.load %K[%c0, %c0] : memref<?x?xbf16> -> !q
  %kt = hk.load %K[%c0, %c0] : memref<?x?xbf16> -> !k
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%sum = %init) -> !s {
    %k0 = arith.muli %j, %c64 : index
    %r0 = arith.divui %k0, %c3 : index
    %st = hk.mma abt %kt, %q, %zero : !k, !q, !acc
    %sr = hk.transpose %st : !acc -> !s
    %tr = hk.tril %sr at [%r0, %k0] fill %neginf : !s
    %lim = arith.addi %k0, %c1 : index
    %m = hk.bounds_mask %tr at [%c0, %k0] within [%n, %lim]
        fill %neginf : !s
    %s2 = arith.addf %sum, %m : !s
    scf.yield %s2 : !s
  }
  hk.store %r, %O[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// A causal mask whose col - row shrinks with the loop (the rows move
// faster than the columns) keeps the whole tile from some iteration on: a
// suffix. 64j + 63 - 128j <= 0 from j = 63 ceildiv 64 = 1. The loop runs
// [lb, from) with the mask (a clone) and the original, unmasked, from
// there; the key mask whose limit changes stays in both.

!s = tensor<32x64xf32, #hk.rt<row, 16x16>>
!q = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!k = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @shrinking_causal
// CHECK-SAME: %[[N:[^:]*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// (0 - 0) - (-63) = 63, ceildiv 64.
// CHECK: %[[CM63:.*]] = arith.constant -63 : index
// CHECK: %[[ROOM:.*]] = arith.subi %{{.*}}, %[[CM63]]
// CHECK: %[[START:.*]] = arith.ceildivsi %[[ROOM]], %[[C64]]
// CHECK: %[[F0:.*]] = arith.minsi %[[START]], %[[N]]
// CHECK: %[[FROM:.*]] = arith.maxsi %[[F0]], %[[C0]]
// CHECK: %[[HEAD:.*]] = scf.for %{{.*}} = %[[C0]] to %[[FROM]] step %[[C1]]
// CHECK: hk.tril
// CHECK: hk.bounds_mask
// CHECK: scf.for %{{.*}} = %[[FROM]] to %[[N]] step %[[C1]] iter_args(%{{.*}} = %[[HEAD]])
// CHECK-NOT: hk.tril
// CHECK: hk.bounds_mask
// CHECK-NOT: hk.tril
// CHECK: hk.return
hk.kernel @shrinking_causal(%K: memref<?x?xbf16>, %O: memref<?x?xf32>,
                            %n: index)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %neginf = arith.constant 0xFF800000 : f32
  %zero = arith.constant dense<0.0> : !acc
  %init = arith.constant dense<0.0> : !s
  %q = hk.load %K[%c0, %c0] : memref<?x?xbf16> -> !q
  %kt = hk.load %K[%c0, %c0] : memref<?x?xbf16> -> !k
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%sum = %init) -> !s {
    %k0 = arith.muli %j, %c64 : index
    %r0 = arith.muli %j, %c128 : index
    %st = hk.mma abt %kt, %q, %zero : !k, !q, !acc
    %sr = hk.transpose %st : !acc -> !s
    %tr = hk.tril %sr at [%r0, %k0] fill %neginf : !s
    %lim = arith.addi %k0, %c1 : index
    %m = hk.bounds_mask %tr at [%c0, %k0] within [%n, %lim]
        fill %neginf : !s
    %s2 = arith.addf %sum, %m : !s
    scf.yield %s2 : !s
  }
  hk.store %r, %O[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// A sliding window: blocks j in [lo, hi) of 64 keys, a wave of 32 rows at
// key position p. The window's left edge (triu at [p - W, 64j]: keys
// before p - W masked) cuts the first blocks only, the key bound and the
// causal diagonal (bounds_mask, tril at [p, 64j]) the last ones. The loop
// runs in three parts: [lo, from) checked, [from, at) with no mask,
// [at, hi) checked, from = (31 - (0 - (p - W))) ceildiv 64 when windowed,
// at the causal and key bounds' least.

!s = tensor<32x64xf32, #hk.rt<row, 16x16>>
!q = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!k = tensor<64x32xbf16, #hk.rt<row, 16x32>>
!acc = tensor<64x32xf32, #hk.rt<col, 16x16>>

// CHECK-LABEL: hk.kernel @window
// CHECK-SAME: (%{{[^:]*}}: memref<?x?xbf16>, %{{[^:]*}}: memref<?x?xf32>, %[[LO:[^:]*]]: index, %[[HI:[^:]*]]: index, %[[NK:[^:]*]]: index, %[[P:[^:]*]]: index, %[[WS:[^:]*]]: index, %[[WIN:[^:]*]]: i1)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// The key bound and the causal diagonal: a prefix.
// CHECK: arith.floordivsi
// CHECK: arith.floordivsi
// The window's left edge: a suffix, from every iteration when not windowed.
// CHECK: %[[D:.*]] = arith.subi %[[C0]], %[[WS]]
// CHECK: %[[C31:.*]] = arith.constant 31 : index
// CHECK: %[[ROOM:.*]] = arith.subi %[[C31]], %[[D]]
// CHECK: %[[FR:.*]] = arith.ceildivsi %[[ROOM]], %[[C64]]
// CHECK: %[[START:.*]] = arith.select %[[WIN]], %[[FR]], %[[LO]]
// CHECK: %[[A0:.*]] = arith.minsi %{{.*}}, %[[HI]]
// CHECK: %[[AT:.*]] = arith.maxsi %[[A0]], %[[LO]]
// CHECK: %[[F0:.*]] = arith.minsi %[[START]], %[[AT]]
// CHECK: %[[FROM:.*]] = arith.maxsi %[[F0]], %[[LO]]
// CHECK: %[[HEAD:.*]] = scf.for %{{.*}} = %[[LO]] to %[[FROM]] step %[[C1]] iter_args(%{{.*}} = %{{.*}})
// CHECK: hk.bounds_mask
// CHECK: hk.tril
// CHECK: hk.triu
// CHECK: %[[MID:.*]] = scf.for %{{.*}} = %[[FROM]] to %[[AT]] step %[[C1]] iter_args(%{{.*}} = %[[HEAD]])
// CHECK-NOT: hk.bounds_mask
// CHECK-NOT: hk.tril
// CHECK-NOT: hk.triu
// CHECK: scf.for %{{.*}} = %[[AT]] to %[[HI]] step %[[C1]] iter_args(%{{.*}} = %[[MID]])
// CHECK: hk.bounds_mask
// CHECK: hk.tril
// CHECK: hk.triu
hk.kernel @window(%K: memref<?x?xbf16>, %O: memref<?x?xf32>, %lo: index,
                  %hi: index, %nk: index, %p: index, %wstart: index,
                  %windowed: i1)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %neginf = arith.constant 0xFF800000 : f32
  %zero = arith.constant dense<0.0> : !acc
  %init = arith.constant dense<0.0> : !s
  %q = hk.load %K[%c0, %c0] : memref<?x?xbf16> -> !q
  %kt = hk.load %K[%c0, %c0] : memref<?x?xbf16> -> !k
  %r = scf.for %j = %lo to %hi step %c1 iter_args(%sum = %init) -> !s {
    %k0 = arith.muli %j, %c64 : index
    %st = hk.mma abt %kt, %q, %zero : !k, !q, !acc
    %sr = hk.transpose %st : !acc -> !s
    %m = hk.bounds_mask %sr at [%c0, %k0] within [%c32, %nk]
        fill %neginf : !s
    %c = hk.tril %m at [%p, %k0] fill %neginf : !s
    %w = scf.if %windowed -> !s {
      %u = hk.triu %c at [%wstart, %k0] fill %neginf : !s
      scf.yield %u : !s
    } else {
      scf.yield %c : !s
    }
    %s2 = arith.addf %sum, %w : !s
    scf.yield %s2 : !s
  }
  hk.store %r, %O[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// Attention backward's dQ: an atomic add of a register tile at a column
// tile index that does not change in the loop (64-column half 1 of dQ) is in
// range in every iteration or in none: 0 <= 1 and 1 + 1 <= D floordiv 64.
// An atomic add of a register vector is left alone.

!acc = tensor<32x64xf32, #hk.rt<col, 16x16>>
!rt = tensor<32x32xbf16, #hk.rt<row, 16x32>>
!vec = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x16>>>

// CHECK-LABEL: hk.kernel @atomic_columns
// CHECK-SAME: (%{{[^:]*}}: memref<?x?xbf16>, %[[DQ:[^:]*]]: memref<?x?xf32>, %[[R:[^:]*]]: memref<?xf32>
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[D:.*]] = memref.dim %[[DQ]], %[[C1]]
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[TILES:.*]] = arith.divui %[[D]], %[[C64]]
// CHECK: %[[END:.*]] = arith.addi %[[C1]], %[[C1]]
// CHECK: arith.cmpi sle, %[[END]], %[[TILES]]
// CHECK: scf.for
// CHECK: hk.atomic_add %{{.*}}, %[[DQ]][%{{.*}}, %[[C1]]] {hk.cols_in_bounds}
// CHECK: hk.atomic_add %{{.*}}, %[[R]][%{{.*}}] :
// CHECK: scf.for
// CHECK-NOT: hk.cols_in_bounds
hk.kernel @atomic_columns(%A: memref<?x?xbf16>, %dQ: memref<?x?xf32>,
                          %R: memref<?xf32>, %n: index)
    attributes {waves = 1 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : !acc
  %v = arith.constant dense<1.0> : !vec
  %a = hk.load %A[%c0, %c0] : memref<?x?xbf16> -> !rt
  %b = hk.load %A[%c0, %c1] : memref<?x?xbf16> -> tensor<64x32xbf16, #hk.rt<row, 16x32>>
  scf.for %i = %c0 to %n step %c1 {
    %d = hk.mma abt %a, %b, %zero : !rt, tensor<64x32xbf16, #hk.rt<row, 16x32>>, !acc
    hk.atomic_add %d, %dQ[%i, %c1] : !acc, memref<?x?xf32>
    hk.atomic_add %v, %R[%i] : !vec, memref<?xf32>
  }
  hk.return
}
