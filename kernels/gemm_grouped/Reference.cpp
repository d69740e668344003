//===- gemm_grouped/Reference.cpp - grouped C_g = A_g * B_g^T, float64 ----===//
//
// The problem of --shape G,M,N,K,ragged,fp8: G groups whose row counts add
// up to M, shared N and K. ragged = 0 splits M evenly (the first M mod G
// groups get one row more); ragged = 1 cuts M at G - 1 random points and
// then empties group 1 (its rows go to group 0), so that a ragged problem
// always has an empty group when G >= 2. fp8 = 0 runs it in bf16
// (@gemm_grouped: A, B, C, offsets), fp8 = 1 in fp8 with per-row scales of
// A and per-group, per-column scales of B (@gemm_grouped_fp8: A8, B8, sa,
// sb, C8, offsets). One launch per run, so that the timing mode (which
// reports the last launch) times the entry point the shape names.
//===----------------------------------------------------------------------===//

#include "ProblemSupport.h"
#include "Tolerances.h"

#include "hk/Base/Chip.h"

#include <algorithm>
#include <cmath>

namespace hk::kernels {

namespace {

/// Output tile of one workgroup (gemm_grouped.mlir).
constexpr int64_t kTile = 256;

/// Workgroups of this kernel one compute unit holds: its 8 waves take more
/// than 128 VGPRs each (255 on gfx950, 256 on gfx942, --resource-usage), so
/// each SIMD's 512 registers per lane hold its two waves and no more.
constexpr int64_t kWorkgroupsPerCU = 1;

/// The persistent grid: one workgroup per resident slot of the chip, but no
/// more than there can be tiles. From G, M and N alone (never the group
/// sizes): sum_g ceil(M_g / 256) < sum_g (M_g / 256 + 1) = M / 256 + G, so
/// it is at most ceil(M / 256) + G - 1.
int64_t persistentWorkgroups(const std::string &chip, int64_t G, int64_t M,
                             int64_t N) {
  const hk::ChipInfo *info = hk::lookupChip(chip);
  if (!info)
    throw std::invalid_argument("gemm_grouped: unknown chip '" + chip + "'");
  int64_t slots = info->computeUnits * kWorkgroupsPerCU;
  int64_t maxTiles =
      G == 0 ? 0
             : ((M + kTile - 1) / kTile + G - 1) * ((N + kTile - 1) / kTile);
  return std::max<int64_t>(1, std::min(slots, maxTiles));
}

/// Whether the problem is the fp8 one (the shape's last value).
bool isFp8(const Problem &p) { return p.shape[5] == 1; }

/// @gemm_grouped on the buffers A, B, C, offsets.
void gemmGrouped(Library &lib, const std::vector<hkrt::Buffer> &b, int64_t G,
                 int64_t M, int64_t N, int64_t K) {
  int64_t workgroups = persistentWorkgroups(lib.device().chip(), G, M, N);
  lib.kernel("gemm_grouped", "gemm_grouped")
      .launch({b[0].memref(HKRT_DTYPE_BF16, {M, K}),
               b[1].memref(HKRT_DTYPE_BF16, {G, N, K}),
               b[2].memref(HKRT_DTYPE_BF16, {M, N}),
               b[3].memref(HKRT_DTYPE_I32, {G + 1}),
               hkrt_arg_int(HKRT_DTYPE_INDEX, workgroups)});
}

/// @gemm_grouped_fp8 on the buffers A8, B8, sa, sb, C8, offsets.
void gemmGroupedFp8(Library &lib, const std::vector<hkrt::Buffer> &b, int64_t G,
                    int64_t M, int64_t N, int64_t K) {
  int64_t workgroups = persistentWorkgroups(lib.device().chip(), G, M, N);
  lib.kernel("gemm_grouped", "gemm_grouped_fp8")
      .launch({b[0].memref(HKRT_DTYPE_FP8, {M, K}),
               b[1].memref(HKRT_DTYPE_FP8, {G, N, K}),
               b[2].memref(HKRT_DTYPE_F32, {M}),
               b[3].memref(HKRT_DTYPE_F32, {G, N}),
               b[4].memref(HKRT_DTYPE_BF16, {M, N}),
               b[5].memref(HKRT_DTYPE_I32, {G + 1}),
               hkrt_arg_int(HKRT_DTYPE_INDEX, workgroups)});
}

/// +-(1 + m/8) 2^e, e in [-4, 3]: normal E4M3 numbers in both chips'
/// formats, so one set of values serves both (kernels/gemm_fp8).
std::vector<double> randomE4M3(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> mant(0, 7), exp(-4, 3), sign(0, 1);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = (sign(gen) ? -1 : 1) * std::ldexp(1 + mant(gen) / 8.0, exp(gen));
  return v;
}

HostTensor typed(HostTensor t, hkrt_dtype dtype) {
  t.dtype = dtype;
  return t;
}

void gemmGroupedReference(const double *A, const double *B, double *C,
                          const int32_t *offsets, int64_t G, int64_t N,
                          int64_t K) {
  for (int64_t g = 0; g < G; ++g)
    gemmReference(A + offsets[g] * K, B + g * N * K, C + offsets[g] * N,
                  offsets[g + 1] - offsets[g], N, K);
}

/// As gemm_bf16: each element is a dot product of K bf16 pairs summed in
/// f32, rounded once to bf16.
const double kGemmAccumulation = std::ldexp(1.0, -23);
constexpr const char *kGemmFormula = "2^-8 |c| + 2^-23 K sum_k |a_k b_k|";
/// The fp8 outputs (C8) hold to the same bound, scaled: E4M3 products are
/// exact in f32 like bf16 ones, and the two f32 scalings after the loop
/// (2 2^-24 |c|) sit well inside the 2^-8 |c| of the output rounding
/// (kernels/gemm_fp8).
constexpr const char *kGemmReason =
    "bf16 or E4M3 inputs (exact products), f32 accumulation of K products "
    "(<= (K-1) 2^-24 sum|ab|), f32 scaling (fp8), bf16 output rounding "
    "(2^-8)";

/// The group offsets o_0 = 0, ..., o_G = M of the problem (file comment).
std::vector<double> groupOffsets(int64_t G, int64_t M, bool ragged,
                                 std::mt19937 &gen) {
  std::vector<int64_t> cuts;
  if (ragged) {
    std::uniform_int_distribution<int64_t> dist(0, M);
    for (int64_t g = 1; g < G; ++g)
      cuts.push_back(dist(gen));
    std::sort(cuts.begin(), cuts.end());
    if (G >= 2)
      cuts[0] = G >= 3 ? cuts[1] : M; // group 1 empty
  } else {
    for (int64_t g = 1; g < G; ++g)
      cuts.push_back(g * (M / G) + std::min(g, M % G));
  }
  std::vector<double> offsets{0};
  for (int64_t c : cuts)
    offsets.push_back(double(c));
  offsets.push_back(double(M));
  return offsets;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::gemm_grouped(), p);
  int64_t G = p.shape[0], M = p.shape[1], N = p.shape[2], K = p.shape[3];
  if (p.shape[4] > 1)
    throw std::invalid_argument("gemm_grouped: ragged is 0 (even groups) or "
                                "1 (random groups, one of them empty)");
  if (p.shape[5] > 1)
    throw std::invalid_argument("gemm_grouped: fp8 is 0 (@gemm_grouped, "
                                "bf16) or 1 (@gemm_grouped_fp8)");
  if (G < 1 || M > INT32_MAX)
    throw std::invalid_argument(
        "gemm_grouped: G must be at least 1 and M fit in int32");
  if (!isFp8(p))
    checkTensorSizes(entries::gemm_grouped(), p,
                     {{"A", {M, K}},
                      {"B", {G, N, K}},
                      {"C", {M, N}},
                      {"offsets", {G + 1}, HKRT_DTYPE_I32}});
  else
    checkTensorSizes(entries::gemm_grouped(), p,
                     {{"A8", {M, K}, HKRT_DTYPE_FP8},
                      {"B8", {G, N, K}, HKRT_DTYPE_FP8},
                      {"sa", {M}, HKRT_DTYPE_F32},
                      {"sb", {G, N}, HKRT_DTYPE_F32},
                      {"C8", {M, N}, HKRT_DTYPE_BF16},
                      {"offsets", {G + 1}, HKRT_DTYPE_I32}});
  HostTensor offsets =
      typed(input("offsets", {G + 1}, groupOffsets(G, M, p.shape[4] == 1, gen)),
            HKRT_DTYPE_I32);
  if (!isFp8(p)) {
    p.tensors = {input("A", {M, K}, randomBF16(M * K, -1, 1, gen)),
                 input("B", {G, N, K}, randomBF16(G * N * K, -1, 1, gen)),
                 output("C", {M, N}), std::move(offsets)};
    return;
  }
  p.tensors = {
      typed(input("A8", {M, K}, randomE4M3(M * K, gen)), HKRT_DTYPE_FP8),
      typed(input("B8", {G, N, K}, randomE4M3(G * N * K, gen)), HKRT_DTYPE_FP8),
      typed(input("sa", {M}, randomBF16(M, 0.5, 2.0, gen)), HKRT_DTYPE_F32),
      typed(input("sb", {G, N}, randomBF16(G * N, 0.5, 2.0, gen)),
            HKRT_DTYPE_F32),
      output("C8", {M, N}),
      std::move(offsets)};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  if (isFp8(p))
    gemmGroupedFp8(lib, b, p.shape[0], p.shape[1], p.shape[2], p.shape[3]);
  else
    gemmGrouped(lib, b, p.shape[0], p.shape[1], p.shape[2], p.shape[3]);
}

/// K sum_k |a_k b_k| for every element of group g's rows, of the operands
/// named a and b.
void errorScales(const Problem &p, int64_t g, const std::vector<int32_t> &o,
                 double *scale, const char *a = "A", const char *b = "B") {
  int64_t N = p.shape[2], K = p.shape[3];
  const double *A = p.tensor(a).values.data() + o[g] * K;
  const double *B = p.tensor(b).values.data() + g * N * K;
  for (int64_t i = 0; i < o[g + 1] - o[g]; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double magnitude = 0;
      for (int64_t k = 0; k < K; ++k)
        magnitude += std::fabs(A[i * K + k] * B[j * K + k]);
      scale[(o[g] + i) * N + j] = double(K) * magnitude;
    }
}

/// C8: the fp8 problem's products, each scaled by sa of its row and sb of
/// its group and column; the error scale is scaled alike. Rows no group
/// covers are not written.
void referenceFp8(Problem &p, const std::vector<int32_t> &offsets) {
  int64_t G = p.shape[0], N = p.shape[2], K = p.shape[3];
  HostTensor &C = p.tensor("C8");
  gemmGroupedReference(p.tensor("A8").values.data(),
                       p.tensor("B8").values.data(), C.exact.data(),
                       offsets.data(), G, N, K);
  const std::vector<double> &sa = p.tensor("sa").values;
  const std::vector<double> &sb = p.tensor("sb").values;
  for (int64_t g = 0; g < G; ++g) {
    errorScales(p, g, offsets, C.errorScale.data(), "A8", "B8");
    for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = sa[i] * sb[g * N + j];
        C.exact[i * N + j] *= s;
        C.errorScale[i * N + j] *= s;
      }
  }
}

