// Generated from hk IR for HipKittens (CDNA4, gfx950).
// Build: hipcc -std=c++20 --offload-arch=gfx950 -I$HIPKITTENS_ROOT/include (HipKittens branch main)
#ifndef KITTENS_CDNA4
#define KITTENS_CDNA4
#endif
#include "kittens.cuh"

#include <algorithm>

using namespace kittens;

// hk.group_remap: walks a rows x cols grid of output tiles in groups of
// `group` tile rows, column by column inside a group.
struct tile_coord {
  int row, col;
};
__device__ inline tile_coord group_remap(int id, int rows, int cols,
                                         int group) {
  const int per_group = group * cols;
  const int first = (id / per_group) * group;
  const int size = std::min(rows - first, group);
  return {first + (id % per_group) % size, (id % per_group) / size};
}

__global__ __launch_bounds__(512, 2) void gemm_bf16(const gl<bf16, -1, -1, -1, -1> A, const gl<bf16, -1, -1, -1, -1> B, const gl<bf16, -1, -1, -1, -1> C) {
  extern __shared__ alignment_dummy __shm[];
  shared_allocator al((int *)&__shm[0]);
  st_bf<256, 64, st_16x32_s> &as = al.allocate<st_bf<256, 64, st_16x32_s>>();
  st_bf<256, 64, st_16x32_s> &bs = al.allocate<st_bf<256, 64, st_16x32_s>>();
  const auto [tm, tn] = group_remap(chiplet_transform_chunked(blockIdx.x, gridDim.x, 8, 64), ceil_div(C.rows(), 256), ceil_div(C.cols(), 256), 8);
  const int w = __builtin_amdgcn_readfirstlane(warpid());
  const int wr = w / 4;
  const int wc = w % 4;
  const int a_row = (tm * 8) + w;
  const int b_row = (tn * 8) + w;
  auto as_share0 = subtile_inplace<32, 32>(as, {w, 0});
  auto as_share1 = subtile_inplace<32, 32>(as, {w, 1});
  auto bs_share0 = subtile_inplace<32, 32>(bs, {w, 0});
  auto bs_share1 = subtile_inplace<32, 32>(bs, {w, 1});
  const int ri1 = wr + 2;
  const int cj1 = wc + 4;
  auto sa00 = subtile_inplace<64, 32>(as, {wr, 0});
  auto sa10 = subtile_inplace<64, 32>(as, {ri1, 0});
  auto sb00 = subtile_inplace<32, 32>(bs, {wc, 0});
  auto sb10 = subtile_inplace<32, 32>(bs, {cj1, 0});
  auto sa01 = subtile_inplace<64, 32>(as, {wr, 1});
  auto sa11 = subtile_inplace<64, 32>(as, {ri1, 1});
  auto sb01 = subtile_inplace<32, 32>(bs, {wc, 1});
  auto sb11 = subtile_inplace<32, 32>(bs, {cj1, 1});
  const int nk_loop = ((A.cols() + 63) / 64) - 1;
  rt_bf<32, 32, row_l, rt_16x32_s> ga0;
  load(ga0, A, {0, 0, a_row, 0});
  rt_bf<32, 32, row_l, rt_16x32_s> gb0;
  load(gb0, B, {0, 0, b_row, 0});
  rt_bf<32, 32, row_l, rt_16x32_s> ga1;
  load(ga1, A, {0, 0, a_row, 1});
  rt_bf<32, 32, row_l, rt_16x32_s> gb1;
  load(gb1, B, {0, 0, b_row, 1});
  store(as_share0, ga0);
  asm volatile("s_waitcnt lgkmcnt(0)");
  store(bs_share0, gb0);
  asm volatile("s_waitcnt lgkmcnt(0)");
  __builtin_amdgcn_s_barrier();
  if (__builtin_amdgcn_readfirstlane(warpid()) >= 4) {
    __builtin_amdgcn_s_barrier();
  }
  rt_fl<64, 32, col_l, rt_16x16_s> c00;
  zero(c00);
  rt_fl<64, 32, col_l, rt_16x16_s> c01;
  zero(c01);
  rt_fl<64, 32, col_l, rt_16x16_s> c10;
  zero(c10);
  rt_fl<64, 32, col_l, rt_16x16_s> c11;
  zero(c11);
  for (int k = 0; k < nk_loop; ++k) {
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 32, row_l, rt_16x32_s> ra00;
    load(ra00, sa00);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_bf<64, 32, row_l, rt_16x32_s> ra10;
    load(ra10, sa10);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_bf<32, 32, row_l, rt_16x32_s> rb00;
    load(rb00, sb00);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_bf<32, 32, row_l, rt_16x32_s> rb10;
    load(rb10, sb10);
    asm volatile("s_waitcnt lgkmcnt(0)");
    store(as_share1, ga1);
    asm volatile("s_waitcnt lgkmcnt(0)");
    store(bs_share1, gb1);
    asm volatile("s_waitcnt lgkmcnt(0)");
    const int kn0 = (k * 2) + 2;
    rt_bf<32, 32, row_l, rt_16x32_s> pa0;
    load(pa0, A, {0, 0, a_row, kn0});
    rt_bf<32, 32, row_l, rt_16x32_s> pb0;
    load(pb0, B, {0, 0, b_row, kn0});
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    mma_ABt(c00, ra00, rb00, c00);
    mma_ABt(c01, ra00, rb10, c01);
    mma_ABt(c10, ra10, rb00, c10);
    mma_ABt(c11, ra10, rb10, c11);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 32, row_l, rt_16x32_s> ra01;
    load(ra01, sa01);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_bf<64, 32, row_l, rt_16x32_s> ra11;
    load(ra11, sa11);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_bf<32, 32, row_l, rt_16x32_s> rb01;
    load(rb01, sb01);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_bf<32, 32, row_l, rt_16x32_s> rb11;
    load(rb11, sb11);
    asm volatile("s_waitcnt lgkmcnt(0)");
    store(as_share0, pa0);
    asm volatile("s_waitcnt lgkmcnt(0)");
    store(bs_share0, pb0);
    asm volatile("s_waitcnt lgkmcnt(0)");
    const int kn1 = (k * 2) + 3;
    rt_bf<32, 32, row_l, rt_16x32_s> pa1;
    load(pa1, A, {0, 0, a_row, kn1});
    rt_bf<32, 32, row_l, rt_16x32_s> pb1;
    load(pb1, B, {0, 0, b_row, kn1});
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    mma_ABt(c00, ra01, rb01, c00);
    mma_ABt(c01, ra01, rb11, c01);
    mma_ABt(c10, ra11, rb01, c10);
    mma_ABt(c11, ra11, rb11, c11);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    ga1 = pa1;
    gb1 = pb1;
  }
  __builtin_amdgcn_sched_barrier(0);
  rt_bf<64, 32, row_l, rt_16x32_s> ra001;
  load(ra001, sa00);
  asm volatile("s_waitcnt lgkmcnt(0)");
  rt_bf<64, 32, row_l, rt_16x32_s> ra101;
  load(ra101, sa10);
  asm volatile("s_waitcnt lgkmcnt(0)");
  rt_bf<32, 32, row_l, rt_16x32_s> rb001;
  load(rb001, sb00);
  asm volatile("s_waitcnt lgkmcnt(0)");
  rt_bf<32, 32, row_l, rt_16x32_s> rb101;
  load(rb101, sb10);
  asm volatile("s_waitcnt lgkmcnt(0)");
  store(as_share1, ga1);
  asm volatile("s_waitcnt lgkmcnt(0)");
  store(bs_share1, gb1);
  asm volatile("s_waitcnt lgkmcnt(0)");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_sched_barrier(0);
  __builtin_amdgcn_s_setprio(1);
  mma_ABt(c00, ra001, rb001, c00);
  mma_ABt(c01, ra001, rb101, c01);
  mma_ABt(c10, ra101, rb001, c10);
  mma_ABt(c11, ra101, rb101, c11);
  __builtin_amdgcn_s_setprio(0);
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_sched_barrier(0);
  rt_bf<64, 32, row_l, rt_16x32_s> ra011;
  load(ra011, sa01);
  asm volatile("s_waitcnt lgkmcnt(0)");
  rt_bf<64, 32, row_l, rt_16x32_s> ra111;
  load(ra111, sa11);
  asm volatile("s_waitcnt lgkmcnt(0)");
  rt_bf<32, 32, row_l, rt_16x32_s> rb011;
  load(rb011, sb01);
  asm volatile("s_waitcnt lgkmcnt(0)");
  rt_bf<32, 32, row_l, rt_16x32_s> rb111;
  load(rb111, sb11);
  asm volatile("s_waitcnt lgkmcnt(0)");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_sched_barrier(0);
  __builtin_amdgcn_s_setprio(1);
  mma_ABt(c00, ra011, rb011, c00);
  mma_ABt(c01, ra011, rb111, c01);
  mma_ABt(c10, ra111, rb011, c10);
  mma_ABt(c11, ra111, rb111, c11);
  __builtin_amdgcn_s_setprio(0);
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_sched_barrier(0);
  if (__builtin_amdgcn_readfirstlane(warpid()) < 4) {
    __builtin_amdgcn_s_barrier();
  }
  const int row0 = (tm * 4) + wr;
  const int row1 = row0 + 2;
  const int col0 = (tn * 8) + wc;
  const int col1 = col0 + 4;
  rt_bf<64, 32, col_l, rt_16x16_s> o00;
  copy(o00, c00);
  rt_bf<64, 32, col_l, rt_16x16_s> o01;
  copy(o01, c01);
  rt_bf<64, 32, col_l, rt_16x16_s> o10;
  copy(o10, c10);
  rt_bf<64, 32, col_l, rt_16x16_s> o11;
  copy(o11, c11);
  store(C, o00, {0, 0, row0, col0});
  store(C, o01, {0, 0, row0, col1});
  store(C, o10, {0, 0, row1, col0});
  store(C, o11, {0, 0, row1, col1});
}

