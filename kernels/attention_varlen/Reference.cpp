//===- attention_varlen/Reference.cpp - packed variable-length prefill ----===//
//
// The problem of --shape B,H,H_kv,N_q,N_k,D,causal,windowed,W,lens: B
// sequences packed one after another, sequence b with len_q(b) queries and
// len_k(b) keys, H query heads over H_kv key/value heads, head dimension D.
// lens = 0 gives every sequence N_q queries and N_k keys; lens = 1 draws
// len_q from [0, N_q] and len_k from [0, N_k] and sets the first sequences
// to the degenerate pairs (0, 0), (1, 1), (N_q, N_k), (1, N_k), (N_q, 0) as
// far as B allows; lens = 2 is unbalanced, a ramp len(b) = round(2 N (b + 1)
// / (B + 1)) for both (the same total tokens as lens = 0). windowed = 1
// adds the left window W (windowed = 0 ignores W).
//
// Tensors: Q and O [total_q, H, D] bf16, K and V [total_k, H_kv, D] bf16,
// cu_seqlens_q [B + 1] and cu_seqlens_k [B + 1] int32 (the offsets, in
// device memory: the kernel reads the lengths there), L [H, total_q] f32.
//
// Masking (attention_varlen.mlir's header): query i of a sequence sits at
// key position p = i + len_k - len_q (bottom-right alignment, as
// FlashAttention's varlen kernels when the lengths differ); it sees key j
// when j < len_k, j <= p if causal and j >= p - W if windowed. A query
// without any visible key gets O = 0 and L = -inf.
//===----------------------------------------------------------------------===//

#include "AttentionSupport.h"

#include "hk/Base/Chip.h"

#include <algorithm>
#include <cmath>

