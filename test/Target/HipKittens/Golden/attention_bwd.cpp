// Generated from hk IR for HipKittens (CDNA4, gfx950).
// Build: hipcc -std=c++20 --offload-arch=gfx950 -I$HIPKITTENS_ROOT/include (HipKittens branch main)
#ifndef KITTENS_CDNA4
#define KITTENS_CDNA4
#endif
#include "kittens.cuh"

#include <algorithm>

using namespace kittens;

// HipKittens' register base-tile layout (include/types/register/rt.cuh):
// rows, columns, the run of consecutive elements a lane holds (stride), runs
// per base tile, and the distance between a lane's runs.
template <typename RT> struct base_tile_layout {
  static constexpr int base_tile_rows = RT::base_tile_rows;
  static constexpr int base_tile_cols = RT::base_tile_cols;
  static constexpr int base_tile_stride = RT::base_tile_stride;
  static constexpr int base_tile_num_strides = RT::base_tile_num_strides;
  static constexpr int base_tile_elements_per_stride_group =
      RT::base_tile_elements_per_stride_group;
};

// Calls f(row, col, element) for every element lane `lane` holds of a
// register tile, at the positions and in the order of HipKittens'
// register-tile store (include/ops/warp/memory/tile/global_to_register.cuh):
// a lane's first element of a base tile, then runs of base_tile_stride
// consecutive elements along the row (row layout) or the column (col
// layout), two per packed register. Host code can ask for any lane.
template <typename RT, typename F>
__host__ __device__ inline void for_each_element(RT &tile, const int lane,
                                                 F &&f) {
  using L = base_tile_layout<std::remove_const_t<RT>>;
  constexpr bool row =
      std::is_same_v<typename std::remove_const_t<RT>::layout, ducks::rt_layout::row>;
  const int lane_row = row ? lane % L::base_tile_rows
                           : L::base_tile_stride * (lane / L::base_tile_cols);
  const int lane_col = row ? L::base_tile_stride * (lane / L::base_tile_rows)
                           : lane % L::base_tile_cols;
#pragma unroll
  for (int i = 0; i < RT::height; i++) {
#pragma unroll
    for (int j = 0; j < RT::width; j++) {
#pragma unroll
      for (int k = 0; k < L::base_tile_num_strides; k++) {
#pragma unroll
        for (int l = 0; l < L::base_tile_stride / 2; l++) {
          auto &v = tile.tiles[i][j].data[l + k * L::base_tile_stride / 2];
          const int step = k * L::base_tile_elements_per_stride_group + 2 * l;
          const int r = i * L::base_tile_rows + lane_row + (row ? 0 : step);
          const int c = j * L::base_tile_cols + lane_col + (row ? step : 0);
          f(r, c, v.x);
          f(row ? r : r + 1, row ? c + 1 : c, v.y);
        }
      }
    }
  }
}

// hk.atomic_add: HipKittens has no atomic tile store. This is its register
// tile store, store<axis>(gl, rt, idx) in
// include/ops/warp/memory/tile/global_to_register.cuh, visiting the same
// positions in the same order (for_each_element), with each element added
// by atomicAdd instead of written.
template <int axis, ducks::rt::all RT, ducks::gl::all GL,
          ducks::coord::tile COORD = coord<RT>>
__device__ inline void tile_atomic_add(const GL &dst, const RT &src,
                                       const COORD &idx) {
  static_assert(std::is_same_v<typename RT::T, float> &&
                    std::is_same_v<typename GL::dtype, float>,
                "hk.atomic_add adds f32 tiles into f32 arrays");
  float *dst_ptr = (float *)&dst[(idx.template unit_coord<axis, 3>())];
  const int row_stride = dst.template stride<axis>();
  for_each_element(src, laneid(), [&](int r, int c, const float &v) {
    atomicAdd(&dst_ptr[r * row_stride + c], v);
  });
}

