// RUN: hk-opt %s --split-input-file --verify-diagnostics --hk-schedule

// The schedule owns the barriers of a ping-pong region.
hk.kernel @barrier_in_cluster() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  // expected-note@+1 {{in this hk.ping_pong}}
  hk.ping_pong {
    hk.cluster memory {
      // expected-error@+1 {{hk.barrier inside hk.ping_pong: the schedule inserts a barrier after every cluster}}
      hk.barrier
    }
  }
  hk.return
}

// -----

// Between clusters too.
hk.kernel @barrier_between_clusters(%n: index) attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note@+1 {{in this hk.ping_pong}}
  hk.ping_pong {
    scf.for %k = %c0 to %n step %c1 {
      hk.cluster memory {
      }
      // expected-error@+1 {{hk.barrier inside hk.ping_pong}}
      hk.barrier
      hk.cluster compute {
      }
    }
  }
  hk.return
}

// -----

// In an interleave the kernel keeps its own barriers: no error.
hk.kernel @barrier_in_interleave() attributes {waves = 4 : i32,
    grid = #hk.grid<[] -> (1)>} {
  hk.interleave {
    hk.cluster memory {
      hk.barrier
    }
  }
  hk.return
}
