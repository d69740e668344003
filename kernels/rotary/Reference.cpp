//===- rotary/Reference.cpp - rotate-half RoPE, D = 128 -------------------===//

#include "ProblemSupport.h"
#include "Tolerances.h"

#include <cmath>

namespace hk::kernels {
namespace {
constexpr int64_t kD = 128, kHalf = kD / 2;
} // namespace

void rotary(Library &lib, const hkrt::Buffer &x, const hkrt::Buffer &cos,
            const hkrt::Buffer &sin, const hkrt::Buffer &out, int64_t B,
            int64_t H, int64_t N) {
  lib.kernel("rotary", "rotary")
      .launch({x.memref(HKRT_DTYPE_BF16, {B, H, N, kD}),
               cos.memref(HKRT_DTYPE_BF16, {N, kHalf}),
               sin.memref(HKRT_DTYPE_BF16, {N, kHalf}),
               out.memref(HKRT_DTYPE_BF16, {B, H, N, kD})});
}

void rotaryReference(const double *x, const double *cos, const double *sin,
                     double *out, int64_t B, int64_t H, int64_t N) {
  for (int64_t row = 0; row < B * H * N; ++row) {
    int64_t n = row % N;
    const double *xr = x + row * kD;
    double *o = out + row * kD;
    for (int64_t d = 0; d < kHalf; ++d) {
      double c = cos[n * kHalf + d], s = sin[n * kHalf + d];
      o[d] = xr[d] * c - xr[d + kHalf] * s;
      o[d + kHalf] = xr[d + kHalf] * c + xr[d] * s;
    }
  }
}

namespace {

/// x1 cos - x2 sin is two exact products and one f32 rounding
/// (2^-24 (|x1 cos| + |x2 sin|), one more with an FMA-free lowering).
/// errorScale = |x1 cos| + |x2 sin|.
const double kRotaryArithmetic = std::ldexp(1.0, -23);
constexpr const char *kRotaryFormula =
    "2^-8 |out| + 2^-23 (|x1 cos| + |x2 sin|)";
constexpr const char *kRotaryReason =
    "bf16 inputs (exact products), one f32 add/sub (cancellation bounded by "
    "the products), bf16 output rounding (2^-8)";

/// cos and sin of position n times frequency 10000^(-d/64), as in RoPE.
std::vector<double> table(int64_t N, bool sine) {
  std::vector<double> v(size_t(N * kHalf));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t d = 0; d < kHalf; ++d) {
      double angle = double(n) * std::pow(10000.0, -double(d) / kHalf);
      v[n * kHalf + d] = roundToBF16(sine ? std::sin(angle) : std::cos(angle));
    }
  return v;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::rotary(), p);
  int64_t B = p.shape[0], H = p.shape[1], N = p.shape[2];
  checkTensorSizes(entries::rotary(), p,
                   {{"x", {B, H, N, kD}}, {"cos", {N, kHalf}}});
  p.tensors = {
      input("x", {B, H, N, kD}, randomBF16(B * H * N * kD, -1, 1, gen)),
      input("cos", {N, kHalf}, table(N, false)),
      input("sin", {N, kHalf}, table(N, true)), output("out", {B, H, N, kD})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  rotary(lib, b[0], b[1], b[2], b[3], p.shape[0], p.shape[1], p.shape[2]);
}

void reference(Problem &p) {
  int64_t B = p.shape[0], H = p.shape[1], N = p.shape[2];
  const std::vector<double> &x = p.tensor("x").values,
                            &cos = p.tensor("cos").values,
                            &sin = p.tensor("sin").values;
  HostTensor &out = p.tensor("out");
  rotaryReference(x.data(), cos.data(), sin.data(), out.exact.data(), B, H, N);
  for (int64_t row = 0; row < B * H * N; ++row) {
    int64_t n = row % N;
    for (int64_t d = 0; d < kHalf; ++d) {
      double x1 = x[row * kD + d], x2 = x[row * kD + d + kHalf];
      double c = cos[n * kHalf + d], s = sin[n * kHalf + d];
      out.errorScale[row * kD + d] = std::fabs(x1 * c) + std::fabs(x2 * s);
      out.errorScale[row * kD + d + kHalf] =
          std::fabs(x2 * c) + std::fabs(x1 * s);
    }
  }
}

Tolerance toleranceFor(const Problem &) {
  return {tolerance::kBF16Output, kRotaryArithmetic, kRotaryFormula,
          kRotaryReason};
}

} // namespace

const KernelEntry &entries::rotary() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "rotary";
    e.summary =
        "rotate-half rotary embedding, D = 128 (x, out: BxHxNx128; cos, sin: "
        "Nx64 from positions 0..N-1)";
    e.shapeNames = "B,H,N";
    e.defaultShape = {1, 2, 256};
    e.testShape = {2, 3, 100};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
