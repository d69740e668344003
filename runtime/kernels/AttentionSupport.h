//===- AttentionSupport.h - shared by attention_fwd and attention_bwd -----===//
//
// Shapes, the strided views the attention kernels take, the float64 softmax
// row and the first-order error terms of the scores (each kernel's
// Reference.cpp explains how they combine); attention_bwd's problem setup
// runs attention_fwd's reference.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_KERNELS_ATTENTIONSUPPORT_H
#define HK_RUNTIME_KERNELS_ATTENTIONSUPPORT_H

#include "ProblemSupport.h"
#include "Tolerances.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace hk::kernels {

namespace tolerance {
/// Both attention kernels' tolerance: rel = 0, the whole bound is the
/// per-element errorScale, a first-order error bound built from the float64
/// quantities of the reference (the terms below), and abs = kAttentionMargin
/// = 2 covers second-order terms.
inline const double kAttentionMargin = 2.0;
} // namespace tolerance

void attentionForward(Library &lib, const hkrt::Buffer &Q,
                      const hkrt::Buffer &K, const hkrt::Buffer &V,
                      const hkrt::Buffer &O, const hkrt::Buffer &L, int64_t B,
                      int64_t H, int64_t Hkv, int64_t N, int64_t D,
                      bool causal);
void attentionForwardReference(const double *Q, const double *K,
                               const double *V, double *O, double *L, int64_t B,
                               int64_t H, int64_t Hkv, int64_t N, int64_t D,
                               bool causal);
/// Runs @attention_bwd_prep then @attention_bwd (D = 128); zeroes dQ first.
void attentionBackward(Library &lib, const hkrt::Buffer &Q,
                       const hkrt::Buffer &K, const hkrt::Buffer &V,
                       const hkrt::Buffer &O, const hkrt::Buffer &dO,
                       const hkrt::Buffer &L, const hkrt::Buffer &dQ,
                       const hkrt::Buffer &dK, const hkrt::Buffer &dV,
                       int64_t B, int64_t H, int64_t Hkv, int64_t N,
                       bool causal);

