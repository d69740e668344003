// Generated from hk IR for HipKittens (CDNA4, gfx950).
// Build: hipcc -std=c++20 --offload-arch=gfx950 -I$HIPKITTENS_ROOT/include (HipKittens branch main)
#ifndef KITTENS_CDNA4
#define KITTENS_CDNA4
#endif
#include "kittens.cuh"

#include <algorithm>

using namespace kittens;

__global__ __launch_bounds__(256, 1) void rotary(const gl<bf16, -1, -1, -1, -1> x, const gl<bf16, -1, -1, -1, -1> cos, const gl<bf16, -1, -1, -1, -1> sin, const gl<bf16, -1, -1, -1, -1> out) {
  const int h = blockIdx.y;
  const int b = blockIdx.z;
  const int tile = (blockIdx.x * 4) + __builtin_amdgcn_readfirstlane(warpid());
  rt_bf<32, 64, row_l, rt_16x32_s> x1b;
  load(x1b, x, {b, h, tile, 0});
  rt_bf<32, 64, row_l, rt_16x32_s> x2b;
  load(x2b, x, {b, h, tile, 1});
  rt_bf<32, 64, row_l, rt_16x32_s> cb;
  load(cb, cos, {0, 0, tile, 0});
  rt_bf<32, 64, row_l, rt_16x32_s> sb;
  load(sb, sin, {0, 0, tile, 0});
  rt_fl<32, 64, row_l, rt_16x32_s> x1;
  copy(x1, x1b);
  rt_fl<32, 64, row_l, rt_16x32_s> x2;
  copy(x2, x2b);
  rt_fl<32, 64, row_l, rt_16x32_s> c;
  copy(c, cb);
  rt_fl<32, 64, row_l, rt_16x32_s> s;
  copy(s, sb);
  rt_fl<32, 64, row_l, rt_16x32_s> x1c;
  mul(x1c, x1, c);
  rt_fl<32, 64, row_l, rt_16x32_s> x2s;
  mul(x2s, x2, s);
  sub(x1c, x1c, x2s);
  mul(x2, x2, c);
  mul(x1, x1, s);
  add(x2, x2, x1);
  rt_bf<32, 64, row_l, rt_16x32_s> o1b;
  copy(o1b, x1c);
  rt_bf<32, 64, row_l, rt_16x32_s> o2b;
  copy(o2b, x2);
  store(out, o1b, {b, h, tile, 0});
  store(out, o2b, {b, h, tile, 1});
}

extern "C" hipError_t launch_rotary(bf16 *x, int x_dim0, int x_dim1, int x_dim2, bf16 *cos, int cos_dim0, bf16 *sin, int sin_dim0, bf16 *out, int out_dim0, int out_dim1, int out_dim2, hipStream_t stream) {
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 0 of cos is tiled by 32: HipKittens' loads and stores do not
  // bound a ragged tile.
  if (cos_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 0 of sin is tiled by 32: HipKittens' loads and stores do not
  // bound a ragged tile.
  if (sin_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of out is tiled by 32: HipKittens' loads and stores do not
  // bound a ragged tile.
  if (out_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // The grid's ceildiv(x_dim2, 128) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (x_dim2 % 128 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv 128, s1, s2)>
  const dim3 grid((x_dim2 + 128 - 1) / 128, x_dim1, x_dim0);
  hipLaunchKernelGGL(rotary, grid, dim3(256), 0, stream,
                     gl<bf16, -1, -1, -1, -1>(x, x_dim0, x_dim1, x_dim2, 128),
                     gl<bf16, -1, -1, -1, -1>(cos, 1, 1, cos_dim0, 64),
                     gl<bf16, -1, -1, -1, -1>(sin, 1, 1, sin_dim0, 64),
                     gl<bf16, -1, -1, -1, -1>(out, out_dim0, out_dim1, out_dim2, 128));
  return hipGetLastError();
}
