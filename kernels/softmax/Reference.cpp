//===- softmax/Reference.cpp - row softmax --------------------------------===//

#include "ProblemSupport.h"
#include "Tolerances.h"

#include <cmath>

namespace hk::kernels {

void softmax(Library &lib, const hkrt::Buffer &x, const hkrt::Buffer &y,
             int64_t M, int64_t N) {
  lib.kernel("softmax", "softmax")
      .launch({x.memref(HKRT_DTYPE_BF16, {M, N}),
               y.memref(HKRT_DTYPE_BF16, {M, N})});
}

void softmaxReference(const double *x, double *y, int64_t M, int64_t N) {
  for (int64_t i = 0; i < M; ++i) {
    const double *row = x + i * N;
    double max = -INFINITY, sum = 0;
    for (int64_t j = 0; j < N; ++j)
      max = std::fmax(max, row[j]);
    for (int64_t j = 0; j < N; ++j)
      sum += std::exp(row[j] - max);
    for (int64_t j = 0; j < N; ++j)
      y[i * N + j] = std::exp(row[j] - max) / sum;
  }
}

namespace {

/// Relative to |y|: the f32 sum of N positive terms errs by at most
/// (N - 1) 2^-24; exp2 (v_exp_f32, ~1 ulp) of an argument x log2(e) - m
/// log2(e) whose f32 rounding is at most 2^-24 * 2 * 11.6 for |x| <= 4
/// (about 2^-19 absolute, so 2^-19.5 relative after exp2); the division
/// ~1 ulp. errorScale = (N + 32) |y|, times 2^-23: N 2^-24 with a factor 2,
/// plus 32 2^-23 = 2^-18 for exp2 and the division.
const double kSoftmaxArithmetic = std::ldexp(1.0, -23);
const double kSoftmaxInputRange = 4.0; // inputs in [-4, 4)
constexpr const char *kSoftmaxFormula = "2^-8 |y| + 2^-23 (N + 32) |y|";
constexpr const char *kSoftmaxReason =
    "f32 row sum of N exponentials (<= N 2^-24), exp2 via v_exp_f32 ~1 ulp "
    "of an f32 argument x*log2(e) - max*log2(e) (|x| < 4), bf16 output "
    "rounding (2^-8)";

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::softmax(), p);
  int64_t M = p.shape[0], N = p.shape[1];
  checkTensorSizes(entries::softmax(), p, {{"x", {M, N}}});
  double range = kSoftmaxInputRange;
  p.tensors = {input("x", {M, N}, randomBF16(M * N, -range, range, gen)),
               output("y", {M, N})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  softmax(lib, b[0], b[1], p.shape[0], p.shape[1]);
}

void reference(Problem &p) {
  HostTensor &y = p.tensor("y");
  softmaxReference(p.tensor("x").values.data(), y.exact.data(), p.shape[0],
                   p.shape[1]);
  double terms = double(p.shape[1]) + 32;
  for (size_t i = 0; i < y.exact.size(); ++i)
    y.errorScale[i] = terms * std::fabs(y.exact[i]);
}

Tolerance toleranceFor(const Problem &) {
  return {tolerance::kBF16Output, kSoftmaxArithmetic, kSoftmaxFormula,
          kSoftmaxReason};
}

} // namespace

const KernelEntry &entries::softmax() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "softmax";
    e.summary = "row softmax of an MxN matrix (inputs in [-4, 4))";
    e.shapeNames = "M,N";
    e.defaultShape = {256, 200};
    e.testShape = {300, 200};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
