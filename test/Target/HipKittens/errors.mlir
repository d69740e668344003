// RUN: not hk-translate --hk-to-hipkittens -split-input-file %s 2>&1 | FileCheck %s

// Ops HipKittens cannot express are errors located at the op, and nothing
// is printed for the module.

// CHECK-NOT: __global__
// The rsqrt functor the translation defines has float and float2 forms only.
// CHECK: offset :{{[0-9]+}}:8: error: 'math.rsqrt' has no HipKittens equivalent: the rsqrt functor is defined for f32 only
!s = tensor<16x32xbf16, #hk.rt<row, 16x32>>
hk.kernel @rsqrt_bf16(%X: memref<?x?xbf16>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x?xbf16> -> !s
  %r = math.rsqrt %x : !s
  hk.store %r, %X[%c0, %c0] : !s, memref<?x?xbf16>
  hk.return
}

// -----

// A scalar rsqrt is not translated either.
// CHECK: offset :{{[0-9]+}}:8: error: 'math.rsqrt' has no HipKittens equivalent
hk.kernel @rsqrt_scalar(%x: f32) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %r = math.rsqrt %x : f32
  %s = arith.addf %r, %r : f32
  hk.return
}

// -----

// HipKittens' loads do not bound a ragged tile, so a static dimension that
// is not a multiple of its tile (100 columns, 64-column tiles) is an error
// at the access; dynamic ones are checked by the launcher.
// CHECK: offset :{{[0-9]+}}:8: error: HipKittens' loads and stores do not bound a ragged tile: dimension 1 of 'memref<?x100xf32>' is not a multiple of the tile's 64
!s = tensor<16x64xf32, #hk.rt<col, 16x16>>
hk.kernel @ragged(%X: memref<?x100xf32>, %Y: memref<?x?xf32>) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %x = hk.load %X[%c0, %c0] : memref<?x100xf32> -> !s
  hk.store %x, %Y[%c0, %c0] : !s, memref<?x?xf32>
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
