//===- row_col_sums/Reference.cpp - sums by atomic adds of vectors --------===//

#include "ProblemSupport.h"

#include <cmath>

namespace hk::kernels {

void rowColSums(Library &lib, const hkrt::Buffer &x, const hkrt::Buffer &rows,
                const hkrt::Buffer &cols, int64_t M, int64_t N) {
  std::vector<hkrt_arg> args = {x.memref(HKRT_DTYPE_BF16, {M, N}),
                                rows.memref(HKRT_DTYPE_F32, {M}),
                                cols.memref(HKRT_DTYPE_F32, {N})};
  lib.kernel("row_col_sums", "zero_sums").launch(args);
  lib.kernel("row_col_sums", "row_col_sums").launch(args);
}

namespace {

/// Each sum adds n bf16 values (exact in f32) in f32, in an order set by the
/// reductions and the atomics: at most (n - 1) 2^-24 sum |x| (first order).
/// errorScale = n sum |x| with n = N for rows and M for columns, times 2^-23
/// (a factor 2 of margin). The outputs are f32: no bf16 rounding.
const double kSumsArithmetic = std::ldexp(1.0, -23);
constexpr const char *kSumsFormula = "2^-23 n sum |x|";
constexpr const char *kSumsReason =
    "f32 sums of n exact terms in any order (<= (n - 1) 2^-24 sum |x|)";

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::row_col_sums(), p);
  int64_t M = p.shape[0], N = p.shape[1];
  checkTensorSizes(entries::row_col_sums(), p,
                   {{"x", {M, N}},
                    {"rows", {M}, HKRT_DTYPE_F32},
                    {"cols", {N}, HKRT_DTYPE_F32}});
  p.tensors = {input("x", {M, N}, randomBF16(M * N, -1, 1, gen)),
               output("rows", {M}), output("cols", {N})};
  p.tensor("rows").dtype = HKRT_DTYPE_F32;
  p.tensor("cols").dtype = HKRT_DTYPE_F32;
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  rowColSums(lib, b[0], b[1], b[2], p.shape[0], p.shape[1]);
}

void reference(Problem &p) {
  int64_t M = p.shape[0], N = p.shape[1];
  const std::vector<double> &x = p.tensor("x").values;
  HostTensor &rows = p.tensor("rows"), &cols = p.tensor("cols");
  std::vector<double> rowAbs(size_t(M), 0.0), colAbs(size_t(N), 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double v = x[i * N + j];
      rows.exact[i] += v;
      cols.exact[j] += v;
      rowAbs[i] += std::fabs(v);
      colAbs[j] += std::fabs(v);
    }
  for (int64_t i = 0; i < M; ++i)
    rows.errorScale[i] = double(N) * rowAbs[i];
  for (int64_t j = 0; j < N; ++j)
    cols.errorScale[j] = double(M) * colAbs[j];
}

Tolerance toleranceFor(const Problem &) {
  return {0.0, kSumsArithmetic, kSumsFormula, kSumsReason};
}

} // namespace

const KernelEntry &entries::row_col_sums() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "row_col_sums";
    e.summary =
        "row and column sums of an MxN matrix by atomic adds of register "
        "vectors across workgroups (f32 outputs)";
    e.shapeNames = "M,N";
    e.defaultShape = {256, 256};
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
