// A planted fault: an unbalanced barrier. Wave 0 of each workgroup executes
// one barrier more than wave 1 (the mirror barrier of a ping-pong given to
// one group only), so on the GPU wave 0 would wait at its second barrier
// forever. The tile-level form (fault-barrier-tile.mlir) is rejected at
// compile time by hk-verify-barriers; this lane-level form reaches the
// code object, where the ISA simulator reports it. x[i] = 1.0 for the workgroup's 128 elements; one workgroup per
// 128 elements of x.
//
// The same kernel as fault-barrier.mlir with the branch as an scf.if: the
// barrier on the side no lane of wave 1 takes must still be skipped by
// wave 1.
module attributes {gpu.container_module} {
  gpu.module @fault_barrier_module {
    gpu.func @fault_barrier(%x: memref<?xf32>) kernel attributes {
        hk.grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>, hk.waves = 2 : i32,
        known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %w = arith.divui %tid, %c64 : index
      %w32 = arith.index_castui %w : index to i32
      %wu32 = rocdl.readfirstlane %w32 : i32
      %wave = arith.index_castui %wu32 : i32 to index
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      memref.store %one, %x[%i] : memref<?xf32>
      %first = arith.cmpi eq, %wave, %c0 : index
      scf.if %first {
        gpu.barrier // the unbalanced barrier
      }
      gpu.barrier
      gpu.return
    }
  }
}
