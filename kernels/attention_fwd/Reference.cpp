//===- attention_fwd/Reference.cpp - flash attention forward --------------===//
//
// O = softmax(Q K^T / sqrt(D) [+ causal mask]) V and L = logsumexp per row
// (natural log), GQA: query head h reads key/value head h / (H / H_kv).
// Tensors are [B, N, heads, D] in memory, passed to the kernel as
// [B, heads, N, D] strided views (attention_fwd.mlir's header).
//
// Causal alignment, from the kernel (hk.tril with diagonal 0 at the tile's
// query and key offsets keeps col - row <= 0): top-left, query i sees keys
// j <= i.
//===----------------------------------------------------------------------===//

#include "AttentionSupport.h"

#include <cmath>

namespace hk::kernels {

void attentionForward(Library &lib, const hkrt::Buffer &Q,
                      const hkrt::Buffer &K, const hkrt::Buffer &V,
                      const hkrt::Buffer &O, const hkrt::Buffer &L, int64_t B,
                      int64_t H, int64_t Hkv, int64_t N, int64_t D,
                      bool causal) {
  attention::checkHeads(H, Hkv);
  if (D != 64 && D != 128)
    throw std::invalid_argument("attention forward: D must be 64 or 128, got " +
                                std::to_string(D));
  using attention::view;
  lib.kernel("attention_fwd", "attention_fwd_d" + std::to_string(D))
      .launch({view(Q, HKRT_DTYPE_BF16, B, N, H, D),
               view(K, HKRT_DTYPE_BF16, B, N, Hkv, D),
               view(V, HKRT_DTYPE_BF16, B, N, Hkv, D),
               view(O, HKRT_DTYPE_BF16, B, N, H, D),
               L.memref(HKRT_DTYPE_F32, {B, H, N}),
               attention::causalFlag(causal)});
}

void attentionForwardReference(const double *Q, const double *K,
                               const double *V, double *O, double *L, int64_t B,
                               int64_t H, int64_t Hkv, int64_t N, int64_t D,
                               bool causal) {
  attention::Dims dims{B, H, Hkv, N, D, causal};
  std::vector<double> p;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < N; ++i) {
        L[(b * H + h) * N + i] =
            attention::probabilities(dims, Q, K, b, h, i, p);
        for (int64_t d = 0; d < D; ++d) {
          double acc = 0;
          for (int64_t j = 0; j < N; ++j)
            acc += p[j] * V[dims.kv(b, j, h, d)];
          O[dims.q(b, i, h, d)] = acc;
        }
      }
}

