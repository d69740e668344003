//===- attention_bwd/Reference.cpp - flash attention backward -------------===//
//
// Given Q, K, V, the forward's O and L and the output gradient dO (D = 128):
//   P = exp(Q K^T / sqrt(D) - L) (0 where the causal mask hides key j > i),
//   delta = rowsum(dO * O)                 (@attention_bwd_prep)
//   dV = P^T dO, dP = dO V^T, dS = P * (dP - delta),
//   dQ = dS K / sqrt(D), dK = dS^T Q / sqrt(D)   (@attention_bwd)
// With GQA, dK and dV of a key/value head sum over its H / H_kv query heads.
// dQ is f32 (accumulated by atomic adds into a buffer zeroed here); dK, dV
// are bf16. Layouts as in attention_fwd/Reference.cpp; the causal mask is
// top-left (key j <= query i), as in the forward kernel.
//===----------------------------------------------------------------------===//

#include "AttentionSupport.h"

#include <cmath>

namespace hk::kernels {

void attentionBackward(Library &lib, const hkrt::Buffer &Q,
                       const hkrt::Buffer &K, const hkrt::Buffer &V,
                       const hkrt::Buffer &O, const hkrt::Buffer &dO,
                       const hkrt::Buffer &L, const hkrt::Buffer &dQ,
                       const hkrt::Buffer &dK, const hkrt::Buffer &dV,
                       int64_t B, int64_t H, int64_t Hkv, int64_t N,
                       bool causal) {
  attention::checkHeads(H, Hkv);
  const int64_t D = 128;
  using attention::view;
  // delta lives between the two launches only.
  size_t rows = size_t(B * H * N);
  hkrt::Buffer delta = lib.device().alloc(rows ? rows * 4 : 1);
  // The kernel adds every key block's share of dQ to what is there.
  std::vector<float> zeros(size_t(B * N * H * D), 0.0f);
  if (!zeros.empty())
    hkrt::check(hkrt_buffer_write(dQ.get(), 0, zeros.data(), zeros.size() * 4));
  lib.kernel("attention_bwd", "attention_bwd_prep")
      .launch({view(dO, HKRT_DTYPE_BF16, B, N, H, D),
               view(O, HKRT_DTYPE_BF16, B, N, H, D),
               delta.memref(HKRT_DTYPE_F32, {B, H, N})});
  lib.kernel("attention_bwd", "attention_bwd")
      .launch({view(Q, HKRT_DTYPE_BF16, B, N, H, D),
               view(K, HKRT_DTYPE_BF16, B, N, Hkv, D),
               view(V, HKRT_DTYPE_BF16, B, N, Hkv, D),
               view(dO, HKRT_DTYPE_BF16, B, N, H, D),
               L.memref(HKRT_DTYPE_F32, {B, H, N}),
               delta.memref(HKRT_DTYPE_F32, {B, H, N}),
               view(dQ, HKRT_DTYPE_F32, B, N, H, D),
               view(dK, HKRT_DTYPE_BF16, B, N, Hkv, D),
               view(dV, HKRT_DTYPE_BF16, B, N, Hkv, D),
               attention::causalFlag(causal)});
}

namespace {

constexpr int64_t kHeadDim = 128;

/// P = exp2(s - L log2 e) with relative error eps_P = the forward's eps_i +
/// 2^-22 |L|. dS = P (dP - delta) is rounded to bf16 (2^-8 |dS|) after f32
/// dP = dO.V and delta = dO.O whose absolute errors (D 2^-24 sum|dO V|,
/// D 2^-24 sum|dO O|) are not relative to dS: where dP ~ delta the
/// difference cancels, so E_ij = |dS|(2^-8 + eps_P + 2^-23) + P (D 2^-24
/// (sum|dO V| + sum|dO O|)). Every gradient element sums such terms: dV =
/// P^T dO over N H/H_kv queries (bf16 P), dK = dS^T Q / sqrt(D) (same
/// count), dQ = dS K / sqrt(D) over N keys (f32 atomic adds of per-wave
/// partial sums). Larger than the forward's because every term carries the
/// bf16 rounding of dS or P with no normalisation dividing it out, the
/// cancellation in dP - delta, and n 2^-24 for n = N H/H_kv terms.
constexpr const char *kAttentionBackwardFormula =
    "2 x [dV: 2^-8 |dV| + (2^-8 + eps_P + n 2^-24) sum_i P |dO|; "
    "dK: 2^-8 |dK| + (1/sqrt D) sum_i (E_ij |Q| + n 2^-24 |dS Q|); "
    "dQ: (1/sqrt D) sum_j (E_ij |K| + N 2^-24 |dS K|)], n = N H/H_kv, "
    "E_ij = |dS|(2^-8 + eps_P + 2^-23) + P D 2^-24 (sum|dO V| + sum|dO O|)";
constexpr const char *kAttentionBackwardReason =
    "bf16 P and dS before the MFMAs (2^-8 per term, not divided out as in "
    "the forward), cancellation in dP - delta (f32 errors of dO.V and "
    "dO.O times P), f32 accumulation over N H/H_kv queries (dK, dV) and N "
    "keys with atomic adds (dQ), bf16 dK, dV (2^-8); first-order bound, "
    "factor 2 for second-order terms";

attention::Dims dimsOf(const Problem &p) {
  return {p.shape[0], p.shape[1], p.shape[2],
          p.shape[3], kHeadDim,   p.shape[4] != 0};
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::attention_bwd(), p);
  attention::Dims d = dimsOf(p);
  attention::checkHeads(d.H, d.Hkv);
  checkTensorSizes(entries::attention_bwd(), p,
                   {{"Q", {d.B, d.N, d.H, d.D}},
                    {"K", {d.B, d.N, d.Hkv, d.D}},
                    {"L", {d.B, d.H, d.N}, HKRT_DTYPE_F32},
                    {"dQ", {d.B, d.N, d.H, d.D}, HKRT_DTYPE_F32}});
  int64_t nq = d.B * d.N * d.H * d.D, nkv = d.B * d.N * d.Hkv * d.D;
  std::vector<double> Q = randomBF16(nq, -2, 2, gen),
                      K = randomBF16(nkv, -2, 2, gen),
                      V = randomBF16(nkv, -1, 1, gen),
                      dO = randomBF16(nq, -1, 1, gen);
  // O and L as the forward pass leaves them: the float64 forward, O rounded
  // to bf16 and L to f32 (what the kernel reads).
  std::vector<double> O(size_t(nq), 0.0), L(size_t(d.B * d.H * d.N), 0.0);
  attentionForwardReference(Q.data(), K.data(), V.data(), O.data(), L.data(),
                            d.B, d.H, d.Hkv, d.N, d.D, d.causal);
  for (double &x : O)
    x = roundToBF16(x);
  for (double &x : L)
    x = double(float(x));
  p.tensors = {input("Q", {d.B, d.N, d.H, d.D}, std::move(Q)),
               input("K", {d.B, d.N, d.Hkv, d.D}, std::move(K)),
               input("V", {d.B, d.N, d.Hkv, d.D}, std::move(V)),
               input("O", {d.B, d.N, d.H, d.D}, std::move(O)),
               input("dO", {d.B, d.N, d.H, d.D}, std::move(dO)),
               input("L", {d.B, d.H, d.N}, std::move(L)),
               output("dQ", {d.B, d.N, d.H, d.D}),
               output("dK", {d.B, d.N, d.Hkv, d.D}),
               output("dV", {d.B, d.N, d.Hkv, d.D})};
  p.tensor("L").dtype = HKRT_DTYPE_F32;
  p.tensor("dQ").dtype = HKRT_DTYPE_F32;
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  attention::Dims d = dimsOf(p);
  attentionBackward(lib, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8],
                    d.B, d.H, d.Hkv, d.N, d.causal);
}

