// Generated from hk IR for HipKittens (CDNA4, gfx950).
// Build: hipcc -std=c++20 --offload-arch=gfx950 -I$HIPKITTENS_ROOT/include (HipKittens branch main)
#ifndef KITTENS_CDNA4
#define KITTENS_CDNA4
#endif
#include "kittens.cuh"

#include <algorithm>

using namespace kittens;

// math.rsqrt: HipKittens' base ops have no reciprocal square root; its
// maps (unary_map on tiles, unary_op on vectors) take any functor shaped like
// a base op. 1 / sqrt(x), each correctly rounded (HIP's default), as hk's
// AMDGPU lowering computes it.
struct rsqrt_op {
  template <typename T> static __device__ inline T op(const T &x);
};
template <> __device__ inline float rsqrt_op::op<float>(const float &x) {
  return 1.0f / sqrtf(x);
}
template <> __device__ inline float2 rsqrt_op::op<float2>(const float2 &x) {
  return float2{1.0f / sqrtf(x.x), 1.0f / sqrtf(x.y)};
}

__global__ __launch_bounds__(256, 1) void layernorm(const gl<bf16, -1, -1, -1, -1> x, const gl<bf16, -1, -1, -1, -1> residual, const gl<bf16, -1, -1, -1, -1> weight, const gl<bf16, -1, -1, -1, -1> bias, const gl<bf16, -1, -1, -1, -1> res_out, const gl<bf16, -1, -1, -1, -1> y, const float eps_s) {
  const int tile = (blockIdx.x * 4) + __builtin_amdgcn_readfirstlane(warpid());
  rt_bf<32, 128, row_l, rt_16x32_s> xb;
  load(xb, x, {0, 0, tile, 0});
  rt_bf<32, 128, row_l, rt_16x32_s> rb;
  load(rb, residual, {0, 0, tile, 0});
  rt_bf<16, 128, row_l, rt_16x32_s>::row_vec wb;
  load(wb, weight, {0, 0, 0, 0});
  rt_bf<16, 128, row_l, rt_16x32_s>::row_vec bb;
  load(bb, bias, {0, 0, 0, 0});
  rt_fl<32, 128, row_l, rt_16x32_s> xf;
  copy(xf, xb);
  rt_fl<32, 128, row_l, rt_16x32_s> rf;
  copy(rf, rb);
  rt_fl<16, 128, row_l, rt_16x32_s>::row_vec wf;
  copy(wf, wb);
  rt_fl<16, 128, row_l, rt_16x32_s>::row_vec bf;
  copy(bf, bb);
  add(xf, xf, rf);
  rt_bf<32, 128, row_l, rt_16x32_s> r_out;
  copy(r_out, xf);
  store(res_out, r_out, {0, 0, tile, 0});
  rt_fl<32, 32, row_l, rt_16x32_s>::col_vec sum;
  row_sum(sum, xf);
  mul(sum, sum, 0.0078125f);
  sub_row(xf, xf, sum);
  rt_fl<32, 128, row_l, rt_16x32_s> d2;
  mul(d2, xf, xf);
  rt_fl<32, 32, row_l, rt_16x32_s>::col_vec ss;
  row_sum(ss, d2);
  mul(ss, ss, 0.0078125f);
  add(ss, ss, eps_s);
  unary_op<rsqrt_op>(ss, ss);
  mul_row(xf, xf, ss);
  mul_col(xf, xf, wf);
  add_col(xf, xf, bf);
  rt_bf<32, 128, row_l, rt_16x32_s> ob;
  copy(ob, xf);
  store(y, ob, {0, 0, tile, 0});
}

extern "C" hipError_t launch_layernorm(bf16 *x, int x_dim0, bf16 *residual, int residual_dim0, bf16 *weight, bf16 *bias, bf16 *res_out, int res_out_dim0, bf16 *y, int y_dim0, float eps_s, hipStream_t stream) {
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 0 of residual is tiled by 32: HipKittens' loads and stores do not
  // bound a ragged tile.
  if (residual_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 0 of res_out is tiled by 32: HipKittens' loads and stores do not
  // bound a ragged tile.
  if (res_out_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 0 of y is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (y_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // The grid's ceildiv(x_dim0, 128) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (x_dim0 % 128 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(0, 0)] -> (s0 ceildiv 128)>
  const dim3 grid((x_dim0 + 128 - 1) / 128, 1, 1);
  hipLaunchKernelGGL(layernorm, grid, dim3(256), 0, stream,
                     gl<bf16, -1, -1, -1, -1>(x, 1, 1, x_dim0, 128),
                     gl<bf16, -1, -1, -1, -1>(residual, 1, 1, residual_dim0, 128),
                     gl<bf16, -1, -1, -1, -1>(weight, 1, 1, 1, 128),
                     gl<bf16, -1, -1, -1, -1>(bias, 1, 1, 1, 128),
                     gl<bf16, -1, -1, -1, -1>(res_out, 1, 1, res_out_dim0, 128),
                     gl<bf16, -1, -1, -1, -1>(y, 1, 1, y_dim0, 128),
                     eps_s);
  return hipGetLastError();
}
