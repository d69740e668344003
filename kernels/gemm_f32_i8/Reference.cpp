//===- gemm_f32_i8/Reference.cpp - f32 and i8 GEMMs, C = A B^T ------------===//

#include "ProblemSupport.h"

#include <cmath>

namespace hk::kernels {

void gemmF32I8(Library &lib, const hkrt::Buffer &a32, const hkrt::Buffer &b32,
               const hkrt::Buffer &c32, const hkrt::Buffer &a8,
               const hkrt::Buffer &b8, const hkrt::Buffer &c8, int64_t M,
               int64_t N, int64_t K) {
  lib.kernel("gemm_f32_i8", "gemm_f32")
      .launch({a32.memref(HKRT_DTYPE_F32, {M, K}),
               b32.memref(HKRT_DTYPE_F32, {N, K}),
               c32.memref(HKRT_DTYPE_F32, {M, N})});
  lib.kernel("gemm_f32_i8", "gemm_i8")
      .launch({a8.memref(HKRT_DTYPE_I8, {M, K}),
               b8.memref(HKRT_DTYPE_I8, {N, K}),
               c8.memref(HKRT_DTYPE_I32, {M, N})});
}

namespace {

/// f32: the inputs are bf16 values, so every product is exact in f32 (8-bit
/// significands, 16-bit product); the MFMA and the loop add K of them in f32,
/// each addition erring by at most 2^-24 of a partial sum bounded by
/// sum_k |a_k b_k|: (K - 1) 2^-24 sum_k |a_k b_k| (first order).
/// errorScale = K sum_k |a_k b_k|, times 2^-23 (a factor 2 of margin). The
/// output is f32, so no rounding to bf16 is added.
/// i8: integers in [-8, 8], |c| <= 64 K, exact in i32: errorScale 0, the
/// output must equal the reference.
const double kGemmF32Accumulation = std::ldexp(1.0, -23);
constexpr const char *kGemmF32I8Formula =
    "2^-23 K sum_k |a_k b_k| (f32), exact (i8)";
constexpr const char *kGemmF32I8Reason =
    "f32 sums of K exact products (<= (K - 1) 2^-24 sum_k |a_k b_k|); i8 "
    "products summed exactly in i32";

std::vector<double> randomI8(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> dist(-8, 8);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = dist(gen);
  return v;
}

HostTensor typed(HostTensor t, hkrt_dtype dtype) {
  t.dtype = dtype;
  return t;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::gemm_f32_i8(), p);
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  checkTensorSizes(entries::gemm_f32_i8(), p,
                   {{"a_f32", {M, K}, HKRT_DTYPE_F32},
                    {"b_f32", {N, K}, HKRT_DTYPE_F32},
                    {"c_f32", {M, N}, HKRT_DTYPE_F32},
                    {"a_i8", {M, K}, HKRT_DTYPE_I8},
                    {"b_i8", {N, K}, HKRT_DTYPE_I8},
                    {"c_i32", {M, N}, HKRT_DTYPE_I32}});
  p.tensors = {
      typed(input("a_f32", {M, K}, randomBF16(M * K, -1, 1, gen)),
            HKRT_DTYPE_F32),
      typed(input("b_f32", {N, K}, randomBF16(N * K, -1, 1, gen)),
            HKRT_DTYPE_F32),
      typed(output("c_f32", {M, N}), HKRT_DTYPE_F32),
      typed(input("a_i8", {M, K}, randomI8(M * K, gen)), HKRT_DTYPE_I8),
      typed(input("b_i8", {N, K}, randomI8(N * K, gen)), HKRT_DTYPE_I8),
      typed(output("c_i32", {M, N}), HKRT_DTYPE_I32)};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  gemmF32I8(lib, b[0], b[1], b[2], b[3], b[4], b[5], p.shape[0], p.shape[1],
            p.shape[2]);
}

/// C = A B^T in float64; errorScale K sum_k |a_k b_k| when `scaled`.
void gemmReference(Problem &p, const char *a, const char *b, const char *c,
                   bool scaled) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  const std::vector<double> &A = p.tensor(a).values, &B = p.tensor(b).values;
  HostTensor &C = p.tensor(c);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t k = 0; k < K; ++k) {
        double prod = A[i * K + k] * B[j * K + k];
        sum += prod;
        magnitude += std::fabs(prod);
      }
      C.exact[i * N + j] = sum;
      C.errorScale[i * N + j] = scaled ? double(K) * magnitude : 0.0;
    }
}

void reference(Problem &p) {
  gemmReference(p, "a_f32", "b_f32", "c_f32", true);
  gemmReference(p, "a_i8", "b_i8", "c_i32", false);
}

Tolerance toleranceFor(const Problem &) {
  return {0.0, kGemmF32Accumulation, kGemmF32I8Formula, kGemmF32I8Reason};
}

} // namespace

const KernelEntry &entries::gemm_f32_i8() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "gemm_f32_i8";
    e.entryPoint = "gemm_f32";
    e.summary =
        "C = A B^T on the f32 MFMAs (f32 in and out) and the i8 MFMAs (i8 in, "
        "i32 out)";
    e.shapeNames = "M,N,K";
    e.defaultShape = {256, 256, 256};
    e.testShape = {100, 70, 150};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
