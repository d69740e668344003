// A planted fault: a wave-collective op reached by part of a wave. y[i] =
// x[i ^ 1], one wave per 64 elements, with the bounds guard around the
// gpu.shuffle instead of around the store alone: in the last workgroup of a
// ragged size, the lanes past the end skip the shuffle (they return) and
// the others wait at it for lanes that have finished. With a multiple of 64
// every lane takes the branch and the kernel runs.
//
// Written with cf.cond_br, as convert-scf-to-cf leaves a branch.
module attributes {gpu.container_module} {
  gpu.module @fault_shuffle_module {
    gpu.func @fault_shuffle(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {
        hk.grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>, hk.waves = 1 : i32,
        known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %one = arith.constant 1 : i32
      %width = arith.constant 64 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %v = memref.load %x[%i] : memref<?xf32>
      %inside = arith.cmpi ult, %i, %n : index
      cf.cond_br %inside, ^exchange, ^done
    ^exchange:
      %s, %ok = gpu.shuffle xor %v, %one, %width : f32
      memref.store %s, %y[%i] : memref<?xf32>
      cf.br ^done
    ^done:
      gpu.return
    }
  }
}
