//===- gemm_i8/Reference.cpp - i8 GEMM into i32, C = A B^T ----------------===//

#include "ProblemSupport.h"

#include <cmath>

namespace hk::kernels {

void gemmI8(Library &lib, const hkrt::Buffer &a, const hkrt::Buffer &b,
            const hkrt::Buffer &c, int64_t M, int64_t N, int64_t K) {
  lib.kernel("gemm_i8", "gemm_i8")
      .launch({a.memref(HKRT_DTYPE_I8, {M, K}), b.memref(HKRT_DTYPE_I8, {N, K}),
               c.memref(HKRT_DTYPE_I32, {M, N})});
}

namespace {

/// The whole i8 range, so that products reach 2^14 and a sum over K = 2^17
/// would pass 2^31: the test shape keeps far from that, and every sum is
/// exact in i32 and in float64.
std::vector<double> randomI8(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> dist(-128, 127);
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
  checkShape(entries::gemm_i8(), p);
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  // |c| <= K 2^14 must stay within i32.
  if (K > (int64_t(1) << 16))
    throw std::invalid_argument("gemm_i8 keeps K <= 2^16, so that sums of "
                                "full-range i8 products fit in i32");
  checkTensorSizes(entries::gemm_i8(), p,
                   {{"a", {M, K}, HKRT_DTYPE_I8},
                    {"b", {N, K}, HKRT_DTYPE_I8},
                    {"c", {M, N}, HKRT_DTYPE_I32}});
  p.tensors = {typed(input("a", {M, K}, randomI8(M * K, gen)), HKRT_DTYPE_I8),
               typed(input("b", {N, K}, randomI8(N * K, gen)), HKRT_DTYPE_I8),
               typed(output("c", {M, N}), HKRT_DTYPE_I32)};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  gemmI8(lib, b[0], b[1], b[2], p.shape[0], p.shape[1], p.shape[2]);
}

/// C = A B^T in float64, exact for these integers (|c| < 2^53): the kernel
/// must match it exactly (error scale 0).
void reference(Problem &p) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  const std::vector<double> &A = p.tensor("a").values;
  const std::vector<double> &B = p.tensor("b").values;
  HostTensor &C = p.tensor("c");
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < K; ++k)
        sum += A[i * K + k] * B[j * K + k];
      C.exact[i * N + j] = sum;
      C.errorScale[i * N + j] = 0.0;
    }
}

Tolerance toleranceFor(const Problem &) {
  return {0.0, 0.0, "exact",
          "i8 products summed exactly in i32 (|c| <= K 2^14 < 2^31)"};
}

} // namespace

const KernelEntry &entries::gemm_i8() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "gemm_i8";
    e.summary = "C = A B^T, i8 in, i32 out (exact), on gfx950's "
                "v_mfma_i32_32x32x32_i8 and gfx942's 32x32x16";
    e.shapeNames = "M,N,K";
    e.defaultShape = {1024, 1024, 1024};
    e.testShape = {200, 150, 200};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
