// A planted fault: a missing barrier between an LDS write and another
// wave's read. Each wave stores its 64 values of x in LDS, then every lane
// reads the value of the lane 64 places further on (wave 0 reads wave 1's
// half, wave 1 wave 0's) and writes it to y: a rotation of the workgroup's
// 128 elements by 64. The barrier that must separate the store from the
// load is missing (the line marked below); on the GPU the read could see
// the old LDS contents.
module attributes {gpu.container_module} {
  gpu.module @fault_lds_race_module {
    gpu.func @fault_lds_race(%x: memref<?xf32>, %y: memref<?xf32>)
        workgroup(%lds: memref<128xf32, #gpu.address_space<workgroup>>)
        kernel attributes {
        hk.grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>, hk.waves = 2 : i32,
        hk.lds_bytes = 512 : i64, known_block_size = array<i32: 128, 1, 1>} {
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %lds[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      // missing barrier
      %t64 = arith.addi %tid, %c64 : index
      %src = arith.remui %t64, %c128 : index
      %r = memref.load %lds[%src] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
