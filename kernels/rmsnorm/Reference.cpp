//===- rmsnorm/Reference.cpp - RMSNorm, D = 128 ---------------------------===//

#include "ProblemSupport.h"
#include "Tolerances.h"

#include <cmath>

namespace hk::kernels {
namespace {
constexpr int64_t kD = 128;
} // namespace

void rmsnorm(Library &lib, const hkrt::Buffer &x, const hkrt::Buffer &weight,
             const hkrt::Buffer &y, int64_t M, float eps) {
  lib.kernel("rmsnorm", "rmsnorm")
      .launch({x.memref(HKRT_DTYPE_BF16, {M, kD}),
               weight.memref(HKRT_DTYPE_BF16, {kD}),
               y.memref(HKRT_DTYPE_BF16, {M, kD}),
               hkrt_arg_float(HKRT_DTYPE_F32, eps)});
}

void rmsnormReference(const double *x, const double *weight, double *y,
                      int64_t M, double eps) {
  for (int64_t i = 0; i < M; ++i) {
    double squares = 0;
    for (int64_t d = 0; d < kD; ++d)
      squares += x[i * kD + d] * x[i * kD + d];
    double rms = std::sqrt(squares / kD + eps);
    for (int64_t d = 0; d < kD; ++d)
      y[i * kD + d] = x[i * kD + d] / rms * weight[d];
  }
}

namespace {

/// Over D = 128 in f32: the sum of 128 squares errs by at most 127 2^-24
/// (< 2^-17) of the sum; halved under the square root; v_rsq_f32 / sqrt +
/// division ~1 ulp each; a few products of 2^-24. Together below 2^-16 of
/// errorScale = |y| (every error is relative to y); 2^-15 leaves a factor 2.
const double kRmsNormArithmetic = std::ldexp(1.0, -15);
constexpr const char *kRmsNormFormula = "2^-8 |y| + 2^-15 |y|";
constexpr const char *kRmsNormReason =
    "f32 sum of 128 squares (<= 2^-17), rsqrt ~1 ulp, bf16 output rounding "
    "(2^-8)";

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::rmsnorm(), p);
  int64_t M = p.shape[0];
  checkTensorSizes(entries::rmsnorm(), p, {{"x", {M, kD}}});
  p.tensors = {input("x", {M, kD}, randomBF16(M * kD, -1, 1, gen)),
               input("weight", {kD}, randomBF16(kD, -1, 1, gen)),
               output("y", {M, kD})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  rmsnorm(lib, b[0], b[1], b[2], p.shape[0], float(p.eps));
}

void reference(Problem &p) {
  HostTensor &y = p.tensor("y");
  // eps reaches the kernel as an f32 scalar: the reference uses that value.
  rmsnormReference(p.tensor("x").values.data(),
                   p.tensor("weight").values.data(), y.exact.data(), p.shape[0],
                   double(float(p.eps)));
  for (size_t i = 0; i < y.exact.size(); ++i)
    y.errorScale[i] = std::fabs(y.exact[i]);
}

Tolerance toleranceFor(const Problem &) {
  return {tolerance::kBF16Output, kRmsNormArithmetic, kRmsNormFormula,
          kRmsNormReason};
}

} // namespace

const KernelEntry &entries::rmsnorm() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "rmsnorm";
    e.summary = "RMSNorm over rows of 128 (x, y: Mx128; weight: 128)";
    e.shapeNames = "M";
    e.defaultShape = {256};
    e.testShape = {300};
    e.hasEps = true;
    e.defaultEps = 1e-6;
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
