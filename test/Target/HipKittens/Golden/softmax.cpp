// Generated from hk IR for HipKittens (CDNA4, gfx950).
// Build: hipcc -std=c++20 --offload-arch=gfx950 -I$HIPKITTENS_ROOT/include (HipKittens branch main)
#ifndef KITTENS_CDNA4
#define KITTENS_CDNA4
#endif
#include "kittens.cuh"

#include <algorithm>

using namespace kittens;

__global__ __launch_bounds__(256, 1) void softmax(const gl<bf16, -1, -1, -1, -1> x, const gl<bf16, -1, -1, -1, -1> y) {
  const int tile = (blockIdx.x * 4) + __builtin_amdgcn_readfirstlane(warpid());
  const int r0 = tile * 32;
  const int r_end = r0 + 32;
  const int n = x.cols();
  const int ntiles = (n + 63) / 64;
  rt_fl<32, 32, row_l, rt_16x32_s>::col_vec m;
  neg_infty(m);
  rt_fl<32, 32, row_l, rt_16x32_s>::col_vec l;
  zero(l);
  for (int j = 0; j < ntiles; ++j) {
    rt_bf<32, 64, row_l, rt_16x32_s> tb;
    load(tb, x, {0, 0, tile, j});
    rt_fl<32, 64, row_l, rt_16x32_s> tf;
    copy(tf, tb);
    mul(tf, tf, 1.442695f);
    lower_fill(tf, tf, r_end - r0, -INFINITY);
    right_fill(tf, tf, n - (j * 64), -INFINITY);
    rt_fl<32, 32, row_l, rt_16x32_s>::col_vec mn;
    row_max(mn, tf, m);
    sub(m, m, mn);
    exp2(m, m);
    mul(l, l, m);
    sub_row(tf, tf, mn);
    exp2(tf, tf);
    row_sum(l, tf, l);
    m = mn;
  }
  for (int j1 = 0; j1 < ntiles; ++j1) {
    rt_bf<32, 64, row_l, rt_16x32_s> tb1;
    load(tb1, x, {0, 0, tile, j1});
    rt_fl<32, 64, row_l, rt_16x32_s> tf1;
    copy(tf1, tb1);
    mul(tf1, tf1, 1.442695f);
    sub_row(tf1, tf1, m);
    exp2(tf1, tf1);
    div_row(tf1, tf1, l);
    rt_bf<32, 64, row_l, rt_16x32_s> yb;
    copy(yb, tf1);
    store(y, yb, {0, 0, tile, j1});
  }
}

extern "C" hipError_t launch_softmax(bf16 *x, int x_dim0, int x_dim1, bf16 *y, int y_dim0, int y_dim1, hipStream_t stream) {
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 1 of x is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  // `ntiles` = ceildiv(x_dim1, 64) must not count a partial step, whose tiles
  // would lie partly or wholly past an array.
  if (x_dim1 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 0 of y is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (y_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 1 of y is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (y_dim1 % 64 != 0)
    return hipErrorInvalidValue;
  // The grid's ceildiv(x_dim0, 128) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (x_dim0 % 128 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>
  const dim3 grid((x_dim0 + 128 - 1) / 128, 1, 1);
  hipLaunchKernelGGL(softmax, grid, dim3(256), 0, stream,
                     gl<bf16, -1, -1, -1, -1>(x, 1, 1, x_dim0, x_dim1),
                     gl<bf16, -1, -1, -1, -1>(y, 1, 1, y_dim0, y_dim1));
  return hipGetLastError();
}
