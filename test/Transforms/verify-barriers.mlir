// RUN: hk-opt %s --hk-verify-barriers -split-input-file -verify-diagnostics
// The accepted kernels come out unchanged; the rejected ones ("bad_") do not.
// RUN: not hk-opt %s --hk-verify-barriers -split-input-file 2>/dev/null \
// RUN: | FileCheck %s --implicit-check-not=@bad_

// HK's 8-wave ping-pong: warp_row = wave / 4; waves 4-7 wait at one extra
// barrier after the prologue, waves 0-3 at the mirror barrier before the
// epilogue. Per wave: 1 + 1 + 2n + 1 + 1 = 2n + 3 barriers for every wave.
// CHECK-LABEL: hk.kernel @pingpong_balanced
hk.kernel @pingpong_balanced(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %row = arith.divui %w, %c4 : index
  %second = arith.cmpi eq, %row, %c1 : index
  scf.if %second {
    hk.barrier
  }
  hk.barrier
  scf.for %k = %c0 to %n step %c1 {
    hk.barrier
    hk.barrier
  }
  %first = arith.cmpi eq, %row, %c0 : index
  scf.if %first {
    hk.barrier
  }
  hk.barrier
  hk.return
}

// -----

// The same ping-pong without the mirror barrier: waves 0-3 finish one
// barrier early and waves 4-7 wait forever.
hk.kernel @bad_pingpong_no_mirror(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %row = arith.divui %w, %c4 : index
  %second = arith.cmpi eq, %row, %c1 : index
  // expected-error@+3 {{waves 4-7 execute 1 more hk.barrier than waves 0-3 in this branch}}
  // expected-note@+2 {{waves 0-3 skip it}}
  // expected-note@+1 {{waves 4-7 take the then branch}}
  scf.if %second {
    hk.barrier
  }
  hk.barrier
  scf.for %k = %c0 to %n step %c1 {
    hk.barrier
    hk.barrier
  }
  hk.barrier
  hk.return
}

// -----

// The mirror barrier given to the wrong group: no branch alone explains the
// imbalance, so the kernel is blamed and both branches are named.
// expected-error@+1 {{waves 4-7 execute 2 more hk.barrier than waves 0-3 in @bad_mirror_wrong_group}}
hk.kernel @bad_mirror_wrong_group(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %second = arith.cmpi uge, %w, %c4 : index
  // expected-note@+1 {{waves 4-7 execute 1 more hk.barrier than waves 0-3 in this branch}}
  scf.if %second {
    hk.barrier
  }
  hk.barrier
  // expected-note@+1 {{waves 4-7 execute 1 more hk.barrier than waves 0-3 in this branch}}
  scf.if %second {
    hk.barrier
  }
  hk.return
}

// -----

// Nested wave branches that balance: every wave executes one barrier, by
// three different paths (wave % 2 inside waves 0-3, else waves 4-7).
// CHECK-LABEL: hk.kernel @nested_balanced
hk.kernel @nested_balanced() attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %lo = arith.cmpi ult, %w, %c4 : index
  scf.if %lo {
    %r = arith.remui %w, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    scf.if %even {
      hk.barrier
    } else {
      hk.barrier
    }
  } else {
    hk.barrier
  }
  hk.return
}

// -----

// The inner branch is the culprit, not the outer one.
hk.kernel @bad_nested() attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %lo = arith.cmpi ult, %w, %c4 : index
  scf.if %lo {
    %r = arith.remui %w, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    // expected-error@+4 {{waves 0, 2 execute 1 more hk.barrier than waves 1, 3-7 in this branch}}
    // expected-note@+3 {{waves 0, 2 take the then branch}}
    // expected-note@+2 {{waves 1, 3 skip it}}
    // expected-note@+1 {{waves 4-7 do not reach it}}
    scf.if %even {
      hk.barrier
    }
  }
  hk.return
}

// -----

// A loop of 4 iterations multiplies its body: waves 0-3 execute 4 barriers
// inside it, waves 4-7 the 4 of the second loop.
// CHECK-LABEL: hk.kernel @loops_balanced
hk.kernel @loops_balanced() attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %w = hk.wave_id
  %lo = arith.cmpi ult, %w, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.if %lo {
      hk.barrier
    }
  }
  %hi = arith.cmpi uge, %w, %c4 : index
  scf.if %hi {
    // 2 iterations of 2 barriers
    scf.for %i = %c0 to %c8 step %c4 {
      hk.barrier
      hk.barrier
    }
  }
  hk.return
}

// -----

