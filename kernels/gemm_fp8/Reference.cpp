//===- gemm_fp8/Reference.cpp - scaled fp8 GEMMs, C = s A B^T -------------===//

#include "ProblemSupport.h"

#include <cmath>

namespace hk::kernels {

void gemmFp8(Library &lib, const std::vector<hkrt::Buffer> &b, int64_t M,
             int64_t N, int64_t K, float scale) {
  lib.kernel("gemm_fp8", "gemm_fp8")
      .launch({b[0].memref(HKRT_DTYPE_FP8, {M, K}),
               b[1].memref(HKRT_DTYPE_FP8, {N, K}),
               b[2].memref(HKRT_DTYPE_F32, {M}),
               b[3].memref(HKRT_DTYPE_F32, {N}),
               b[4].memref(HKRT_DTYPE_BF16, {M, N})});
  lib.kernel("gemm_fp8", "gemm_fp8_tensor")
      .launch({b[0].memref(HKRT_DTYPE_FP8, {M, K}),
               b[1].memref(HKRT_DTYPE_FP8, {N, K}),
               hkrt_arg_float(HKRT_DTYPE_F32, scale),
               b[5].memref(HKRT_DTYPE_BF16, {M, N})});
}

namespace {

/// The scale of @gemm_fp8_tensor: a power of two, so that the reference's
/// product is exact.
constexpr float kTensorScale = 0.25f;

/// +-(1 + m/8) 2^e, e in [-4, 3]: normal E4M3 numbers in both formats
/// (FNUZ: 2^-7 .. 240; OCP: 2^-6 .. 448), so one set of values serves both
/// chips, whatever bytes encode them.
std::vector<double> randomE4M3(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> mant(0, 7), exp(-4, 3), sign(0, 1);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = (sign(gen) ? -1 : 1) * std::ldexp(1 + mant(gen) / 8.0, exp(gen));
  return v;
}

/// Scales in [0.5, 2): bf16 values, exact in f32.
std::vector<double> randomScales(int64_t n, std::mt19937 &gen) {
  return randomBF16(n, 0.5, 2.0, gen);
}

HostTensor typed(HostTensor t, hkrt_dtype dtype) {
  t.dtype = dtype;
  return t;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::gemm_fp8(), p);
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  checkTensorSizes(entries::gemm_fp8(), p,
                   {{"a", {M, K}, HKRT_DTYPE_FP8},
                    {"b", {N, K}, HKRT_DTYPE_FP8},
                    {"sa", {M}, HKRT_DTYPE_F32},
                    {"sb", {N}, HKRT_DTYPE_F32},
                    {"c", {M, N}, HKRT_DTYPE_BF16},
                    {"c_tensor", {M, N}, HKRT_DTYPE_BF16}});
  p.tensors = {
      typed(input("a", {M, K}, randomE4M3(M * K, gen)), HKRT_DTYPE_FP8),
      typed(input("b", {N, K}, randomE4M3(N * K, gen)), HKRT_DTYPE_FP8),
      typed(input("sa", {M}, randomScales(M, gen)), HKRT_DTYPE_F32),
      typed(input("sb", {N}, randomScales(N, gen)), HKRT_DTYPE_F32),
      output("c", {M, N}),
      output("c_tensor", {M, N})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  gemmFp8(lib, b, p.shape[0], p.shape[1], p.shape[2], kTensorScale);
}

/// Both outputs in float64; the error scale of each element is
/// K sum_k |a_k b_k| times its scale (see toleranceFor).
void reference(Problem &p) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  const std::vector<double> &A = p.tensor("a").values;
  const std::vector<double> &B = p.tensor("b").values;
  const std::vector<double> &sa = p.tensor("sa").values;
  const std::vector<double> &sb = p.tensor("sb").values;
  HostTensor &C = p.tensor("c"), &T = p.tensor("c_tensor");
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t k = 0; k < K; ++k) {
        double prod = A[i * K + k] * B[j * K + k];
        sum += prod;
        magnitude += std::fabs(prod);
      }
      double s = sa[i] * sb[j];
      C.exact[i * N + j] = s * sum;
      C.errorScale[i * N + j] = s * double(K) * magnitude;
      T.exact[i * N + j] = kTensorScale * sum;
      T.errorScale[i * N + j] = kTensorScale * double(K) * magnitude;
    }
}

/// Products of two E4M3 numbers (4-bit significands) are exact in f32; the
/// MFMAs and the loop add K of them in f32, erring by at most
/// (K - 1) 2^-24 sum_k |a_k b_k| (first order), scaled with the sum. The two
/// f32 multiplications by the scales add at most 2 2^-24 |c| and the bf16
/// output rounding 2^-9 |c|: 2^-8 |c| covers both. The accumulation term is
/// taken as 2^-23 K sum_k |a_k b_k| (a factor 2 of margin).
Tolerance toleranceFor(const Problem &) {
  return {std::ldexp(1.0, -8), std::ldexp(1.0, -23),
          "2^-8 |c| + 2^-23 |s| K sum_k |a_k b_k|",
          "exact E4M3 products summed in f32, f32 scaling, bf16 output"};
}

} // namespace

const KernelEntry &entries::gemm_fp8() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "gemm_fp8";
    e.entryPoint = "gemm_fp8";
    e.summary = "C = bf16(sa[i] sb[j] A B^T) and bf16(s A B^T) on the chip's "
                "fp8 (!hk.fp8) MFMAs, one source for both chips";
    e.shapeNames = "M,N,K";
    e.defaultShape = {1024, 1024, 1024};
    e.testShape = {300, 200, 520};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
