//===- activations/Reference.cpp - GELU (erf, tanh), SiLU, leaky ReLU -----===//

#include "ProblemSupport.h"

#include <cmath>

namespace hk::kernels {

void activations(Library &lib, const hkrt::Buffer &x,
                 const hkrt::Buffer &geluErf, const hkrt::Buffer &geluTanh,
                 const hkrt::Buffer &silu, const hkrt::Buffer &leaky, int64_t M,
                 int64_t N) {
  lib.kernel("activations", "activations")
      .launch({x.memref(HKRT_DTYPE_BF16, {M, N}),
               geluErf.memref(HKRT_DTYPE_F32, {M, N}),
               geluTanh.memref(HKRT_DTYPE_F32, {M, N}),
               silu.memref(HKRT_DTYPE_F32, {M, N}),
               leaky.memref(HKRT_DTYPE_F32, {M, N})});
}

namespace {

double geluErf(double x) {
  return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
}

double geluTanh(double x) {
  const double pi = 3.14159265358979323846;
  return 0.5 * x *
         (1 + std::tanh(std::sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
}

double silu(double x) { return x / (1 + std::exp(-x)); }

double leaky(double x) { return x > 0 ? x : 0.01 * x; }

/// Absolute, times errorScale = |x| + |y|, for every output, in f32 with
/// inputs in [-8, 8):
/// - erf: Abramowitz and Stegun 7.1.26 errs by at most 1.5e-7, its f32
///   Horner steps (t <= 1, coefficients below 1.5) and v_exp_f32 of the
///   rounded -x^2 log2(e) add a few 2^-24; the Taylor branch below 1/4 is
///   within 2^-30 relative. Below 2^-21 (4.8e-7) in all; halved by 0.5 x.
/// - tanh: relative error about 2^-20 (1 - 2/(e^2u + 1) cancels by up to 2^-24
///   absolute at |u| = 1/8, i.e. 2^-21 relative; the Taylor branch 2^-29);
///   the f32 rounding of u = sqrt(2/pi)(x + 0.044715 x^3), a few 2^-24 of
///   |u|, moves tanh by |u| sech^2(u) (at most 0.45) times that.
/// - exp(-x): 2^(-x log2(e)) errs by |x log2(e)| 2^-24 (the rounded product,
///   below 11.6 2^-24 for |x| < 8) plus ~1 ulp, relative; x / (1 + e) keeps
///   that relative error in y.
/// - the rest (products, 0.01 x, the output in f32) a few 2^-24 of |y|.
/// Each term is below 2^-20 (|x| + |y|); 2^-19 leaves a factor 2.
const double kActivationsArithmetic = std::ldexp(1.0, -19);
constexpr const char *kActivationsFormula = "2^-19 (|x| + |y|)";
constexpr const char *kActivationsReason =
    "f32 math: erf (Abramowitz-Stegun 7.1.26, 1.5e-7), tanh (~2^-20 "
    "relative), exp via v_exp_f32 of x*log2(e) (|x| < 8), f32 products "
    "and outputs";
const double kActivationsInputRange = 8.0; // inputs in [-8, 8)

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::activations(), p);
  int64_t M = p.shape[0], N = p.shape[1];
  checkTensorSizes(entries::activations(), p,
                   {{"x", {M, N}},
                    {"gelu_erf", {M, N}, HKRT_DTYPE_F32},
                    {"gelu_tanh", {M, N}, HKRT_DTYPE_F32},
                    {"silu", {M, N}, HKRT_DTYPE_F32},
                    {"leaky", {M, N}, HKRT_DTYPE_F32}});
  double range = kActivationsInputRange;
  p.tensors = {input("x", {M, N}, randomBF16(M * N, -range, range, gen))};
  for (const char *name : {"gelu_erf", "gelu_tanh", "silu", "leaky"}) {
    HostTensor out = output(name, {M, N});
    out.dtype = HKRT_DTYPE_F32;
    p.tensors.push_back(std::move(out));
  }
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  activations(lib, b[0], b[1], b[2], b[3], b[4], p.shape[0], p.shape[1]);
}

void reference(Problem &p) {
  const std::vector<double> &x = p.tensor("x").values;
  auto fill = [&](const char *name, double (*f)(double)) {
    HostTensor &y = p.tensor(name);
    for (size_t i = 0; i < x.size(); ++i) {
      y.exact[i] = f(x[i]);
      y.errorScale[i] = std::fabs(x[i]) + std::fabs(y.exact[i]);
    }
  };
  fill("gelu_erf", geluErf);
  fill("gelu_tanh", geluTanh);
  fill("silu", silu);
  fill("leaky", leaky);
}

Tolerance toleranceFor(const Problem &) {
  return {0.0, kActivationsArithmetic, kActivationsFormula, kActivationsReason};
}

} // namespace

const KernelEntry &entries::activations() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "activations";
    e.summary =
        "GELU (erf and tanh forms), SiLU and leaky ReLU of an MxN matrix "
        "(inputs in [-8, 8), f32 outputs)";
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
