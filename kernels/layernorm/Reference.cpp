//===- layernorm/Reference.cpp - residual add + LayerNorm, D = 128 --------===//

#include "ProblemSupport.h"
#include "Tolerances.h"

#include <cmath>

namespace hk::kernels {
namespace {
constexpr int64_t kD = 128;

struct RowStats {
  double mean, rstd, meanAbs;
};

/// Mean, 1 / sqrt(biased variance + eps) and mean |r| of one row of r.
RowStats rowStats(const double *r, double eps) {
  double sum = 0, sumAbs = 0;
  for (int64_t d = 0; d < kD; ++d) {
    sum += r[d];
    sumAbs += std::fabs(r[d]);
  }
  double mean = sum / kD, var = 0;
  for (int64_t d = 0; d < kD; ++d)
    var += (r[d] - mean) * (r[d] - mean);
  return {mean, 1.0 / std::sqrt(var / kD + eps), sumAbs / kD};
}

} // namespace

void layernorm(Library &lib, const hkrt::Buffer &x,
               const hkrt::Buffer &residual, const hkrt::Buffer &weight,
               const hkrt::Buffer &bias, const hkrt::Buffer &resOut,
               const hkrt::Buffer &y, int64_t M, float eps) {
  lib.kernel("layernorm", "layernorm")
      .launch({x.memref(HKRT_DTYPE_BF16, {M, kD}),
               residual.memref(HKRT_DTYPE_BF16, {M, kD}),
               weight.memref(HKRT_DTYPE_BF16, {kD}),
               bias.memref(HKRT_DTYPE_BF16, {kD}),
               resOut.memref(HKRT_DTYPE_BF16, {M, kD}),
               y.memref(HKRT_DTYPE_BF16, {M, kD}),
               hkrt_arg_float(HKRT_DTYPE_F32, eps)});
}

void layernormReference(const double *x, const double *residual,
                        const double *weight, const double *bias,
                        double *resOut, double *y, int64_t M, double eps) {
  for (int64_t i = 0; i < M; ++i) {
    double *r = resOut + i * kD;
    for (int64_t d = 0; d < kD; ++d)
      r[d] = x[i * kD + d] + residual[i * kD + d];
    RowStats s = rowStats(r, eps);
    for (int64_t d = 0; d < kD; ++d)
      y[i * kD + d] = (r[d] - s.mean) * s.rstd * weight[d] + bias[d];
  }
}

namespace {

/// Over D = 128 in f32: the sums of 128 terms (mean, variance) err by at
/// most 127 2^-24 (< 2^-17) of their sums of magnitudes; halved under the
/// square root; v_rsq_f32 / sqrt + division ~1 ulp each; a few products of
/// 2^-24. Together below 2^-16 of errorScale = (|r - mean| + mean|r|) * rstd
/// * |w| + |b|, where mean|r| counts the mean's error, which shifts every
/// (r - mean) by up to 2^-17 mean|r|; 2^-15 leaves a factor 2.
const double kLayerNormArithmetic = std::ldexp(1.0, -15);
constexpr const char *kLayerNormFormula =
    "2^-8 |out| + 2^-15 ((|r - mean| + mean|r|) rstd |w| + |b|); "
    "res_out: 2^-8 |r|";
constexpr const char *kLayerNormReason =
    "f32 row mean and variance over 128 (<= 2^-17 of the magnitudes, the "
    "mean's error shifts every r - mean), rsqrt ~1 ulp, bf16 output "
    "rounding (2^-8)";

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::layernorm(), p);
  int64_t M = p.shape[0];
  checkTensorSizes(entries::layernorm(), p, {{"x", {M, kD}}});
  p.tensors = {input("x", {M, kD}, randomBF16(M * kD, -1, 1, gen)),
               input("residual", {M, kD}, randomBF16(M * kD, -1, 1, gen)),
               input("weight", {kD}, randomBF16(kD, -1, 1, gen)),
               input("bias", {kD}, randomBF16(kD, -1, 1, gen)),
               output("res_out", {M, kD}),
               output("y", {M, kD})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  layernorm(lib, b[0], b[1], b[2], b[3], b[4], b[5], p.shape[0], float(p.eps));
}

void reference(Problem &p) {
  int64_t M = p.shape[0];
  double eps = double(float(p.eps)); // the f32 scalar the kernel receives
  const std::vector<double> &w = p.tensor("weight").values,
                            &b = p.tensor("bias").values;
  HostTensor &r = p.tensor("res_out"), &y = p.tensor("y");
  layernormReference(p.tensor("x").values.data(),
                     p.tensor("residual").values.data(), w.data(), b.data(),
                     r.exact.data(), y.exact.data(), M, eps);
  // res_out is a single rounding of x + residual: no arithmetic term.
  for (int64_t i = 0; i < M; ++i) {
    RowStats s = rowStats(&r.exact[i * kD], eps);
    for (int64_t d = 0; d < kD; ++d) {
      double dev = std::fabs(r.exact[i * kD + d] - s.mean);
      y.errorScale[i * kD + d] =
          (dev + s.meanAbs) * s.rstd * std::fabs(w[d]) + std::fabs(b[d]);
    }
  }
}

Tolerance toleranceFor(const Problem &) {
  return {tolerance::kBF16Output, kLayerNormArithmetic, kLayerNormFormula,
          kLayerNormReason};
}

} // namespace

const KernelEntry &entries::layernorm() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "layernorm";
    e.summary = "fused residual add + LayerNorm over rows of 128 (x, residual, "
                "res_out, "
                "y: Mx128; weight, bias: 128)";
    e.shapeNames = "M";
    e.defaultShape = {256};
    e.testShape = {300};
    e.hasEps = true;
    e.defaultEps = 1e-5;
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
