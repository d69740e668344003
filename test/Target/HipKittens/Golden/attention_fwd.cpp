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

__global__ __launch_bounds__(512, 2) void attention_fwd_d128(const gl<bf16, -1, -1, -1, -1> Q, const gl<bf16, -1, -1, -1, -1> K, const gl<bf16, -1, -1, -1, -1> V, const gl<bf16, -1, -1, -1, -1> O, const gl<float, -1, -1, -1, -1> L, const bool causal) {
  using G = kittens::group<8>;
  extern __shared__ alignment_dummy __shm[];
  shared_allocator al((int *)&__shm[0]);
  // LDS for moving tiles into base-tile shapes HipKittens' calls take.
  __shared__ alignas(16) char relayout_lds[32768];
  char *const relayout_scratch = relayout_lds + __builtin_amdgcn_readfirstlane(warpid()) * 4096;
  rt_fl<32, 32, row_l, rt_32x32_s>::col_vec one_vec;
  ones(one_vec);
  rt_fl<64, 32, col_l, rt_32x32_s> zero_s;
  zero(zero_s);
  st_bf<128, 128, st_32x16_s> &ks = al.allocate<st_bf<128, 128, st_32x16_s>>();
  st_bf<128, 128, st_16x32_s> &vs = al.allocate<st_bf<128, 128, st_16x32_s>>();
  const int qblk = blockIdx.x;
  const int h = blockIdx.y;
  const int b = blockIdx.z;
  const int qtile = (qblk * 8) + __builtin_amdgcn_readfirstlane(warpid());
  const int q0 = qtile * 32;
  const int q_end = q0 + 32;
  const int n = Q.depth();
  const int nkv_all = (n + 63) / 64;
  const int nkv = causal ? std::min(nkv_all, (((qblk * 256) + 256) + 63) / 64) : nkv_all;
  rt_bf<32, 128, row_l, rt_32x16_s> q;
  load<1>(q, Q, {b, qtile, h, 0});
  auto ks0 = subtile_inplace<64, 128>(ks, {0, 0});
  auto vs0 = subtile_inplace<64, 128>(vs, {0, 0});
  auto ks1 = subtile_inplace<64, 128>(ks, {1, 0});
  G::load<1, false>(ks0, K, {b, 0, h / (Q.rows() / K.rows()), 0});
  G::load<1, false>(vs0, V, {b, 0, h / (Q.rows() / K.rows()), 0});
  G::load<1, false>(ks1, K, {b, 1, h / (Q.rows() / K.rows()), 0});
  asm volatile("s_waitcnt vmcnt(0)");
  __builtin_amdgcn_s_barrier();
  if (__builtin_amdgcn_readfirstlane(warpid()) >= 4) {
    __builtin_amdgcn_s_barrier();
  }
  rt_fl<32, 64, row_l, rt_32x32_s> o0;
  zero(o0);
  rt_fl<32, 64, row_l, rt_32x32_s> o1;
  zero(o1);
  rt_fl<32, 32, row_l, rt_32x32_s>::col_vec m;
  neg_infty(m);
  rt_fl<32, 32, row_l, rt_32x32_s>::col_vec l;
  zero(l);
  for (int j = 0; j < nkv; ++j) {
    const int s = j % 2;
    auto k_stage = subtile_inplace<64, 128>(ks, {s, 0});
    auto v_next = subtile_inplace<64, 128>(vs, {1 - s, 0});
    auto v_lo = subtile_inplace<64, 64>(vs, {s, 0});
    auto v_hi = subtile_inplace<64, 64>(vs, {s, 1});
    const int k0 = j * 64;
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 128, row_l, rt_32x16_s> kr;
    load(kr, k_stage);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_barrier(0);
    G::load<1, false>(v_next, V, {b, j + 1, h / (Q.rows() / K.rows()), 0});
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    rt_fl<64, 32, col_l, rt_32x32_s> st_;
    mma_ABt(st_, kr, q, zero_s);
    rt_fl<32, 64, row_l, rt_32x32_s> sr;
    transpose(sr, st_);
    lower_fill(sr, sr, q_end - q0, -INFINITY);
    right_fill(sr, sr, n - k0, -INFINITY);
    rt_fl<32, 64, row_l, rt_32x32_s> s4;
    if (causal) {
      tril(s4, sr, k0 - q0, -INFINITY);
    } else {
      s4 = sr;
    }
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec rm;
    row_max(rm, s4);
    mul(rm, rm, 0.12751743f);
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec grow;
    sub(grow, rm, m);
    int lane_any = 0;
    #pragma unroll
    for (int vo = 0; vo < std::remove_reference_t<decltype(grow)>::outer_dim; ++vo)
      #pragma unroll
      for (int vi = 0; vi < std::remove_reference_t<decltype(grow)>::inner_dim; ++vi)
        lane_any |= grow.data[vo][vi] > 8.0f;
    const bool re = __builtin_expect(__builtin_amdgcn_ballot_w64(lane_any) != 0, 0);
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec mx;
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec al_;
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec la;
    if (re) {
      rt_fl<32, 32, row_l, rt_32x32_s>::col_vec mxr;
      max(mxr, m, rm);
      rt_fl<32, 32, row_l, rt_32x32_s>::col_vec dm;
      sub(dm, m, mxr);
      exp2(dm, dm);
      mul(la, l, dm);
      mx = mxr;
      al_ = dm;
    } else {
      mx = m;
      al_ = one_vec;
      la = l;
    }
    mul(s4, s4, 0.12751743f);
    sub_row(s4, s4, mx);
    exp2(s4, s4);
    row_sum(la, s4, la);
    rt_bf<32, 64, row_l, rt_32x32_s> pb;
    copy(pb, s4);
    rt_bf<64, 32, col_l, rt_32x32_s> ptr;
    transpose(ptr, pb);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 64, col_l, rt_16x32_s> vr;
    shared_load_cols(vr, v_lo);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_barrier(0);
    G::load<1, false>(k_stage, K, {b, j + 2, h / (Q.rows() / K.rows()), 0});
    asm volatile("s_waitcnt vmcnt(0)");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    rt_fl<32, 64, row_l, rt_32x32_s> oa;
    if (re) {
      mul_row(oa, o0, al_);
    } else {
      oa = o0;
    }
    rt_fl<64, 32, col_l, rt_32x32_s> ot;
    transpose(ot, oa);
    rt_bf<64, 32, col_l, rt_16x32_s> ptr_hk;
    tile_relayout(ptr_hk, ptr, relayout_scratch);
    mma_AtB(ot, vr, ptr_hk, ot);
    rt_fl<32, 64, row_l, rt_32x32_s> on;
    transpose(on, ot);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 64, col_l, rt_16x32_s> vr1;
    shared_load_cols(vr1, v_hi);
    asm volatile("s_waitcnt lgkmcnt(0)");
    asm volatile("s_waitcnt vmcnt(0)");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    rt_fl<32, 64, row_l, rt_32x32_s> oa1;
    if (re) {
      mul_row(oa1, o1, al_);
    } else {
      oa1 = o1;
    }
    rt_fl<64, 32, col_l, rt_32x32_s> ot1;
    transpose(ot1, oa1);
    mma_AtB(ot1, vr1, ptr_hk, ot1);
    rt_fl<32, 64, row_l, rt_32x32_s> on1;
    transpose(on1, ot1);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    o0 = on;
    o1 = on1;
    m = mx;
    l = la;
  }
  if (__builtin_amdgcn_readfirstlane(warpid()) < 4) {
    __builtin_amdgcn_s_barrier();
  }
  asm volatile("s_waitcnt vmcnt(0)");
  div_row(o0, o0, l);
  rt_bf<32, 64, row_l, rt_32x32_s> ob0;
  copy(ob0, o0);
  store<1>(O, ob0, {b, qtile, h, 0});
  div_row(o1, o1, l);
  rt_bf<32, 64, row_l, rt_32x32_s> ob1;
  copy(ob1, o1);
  store<1>(O, ob1, {b, qtile, h, 1});
  log2(l, l);
  add(m, m, l);
  mul(m, m, 0.6931472f);
  store(L, m, {0, b, h, qtile});
}