namespace {

/// Scores s = Q.K log2(e)/sqrt(D) in f32: delta <= c D 2^-24
/// max_j sum|q k| + 2^-21 max|s| (dot product, scale, minus the row max).
/// Each P term is off by 2^-8 (P rounded to bf16 before P V; the row sum l
/// uses the f32 P), ln(2) delta + 2^-23 (exp2 via v_exp_f32, ~1 ulp) twice
/// (numerator and l), N 2^-24 twice (f32 sums of O and l, alpha rescalings).
/// L = (m + log2 l) ln 2 in f32: ln(2) delta, l's relative error through
/// log2, v_log_f32 and the add/multiply (2^-22 ln 2 (|m| + log2 N)).
constexpr const char *kAttentionForwardFormula =
    "2 x [O: 2^-8 |O| + (2^-8 + 2 eps_i + 2 N 2^-24) sum_j p_ij |V_jd|; "
    "L: ln2 delta_i + (N 2^-24 + 2^-23) + 2^-22 ln2 (max|s_i| + log2 N)], "
    "eps_i = ln2 delta_i + 2^-23, delta_i = D 2^-24 log2e/sqrt(D) "
    "max_j sum_d |q k| + 2^-21 max_j |s_ij|";
constexpr const char *kAttentionForwardReason =
    "bf16 inputs (exact products), f32 scores (dot over D), P rounded to "
    "bf16 before P V while l sums the f32 P, exp2 via v_exp_f32 (~1 ulp), "
    "f32 accumulation over N keys with per-block rescaling, bf16 O "
    "(2^-8); first-order bound, factor 2 for second-order terms";

attention::Dims dimsOf(const Problem &p) {
  return {p.shape[0], p.shape[1], p.shape[2],
          p.shape[3], p.shape[4], p.shape[5] != 0};
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::attention_fwd(), p);
  attention::Dims d = dimsOf(p);
  attention::checkHeads(d.H, d.Hkv);
  if (d.D != 64 && d.D != 128)
    throw std::invalid_argument("attention_fwd: D must be 64 or 128");
  checkTensorSizes(entries::attention_fwd(), p,
                   {{"Q", {d.B, d.N, d.H, d.D}},
                    {"K", {d.B, d.N, d.Hkv, d.D}},
                    {"L", {d.B, d.H, d.N}, HKRT_DTYPE_F32}});
  int64_t nq = d.B * d.N * d.H * d.D, nkv = d.B * d.N * d.Hkv * d.D;
  // Q, K in [-2, 2): scores of standard deviation ~1.3, so the softmax is
  // neither flat nor one-hot and the mask changes the result visibly.
  p.tensors = {input("Q", {d.B, d.N, d.H, d.D}, randomBF16(nq, -2, 2, gen)),
               input("K", {d.B, d.N, d.Hkv, d.D}, randomBF16(nkv, -2, 2, gen)),
               input("V", {d.B, d.N, d.Hkv, d.D}, randomBF16(nkv, -1, 1, gen)),
               output("O", {d.B, d.N, d.H, d.D}), output("L", {d.B, d.H, d.N})};
  p.tensor("L").dtype = HKRT_DTYPE_F32;
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  attention::Dims d = dimsOf(p);
  attentionForward(lib, b[0], b[1], b[2], b[3], b[4], d.B, d.H, d.Hkv, d.N, d.D,
                   d.causal);
}

/// The first-order error bounds of kAttentionForwardFormula, per element,
/// from the same float64 quantities as the reference.
void reference(Problem &p) {
  attention::Dims d = dimsOf(p);
  const std::vector<double> &Q = p.tensor("Q").values,
                            &K = p.tensor("K").values,
                            &V = p.tensor("V").values;
  HostTensor &O = p.tensor("O"), &L = p.tensor("L");
  attentionForwardReference(Q.data(), K.data(), V.data(), O.exact.data(),
                            L.exact.data(), d.B, d.H, d.Hkv, d.N, d.D,
                            d.causal);
  std::vector<double> prob;
  for (int64_t b = 0; b < d.B; ++b)
    for (int64_t h = 0; h < d.H; ++h)
      for (int64_t i = 0; i < d.N; ++i) {
        attention::probabilities(d, Q.data(), K.data(), b, h, i, prob);
        attention::ScoreError e =
            attention::scoreError(d, Q.data(), K.data(), b, h, i);
        double rel = attention::forwardTermError(e, d.N);
        int64_t li = (b * d.H + h) * d.N + i;
        L.errorScale[li] = attention::lseError(e, d.N);
        for (int64_t dd = 0; dd < d.D; ++dd) {
          double mag = 0;
          for (int64_t j = 0; j < d.N; ++j)
            mag += prob[j] * std::fabs(V[d.kv(b, j, h, dd)]);
          int64_t oi = d.q(b, i, h, dd);
          O.errorScale[oi] =
              hk::kernels::tolerance::kBF16Rounding * std::fabs(O.exact[oi]) +
              rel * mag;
        }
      }
}

Tolerance toleranceOf(const Problem &) {
  return {0.0, tolerance::kAttentionMargin, kAttentionForwardFormula,
          kAttentionForwardReason};
}

} // namespace

const KernelEntry &entries::attention_fwd() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "attention_fwd";
    e.entryPoint = "attention_fwd_d128";
    e.summary =
        "flash attention forward: O = softmax(Q K^T / sqrt(D)) V and the "
        "row log-sum-exp L; Q, O: [B,N,H,D], K, V: [B,N,H_kv,D] bf16; D 64 "
        "or 128; causal 0/1 (key j <= query i)";
    e.shapeNames = "B,H,H_kv,N,D,causal";
    e.defaultShape = {1, 4, 1, 200, 128, 1};
    e.testShape = {1, 4, 1, 200, 128, 1};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceOf;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
