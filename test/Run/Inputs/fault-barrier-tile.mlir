// The tile-level form of fault-barrier.mlir: wave 0 executes one hk.barrier
// more than wave 1. hk-verify-barriers rejects it at compile time.
hk.kernel @fault_barrier(%x: memref<?xf32>) attributes {
    waves = 2 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %w = hk.wave_id
  %first = arith.cmpi eq, %w, %c0 : index
  scf.if %first {
    hk.barrier
  }
  hk.barrier
  hk.return
}
