// RUN: hk-opt --convert-hk-to-amdgpu=chip=gfx950 %s | FileCheck %s

// A kernel becomes gpu.module @<name>_module holding gpu.func @<name> with
// 64 * waves threads; the grid and wave count stay on the function.

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @ids_module
// CHECK-LABEL: gpu.func @ids(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32>, %[[S:.*]]: f32, %[[N:.*]]: index)
// CHECK-SAME: kernel
// CHECK-SAME: hk.grid = #hk.grid<[dim(0, 0), arg(2)] -> (s0 ceildiv 64, s1)>
// CHECK-SAME: hk.waves = 8 : i32
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// CHECK-NOT: rocdl.waves_per_eu
hk.kernel @ids(%x: memref<?x?xf32>, %s: f32, %n: index) attributes {
    waves = 8 : i32,
    grid = #hk.grid<[dim(0, 0), arg(2)] -> (s0 ceildiv 64, s1)>} {
  // CHECK: %[[BX:.*]] = gpu.block_id x
  %bx = hk.block_id x
  // num_blocks is the grid formula on the arguments: along y it is s1, the
  // index argument %n itself, so no op is emitted for it.
  // CHECK-NOT: gpu.grid_dim
  %ny = hk.num_blocks y
  // The wave id is thread_id.x / 64, made uniform through the first lane.
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: %[[C64:.*]] = arith.constant 64 : index
  // CHECK: %[[W:.*]] = arith.divui %[[TID]], %[[C64]] : index
  // CHECK: %[[W32:.*]] = arith.index_castui %[[W]] : index to i32
  // CHECK: %[[U:.*]] = rocdl.readfirstlane %[[W32]] : i32
  // CHECK: %[[WI:.*]] = arith.index_castui %[[U]] : i32 to index
  %w = hk.wave_id
  // CHECK: arith.addi %[[BX]], %[[N]]
  // CHECK: arith.addi %{{.*}}, %[[WI]]
  %t = arith.addi %bx, %ny : index
  %u = arith.addi %t, %w : index
  // CHECK: amdgpu.lds_barrier
  hk.barrier
  // CHECK: rocdl.s.setprio 1
  hk.set_prio 1
  // CHECK: rocdl.sched.barrier 0
  hk.sched_barrier 0
  // CHECK: rocdl.sched.group.barrier 8, 2, 1
  hk.sched_group mask = 8, size = 2, sync = 1
  // CHECK: gpu.return
  hk.return
}

// Each kernel gets its own gpu.module.
// CHECK: gpu.module @second_module
// CHECK-LABEL: gpu.func @second()
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
hk.kernel @second() attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// num_blocks along x of a grid ((dim(0, 0) ceildiv 64) * arg(1)): the
// ceildiv of the memref's first size by 64, times the scalar argument.
// CHECK-LABEL: gpu.func @num_blocks_formula(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x?xf32>, %[[M:[^:]*]]: i32)
// CHECK: %[[D:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[MI:.*]] = arith.index_cast %[[M]] : i32 to index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: arith.divsi %{{.*}}, %[[C64]] : index
// CHECK: %[[CEIL:.*]] = arith.select
// CHECK: %[[NB:.*]] = arith.muli %[[CEIL]], %[[MI]]
// CHECK: arith.index_cast %[[NB]] : index to i32
hk.kernel @num_blocks_formula(%x: memref<?x?xf32>, %m: i32) attributes {
    waves = 1 : i32,
    grid = #hk.grid<[dim(0, 0), arg(1)] -> ((s0 ceildiv 64) * s1)>} {
  %nx = hk.num_blocks x
  %f = arith.index_cast %nx : index to i32
  hk.return
}

// min_waves_per_simd becomes ROCDL's waves_per_eu (LLVM's
// amdgpu-waves-per-eu); a kernel without it gets none (@ids).
// CHECK-LABEL: gpu.func @occupancy(
// CHECK-SAME: rocdl.waves_per_eu = 3 : i32
hk.kernel @occupancy() attributes {
    waves = 8 : i32, min_waves_per_simd = 3 : i32,
    grid = #hk.grid<[] -> (1)>} {
  hk.return
}
