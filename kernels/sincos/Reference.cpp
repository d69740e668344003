//===- sincos/Reference.cpp - sin and cos over a wide range ---------------===//

#include "ProblemSupport.h"

#include <cmath>

namespace hk::kernels {

void sincos(Library &lib, const std::vector<hkrt::Buffer> &b, int64_t M,
            int64_t N) {
  lib.kernel("sincos", "sincos")
      .launch({b[0].memref(HKRT_DTYPE_F32, {M, N}),
               b[1].memref(HKRT_DTYPE_F32, {M, N}),
               b[2].memref(HKRT_DTYPE_F32, {M, N}),
               b[3].memref(HKRT_DTYPE_BF16, {M, N}),
               b[4].memref(HKRT_DTYPE_BF16, {M, N})});
}

namespace {

/// The bound of the method (lib/Conversion/HKToAMDGPU/Trig.cpp), for every
/// finite f32 x: the quarter-turn reduction with 2/pi in two f32 pieces
/// leaves theta within 2.57 2^-24 + 2^-46.43 |x| of x - k pi/2 (the
/// remainder of 2/pi past the pieces, the f32 roundings of x c1, of the
/// low part and of the reduced argument, and of theta = q pi/2); the
/// Taylor polynomials on |theta| <= pi/4 truncate below 2^-28 and evaluate
/// in f32 within 2.2 2^-24; sin and cos have slope at most 1. In all,
/// below 4.9 2^-24 + 2^-46.43 |x| < 2^-21 (1 + 2^-24 |x|): abs = 2^-21,
/// errorScale = 1 + 2^-24 |x|. The bf16 outputs round that result to bf16
/// once more, at most 2^-8 of it: 2^13 |y| more in errorScale.
const double kSinCosArithmetic = std::ldexp(1.0, -21);
constexpr const char *kSinCosFormula =
    "2^-21 (1 + 2^-24 |x|), plus 2^-8 |y| for the bf16 outputs";
constexpr const char *kSinCosReason =
    "two-piece 2/pi quarter-turn reduction (2^-46.43 |x|) and f32 Taylor "
    "polynomials on [-pi/4, pi/4] (4.9 2^-24 in all); bf16 rounding";
// Magnitudes 2^e, e uniform in [kMinExponent, kMaxExponent), either sign.
const double kMinExponent = -8, kMaxExponent = 24;
const char *const kOutputs[] = {"sin", "cos", "sin16", "cos16"};

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::sincos(), p);
  int64_t M = p.shape[0], N = p.shape[1];
  checkTensorSizes(entries::sincos(), p,
                   {{"x", {M, N}, HKRT_DTYPE_F32},
                    {"sin", {M, N}, HKRT_DTYPE_F32},
                    {"cos", {M, N}, HKRT_DTYPE_F32},
                    {"sin16", {M, N}},
                    {"cos16", {M, N}}});
  std::uniform_real_distribution<double> exponent(kMinExponent, kMaxExponent);
  std::bernoulli_distribution negative(0.5);
  std::vector<double> x(size_t(M * N));
  for (double &v : x) {
    float f = float(std::exp2(exponent(gen)));
    v = negative(gen) ? -double(f) : double(f);
  }
  p.tensors = {input("x", {M, N}, std::move(x))};
  p.tensors[0].dtype = HKRT_DTYPE_F32;
  for (int i = 0; i < 4; ++i) {
    HostTensor t = output(kOutputs[i], {M, N});
    t.dtype = i < 2 ? HKRT_DTYPE_F32 : HKRT_DTYPE_BF16;
    p.tensors.push_back(std::move(t));
  }
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  sincos(lib, b, p.shape[0], p.shape[1]);
}

void reference(Problem &p) {
  const std::vector<double> &x = p.tensor("x").values;
  HostTensor &s = p.tensor("sin"), &c = p.tensor("cos");
  HostTensor &s16 = p.tensor("sin16"), &c16 = p.tensor("cos16");
  for (size_t i = 0; i < x.size(); ++i) {
    s.exact[i] = std::sin(x[i]);
    c.exact[i] = std::cos(x[i]);
    s.errorScale[i] = c.errorScale[i] = 1 + std::ldexp(std::fabs(x[i]), -24);
    double xb = roundToBF16(x[i]);
    s16.exact[i] = std::sin(xb);
    c16.exact[i] = std::cos(xb);
    double base = 1 + std::ldexp(std::fabs(xb), -24);
    s16.errorScale[i] = base + std::ldexp(std::fabs(s16.exact[i]), 13);
    c16.errorScale[i] = base + std::ldexp(std::fabs(c16.exact[i]), 13);
  }
}

Tolerance toleranceFor(const Problem &) {
  return {0.0, kSinCosArithmetic, kSinCosFormula, kSinCosReason};
}

} // namespace

const KernelEntry &entries::sincos() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "sincos";
    e.summary = "sin and cos of an MxN f32 matrix, |x| from 2^-8 to 2^24 "
                "(f32 outputs, and bf16 ones from bf16 tiles)";
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
