//===- scans/Reference.cpp - scans, running means, arg reductions ---------===//

#include "ProblemSupport.h"

#include <cmath>
#include <limits>

namespace hk::kernels {

namespace {

/// Output tensors after x, in argument order, with their shapes in units
/// of M ('M'), N ('N') or both.
struct OutputSpec {
  const char *name;
  const char *dims;
  hkrt_dtype dtype;
};
const OutputSpec kOutputs[] = {
    {"cumsum", "MN", HKRT_DTYPE_F32}, {"runmean", "MN", HKRT_DTYPE_F32},
    {"cummax", "MN", HKRT_DTYPE_F32}, {"colsum", "MN", HKRT_DTYPE_F32},
    {"colmin", "MN", HKRT_DTYPE_F32}, {"rowmax", "M", HKRT_DTYPE_F32},
    {"rowarg", "M", HKRT_DTYPE_I32},  {"rowid", "M", HKRT_DTYPE_I32},
    {"colmin1", "N", HKRT_DTYPE_F32}, {"colarg", "N", HKRT_DTYPE_I32}};

std::vector<int64_t> sizesOf(const char *dims, int64_t M, int64_t N) {
  std::vector<int64_t> sizes;
  for (const char *d = dims; *d; ++d)
    sizes.push_back(*d == 'M' ? M : N);
  return sizes;
}

} // namespace

void scans(Library &lib, const std::vector<hkrt::Buffer> &b, int64_t M,
           int64_t N) {
  std::vector<hkrt_arg> args = {b[0].memref(HKRT_DTYPE_F32, {M, N})};
  for (size_t i = 0; i < std::size(kOutputs); ++i)
    args.push_back(
        b[i + 1].memref(kOutputs[i].dtype, sizesOf(kOutputs[i].dims, M, N)));
  lib.kernel("scans", "row_scans").launch(args);
  lib.kernel("scans", "col_scans").launch(args);
}

namespace {

/// Sums of n terms in f32, in any order (the scans combine within a lane,
/// across lanes, then across base tiles and tiles): at most (n - 1) 2^-24
/// sum |x| (first order); errorScale = n sum |x| with 2^-23 gives a factor
/// 2. A running mean divides such a sum by n once more: its errorScale is
/// sum |x| + |mean| (the sum's bound over n, plus 2^-24 |mean|). Maxima,
/// minima, positions and row ids are exact: errorScale 0, so they must
/// match exactly. The inputs are multiples of 1/8 in [-2, 2] (every third
/// row in [-2, -1/8]), so every row has ties for its maximum (the lowest
/// column must win) and the sums are exact in f32 anyway; the bound does
/// not rely on that.
const double kScansArithmetic = std::ldexp(1.0, -23);
constexpr const char *kScansFormula =
    "2^-23 n sum |x| for sums of n terms, 2^-23 (sum |x| + |mean|) for "
    "running means, exact for maxima, minima and positions";
constexpr const char *kScansReason =
    "f32 sums of n terms in any order (<= (n - 1) 2^-24 sum |x|), one "
    "division; max, min and arg positions exact";

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::scans(), p);
  int64_t M = p.shape[0], N = p.shape[1];
  std::vector<TensorShape> shapes = {{"x", {M, N}, HKRT_DTYPE_F32}};
  for (const OutputSpec &o : kOutputs)
    shapes.push_back({o.name, sizesOf(o.dims, M, N), o.dtype});
  for (const TensorShape &s : shapes)
    checkTensorSizes(entries::scans(), p, {s});
  // Every third row is negative throughout: the zeros a ragged last tile
  // reads past N would be its maximum if the kernel's -inf mask failed.
  std::uniform_int_distribution<int> eighths(-16, 16), negative(-16, -1);
  std::vector<double> x(size_t(M * N));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      x[size_t(i * N + j)] = (i % 3 ? eighths(gen) : negative(gen)) / 8.0;
  p.tensors = {input("x", {M, N}, std::move(x))};
  p.tensors[0].dtype = HKRT_DTYPE_F32;
  for (const OutputSpec &o : kOutputs) {
    HostTensor t = output(o.name, sizesOf(o.dims, M, N));
    t.dtype = o.dtype;
    p.tensors.push_back(std::move(t));
  }
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  scans(lib, b, p.shape[0], p.shape[1]);
}

void rowReference(Problem &p, int64_t M, int64_t N) {
  const std::vector<double> &x = p.tensor("x").values;
  HostTensor &cumsum = p.tensor("cumsum"), &mean = p.tensor("runmean");
  HostTensor &cummax = p.tensor("cummax"), &rowmax = p.tensor("rowmax");
  HostTensor &rowarg = p.tensor("rowarg"), &rowid = p.tensor("rowid");
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < M; ++i) {
    double sum = 0, abs = 0, max = -inf;
    int64_t arg = 0;
    for (int64_t j = 0; j < N; ++j) {
      size_t e = size_t(i * N + j);
      cummax.exact[e] = max; // exclusive
      double v = x[e];
      if (v > max) {
        max = v;
        arg = j;
      }
      sum += v;
      abs += std::fabs(v);
      cumsum.exact[e] = sum;
      cumsum.errorScale[e] = double(j + 1) * abs;
      mean.exact[e] = sum / double(j + 1);
      mean.errorScale[e] = abs + std::fabs(mean.exact[e]);
    }
    rowmax.exact[i] = max;
    rowarg.exact[i] = double(arg);
    rowid.exact[i] = double(i);
  }
}

void colReference(Problem &p, int64_t M, int64_t N) {
  const std::vector<double> &x = p.tensor("x").values;
  HostTensor &colsum = p.tensor("colsum"), &colmin = p.tensor("colmin");
  HostTensor &colmin1 = p.tensor("colmin1"), &colarg = p.tensor("colarg");
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < N; ++j) {
    double sum = 0, abs = 0, min = inf;
    int64_t arg = 0;
    for (int64_t i = 0; i < M; ++i) {
      size_t e = size_t(i * N + j);
      colsum.exact[e] = sum; // exclusive
      colsum.errorScale[e] = double(i) * abs;
      double v = x[e];
      if (v < min) {
        min = v;
        arg = i;
      }
      colmin.exact[e] = min; // inclusive
      sum += v;
      abs += std::fabs(v);
    }
    colmin1.exact[j] = min;
    colarg.exact[j] = double(arg);
  }
}

void reference(Problem &p) {
  rowReference(p, p.shape[0], p.shape[1]);
  colReference(p, p.shape[0], p.shape[1]);
}

Tolerance toleranceFor(const Problem &) {
  return {0.0, kScansArithmetic, kScansFormula, kScansReason};
}

} // namespace

const KernelEntry &entries::scans() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "scans";
    e.entryPoint = "row_scans";
    e.summary = "row and column prefix scans (sum, max, min; inclusive and "
                "exclusive), running means, argmax / argmin with ties to the "
                "lowest index, and row ids of an MxN f32 matrix";
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