// 4 iterations against 5: the count is multiplied through the loop.
// expected-error@+1 {{waves 0-3 execute 1 more hk.barrier than waves 4-7 in @bad_loop_counts}}
hk.kernel @bad_loop_counts() attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %w = hk.wave_id
  %lo = arith.cmpi ult, %w, %c4 : index
  scf.for %i = %c0 to %c5 step %c1 {
    // expected-note@+1 {{waves 0-3 execute 5 more hk.barrier than waves 4-7 in this branch}}
    scf.if %lo {
      hk.barrier
    }
  }
  %hi = arith.cmpi uge, %w, %c4 : index
  // expected-note@+1 {{waves 4-7 execute 4 more hk.barrier than waves 0-3 in this branch}}
  scf.if %hi {
    scf.for %i = %c0 to %c4 step %c1 {
      hk.barrier
    }
  }
  hk.return
}

// -----

// A trip count computed from the wave id is evaluated per wave: waves 4-7
// run 2 iterations, waves 0-3 one, plus their own extra barrier.
// CHECK-LABEL: hk.kernel @wave_trip_count_balanced
hk.kernel @wave_trip_count_balanced() attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %row = arith.divui %w, %c4 : index
  %trips = arith.addi %row, %c1 : index
  scf.for %i = %c0 to %trips step %c1 {
    hk.barrier
  }
  %lo = arith.cmpi ult, %w, %c4 : index
  scf.if %lo {
    hk.barrier
  }
  hk.return
}

// -----

hk.kernel @bad_wave_trip_count() attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %row = arith.divui %w, %c4 : index
  %trips = arith.addi %row, %c1 : index
  // expected-error@+3 {{waves 4-7 execute 1 more hk.barrier than waves 0-3 in this loop}}
  // expected-note@+2 {{waves 0-3 run 1 iteration}}
  // expected-note@+1 {{waves 4-7 run 2 iterations}}
  scf.for %i = %c0 to %trips step %c1 {
    hk.barrier
  }
  hk.return
}

// -----

// A trip count that depends on the wave and on an argument cannot be
// evaluated.
hk.kernel @bad_unknown_trip_count(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = hk.wave_id
  %trips = arith.addi %w, %n : index
  // expected-error@+1 {{cannot prove that every wave executes the same number of hk.barrier: this loop holds a barrier and its trip count is neither uniform over the workgroup nor computable from hk.wave_id and constants}}
  scf.for %i = %c0 to %trips step %c1 {
    // expected-note@+1 {{barrier here}}
    hk.barrier
  }
  hk.return
}

// -----

// Inside a loop of uniform but unknown trip count n, waves 4-7 execute n
// barriers more.
hk.kernel @bad_in_uniform_loop(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %hi = arith.cmpi uge, %w, %c4 : index
  scf.for %k = %c0 to %n step %c1 {
    // expected-error@+3 {{waves execute different numbers of hk.barrier in this branch: waves 0-3: 0; waves 4-7: a number that depends on uniform loop bounds or conditions}}
    // expected-note@+2 {{waves 0-3 skip it}}
    // expected-note@+1 {{waves 4-7 take the then branch}}
    scf.if %hi {
      hk.barrier
    }
  }
  hk.return
}

// -----

// Branches on the block id, a kernel argument or the number of blocks are
// the same for every wave of a workgroup, even when unbalanced between
// their two sides, and inside a uniform loop of unknown trip count.
// CHECK-LABEL: hk.kernel @uniform_branches
hk.kernel @uniform_branches(%n: index, %flag: i1) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %bx = hk.block_id x
  %nx = hk.num_blocks x
  %first = arith.cmpi eq, %bx, %c0 : index
  scf.if %first {
    hk.barrier
    hk.barrier
  } else {
    hk.barrier
  }
  %wg = hk.xcd_remap %bx, %nx xcds = 8, chunk = 4
  %row, %col = hk.group_remap %wg, %n, %n group = 8
  %last = arith.cmpi eq, %row, %c4 : index
  scf.for %k = %c0 to %n step %c1 {
    scf.if %last {
      hk.barrier
    }
    scf.if %flag {
      hk.barrier
    }
  }
  // The same uniform condition in both wave groups.
  %w = hk.wave_id
  %lo = arith.cmpi ult, %w, %c4 : index
  scf.if %lo {
    scf.if %first {
      hk.barrier
    }
  } else {
    scf.if %first {
      hk.barrier
    }
  }
  hk.return
}

// -----

// Uniform outside, unbalanced inside: waves 0-3 execute the barrier only
// in the first workgroup.
hk.kernel @bad_uniform_inside_wave_branch() attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %bx = hk.block_id x
  %first = arith.cmpi eq, %bx, %c0 : index
  %w = hk.wave_id
  %lo = arith.cmpi ult, %w, %c4 : index
  // expected-error@+3 {{waves execute different numbers of hk.barrier in this branch: waves 0-3: a number that depends on uniform loop bounds or conditions; waves 4-7: 0}}
  // expected-note@+2 {{waves 0-3 take the then branch}}
  // expected-note@+1 {{waves 4-7 skip it}}
  scf.if %lo {
    scf.if %first {
      hk.barrier
    }
  }
  hk.return
}

