// RUN: hk-translate --hk-to-hipkittens -split-input-file %s | FileCheck %s

// A [B, H, N, D] view (strides [N*H*D, D, H*D, 1]) of a dense [B, N, H, D]
// array, as the attention examples take Q, K, V and O. HipKittens reads the
// dense array with the tile rows along gl axis 1, as its attention kernels
// do (`load<1>(q, g.Qg, {b, tile, h, 0})`, `G::load<1, false>(...)`,
// `store<1>(g.Og, o, {...})`): view index [b, h, n, d] becomes the gl
// coordinate {b, n, h, d}, and the view's dimension 1 (H) is the gl's
// rows(), dimension 2 (N) its depth(). The launcher takes the view's sizes
// and its dynamic strides, checks the strides against the dense array and
// builds gl(ptr, B, N, H, D).

!view = memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>>
!st = !hk.st<64x128xbf16, 16x32>
!rt = tensor<32x128xbf16, #hk.rt<row, 16x32>>

// CHECK-LABEL: void perm(const gl<bf16, -1, -1, -1, -1> Q, const gl<bf16, -1, -1, -1, -1> O, const int n) {
// CHECK:         const int b = blockIdx.y;
// CHECK-NEXT:    const int h = blockIdx.x;
// CHECK-NEXT:    st_bf<64, 128, st_16x32_s> &s = al.allocate<st_bf<64, 128, st_16x32_s>>();
// CHECK-NEXT:    G::load<1, false>(s, Q, {b, 1, h, 0});
// CHECK-NEXT:    asm volatile("s_waitcnt vmcnt(0)");
// CHECK-NEXT:    rt_bf<32, 128, row_l, rt_16x32_s> q;
// CHECK-NEXT:    load<1>(q, Q, {b, n, h, 0});
// CHECK-NEXT:    store<1>(O, q, {b, Q.depth(), Q.rows(), 0});
// CHECK-NEXT:    store<1, false>(O, s, {b, 2, h, 0});
// CHECK-NEXT:  }
// CHECK-LABEL: extern "C" hipError_t launch_perm(bf16 *Q, int Q_dim0, int Q_dim1, int Q_dim2, int Q_dim3, int64_t Q_stride0, int64_t Q_stride1, int64_t Q_stride2, bf16 *O, int O_dim0, int O_dim1, int O_dim2, int O_dim3, int64_t O_stride0, int64_t O_stride1, int64_t O_stride2, int n, hipStream_t stream) {
// CHECK-NEXT:    // HipKittens reads the [B, H, N, D] views as dense [B, N, H, D] arrays.
// CHECK-NEXT:    if (Q_stride0 != int64_t(Q_dim2) * Q_dim1 * Q_dim3 ||
// CHECK-NEXT:        Q_stride1 != int64_t(Q_dim3) ||
// CHECK-NEXT:        Q_stride2 != int64_t(Q_dim1) * Q_dim3 ||
// CHECK-NEXT:        O_stride0 != int64_t(O_dim2) * O_dim1 * O_dim3 ||
// CHECK-NEXT:        O_stride1 != int64_t(O_dim3) ||
// CHECK-NEXT:        O_stride2 != int64_t(O_dim1) * O_dim3)
// CHECK-NEXT:      return hipErrorInvalidValue;
// The tiled dimensions are the view's N and D: 64x128 shared tiles (the
// 32-row register tile's N % 32 follows from N % 64).
// CHECK-NEXT:    // hk reads zeros outside an array; HipKittens reads whatever lies there.
// CHECK-NEXT:    // Reject every shape for which the kernel would use a tile partly or
// CHECK-NEXT:    // wholly outside an array.
// CHECK-NEXT:    // Dimension 2 of Q is tiled by 64: HipKittens' loads and stores do not bound
// CHECK-NEXT:    // a ragged tile.
// CHECK-NEXT:    if (Q_dim2 % 64 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // Dimension 3 of Q is tiled by 128
// CHECK-NEXT:    // a ragged tile.
// CHECK-NEXT:    if (Q_dim3 % 128 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // Dimension 2 of O is tiled by 64
// CHECK-NEXT:    // a ragged tile.
// CHECK-NEXT:    if (O_dim2 % 64 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // Dimension 3 of O is tiled by 128
// CHECK-NEXT:    // a ragged tile.
// CHECK-NEXT:    if (O_dim3 % 128 != 0)
// CHECK-NEXT:      return hipErrorInvalidValue;
// CHECK-NEXT:    // #hk.grid<[dim(0, 1), dim(0, 0)] -> (s0, s1)>
// CHECK-NEXT:    const dim3 grid(Q_dim1, Q_dim0, 1);
// CHECK:         hipLaunchKernelGGL(perm, grid, dim3(256), shared_bytes, stream,
// CHECK-NEXT:                       gl<bf16, -1, -1, -1, -1>(Q, Q_dim0, Q_dim2, Q_dim1, Q_dim3),
// CHECK-NEXT:                       gl<bf16, -1, -1, -1, -1>(O, O_dim0, O_dim2, O_dim1, O_dim3),
// CHECK-NEXT:                       n);
hk.kernel @perm(%Q: !view, %O: !view, %n: index) attributes {
    waves = 4 : i32, grid = #hk.grid<[dim(0, 1), dim(0, 0)] -> (s0, s1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = hk.block_id y
  %h = hk.block_id x
  %s = hk.alloc_shared : !st
  %heads = memref.dim %Q, %c1 : !view
  %seq = memref.dim %Q, %c2 : !view
  %t = hk.load_async %Q[%b, %h, %c1, %c0], %s : !view, !st
  hk.wait %t
  %q = hk.load %Q[%b, %h, %n, %c0] : !view -> !rt
  hk.store %q, %O[%b, %heads, %seq, %c0] : !rt, !view
  hk.store %s, %O[%b, %h, %c2, %c0] : !st, !view
  hk.return
}

// -----

// Static sizes [2, 4, 64, 128] and strides [64*4*128, 128, 4*128, 1] =
// [32768, 128, 512, 1]: checked here, so the launcher takes no strides and
// builds gl(Q, 2, 64, 4, 128).

!view = memref<2x4x64x128xbf16, strided<[32768, 128, 512, 1]>>
!rt = tensor<32x128xbf16, #hk.rt<row, 16x32>>

// CHECK-LABEL: void static_perm(const gl<bf16, -1, -1, -1, -1> Q) {
// CHECK-NEXT:    rt_bf<32, 128, row_l, rt_16x32_s> q;
// CHECK-NEXT:    load<1>(q, Q, {1, 1, 3, 0});
// CHECK-NEXT:    store<1>(Q, q, {0, 0, 3, 0});
// CHECK-NEXT:  }
// CHECK-LABEL: extern "C" hipError_t launch_static_perm(bf16 *Q, hipStream_t stream) {
// CHECK-NOT:     return hipErrorInvalidValue
// CHECK:         gl<bf16, -1, -1, -1, -1>(Q, 2, 64, 4, 128));
hk.kernel @static_perm(%Q: !view) attributes {
    waves = 4 : i32, grid = #hk.grid<[] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %q = hk.load %Q[%c1, %c3, %c1, %c0] : !view -> !rt
  hk.store %q, %Q[%c0, %c3, %c0, %c0] : !rt, !view
  hk.return
}
