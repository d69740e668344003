//===- Softmax.cpp - examples/softmax.mlir: row softmax -------------------===//

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

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(softmaxEntry(), p);
  int64_t M = p.shape[0], N = p.shape[1];
  checkTensorSizes(softmaxEntry(), p, {{"x", {M, N}}});
  double range = tolerance::kSoftmaxInputRange;
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
  return {tolerance::kBF16Output, tolerance::kSoftmaxArithmetic,
          tolerance::kSoftmaxFormula, tolerance::kSoftmaxReason};
}

} // namespace

const KernelEntry &softmaxEntry() {
  static const KernelEntry entry{
      "softmax", "softmax", "softmax",
      "row softmax of an MxN matrix (inputs in [-4, 4))", "M,N", {256, 200},
      false, 0.0, setup, launch, reference, toleranceFor};
  return entry;
}

} // namespace hk::kernels