/// The gradients and, alongside, the first-order error bounds of
/// kAttentionBackwardFormula per element.
void reference(Problem &p) {
  attention::Dims d = dimsOf(p);
  const double *Q = p.tensor("Q").values.data(),
               *K = p.tensor("K").values.data(),
               *V = p.tensor("V").values.data(),
               *O = p.tensor("O").values.data(),
               *dO = p.tensor("dO").values.data(),
               *L = p.tensor("L").values.data();
  HostTensor &dQ = p.tensor("dQ"), &dK = p.tensor("dK"), &dV = p.tensor("dV");
  for (HostTensor *t : {&dQ, &dK, &dV}) {
    std::fill(t->exact.begin(), t->exact.end(), 0.0);
    std::fill(t->errorScale.begin(), t->errorScale.end(), 0.0);
  }
  const double c = 1.0 / std::sqrt(double(d.D));
  const double u = std::ldexp(1.0, -24),
               bf = hk::kernels::tolerance::kBF16Rounding;
  // Terms summed into one dK or dV element: every query of every head of
  // the group.
  const double nkv = double(d.N * d.group());
  std::vector<double> P(d.N), dS(d.N), E(d.N);
  for (int64_t b = 0; b < d.B; ++b)
    for (int64_t h = 0; h < d.H; ++h)
      for (int64_t i = 0; i < d.N; ++i) {
        double Li = L[(b * d.H + h) * d.N + i];
        int64_t keys = d.causal ? i + 1 : d.N;
        double delta = 0, deltaMag = 0;
        for (int64_t k = 0; k < d.D; ++k) {
          delta += dO[d.q(b, i, h, k)] * O[d.q(b, i, h, k)];
          deltaMag += std::fabs(dO[d.q(b, i, h, k)] * O[d.q(b, i, h, k)]);
        }
        attention::ScoreError se = attention::scoreError(d, Q, K, b, h, i);
        // P's relative error: the scores' plus the f32 L * log2(e).
        double epsP = attention::termError(se) + std::ldexp(std::fabs(Li), -22);
        double e2 = double(d.D) * u * deltaMag + u * std::fabs(delta);
        for (int64_t j = 0; j < d.N; ++j) {
          P[j] = dS[j] = E[j] = 0;
          if (j >= keys)
            continue;
          double s = 0, dp = 0, dpMag = 0;
          for (int64_t k = 0; k < d.D; ++k) {
            s += Q[d.q(b, i, h, k)] * K[d.kv(b, j, h, k)];
            dp += dO[d.q(b, i, h, k)] * V[d.kv(b, j, h, k)];
            dpMag += std::fabs(dO[d.q(b, i, h, k)] * V[d.kv(b, j, h, k)]);
          }
          P[j] = std::exp(s * c - Li);
          dS[j] = P[j] * (dp - delta);
          // dS in bf16: its rounding, P's error, the f32 rounding of the
          // difference and product; dP and delta's f32 errors times P.
          E[j] = std::fabs(dS[j]) * (bf + epsP + 2 * u) +
                 P[j] * (double(d.D) * u * dpMag + e2);
        }
        double vRel = bf + epsP + nkv * u;
        for (int64_t k = 0; k < d.D; ++k) {
          double q = Q[d.q(b, i, h, k)], g = dO[d.q(b, i, h, k)];
          double dq = 0, dqErr = 0, dqMag = 0;
          for (int64_t j = 0; j < keys; ++j) {
            int64_t kj = d.kv(b, j, h, k);
            dV.exact[kj] += P[j] * g;
            dV.errorScale[kj] += vRel * P[j] * std::fabs(g);
            dK.exact[kj] += c * dS[j] * q;
            dK.errorScale[kj] +=
                c * (E[j] * std::fabs(q) + nkv * u * std::fabs(dS[j] * q));
            dq += dS[j] * K[kj];
            dqErr += E[j] * std::fabs(K[kj]);
            dqMag += std::fabs(dS[j] * K[kj]);
          }
          int64_t qi = d.q(b, i, h, k);
          dQ.exact[qi] = c * dq;
          // f32 output: the sum over N keys (N 2^-24), the atomic adds of
          // the per-wave partial sums included.
          dQ.errorScale[qi] = c * (dqErr + double(d.N) * u * dqMag);
        }
      }
  // dK and dV are rounded to bf16 at the end.
  for (HostTensor *t : {&dK, &dV})
    for (size_t x = 0; x < t->exact.size(); ++x)
      t->errorScale[x] += bf * std::fabs(t->exact[x]);
}

Tolerance toleranceOf(const Problem &) {
  return {0.0, tolerance::kAttentionMargin, kAttentionBackwardFormula,
          kAttentionBackwardReason};
}

} // namespace

const KernelEntry &entries::attention_bwd() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "attention_bwd";
    e.summary =
        "flash attention backward, D = 128: dQ (f32), dK, dV (bf16) from Q, K, "
        "V, O, dO ([B,N,heads,128] bf16) and L ([B,H,N] f32); causal 0/1";
    e.shapeNames = "B,H,H_kv,N,causal";
    e.defaultShape = {1, 4, 1, 200, 1};
    e.testShape = {1, 4, 1, 200, 1};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceOf;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
