// A planted fault: an LDS index out of range. Each of the 128 lanes of the
// workgroup stages x[i] in a 128-float LDS array and reads it back, but the
// store index is off by one (tid + 1), so lane 63 of wave 1 writes the 4
// bytes just past the workgroup's 512 bytes of LDS. On the GPU that write
// would be dropped or land in another workgroup's LDS; the ISA simulator
// stops.
module attributes {gpu.container_module} {
  gpu.module @fault_lds_range_module {
    gpu.func @fault_lds_range(%x: memref<?xf32>, %y: memref<?xf32>)
        workgroup(%lds: memref<128xf32, #gpu.address_space<workgroup>>)
        kernel attributes {
        hk.grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>, hk.waves = 2 : i32,
        hk.lds_bytes = 512 : i64, known_block_size = array<i32: 128, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      %slot = arith.addi %tid, %c1 : index
      memref.store %v, %lds[%slot] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = memref.load %lds[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