// Register tiles in a base-tile shape a HipKittens call does not take are
// copied through LDS into one it takes: every lane writes its elements to a
// row-major R x C scratch of its wave, then reads those of the other layout.
template <ducks::rt::all D, ducks::rt::all S>
__device__ inline void tile_relayout(D &dst, const S &src, void *scratch) {
  static_assert(D::rows == S::rows && D::cols == S::cols &&
                    std::is_same_v<typename D::T, typename S::T>,
                "a relayout keeps the shape and the element type");
  using T = typename S::T;
  T *buf = (T *)scratch;
  // The wave's earlier reads of the scratch come first; its writes are seen
  // by its own later reads (LDS executes a wave's accesses in order).
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  const int lane = laneid();
  for_each_element(src, lane, [&](int r, int c, const T &v) { buf[r * S::cols + c] = v; });
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
  for_each_element(dst, lane, [&](int r, int c, T &v) { v = buf[r * S::cols + c]; });
}

// Shared to register, col layout, 16-bit elements, on main: for 16x32
// base tiles from 16x32 shared subtiles, HipKittens' load (include/ops/
// warp/memory/tile/shared_to_register.cuh) issues the two
// ds_read_b64_tr_b16 of a base tile in one asm statement whose outputs are
// not early-clobber, so the compiler may give the first read's destination
// the register holding the address the second read still needs: the second
// read then takes its address from a register a load is still writing.
// This issues each read in an asm statement of its own, at the addresses
// HipKittens' load uses (lane row (lane % 16) / 4 + 8 (lane / 32), column
// 4 (lane % 4) + 16 ((lane % 32) / 16) of each subtile, the second read 4
// rows down); other shapes go through HipKittens' load. The caller waits.
template <ducks::rt::col_layout RT, ducks::st::all ST>
__device__ inline void shared_load_cols(RT &dst, const ST &src) {
  if constexpr (RT::base_tile_rows == 16 && RT::base_tile_cols == 32 &&
                RT::base_tile_stride == 8 && RT::base_tile_num_strides == 1 &&
                std::is_same_v<typename ST::shape, st_16x32_s> &&
                sizeof(typename ST::T) == 2) {
    static_assert(RT::height == ST::subtiles_per_col &&
                      RT::width == ST::subtiles_per_row,
                  "one 16x32 base tile per 16x32 shared subtile");
    const int lane = laneid();
    const int row = (lane % 16) / 4 + 8 * (lane / 32);
    const int col = 4 * (lane % 4) + 16 * ((lane % 32) / 16);
    const uint32_t addr = reinterpret_cast<uintptr_t>(&src.data[0]) +
                          src.swizzle({row, col});
#pragma unroll
    for (int i = 0; i < RT::height; i++)
#pragma unroll
      for (int j = 0; j < RT::width; j++) {
        constexpr int rowBytes = ST::underlying_subtile_row_bytes;
        const int offset = (i * ST::underlying_subtiles_per_row + j) *
                           ST::underlying_subtile_bytes;
        asm volatile("ds_read_b64_tr_b16 %0, %1 offset:%2\n"
                     : "=v"(*reinterpret_cast<float2 *>(&dst.tiles[i][j].data[0]))
                     : "v"(addr), "i"(offset)
                     : "memory");
        asm volatile("ds_read_b64_tr_b16 %0, %1 offset:%2\n"
                     : "=v"(*reinterpret_cast<float2 *>(&dst.tiles[i][j].data[2]))
                     : "v"(addr), "i"(offset + 4 * rowBytes)
                     : "memory");
      }
  } else {
    load(dst, src);
  }
}

__global__ __launch_bounds__(256, 1) void attention_bwd_prep(const gl<bf16, -1, -1, -1, -1> dO, const gl<bf16, -1, -1, -1, -1> O, const gl<float, -1, -1, -1, -1> ndelta) {
  const int h = blockIdx.y;
  const int b = blockIdx.z;
  const int tile = (blockIdx.x * 4) + __builtin_amdgcn_readfirstlane(warpid());
  rt_bf<32, 128, row_l, rt_16x32_s> do_;
  load<1>(do_, dO, {b, tile, h, 0});
  rt_bf<32, 128, row_l, rt_16x32_s> o;
  load<1>(o, O, {b, tile, h, 0});
  rt_fl<32, 128, row_l, rt_16x32_s> dof;
  copy(dof, do_);
  rt_fl<32, 128, row_l, rt_16x32_s> of;
  copy(of, o);
  mul(dof, dof, of);
  rt_fl<32, 32, row_l, rt_16x32_s>::col_vec d;
  row_sum(d, dof);
  mul(d, d, -1.0f);
  store(ndelta, d, {0, b, h, tile});
}

