// Accesses whose leading index (dimension 1 of [B, H, N, M]) runs past the
// memref's size: every block reads its h-th head of X and writes Y, which
// has more heads than X. Heads h >= H_X must read zeros and drop their
// writes, even though X's offset of such a head, b * stride0 + h * stride1,
// lies inside X (in batch b + 1) for every batch but the last: a tile load,
// a vector load, an asynchronous copy into LDS, a store and an atomic add.
//   %X, %Z : f32 [B, H_X, N, M];   %Y : f32 [B, H_Y, N, M]
//   %V : f32 [B, H_X, N];          %W : f32 [B, H_Y, N]
//   %A : bf16 [B, H_X, N, 64];     %C : bf16 [B, H_Y, N, 64]
// Grid (H_Y, B, ceildiv(N, 32)), one wave: block (h, b, i) moves rows
// [32i, 32i + 32) of head h, columns [0, 64).
!tile = tensor<32x64xf32, #hk.rt<row, 16x16>>
!vec = tensor<32xf32, #hk.rv<row, #hk.rt<row, 16x32>>>
!st = !hk.st<32x64xbf16, 16x32>
hk.kernel @leading(%X: memref<?x?x?x?xf32>, %Y: memref<?x?x?x?xf32>,
                   %Z: memref<?x?x?x?xf32>, %V: memref<?x?x?xf32>,
                   %W: memref<?x?x?xf32>, %A: memref<?x?x?x?xbf16>,
                   %C: memref<?x?x?x?xbf16>) attributes {
    waves = 1 : i32,
    grid = #hk.grid<[dim(1, 1), dim(1, 0), dim(1, 2)]
                    -> (s0, s1, s2 ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %h = hk.block_id x
  %b = hk.block_id y
  %i = hk.block_id z
  %t = hk.load %X[%b, %h, %i, %c0] : memref<?x?x?x?xf32> -> !tile
  hk.store %t, %Y[%b, %h, %i, %c0] : !tile, memref<?x?x?x?xf32>
  hk.atomic_add %t, %Z[%b, %h, %i, %c0] : !tile, memref<?x?x?x?xf32>
  %v = hk.load %V[%b, %h, %i] : memref<?x?x?xf32> -> !vec
  hk.store %v, %W[%b, %h, %i] : !vec, memref<?x?x?xf32>
  %as = hk.alloc_shared : !st
  %tok = hk.load_async %A[%b, %h, %i, %c0], %as : memref<?x?x?x?xbf16>, !st
  hk.wait %tok
  hk.barrier
  hk.store %as, %C[%b, %h, %i, %c0] : !st, memref<?x?x?x?xbf16>
  hk.return
}