extern "C" hipError_t launch_gemm_bf16(bf16 *A, int A_dim0, int A_dim1, bf16 *B, int B_dim0, int B_dim1, bf16 *C, int C_dim0, int C_dim1, hipStream_t stream) {
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 0 of A is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (A_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 0 of B is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (B_dim0 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 1 of B is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (B_dim1 % 32 != 0)
    return hipErrorInvalidValue;
  // `tiles_m` = ceildiv(C_dim0, 256) must not count a partial step, whose tiles
  // would lie partly or wholly past an array.
  // The grid's ceildiv(C_dim0, 256) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (C_dim0 % 256 != 0)
    return hipErrorInvalidValue;
  // `tiles_n` = ceildiv(C_dim1, 256) must not count a partial step, whose tiles
  // would lie partly or wholly past an array.
  // The grid's ceildiv(C_dim1, 256) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (C_dim1 % 256 != 0)
    return hipErrorInvalidValue;
  // `nk` = ceildiv(A_dim1, 64) must not count a partial step, whose tiles would
  // lie partly or wholly past an array.
  if (A_dim1 % 64 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(2, 0), dim(2, 1)] -> ((s0 ceildiv 256) * (s1 ceildiv 256))>
  const dim3 grid(((C_dim0 + 256 - 1) / 256) * ((C_dim1 + 256 - 1) / 256), 1, 1);
  const size_t shared_bytes = 65536;
  hipError_t err = hipFuncSetAttribute(reinterpret_cast<const void *>(&gemm_bf16), hipFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
  if (err != hipSuccess)
    return err;
  hipLaunchKernelGGL(gemm_bf16, grid, dim3(512), shared_bytes, stream,
                     gl<bf16, -1, -1, -1, -1>(A, 1, 1, A_dim0, A_dim1),
                     gl<bf16, -1, -1, -1, -1>(B, 1, 1, B_dim0, B_dim1),
                     gl<bf16, -1, -1, -1, -1>(C, 1, 1, C_dim0, C_dim1));
  return hipGetLastError();
}