namespace hk::kernels {

namespace {

/// The shape and the sequences' lengths.
struct Varlen {
  int64_t B, H, Hkv, Nq, Nk, D;
  bool causal, windowed;
  int64_t W;
  std::vector<int64_t> cuQ, cuK; // B + 1 offsets each
  int64_t group() const { return H / Hkv; }
  int64_t totalQ() const { return cuQ.back(); }
  int64_t totalK() const { return cuK.back(); }
  int64_t lenQ(int64_t b) const { return cuQ[b + 1] - cuQ[b]; }
  int64_t lenK(int64_t b) const { return cuK[b + 1] - cuK[b]; }
  /// Element (row, h, d) of Q or O, row a packed query row.
  int64_t q(int64_t row, int64_t h, int64_t d) const {
    return (row * H + h) * D + d;
  }
  /// Element (row, h / group, d) of K or V: the key or value of query head h.
  int64_t kv(int64_t row, int64_t h, int64_t d) const {
    return (row * Hkv + h / group()) * D + d;
  }
  /// The keys [first, last] query i of sequence b sees (first > last: none).
  std::pair<int64_t, int64_t> keys(int64_t b, int64_t i) const {
    int64_t lk = lenK(b), p = i + lk - lenQ(b);
    int64_t last = causal ? std::min(p, lk - 1) : lk - 1;
    int64_t first = windowed ? std::max<int64_t>(0, p - W) : 0;
    return {first, last};
  }
};

std::vector<int64_t> offsets(const std::vector<int64_t> &lens) {
  std::vector<int64_t> cu(lens.size() + 1, 0);
  for (size_t b = 0; b < lens.size(); ++b)
    cu[b + 1] = cu[b] + lens[b];
  return cu;
}

/// The lengths of the file comment's `lens` modes; N the bound.
std::vector<int64_t> lengths(int64_t mode, int64_t B, int64_t N,
                             std::mt19937 *gen, const int64_t *fixed) {
  std::vector<int64_t> lens(size_t(B), N);
  if (mode == 1) {
    std::uniform_int_distribution<int64_t> dist(0, N);
    for (int64_t &len : lens)
      len = dist(*gen);
    for (int64_t b = 0; b < std::min<int64_t>(B, 5); ++b)
      lens[b] = fixed[b];
  } else if (mode == 2) {
    for (int64_t b = 0; b < B; ++b)
      lens[b] = (2 * N * (b + 1) + (B + 1) / 2) / (B + 1);
  }
  return lens;
}

Varlen varlenOf(const Problem &p) {
  Varlen v{p.shape[0], p.shape[1],      p.shape[2],      p.shape[3], p.shape[4],
           p.shape[5], p.shape[6] != 0, p.shape[7] != 0, p.shape[8], {},
           {}};
  // The offsets are inputs of the problem once it is set up.
  for (double x : p.tensor("cu_seqlens_q").values)
    v.cuQ.push_back(int64_t(x));
  for (double x : p.tensor("cu_seqlens_k").values)
    v.cuK.push_back(int64_t(x));
  return v;
}

/// Workgroups of the persistent grid: one per compute unit (8 waves of up
/// to 256 registers fill one), no more than a bound on the tiles from the
/// shapes alone, ((total_q ceildiv 256) + B) H; any positive count is
/// correct.
int64_t varlenWorkgroups(const std::string &chip, int64_t B, int64_t H,
                         int64_t totalQ) {
  const hk::ChipInfo *info = hk::lookupChip(chip);
  if (!info)
    throw std::invalid_argument("attention_varlen: unknown chip '" + chip +
                                "'");
  int64_t tiles = ((totalQ + 255) / 256 + B) * H;
  return std::max<int64_t>(1, std::min<int64_t>(info->computeUnits, tiles));
}

/// Launches @attention_varlen_d<D> on `workgroups` workgroups (0: the
/// chip's choice, varlenWorkgroups); window < 0: none.
void attentionVarlen(Library &lib, const hkrt::Buffer &Q, const hkrt::Buffer &K,
                     const hkrt::Buffer &V, const hkrt::Buffer &cuQ,
                     const hkrt::Buffer &cuK, const hkrt::Buffer &O,
                     const hkrt::Buffer &L, int64_t B, int64_t H, int64_t Hkv,
                     int64_t totalQ, int64_t totalK, int64_t D, bool causal,
                     int64_t window, int64_t workgroups) {
  attention::checkHeads(H, Hkv);
  if (D != 64 && D != 128)
    throw std::invalid_argument("attention_varlen: D must be 64 or 128, got " +
                                std::to_string(D));
  if (B < 1 || workgroups < 0 || window >= INT32_MAX)
    throw std::invalid_argument(
        "attention_varlen: B at least 1, workgroups at least 0, the window "
        "below 2^31 (negative: none)");
  if (workgroups == 0)
    workgroups = varlenWorkgroups(lib.device().chip(), B, H, totalQ);
  // [rows, heads, D] seen as [heads, rows, D]: the kernel's views.
  auto view = [](const hkrt::Buffer &buf, int64_t rows, int64_t heads,
                 int64_t d) {
    int64_t sizes[3] = {heads, rows, d};
    int64_t strides[3] = {d, heads * d, 1};
    return hkrt_arg_memref(buf.get(), HKRT_DTYPE_BF16, 3, sizes, strides);
  };
  lib.kernel("attention_varlen", "attention_varlen_d" + std::to_string(D))
      .launch({view(Q, totalQ, H, D), view(K, totalK, Hkv, D),
               view(V, totalK, Hkv, D), view(O, totalQ, H, D),
               L.memref(HKRT_DTYPE_F32, {H, totalQ}),
               cuQ.memref(HKRT_DTYPE_I32, {B + 1}),
               cuK.memref(HKRT_DTYPE_I32, {B + 1}),
               hkrt_arg_int(HKRT_DTYPE_INDEX, workgroups),
               attention::causalFlag(causal),
               hkrt_arg_int(HKRT_DTYPE_I32, window < 0 ? -1 : window)});
}

/// attention_fwd's bound (its Reference.cpp), with N the row's keys.
constexpr const char *kVarlenFormula =
    "2 x [O: 2^-8 |O| + (2^-8 + 2 eps_i + 2 n 2^-24) sum_j p_ij |V_jd|; "
    "L: ln2 delta_i + (n 2^-24 + 2^-23) + 2^-22 ln2 (max|s_i| + log2 n)], "
    "eps_i = ln2 delta_i + 2^-23, delta_i = D 2^-24 log2e/sqrt(D) "
    "max_j sum_d |q k| + 2^-21 max_j |s_ij|, n the row's visible keys";
constexpr const char *kVarlenReason =
    "attention_fwd's: bf16 inputs, f32 scores, P rounded to bf16 before "
    "P V, exp2 via v_exp_f32, f32 accumulation over the row's keys with "
    "rescaling, bf16 O (2^-8); first-order bound, factor 2 for "
    "second-order terms";

HostTensor offsetsTensor(const char *name, const std::vector<int64_t> &cu) {
  HostTensor t = input(name, {int64_t(cu.size())},
                       std::vector<double>(cu.begin(), cu.end()));
  t.dtype = HKRT_DTYPE_I32;
  return t;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::attention_varlen(), p);
  const std::vector<int64_t> &s = p.shape;
  int64_t B = s[0], H = s[1], Hkv = s[2], Nq = s[3], Nk = s[4], D = s[5];
  attention::checkHeads(H, Hkv);
  if (D != 64 && D != 128)
    throw std::invalid_argument("attention_varlen: D must be 64 or 128");
  if (B < 1 || s[6] > 1 || s[7] > 1 || s[9] > 2 || s[8] >= INT32_MAX ||
      2 * B * std::max(Nq, Nk) >= INT32_MAX)
    throw std::invalid_argument(
        "attention_varlen: B at least 1; causal and windowed 0 or 1; W "
        "below 2^31; lens 0 (every length N_q, N_k), 1 (random, with 0, 1 "
        "and the bounds among them) or 2 (a ramp); the packed lengths fit "
        "int32");
  checkTensorSizes(entries::attention_varlen(), p,
                   {{"Q", {2 * B * Nq, H, D}},
                    {"K", {2 * B * Nk, Hkv, D}},
                    {"L", {H, 2 * B * Nq}, HKRT_DTYPE_F32}});
  const int64_t fixedQ[5] = {0, 1, Nq, 1, Nq}, fixedK[5] = {0, 1, Nk, Nk, 0};
  std::vector<int64_t> lq = lengths(s[9], B, Nq, &gen, fixedQ);
  std::vector<int64_t> lk = lengths(s[9], B, Nk, &gen, fixedK);
  std::vector<int64_t> cuQ = offsets(lq), cuK = offsets(lk);
  int64_t tq = cuQ.back(), tk = cuK.back();
  // Q, K in [-2, 2) as attention_fwd's: neither flat nor one-hot scores.
  p.tensors = {input("Q", {tq, H, D}, randomBF16(tq * H * D, -2, 2, gen)),
               input("K", {tk, Hkv, D}, randomBF16(tk * Hkv * D, -2, 2, gen)),
               input("V", {tk, Hkv, D}, randomBF16(tk * Hkv * D, -1, 1, gen)),
               offsetsTensor("cu_seqlens_q", cuQ),
               offsetsTensor("cu_seqlens_k", cuK),
               output("O", {tq, H, D}),
               output("L", {H, tq})};
  p.tensor("L").dtype = HKRT_DTYPE_F32;
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  Varlen v = varlenOf(p);
  attentionVarlen(lib, b[0], b[1], b[2], b[3], b[4], b[5], b[6], v.B, v.H,
                  v.Hkv, v.totalQ(), v.totalK(), v.D, v.causal,
                  v.windowed ? v.W : -1, 0);
}

/// Query i of sequence b, head h: O, L and their error scales.
void referenceRow(Problem &p, const Varlen &v, int64_t b, int64_t h,
                  int64_t i) {
  const std::vector<double> &Q = p.tensor("Q").values,
                            &K = p.tensor("K").values,
                            &V = p.tensor("V").values;
  HostTensor &O = p.tensor("O"), &L = p.tensor("L");
  auto [first, last] = v.keys(b, i);
  int64_t n = std::max<int64_t>(0, last - first + 1);
  int64_t row = v.cuQ[b] + i, k0 = v.cuK[b] + first;
  double scale = 1.0 / std::sqrt(double(v.D)), c = M_LOG2E * scale;
  std::vector<double> prob(static_cast<size_t>(n));
  double mx = -INFINITY, dot = 0, maxAbs = 0;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0, mag = 0;
    for (int64_t d = 0; d < v.D; ++d) {
      double x = Q[v.q(row, h, d)] * K[v.kv(k0 + j, h, d)];
      s += x;
      mag += std::fabs(x);
    }
    prob[j] = s * scale;
    mx = std::fmax(mx, prob[j]);
    dot = std::fmax(dot, mag);
    maxAbs = std::fmax(maxAbs, std::fabs(s * c));
  }
  attention::ScoreError err{
      c * double(v.D) * std::ldexp(dot, -24) + std::ldexp(maxAbs, -21), maxAbs};
  double lse = -INFINITY;
  if (n > 0) {
    double sum = 0;
    for (double s : prob)
      sum += std::exp(s - mx);
    lse = mx + std::log(sum);
    for (double &s : prob)
      s = std::exp(s - lse);
  }
  int64_t li = h * v.totalQ() + row;
  L.exact[li] = lse;
  L.errorScale[li] = n > 0 ? attention::lseError(err, n) : 0;
  double rel = attention::forwardTermError(err, n);
  for (int64_t d = 0; d < v.D; ++d) {
    double acc = 0, mag = 0;
    for (int64_t j = 0; j < n; ++j) {
      acc += prob[j] * V[v.kv(k0 + j, h, d)];
      mag += prob[j] * std::fabs(V[v.kv(k0 + j, h, d)]);
    }
    int64_t oi = v.q(row, h, d);
    O.exact[oi] = acc;
    O.errorScale[oi] = tolerance::kBF16Rounding * std::fabs(acc) + rel * mag;
  }
}