extern "C" hipError_t launch_attention_fwd_d128(bf16 *Q, int Q_dim0, int Q_dim1, int Q_dim2, int64_t Q_stride0, int64_t Q_stride1, int64_t Q_stride2, bf16 *K, int K_dim0, int K_dim1, int K_dim2, int64_t K_stride0, int64_t K_stride1, int64_t K_stride2, bf16 *V, int V_dim0, int V_dim1, int V_dim2, int64_t V_stride0, int64_t V_stride1, int64_t V_stride2, bf16 *O, int O_dim0, int O_dim1, int O_dim2, int64_t O_stride0, int64_t O_stride1, int64_t O_stride2, float *L, int L_dim0, int L_dim1, int L_dim2, bool causal, hipStream_t stream) {
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
      O_stride0 != int64_t(O_dim2) * O_dim1 * 128 ||
      O_stride1 != int64_t(128) ||
      O_stride2 != int64_t(O_dim1) * 128)
    return hipErrorInvalidValue;
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 2 of K is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (K_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of V is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (V_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of O is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (O_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of L is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (L_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // `group` = Q_dim1 / K_dim1 must be exact: a remainder would leave indices
  // derived from it past an array.
  if (K_dim1 == 0 || Q_dim1 % K_dim1 != 0)
    return hipErrorInvalidValue;
  // The grid's ceildiv(Q_dim2, 256) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (Q_dim2 % 256 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv 256, s1, s2)>
  const dim3 grid((Q_dim2 + 256 - 1) / 256, Q_dim1, Q_dim0);
  const size_t shared_bytes = 65536;
  hipError_t err = hipFuncSetAttribute(reinterpret_cast<const void *>(&attention_fwd_d128), hipFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
  if (err != hipSuccess)
    return err;
  hipLaunchKernelGGL(attention_fwd_d128, grid, dim3(512), shared_bytes, stream,
                     gl<bf16, -1, -1, -1, -1>(Q, Q_dim0, Q_dim2, Q_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(K, K_dim0, K_dim2, K_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(V, V_dim0, V_dim2, V_dim1, 128),
                     gl<bf16, -1, -1, -1, -1>(O, O_dim0, O_dim2, O_dim1, 128),
                     gl<float, -1, -1, -1, -1>(L, 1, L_dim0, L_dim1, L_dim2),
                     causal);
  return hipGetLastError();
}

__global__ __launch_bounds__(512, 3) void attention_fwd_d64(const gl<bf16, -1, -1, -1, -1> Q, const gl<bf16, -1, -1, -1, -1> K, const gl<bf16, -1, -1, -1, -1> V, const gl<bf16, -1, -1, -1, -1> O, const gl<float, -1, -1, -1, -1> L, const bool causal) {
  using G = kittens::group<8>;
  extern __shared__ alignment_dummy __shm[];
  shared_allocator al((int *)&__shm[0]);
  // LDS for moving tiles into base-tile shapes HipKittens' calls take.
  __shared__ alignas(16) char relayout_lds[32768];
  char *const relayout_scratch = relayout_lds + __builtin_amdgcn_readfirstlane(warpid()) * 4096;
  rt_fl<32, 32, row_l, rt_32x32_s>::col_vec one_vec;
  ones(one_vec);
  rt_fl<64, 32, col_l, rt_32x32_s> zero_s;
  zero(zero_s);
  st_bf<128, 64, st_32x16_s> &ks = al.allocate<st_bf<128, 64, st_32x16_s>>();
  st_bf<128, 64, st_16x32_s> &vs = al.allocate<st_bf<128, 64, st_16x32_s>>();
  const int qblk = blockIdx.x;
  const int h = blockIdx.y;
  const int b = blockIdx.z;
  const int qtile = (qblk * 8) + __builtin_amdgcn_readfirstlane(warpid());
  const int q0 = qtile * 32;
  const int q_end = q0 + 32;
  const int n = Q.depth();
  const int nkv_all = (n + 63) / 64;
  const int nkv = causal ? std::min(nkv_all, (((qblk * 256) + 256) + 63) / 64) : nkv_all;
  rt_bf<32, 64, row_l, rt_32x16_s> q;
  load<1>(q, Q, {b, qtile, h, 0});
  auto ks0 = subtile_inplace<64, 64>(ks, {0, 0});
  auto vs0 = subtile_inplace<64, 64>(vs, {0, 0});
  auto ks1 = subtile_inplace<64, 64>(ks, {1, 0});
  G::load<1, false>(ks0, K, {b, 0, h / (Q.rows() / K.rows()), 0});
  G::load<1, false>(vs0, V, {b, 0, h / (Q.rows() / K.rows()), 0});
  G::load<1, false>(ks1, K, {b, 1, h / (Q.rows() / K.rows()), 0});
  asm volatile("s_waitcnt vmcnt(0)");
  __builtin_amdgcn_s_barrier();
  if (__builtin_amdgcn_readfirstlane(warpid()) >= 4) {
    __builtin_amdgcn_s_barrier();
  }
  rt_fl<32, 64, row_l, rt_32x32_s> o;
  zero(o);
  rt_fl<32, 32, row_l, rt_32x32_s>::col_vec m;
  neg_infty(m);
  rt_fl<32, 32, row_l, rt_32x32_s>::col_vec l;
  zero(l);
  for (int j = 0; j < nkv; ++j) {
    const int s = j % 2;
    auto k_stage = subtile_inplace<64, 64>(ks, {s, 0});
    auto v_stage = subtile_inplace<64, 64>(vs, {s, 0});
    auto v_next = subtile_inplace<64, 64>(vs, {1 - s, 0});
    const int k0 = j * 64;
    __builtin_amdgcn_sched_barrier(0);
    rt_bf<64, 64, row_l, rt_32x16_s> kr;
    load(kr, k_stage);
    asm volatile("s_waitcnt lgkmcnt(0)");
    rt_bf<64, 64, col_l, rt_16x32_s> vr;
    shared_load_cols(vr, v_stage);
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_sched_barrier(0);
    G::load<1, false>(v_next, V, {b, j + 1, h / (Q.rows() / K.rows()), 0});
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    rt_fl<64, 32, col_l, rt_32x32_s> st_;
    mma_ABt(st_, kr, q, zero_s);
    rt_fl<32, 64, row_l, rt_32x32_s> sr;
    transpose(sr, st_);
    lower_fill(sr, sr, q_end - q0, -INFINITY);
    right_fill(sr, sr, n - k0, -INFINITY);
    rt_fl<32, 64, row_l, rt_32x32_s> s4;
    if (causal) {
      tril(s4, sr, k0 - q0, -INFINITY);
    } else {
      s4 = sr;
    }
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec rm;
    row_max(rm, s4);
    mul(rm, rm, 0.18033688f);
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec grow;
    sub(grow, rm, m);
    int lane_any = 0;
    #pragma unroll
    for (int vo = 0; vo < std::remove_reference_t<decltype(grow)>::outer_dim; ++vo)
      #pragma unroll
      for (int vi = 0; vi < std::remove_reference_t<decltype(grow)>::inner_dim; ++vi)
        lane_any |= grow.data[vo][vi] > 8.0f;
    const bool re = __builtin_expect(__builtin_amdgcn_ballot_w64(lane_any) != 0, 0);
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec mx;
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec al_;
    rt_fl<32, 32, row_l, rt_32x32_s>::col_vec la;
    if (re) {
      rt_fl<32, 32, row_l, rt_32x32_s>::col_vec mxr;
      max(mxr, m, rm);
      rt_fl<32, 32, row_l, rt_32x32_s>::col_vec dm;
      sub(dm, m, mxr);
      exp2(dm, dm);
      mul(la, l, dm);
      mx = mxr;
      al_ = dm;
    } else {
      mx = m;
      al_ = one_vec;
      la = l;
    }
    mul(s4, s4, 0.18033688f);
    sub_row(s4, s4, mx);
    exp2(s4, s4);
    row_sum(la, s4, la);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_sched_group_barrier(8, 1, 0);
    __builtin_amdgcn_sched_group_barrier(1024, 1, 0);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    G::load<1, false>(k_stage, K, {b, j + 2, h / (Q.rows() / K.rows()), 0});
    asm volatile("s_waitcnt vmcnt(0)");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    rt_fl<32, 64, row_l, rt_32x32_s> oa;
    if (re) {
      mul_row(oa, o, al_);
    } else {
      oa = o;
    }
    rt_bf<32, 64, row_l, rt_32x32_s> pb;
    copy(pb, s4);
    rt_bf<64, 32, col_l, rt_32x32_s> pt;
    transpose(pt, pb);
    rt_fl<64, 32, col_l, rt_32x32_s> ot;
    transpose(ot, oa);
    rt_bf<64, 32, col_l, rt_16x32_s> pt_hk;
    tile_relayout(pt_hk, pt, relayout_scratch);
    mma_AtB(ot, vr, pt_hk, ot);
    rt_fl<32, 64, row_l, rt_32x32_s> on;
    transpose(on, ot);
    __builtin_amdgcn_s_setprio(0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_sched_barrier(0);
    o = on;
    m = mx;
    l = la;
  }
  if (__builtin_amdgcn_readfirstlane(warpid()) < 4) {
    __builtin_amdgcn_s_barrier();
  }
  asm volatile("s_waitcnt vmcnt(0)");
  div_row(o, o, l);
  rt_bf<32, 64, row_l, rt_32x32_s> ob;
  copy(ob, o);
  store<1>(O, ob, {b, qtile, h, 0});
  log2(l, l);
  add(m, m, l);
  mul(m, m, 0.6931472f);
  store(L, m, {0, b, h, qtile});
}

extern "C" hipError_t launch_attention_fwd_d64(bf16 *Q, int Q_dim0, int Q_dim1, int Q_dim2, int64_t Q_stride0, int64_t Q_stride1, int64_t Q_stride2, bf16 *K, int K_dim0, int K_dim1, int K_dim2, int64_t K_stride0, int64_t K_stride1, int64_t K_stride2, bf16 *V, int V_dim0, int V_dim1, int V_dim2, int64_t V_stride0, int64_t V_stride1, int64_t V_stride2, bf16 *O, int O_dim0, int O_dim1, int O_dim2, int64_t O_stride0, int64_t O_stride1, int64_t O_stride2, float *L, int L_dim0, int L_dim1, int L_dim2, bool causal, hipStream_t stream) {
  // HipKittens reads the [B, H, N, D] views as dense [B, N, H, D] arrays.
  if (Q_stride0 != int64_t(Q_dim2) * Q_dim1 * 64 ||
      Q_stride1 != int64_t(64) ||
      Q_stride2 != int64_t(Q_dim1) * 64 ||
      K_stride0 != int64_t(K_dim2) * K_dim1 * 64 ||
      K_stride1 != int64_t(64) ||
      K_stride2 != int64_t(K_dim1) * 64 ||
      V_stride0 != int64_t(V_dim2) * V_dim1 * 64 ||
      V_stride1 != int64_t(64) ||
      V_stride2 != int64_t(V_dim1) * 64 ||
      O_stride0 != int64_t(O_dim2) * O_dim1 * 64 ||
      O_stride1 != int64_t(64) ||
      O_stride2 != int64_t(O_dim1) * 64)
    return hipErrorInvalidValue;
  // hk reads zeros outside an array; HipKittens reads whatever lies there.
  // Reject every shape for which the kernel would use a tile partly or
  // wholly outside an array.
  // Dimension 2 of K is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (K_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of V is tiled by 64: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (V_dim2 % 64 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of O is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (O_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // Dimension 2 of L is tiled by 32: HipKittens' loads and stores do not bound
  // a ragged tile.
  if (L_dim2 % 32 != 0)
    return hipErrorInvalidValue;
  // `group` = Q_dim1 / K_dim1 must be exact: a remainder would leave indices
  // derived from it past an array.
  if (K_dim1 == 0 || Q_dim1 % K_dim1 != 0)
    return hipErrorInvalidValue;
  // The grid's ceildiv(Q_dim2, 256) must not count a partial workgroup, whose
  // tiles would lie partly or wholly past an array.
  if (Q_dim2 % 256 != 0)
    return hipErrorInvalidValue;
  // #hk.grid<[dim(0, 2), dim(0, 1), dim(0, 0)] -> (s0 ceildiv 256, s1, s2)>
  const dim3 grid((Q_dim2 + 256 - 1) / 256, Q_dim1, Q_dim0);
  const size_t shared_bytes = 32768;
  hipError_t err = hipFuncSetAttribute(reinterpret_cast<const void *>(&attention_fwd_d64), hipFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
  if (err != hipSuccess)
    return err;
  hipLaunchKernelGGL(attention_fwd_d64, grid, dim3(512), shared_bytes, stream,
                     gl<bf16, -1, -1, -1, -1>(Q, Q_dim0, Q_dim2, Q_dim1, 64),
                     gl<bf16, -1, -1, -1, -1>(K, K_dim0, K_dim2, K_dim1, 64),
                     gl<bf16, -1, -1, -1, -1>(V, V_dim0, V_dim2, V_dim1, 64),
                     gl<bf16, -1, -1, -1, -1>(O, O_dim0, O_dim2, O_dim1, 64),
                     gl<float, -1, -1, -1, -1>(L, 1, L_dim0, L_dim1, L_dim2),
                     causal);
  return hipGetLastError();
}
