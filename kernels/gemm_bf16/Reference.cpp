//===- gemm_bf16/Reference.cpp - C = A * B^T, float64 ---------------------===//

#include "ProblemSupport.h"
#include "Tolerances.h"

#include <cmath>

namespace hk::kernels {

void gemm(Library &lib, const hkrt::Buffer &A, const hkrt::Buffer &B,
          const hkrt::Buffer &C, int64_t M, int64_t N, int64_t K) {
  lib.kernel("gemm_bf16", "gemm_bf16")
      .launch({A.memref(HKRT_DTYPE_BF16, {M, K}),
               B.memref(HKRT_DTYPE_BF16, {N, K}),
               C.memref(HKRT_DTYPE_BF16, {M, N})});
}

void gemmReference(const double *A, const double *B, double *C, int64_t M,
                   int64_t N, int64_t K) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double c = 0;
      for (int64_t k = 0; k < K; ++k)
        c += A[i * K + k] * B[j * K + k];
      C[i * N + j] = c;
    }
}

namespace {

/// Per element c = sum_k a_k b_k: products of bf16 are exact in f32;
/// summing K of them in f32 in any order errs by at most
/// (K - 1) 2^-24 sum_k |a_k b_k| (first order). errorScale = K sum |a_k b_k|;
/// the factor 2 (2^-23) covers second-order terms.
const double kGemmAccumulation = std::ldexp(1.0, -23);
constexpr const char *kGemmFormula = "2^-8 |c| + 2^-23 K sum_k |a_k b_k|";
constexpr const char *kGemmReason =
    "bf16 inputs (exact products), f32 accumulation of K products "
    "(<= (K-1) 2^-24 sum|ab|), bf16 output rounding (2^-8)";

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::gemm_bf16(), p);
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  checkTensorSizes(entries::gemm_bf16(), p,
                   {{"A", {M, K}}, {"B", {N, K}}, {"C", {M, N}}});
  p.tensors = {input("A", {M, K}, randomBF16(M * K, -1, 1, gen)),
               input("B", {N, K}, randomBF16(N * K, -1, 1, gen)),
               output("C", {M, N})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  gemm(lib, b[0], b[1], b[2], p.shape[0], p.shape[1], p.shape[2]);
}

void reference(Problem &p) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  const std::vector<double> &A = p.tensor("A").values,
                            &B = p.tensor("B").values;
  HostTensor &C = p.tensor("C");
  gemmReference(A.data(), B.data(), C.exact.data(), M, N, K);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double magnitude = 0;
      for (int64_t k = 0; k < K; ++k)
        magnitude += std::fabs(A[i * K + k] * B[j * K + k]);
      C.errorScale[i * N + j] = double(K) * magnitude;
    }
}

Tolerance toleranceFor(const Problem &) {
  return {tolerance::kBF16Output, kGemmAccumulation, kGemmFormula, kGemmReason};
}

} // namespace

const KernelEntry &entries::gemm_bf16() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "gemm_bf16";
    e.summary =
        "bf16 GEMM C = A * B^T (A: MxK, B: NxK, C: MxN), f32 accumulation";
    e.shapeNames = "M,N,K";
    e.defaultShape = {256, 256, 128};
    e.testShape = {300, 200, 136};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
