// RUN: hk-opt %s --hk-verify-barriers -split-input-file -verify-diagnostics
// The accepted kernels come out unchanged; the rejected ones ("bad_") do not.
// RUN: not hk-opt %s --hk-verify-barriers -split-input-file 2>/dev/null \
// RUN: | FileCheck %s --implicit-check-not=@bad_

// A loop bound read from device memory: a memref.load at a uniform index of
// an argument the kernel never writes is the same for every wave, so each
// wave runs the loop (and its barrier) as often as the others. The view of
// the argument only reads it.
// CHECK-LABEL: hk.kernel @bound_from_memory
hk.kernel @bound_from_memory(%counts: memref<?xi32>, %x: memref<?x?xbf16>)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = hk.block_id x
  %n32 = memref.load %counts[%b] : memref<?xi32>
  %n = arith.index_castui %n32 : i32 to index
  %rows = memref.subview %x[%n, 0] [16, 64] [1, 1]
      : memref<?x?xbf16> to memref<16x64xbf16, strided<[?, 1], offset: ?>>
  %t = hk.load %rows[%c0, %c0] : memref<16x64xbf16, strided<[?, 1], offset: ?>>
      -> tensor<16x32xbf16, #hk.rt<row, 16x32>>
  scf.for %i = %c0 to %n step %c1 {
    hk.barrier
  }
  hk.return
}

// -----

// The kernel stores into the array it reads the bound from (through a
// view): another wave may have changed it, so the bound is not uniform.
hk.kernel @bad_bound_written(%counts: memref<?xi32>)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = hk.wave_id
  %n32 = memref.load %counts[%c0] : memref<?xi32>
  %n = arith.index_castui %n32 : i32 to index
  // expected-error@+1 {{cannot prove that every wave executes the same number of hk.barrier: this loop holds a barrier and its trip count is neither uniform over the workgroup nor computable from hk.wave_id and constants}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-note@+1 {{barrier here}}
    hk.barrier
  }
  %view = memref.subview %counts[1] [1] [1]
      : memref<?xi32> to memref<1xi32, strided<[1], offset: 1>>
  %v = arith.index_castui %w : index to i32
  memref.store %v, %view[%c0] : memref<1xi32, strided<[1], offset: 1>>
  hk.return
}

// -----

// A load at a wave-dependent index reads a different element per wave.
hk.kernel @bad_index_per_wave(%counts: memref<?xi32>)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = hk.wave_id
  %n32 = memref.load %counts[%w] : memref<?xi32>
  %n = arith.index_castui %n32 : i32 to index
  // expected-error@+1 {{trip count is neither uniform}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-note@+1 {{barrier here}}
    hk.barrier
  }
  hk.return
}
