// RUN: hk-opt %s --hk-verify-barriers -split-input-file -verify-diagnostics

// hk.fetch_add returns a value uniform over the wave only: every wave makes
// its own add, so a loop holding a barrier that it bounds is refused, and
// a loop without barriers is not.

hk.kernel @bad_bound_from_fetch_add(%counter: memref<?xi32>)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %t = hk.fetch_add %one, %counter[%c0] : memref<?xi32>
  %n = arith.index_castui %t : i32 to index
  // expected-error@+1 {{cannot prove that every wave executes the same number of hk.barrier: this loop holds a barrier and its trip count is neither uniform over the workgroup nor computable from hk.wave_id and constants}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-note@+1 {{barrier here}}
    hk.barrier
  }
  hk.return
}

// -----

hk.kernel @bound_without_barrier(%counter: memref<?xi32>, %x: memref<?x?xf32>)
    attributes {waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %t = hk.fetch_add %one, %counter[%c0] : memref<?xi32>
  %n = arith.index_castui %t : i32 to index
  %z = arith.constant dense<0.0> : tensor<16x16xf32, #hk.rt<col, 16x16>>
  scf.for %i = %c0 to %n step %c1 {
    hk.store %z, %x[%i, %c0] : tensor<16x16xf32, #hk.rt<col, 16x16>>, memref<?x?xf32>
  }
  hk.return
}