namespace attention {

struct Dims {
  int64_t B, H, Hkv, N, D;
  bool causal;
  int64_t group() const { return H / Hkv; }
  /// Element (b, i, h, d) of a [B, N, H, D] tensor.
  int64_t q(int64_t b, int64_t i, int64_t h, int64_t d) const {
    return ((b * N + i) * H + h) * D + d;
  }
  /// Element (b, j, h / group, d) of a [B, N, H_kv, D] tensor: the key or
  /// value of query head h.
  int64_t kv(int64_t b, int64_t j, int64_t h, int64_t d) const {
    return ((b * N + j) * Hkv + h / group()) * D + d;
  }
};

inline void checkHeads(int64_t H, int64_t Hkv) {
  if (H <= 0 || Hkv <= 0 || H % Hkv != 0)
    throw std::invalid_argument(
        "attention: H_kv must divide H (H = " + std::to_string(H) +
        ", H_kv = " + std::to_string(Hkv) + ")");
}

/// A contiguous [B, N, heads, D] tensor as the [B, heads, N, D] view the
/// kernels index (strides [N*heads*D, D, heads*D, 1]); nothing is copied.
inline hkrt_arg view(const hkrt::Buffer &buf, hkrt_dtype dtype, int64_t B,
                     int64_t N, int64_t heads, int64_t D) {
  int64_t sizes[4] = {B, heads, N, D};
  int64_t strides[4] = {N * heads * D, D, heads * D, 1};
  return hkrt_arg_memref(buf.get(), dtype, 4, sizes, strides);
}

/// The `causal` argument, an i1.
inline hkrt_arg causalFlag(bool causal) {
  return hkrt_arg_int(HKRT_DTYPE_BOOL, causal ? 1 : 0);
}

/// Fills p[0, N) with softmax_j(Q_i . K_j / sqrt(D)) of query row i of head
/// h (0 for masked keys j > i when causal) and returns the log-sum-exp.
inline double probabilities(const Dims &d, const double *Q, const double *K,
                            int64_t b, int64_t h, int64_t i,
                            std::vector<double> &p) {
  int64_t keys = d.causal ? std::min(i + 1, d.N) : d.N;
  double scale = 1.0 / std::sqrt(double(d.D)), mx = -INFINITY;
  p.assign(size_t(d.N), 0.0);
  for (int64_t j = 0; j < keys; ++j) {
    double s = 0;
    for (int64_t k = 0; k < d.D; ++k)
      s += Q[d.q(b, i, h, k)] * K[d.kv(b, j, h, k)];
    p[j] = s * scale;
    mx = std::fmax(mx, p[j]);
  }
  double sum = 0;
  for (int64_t j = 0; j < keys; ++j)
    sum += std::exp(p[j] - mx);
  double lse = mx + std::log(sum);
  for (int64_t j = 0; j < keys; ++j)
    p[j] = std::exp(p[j] - lse);
  return lse;
}

/// How far the kernel's scores of row i may be off, in the log2 domain the
/// kernels use (s = Q.K * log2(e) / sqrt(D)).
struct ScoreError {
  double delta;  // |s_kernel - s| for every key of the row
  double maxAbs; // max_j |s_j|
};

/// f32 dot product of D exact bf16 products: <= D 2^-24 sum_k |q_k k_k|;
/// times the scale (a rounded f32 constant, one rounding): 2^-23 |s|; the
/// subtraction of the row max (or of L log2 e): 2^-24 (|s| + |m|). Together
/// delta <= c D 2^-24 max_j sum_k |q k| + 2^-21 max_j |s_j|.
inline ScoreError scoreError(const Dims &d, const double *Q, const double *K,
                             int64_t b, int64_t h, int64_t i) {
  double c = M_LOG2E / std::sqrt(double(d.D)), dot = 0, mx = 0;
  int64_t keys = d.causal ? std::min(i + 1, d.N) : d.N;
  for (int64_t j = 0; j < keys; ++j) {
    double mag = 0, s = 0;
    for (int64_t k = 0; k < d.D; ++k) {
      double t = Q[d.q(b, i, h, k)] * K[d.kv(b, j, h, k)];
      mag += std::fabs(t);
      s += t;
    }
    dot = std::fmax(dot, mag);
    mx = std::fmax(mx, std::fabs(s * c));
  }
  return {c * double(d.D) * std::ldexp(dot, -24) + std::ldexp(mx, -21), mx};
}

/// Relative error of one P term: an argument error delta (log2 domain)
/// gives ln(2) delta; exp2 (v_exp_f32) about 1 ulp, 2^-23.
inline double termError(const ScoreError &e) {
  return M_LN2 * e.delta + std::ldexp(1.0, -23);
}

/// Forward, per P V term, relative: P rounded to bf16 before P V (2^-8);
/// the error of P twice (in the numerator P V and in the row sum l, which
/// does not see the bf16 rounding); f32 sums of up to N terms in O and l
/// and the alpha rescalings (one per 64 keys): N 2^-24 each.
inline double forwardTermError(const ScoreError &e, int64_t N) {
  return tolerance::kBF16Rounding + 2 * termError(e) +
         2 * double(N) * std::ldexp(1.0, -24);
}

/// Forward L = (m + log2 l) ln 2: the scores' error (delta, also in m), l's
/// relative error (N 2^-24 of the sum, 2^-23 of exp2) through log2, v_log_f32
/// (1 ulp of |log2 l| <= log2 N), the add and the product by ln 2 (2^-24
/// (|m| + log2 N) each).
inline double lseError(const ScoreError &e, int64_t N) {
  double log2N = std::log2(double(std::max<int64_t>(N, 2)));
  return M_LN2 * e.delta +
         (double(N) * std::ldexp(1.0, -24) + std::ldexp(1.0, -23)) +
         M_LN2 * std::ldexp(e.maxAbs + log2N, -22);
}

} // namespace attention
} // namespace hk::kernels

#endif // HK_RUNTIME_KERNELS_ATTENTIONSUPPORT_H