void reference(Problem &p) {
  Varlen v = varlenOf(p);
  for (int64_t b = 0; b < v.B; ++b)
    for (int64_t h = 0; h < v.H; ++h)
      for (int64_t i = 0; i < v.lenQ(b); ++i)
        referenceRow(p, v, b, h, i);
}

Tolerance toleranceOf(const Problem &) {
  return {0.0, tolerance::kAttentionMargin, kVarlenFormula, kVarlenReason};
}

} // namespace

const KernelEntry &entries::attention_varlen() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "attention_varlen";
    e.entryPoint = "attention_varlen_d128";
    e.summary =
        "variable-length prefill attention over packed sequences: Q, O: "
        "[total_q,H,D], K, V: [total_k,H_kv,D] bf16, cu_seqlens_q/k: B+1 "
        "int32 offsets, L: [H,total_q]; D 64 or 128; causal 0/1 "
        "(bottom-right aligned), windowed 0/1 with left window W; lens 0 "
        "(all N_q, N_k), 1 (random with 0 and 1) or 2 (a ramp)";
    e.shapeNames = "B,H,H_kv,N_q,N_k,D,causal,windowed,W,lens";
    e.defaultShape = {4, 8, 2, 300, 300, 128, 1, 0, 0, 1};
    e.testShape = {6, 4, 2, 150, 200, 128, 1, 1, 70, 1};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceOf;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