extern "C" hipError_t launch_attention_bwd_prep(bf16 *dO, int dO_dim0, int dO_dim1, int dO_dim2, int64_t dO_stride0, int64_t dO_stride1, int64_t dO_stride2, bf16 *O, int O_dim0, int O_dim1, int O_dim2, int64_t O_stride0, int64_t O_stride1, int64_t O_stride2, float *ndelta, int ndelta_dim0, int ndelta_dim1, int ndelta_dim2, hipStream_t stream) {
  // HipKittens reads the [B, H, N, D] views as dense [B, N, H, D] arrays.
  if (dO_stride0 != int64_t(dO_dim2) * dO_dim1 * 128 ||
      dO_stride1 != int64_t(128) ||
      dO_stride2 != int64_t(dO_dim1) * 128 ||
      O_stride0 != int64_t(O_dim2) * O_dim1 * 128 ||
      O_stride1 != int64_t(128) ||
      O_stride2 != int64_t(O_dim1) * 128)
    return hipErrorInvalidValue;
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 2 of O is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (O_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of ndelta is tiled by 32: HipKittens' loads and stores do not
  // bound a ragged tile.
  if (ndelta_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // The grid's ceildiv(dO_dim2, 128) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (dO_dim2 % 128 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv 128, s1, s2)>
  const dim3 grid((dO_dim2 + 128 - 1) / 128, dO_dim1, dO_dim0);
  hipLaunchKernelGGL(attention_bwd_prep, grid, dim3(256), 0, stream,
                     gl<bf16, -1, -1, -1, -1>(dO, dO_dim0, dO_dim2, dO_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(O, O_dim0, O_dim2, O_dim1, 128),
                     gl<float, -1, -1, -1, -1>(ndelta, 1, ndelta_dim0, ndelta_dim1, ndelta_dim2));
  return hipGetLastError();
}

__global__ __launch_bounds__(256, 1) void attention_bwd(const gl<bf16, -1, -1, -1, -1> Q, const gl<bf16, -1, -1, -1, -1> K, const gl<bf16, -1, -1, -1, -1> V, const gl<bf16, -1, -1, -1, -1> dO, const gl<float, -1, -1, -1, -1> L, const gl<float, -1, -1, -1, -1> ndelta, const gl<float, -1, -1, -1, -1> dQ, const gl<bf16, -1, -1, -1, -1> dK, const gl<bf16, -1, -1, -1, -1> dV, const bool causal) {
  using G = kittens::group<4>;
  extern __shared__ alignment_dummy __shm[];
  shared_allocator al((int *)&__shm[0]);
  // LDS for moving tiles into base-tile shapes HipKittens' calls take.
  __shared__ alignas(16) char relayout_lds[32768];
  char *const relayout_scratch = relayout_lds + __builtin_amdgcn_readfirstlane(warpid()) * 8192;
  rt_fl<64, 32, col_l, rt_16x16_s> zero_s;
  zero(zero_s);
  rt_fl<64, 64, col_l, rt_16x16_s> zero_dq;
  zero(zero_dq);
  st_bf<128, 128, st_16x32_s> &qs = al.allocate<st_bf<128, 128, st_16x32_s>>();
  st_bf<128, 128, st_16x32_s> &dos = al.allocate<st_bf<128, 128, st_16x32_s>>();
  const int x = blockIdx.x;
  const int hkv = blockIdx.y;
  const int b = blockIdx.z;
  const int group_ = Q.rows() / K.rows();
  const int h_first = hkv * group_;
  const int ktile = (x * 4) + __builtin_amdgcn_readfirstlane(warpid());
  const int k0 = ktile * 32;
  rt_bf<32, 128, row_l, rt_16x32_s> kr;
  load<1>(kr, K, {b, ktile, hkv, 0});
  rt_bf<32, 64, col_l, rt_32x16_s> kc0;
  load<1>(kc0, K, {b, ktile, hkv, 0});
  rt_bf<32, 64, col_l, rt_32x16_s> kc1;
  load<1>(kc1, K, {b, ktile, hkv, 1});
  rt_bf<32, 128, row_l, rt_16x32_s> vr;
  load<1>(vr, V, {b, ktile, hkv, 0});
  const int nq = (Q.depth() + 63) / 64;
  const int i0 = causal ? std::min(x * 2, nq) : 0;
  const int per_head = nq - i0;
  const int steps = per_head * group_;
  auto qs0 = subtile_inplace<64, 128>(qs, {0, 0});
  auto dos0 = subtile_inplace<64, 128>(dos, {0, 0});
  const int per_head1 = std::max(per_head, 1);
  G::load<1, false>(qs0, Q, {b, i0, h_first, 0});
  G::load<1, false>(dos0, dO, {b, i0, h_first, 0});
  rt_fl<32, 64, col_l, rt_16x16_s> dk0;
  zero(dk0);
  rt_fl<32, 64, col_l, rt_16x16_s> dk1;
  zero(dk1);
  rt_fl<32, 64, col_l, rt_16x16_s> dv0;
  zero(dv0);
  rt_fl<32, 64, col_l, rt_16x16_s> dv1;
  zero(dv1);
  int h = h_first;
  int ir = 0;
  for (int t = 0; t < steps; ++t) {
    const int s = t % 2;
    const int s1 = 1 - s;
    auto q_stage = subtile_inplace<64, 128>(qs, {s, 0});
    auto do_stage = subtile_inplace<64, 128>(dos, {s, 0});
    auto q_next = subtile_inplace<64, 128>(qs, {s1, 0});
    auto do_next = subtile_inplace<64, 128>(dos, {s1, 0});
    auto q_lo = subtile_inplace<64, 64>(qs, {s, 0});
    auto q_hi = subtile_inplace<64, 64>(qs, {s, 1});
    auto do_lo = subtile_inplace<64, 64>(dos, {s, 0});
    auto do_hi = subtile_inplace<64, 64>(dos, {s, 1});
    const int i = i0 + ir;
    const int q0 = i * 64;
    const int ir_inc = ir + 1;
    const bool wrap = ir_inc == per_head1;
    const int ir1 = wrap ? 0 : ir_inc;
    const int h1 = wrap ? (h + 1) : h;
    const int i1 = i0 + ir1;
    __builtin_amdgcn_sched_barrier(0);
    asm volatile("s_waitcnt vmcnt(0)");
    __builtin_amdgcn_s_barrier();
    G::load<1, false>(q_next, Q, {b, i1, h1, 0});
    G::load<1, false>(do_next, dO, {b, i1, h1, 0});
    rt_bf<64, 128, row_l, rt_16x32_s> a;
    load(a, q_stage);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_fl<64, 16, col_l, rt_16x16_s>::col_vec e;
    load(e, L, {0, b, h, i});
    rt_fl<64, 16, col_l, rt_16x16_s>::col_vec f;
    load(f, ndelta, {0, b, h, i});
    __builtin_amdgcn_sched_barrier(0);
    rt_fl<64, 32, col_l, rt_16x16_s> sa;
    mma_ABt(sa, a, kr, zero_s);
    rt_fl<64, 32, col_l, rt_16x16_s> s4;
    if (causal) {
      tril(s4, sa, k0 - q0, -INFINITY);
    } else {
      s4 = sa;
    }
    mul(s4, s4, 0.12751743f);
    mul(e, e, 1.442695f);
    sub_row(s4, s4, e);
    exp2(s4, s4);
    max(s4, s4, 0.0f);
    min(s4, s4, 1.0f);
    rt_bf<64, 128, row_l, rt_16x32_s> c;
    load(c, do_stage);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 32, col_l, rt_16x16_s> pbf;
    copy(pbf, s4);
    rt_fl<64, 32, col_l, rt_16x16_s> nd;
    broadcast_row(nd, f);
    mma_ABt(nd, c, vr, nd);
    mul(s4, s4, nd);
    mul(s4, s4, 0.088388346f);
    rt_bf<64, 32, col_l, rt_16x16_s> dsbf;
    copy(dsbf, s4);
    rt_bf<64, 32, row_l, rt_16x32_s> dsrow;
    tile_relayout(dsrow, dsbf, relayout_scratch);
    rt_bf<64, 64, col_l, rt_16x16_s> d;
    shared_load_cols(d, do_lo);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 32, col_l, rt_32x16_s> pbf_hk;
    tile_relayout(pbf_hk, pbf, relayout_scratch);
    rt_bf<64, 64, col_l, rt_32x16_s> d_hk;
    tile_relayout(d_hk, d, relayout_scratch);
    mma_AtB(dv0, pbf_hk, d_hk, dv0);
    rt_bf<64, 64, col_l, rt_16x16_s> d1;
    shared_load_cols(d1, do_hi);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 64, col_l, rt_32x16_s> d1_hk;
    tile_relayout(d1_hk, d1, relayout_scratch);
    mma_AtB(dv1, pbf_hk, d1_hk, dv1);
    rt_bf<64, 64, col_l, rt_16x16_s> d2;
    shared_load_cols(d2, q_lo);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 32, col_l, rt_32x16_s> dsbf_hk;
    tile_relayout(dsbf_hk, dsbf, relayout_scratch);
    rt_bf<64, 64, col_l, rt_32x16_s> d2_hk;
    tile_relayout(d2_hk, d2, relayout_scratch);
    mma_AtB(dk0, dsbf_hk, d2_hk, dk0);
    rt_bf<64, 64, col_l, rt_16x16_s> d3;
    shared_load_cols(d3, q_hi);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(256, 1, 0);
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 64, col_l, rt_32x16_s> d3_hk;
    tile_relayout(d3_hk, d3, relayout_scratch);
    mma_AtB(dk1, dsbf_hk, d3_hk, dk1);
    rt_fl<64, 64, col_l, rt_16x16_s> dqp;
    mma_AB(dqp, dsrow, kc0, zero_dq);
    tile_atomic_add<1>(dQ, dqp, {b, i, h, 0});
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_barrier(0);
    rt_fl<64, 64, col_l, rt_16x16_s> dqp1;
    mma_AB(dqp1, dsrow, kc1, zero_dq);
    tile_atomic_add<1>(dQ, dqp1, {b, i, h, 1});
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(64, 1, 0);
    __builtin_amdgcn_sched_barrier(0);
    h = h1;
    ir = ir1;
  }
  asm volatile("s_waitcnt vmcnt(0)");
  rt_bf<32, 64, col_l, rt_16x16_s> dkb0;
  copy(dkb0, dk0);
  rt_bf<32, 64, col_l, rt_16x16_s> dkb1;
  copy(dkb1, dk1);
  rt_bf<32, 64, col_l, rt_16x16_s> dvb0;
  copy(dvb0, dv0);
  rt_bf<32, 64, col_l, rt_16x16_s> dvb1;
  copy(dvb1, dv1);
  store<1>(dK, dkb0, {b, ktile, hkv, 0});
  store<1>(dK, dkb1, {b, ktile, hkv, 1});
  store<1>(dV, dvb0, {b, ktile, hkv, 0});
  store<1>(dV, dvb1, {b, ktile, hkv, 1});
}

extern "C" hipError_t launch_attention_bwd(bf16 *Q, int Q_dim0, int Q_dim1, int Q_dim2, int64_t Q_stride0, int64_t Q_stride1, int64_t Q_stride2, bf16 *K, int K_dim0, int K_dim1, int K_dim2, int64_t K_stride0, int64_t K_stride1, int64_t K_stride2, bf16 *V, int V_dim0, int V_dim1, int V_dim2, int64_t V_stride0, int64_t V_stride1, int64_t V_stride2, bf16 *dO, int dO_dim0, int dO_dim1, int dO_dim2, int64_t dO_stride0, int64_t dO_stride1, int64_t dO_stride2, float *L, int L_dim0, int L_dim1, int L_dim2, float *ndelta, int ndelta_dim0, int ndelta_dim1, int ndelta_dim2, float *dQ, int dQ_dim0, int dQ_dim1, int dQ_dim2, int64_t dQ_stride0, int64_t dQ_stride1, int64_t dQ_stride2, bf16 *dK, int dK_dim0, int dK_dim1, int dK_dim2, int64_t dK_stride0, int64_t dK_stride1, int64_t dK_stride2, bf16 *dV, int dV_dim0, int dV_dim1, int dV_dim2, int64_t dV_stride0, int64_t dV_stride1, int64_t dV_stride2, bool causal, hipStream_t stream) {
  // HipKittens reads the [B, H, N, D] views as dense [B, N, H, D] arrays.
  if (Q_stride0 != int64_t(Q_dim2) * Q_dim1 * 128 ||
      Q_stride1 != int64_t(128) ||
      Q_stride2 != int64_t(Q_dim1) * 128 ||
      K_stride0 != int64_t(K_dim2) * K_dim1 * 128 ||
      K_stride1 != int64_t(128) ||
      K_stride2 != int64_t(K_dim1) * 128 ||
      V_stride0 != int64_t(V_dim2) * V_dim1 * 128 ||
      V_stride1 != int64_t(128) ||
      V_stride2 != int64_t(V_dim1) * 128 ||
      dO_stride0 != int64_t(dO_dim2) * dO_dim1 * 128 ||
      dO_stride1 != int64_t(128) ||
      dO_stride2 != int64_t(dO_dim1) * 128 ||
      dQ_stride0 != int64_t(dQ_dim2) * dQ_dim1 * 128 ||
      dQ_stride1 != int64_t(128) ||
      dQ_stride2 != int64_t(dQ_dim1) * 128 ||
      dK_stride0 != int64_t(dK_dim2) * dK_dim1 * 128 ||
      dK_stride1 != int64_t(128) ||
      dK_stride2 != int64_t(dK_dim1) * 128 ||
      dV_stride0 != int64_t(dV_dim2) * dV_dim1 * 128 ||
      dV_stride1 != int64_t(128) ||
      dV_stride2 != int64_t(dV_dim1) * 128)
    return hipErrorInvalidValue;
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 2 of Q is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  // `nq` = ceildiv(Q_dim2, 64) must not count a partial step, whose tiles would
  // lie partly or wholly past an array.
  if (Q_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of V is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (V_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of dO is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (dO_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of L is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (L_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of ndelta is tiled by 64: HipKittens' loads and stores do not
  // bound a ragged tile.
  if (ndelta_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of dQ is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (dQ_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of dK is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (dK_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of dV is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (dV_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // `group` = Q_dim1 / K_dim1 must be exact: a remainder would leave indices
  // derived from it past an array.
  if (K_dim1 == 0 || Q_dim1 % K_dim1 != 0)
    return hipErrorInvalidValue;
  // The grid's ceildiv(K_dim2, 128) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (K_dim2 % 128 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(1, 2), dim(1, 1), dim(1, 0)] -> (s0 ceildiv 128, s1, s2)>
  const dim3 grid((K_dim2 + 128 - 1) / 128, K_dim1, K_dim0);
  const size_t shared_bytes = 65536;
  hipError_t err = hipFuncSetAttribute(reinterpret_cast<const void *>(&attention_bwd), hipFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
  if (err != hipSuccess)
    return err;
  hipLaunchKernelGGL(attention_bwd, grid, dim3(256), shared_bytes, stream,
                     gl<bf16, -1, -1, -1, -1>(Q, Q_dim0, Q_dim2, Q_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(K, K_dim0, K_dim2, K_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(V, V_dim0, V_dim2, V_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(dO, dO_dim0, dO_dim2, dO_dim1, 128),
                     gl<float, -1, -1, -1, -1>(L, 1, L_dim0, L_dim1, L_dim2),
                     gl<float, -1, -1, -1, -1>(ndelta, 1, ndelta_dim0, ndelta_dim1, ndelta_dim2),
                     gl<float, -1, -1, -1, -1>(dQ, dQ_dim0, dQ_dim2, dQ_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(dK, dK_dim0, dK_dim2, dK_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(dV, dV_dim0, dV_dim2, dV_dim1, 128),
                     causal);
  return hipGetLastError();
}
