// RUN: not hk-translate --hk-to-hipkittens -split-input-file %s 2>&1 | FileCheck %s

// Ops HipKittens cannot express are errors located at the op, and nothing
// is printed for the module.

// CHECK-NOT: __global__
// CHECK: offset :{{[0-9]+}}:3: error: 'hk.atomic_add' has no HipKittens equivalent: HipKittens has no atomic tile store
!acc = tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @atomic(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !acc
  hk.atomic_add %x, %X[%c0, %c0] : !acc, memref<?x?xf32>
  hk.return
}

// -----

// CHECK: offset :{{[0-9]+}}:8: error: 'hk.bounds_mask' has no HipKittens equivalent: HipKittens tiles have no bounds mask
!s = tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @bounds(%X: memref<?x?xf32>, %n: index, %f: f32) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %m = hk.bounds_mask %x at [%c0, %c0] within [%n, %n] fill %f : !s
  hk.store %m, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// CHECK: offset :{{[0-9]+}}:8: error: 'hk.row_broadcast' has no HipKittens equivalent: HipKittens has no max/min row broadcast
!s = tensor<16x16xf32, #hk.rt<col, 16x16>>
!v = tensor<16xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
hk.kernel @bcast_max(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %v = hk.row_reduce sum %x : !s -> !v
  %m = hk.row_broadcast max %x, %v : !s, !v
  hk.store %m, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// HipKittens' maps take an op from its base ops, which have no rsqrt.
// CHECK: offset :{{[0-9]+}}:8: error: 'math.rsqrt' has no HipKittens equivalent: HipKittens' tile and vector maps have no rsqrt
!s = tensor<16x16xf32, #hk.rt<col, 16x16>>
hk.kernel @rsqrt(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  %r = math.rsqrt %x : !s
  hk.store %r, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// gl views are dense: a strided memref cannot be passed, except the
// [B, H, N, D] view of a dense [B, N, H, D] array (axis.mlir).
// CHECK: offset :{{[0-9]+}}:1: error: HipKittens global views are contiguous row-major, or a [B, H, N, D] view of a dense [B, N, H, D] array (strides [N*H*D, D, H*D, 1], offset 0), got 'memref<?x?xf32, strided<[?, 1]>>'
// CHECK-NOT: see current operation
hk.kernel @strided(%X: memref<?x?xf32, strided<[?, 1]>>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// A rank-4 view whose static strides contradict the dense [B, N, H, D]
// array: the stride of H must be D = 128.
// CHECK: offset :{{[0-9]+}}:1: error: HipKittens global views are contiguous row-major, or a [B, H, N, D] view {{.*}} got 'memref<?x?x?x128xbf16, strided<[?, 64, ?, 1]>>'
hk.kernel @bad_view(%Q: memref<?x?x?x128xbf16, strided<[?, 64, ?, 1]>>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// Nor may the view start at an offset.
// CHECK: offset :{{[0-9]+}}:1: error: HipKittens global views are contiguous row-major, or a [B, H, N, D] view {{.*}} got 'memref<?x?x?x?xbf16, strided<[?, ?, ?, 1], offset: ?>>'
hk.kernel @offset_view(%Q: memref<?x?x?x?xbf16, strided<[?, ?, ?, 1], offset: ?>>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  hk.return
}

// -----

// A 32x32 base tile with runs of 16 elements per lane has no HipKittens shape.
// CHECK: offset :{{[0-9]+}}:8: error: HipKittens has no register base tile 32x32 with runs of 16 elements per lane
!s = tensor<32x32xf32, #hk.rt<col, 32x32>>
hk.kernel @shape(%X: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xf32> -> !s
  hk.store %x, %X[%c0, %c0] : !s, memref<?x?xf32>
  hk.return
}

// -----

// Anything but hk.kernel at the top level.
// CHECK: offset :{{[0-9]+}}:1: error: 'func.func' has no HipKittens equivalent: a module holds hk.kernel ops
func.func @f() {
  return
}

// -----

// The schedule passes run before printing, and their errors stop the
// translation: the ping-pong owns its barriers (hk-schedule) ...
// CHECK: offset :{{[0-9]+}}:7: error: hk.barrier inside hk.ping_pong: the schedule inserts a barrier after every cluster
hk.kernel @hand_barrier() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  hk.ping_pong {
    hk.cluster memory {
      hk.barrier
    }
  }
  hk.return
}

// -----

// ... and every wave must execute as many barriers (hk-verify-barriers): a
// kernel that would hang on the GPU is not printed.
// CHECK: offset :{{[0-9]+}}:3: error: waves 4-7 execute 1 more hk.barrier than waves 0-3 in this branch
// CHECK-NOT: see current operation
// CHECK: note: waves 0-3 skip it
hk.kernel @unbalanced() attributes {waves = 8 : i32,
    grid = #hk.grid<[] -> (1)>} {
  %c4 = arith.constant 4 : index
  %w = hk.wave_id
  %hi = arith.cmpi uge, %w, %c4 : index
  scf.if %hi {
    hk.barrier
  }
  hk.return
}