void reference(Problem &p) {
  int64_t G = p.shape[0], N = p.shape[2], K = p.shape[3];
  const std::vector<double> &values = p.tensor("offsets").values;
  std::vector<int32_t> offsets(values.begin(), values.end());
  if (isFp8(p)) {
    referenceFp8(p, offsets);
    return;
  }
  HostTensor &C = p.tensor("C");
  gemmGroupedReference(p.tensor("A").values.data(), p.tensor("B").values.data(),
                       C.exact.data(), offsets.data(), G, N, K);
  for (int64_t g = 0; g < G; ++g)
    errorScales(p, g, offsets, C.errorScale.data());
}

Tolerance toleranceFor(const Problem &) {
  return {tolerance::kBF16Output, kGemmAccumulation, kGemmFormula, kGemmReason};
}

} // namespace

const KernelEntry &entries::gemm_grouped() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "gemm_grouped";
    e.entryPoint = "gemm_grouped";
    e.summary = "grouped GEMM C_g = A_g * B_g^T over G groups of rows "
                "(A: MxK packed, B: GxNxK, C: MxN packed, offsets: G+1 int32), "
                "one persistent launch, in bf16 (fp8 = 0) or in fp8 with "
                "per-row and per-group column scales (fp8 = 1)";
    e.shapeNames = "G,M,N,K,ragged,fp8";
    e.defaultShape = {4, 1024, 256, 128, 1, 0};
    e.testShape = {5, 700, 200, 136, 1, 1};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