// -----

// A condition that mixes the wave id with an argument.
hk.kernel @bad_unknown_condition(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %w = hk.wave_id
  %mine = arith.cmpi eq, %w, %n : index
  // expected-error@+1 {{cannot prove that every wave executes the same number of hk.barrier: this branch holds a barrier and its condition is neither uniform over the workgroup nor computable from hk.wave_id and constants}}
  scf.if %mine {
    // expected-note@+1 {{barrier here}}
    hk.barrier
  }
  hk.return
}

// -----

// A value read from memory the kernel also writes may differ between waves
// as far as the compiler can tell (verify-barriers-scalar-loads.mlir: from
// memory the kernel only reads, it is uniform).
hk.kernel @bad_loaded_condition(%flags: memref<?xi1>) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %bx = hk.block_id x
  %flag = memref.load %flags[%bx] : memref<?xi1>
  // expected-error@+1 {{its condition is neither uniform over the workgroup nor computable}}
  scf.if %flag {
    // expected-note@+1 {{barrier here}}
    hk.barrier
  }
  %false = arith.constant false
  memref.store %false, %flags[%bx] : memref<?xi1>
  hk.return
}

// -----

// Branches the verifier cannot decide are fine when they hold no barrier.
// CHECK-LABEL: hk.kernel @unknown_without_barrier
hk.kernel @unknown_without_barrier(%n: index, %flags: memref<?xi1>) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = hk.wave_id
  %mine = arith.cmpi eq, %w, %n : index
  scf.if %mine {
    hk.set_prio 1
  }
  %trips = arith.addi %w, %n : index
  scf.for %i = %c0 to %trips step %c1 {
    hk.sched_barrier 0
  }
  hk.barrier
  hk.return
}

// -----

// Loop-carried values: %x stays uniform (block id plus constants), %y picks
// up the wave id, so a branch on %y cannot be proved.
// CHECK-LABEL: hk.kernel @carried_uniform
hk.kernel @carried_uniform(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bx = hk.block_id x
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %bx) -> (index) {
    %odd = arith.cmpi eq, %x, %c1 : index
    scf.if %odd {
      hk.barrier
    }
    %next = arith.addi %x, %c1 : index
    scf.yield %next : index
  }
  hk.return
}

// -----

hk.kernel @bad_carried_wave(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bx = hk.block_id x
  %w = hk.wave_id
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%y = %bx) -> (index) {
    %odd = arith.cmpi eq, %y, %c1 : index
    // expected-error@+1 {{its condition is neither uniform over the workgroup nor computable}}
    scf.if %odd {
      // expected-note@+1 {{barrier here}}
      hk.barrier
    }
    %next = arith.addi %y, %w : index
    scf.yield %next : index
  }
  hk.return
}

// -----

// A value chosen by a wave branch is evaluated per wave too.
// CHECK-LABEL: hk.kernel @if_result
hk.kernel @if_result() attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %w = hk.wave_id
  %lo = arith.cmpi ult, %w, %c2 : index
  // waves 0-1 run 3 iterations, waves 2-3 run 1 and take the branch below
  %trips = scf.if %lo -> (index) {
    scf.yield %c3 : index
  } else {
    scf.yield %c1 : index
  }
  scf.for %i = %c0 to %trips step %c1 {
    hk.barrier
  }
  %hi = arith.cmpi uge, %w, %c2 : index
  scf.if %hi {
    hk.barrier
    hk.barrier
  }
  hk.return
}

// -----

// Barriers under control flow the verifier does not model.
hk.kernel @bad_while(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{it holds a barrier inside 'scf.while', whose control flow is not analysed}}
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi ult, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    // expected-note@+1 {{barrier here}}
    hk.barrier
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  hk.return
}

// -----

// Before hk-schedule, a ping-pong region's clusters are counted where they
// stand; an unbalanced barrier inside a cluster is found there.
hk.kernel @bad_in_cluster(%n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %hi = arith.cmpi uge, %w, %c4 : index
  hk.ping_pong {
    hk.cluster memory {
      // expected-error@+3 {{waves 4-7 execute 1 more hk.barrier than waves 0-3 in this branch}}
      // expected-note@+2 {{waves 0-3 skip it}}
      // expected-note@+1 {{waves 4-7 take the then branch}}
      scf.if %hi {
        hk.barrier
      }
    }
    hk.cluster compute {
    }
  }
  hk.return
}
