// RUN: hk-translate --hk-to-hipkittens -split-input-file %s | FileCheck %s

// hk.atomic_add: HipKittens has no atomic tile store, so the file defines
// tile_atomic_add once: HipKittens' register-tile store to global memory
// (ops/warp/memory/tile/global_to_register.cuh) with each element added by
// atomicAdd. Lane l of a col-layout base tile holds column l % cols, rows
// stride * (l / cols) + k * elements_per_stride_group + 2 * m (+1 for the
// float2's y); of a row-layout one row l % rows, the same offsets along
// the row. A plain memref uses HipKittens' default axis 2; the [B, H, N, D]
// view axis 1, as its loads and stores do (axis.mlir).

!acc = tensor<32x64xf32, #hk.rt<col, 16x16>>
!racc = tensor<32x64xf32, #hk.rt<row, 16x32>>
!view = memref<?x?x?x?xf32, strided<[?, ?, ?, 1]>>

// CHECK:      template <typename RT> struct base_tile_layout {
// CHECK:      __host__ __device__ inline void for_each_element(RT &tile, const int lane,
// CHECK:        const int lane_row = row ? lane % L::base_tile_rows
// CHECK-NEXT:                            : L::base_tile_stride * (lane / L::base_tile_cols);
// CHECK-NEXT:   const int lane_col = row ? L::base_tile_stride * (lane / L::base_tile_rows)
// CHECK-NEXT:                            : lane % L::base_tile_cols;
// CHECK:        for (int k = 0; k < L::base_tile_num_strides; k++) {
// CHECK:        for (int l = 0; l < L::base_tile_stride / 2; l++) {
// CHECK-NEXT:     auto &v = tile.tiles[i][j].data[l + k * L::base_tile_stride / 2];
// CHECK-NEXT:     const int step = k * L::base_tile_elements_per_stride_group + 2 * l;
// CHECK-NEXT:     const int r = i * L::base_tile_rows + lane_row + (row ? 0 : step);
// CHECK-NEXT:     const int c = j * L::base_tile_cols + lane_col + (row ? step : 0);
// CHECK-NEXT:     f(r, c, v.x);
// CHECK-NEXT:     f(row ? r : r + 1, row ? c + 1 : c, v.y);
// CHECK:      // hk.atomic_add: HipKittens has no atomic tile store.
// CHECK:      template <int axis, ducks::rt::all RT, ducks::gl::all GL,
// CHECK-NEXT:           ducks::coord::tile COORD = coord<RT>>
// CHECK-NEXT: __device__ inline void tile_atomic_add(const GL &dst, const RT &src,
// CHECK-NEXT:                                        const COORD &idx) {
// CHECK:        float *dst_ptr = (float *)&dst[(idx.template unit_coord<axis, 3>())];
// CHECK-NEXT:   const int row_stride = dst.template stride<axis>();
// CHECK-NEXT:   for_each_element(src, laneid(), [&](int r, int c, const float &v) {
// CHECK-NEXT:     atomicAdd(&dst_ptr[r * row_stride + c], v);
// CHECK-NEXT:   });
// CHECK-LABEL: void accumulate(
// CHECK:        tile_atomic_add<2>(D, a, {0, 0, i, 1});
// CHECK-NEXT:   tile_atomic_add<2>(D, r, {0, 0, 1, i});
// CHECK-NEXT:   tile_atomic_add<1>(V, a, {blockIdx.x, i, blockIdx.y, 0});
// The launcher: D is tiled 32 x 64, the view's N and D dimensions 32 and 64.
// CHECK-LABEL: hipError_t launch_accumulate(
// CHECK:        if (D_dim0 % 32 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// CHECK:        if (D_dim1 % 64 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// CHECK:        if (V_dim2 % 32 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// CHECK:        if (V_dim3 % 64 != 0)
// CHECK-NEXT:     return hipErrorInvalidValue;
// CHECK-NEXT:   // #hk.grid
// CHECK-NOT:  tile_atomic_add(const GL
hk.kernel @accumulate(%D: memref<?x?xf32>, %V: !view, %i: index)
    attributes {waves = 4 : i32, grid = #hk.grid<[] -> (1, 1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = hk.block_id x
  %h = hk.block_id y
  %a = hk.load %D[%c0, %c0] : memref<?x?xf32> -> !acc
  %r = hk.load %D[%c0, %c0] : memref<?x?xf32> -> !racc
  hk.atomic_add %a, %D[%i, %c1] : !acc, memref<?x?xf32>
  hk.atomic_add %r, %D[%c1, %i] : !racc, memref<?x?xf32>
  hk.atomic_add %a, %V[%b, %h, %i, %c0] : !acc, !view
  hk.return
}
