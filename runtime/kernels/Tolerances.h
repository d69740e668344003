//===- Tolerances.h - what every kernel's tolerance builds on -------------===//
//
// How far a library kernel may be from float64. An output element passes when
//   |got - exact| <= rel * |exact| + abs * errorScale
// where exact is the float64 reference and errorScale a per-element magnitude
// the kernel's Reference.cpp computes with the reference (e.g. K * sum_k
// |a_k b_k| for the GEMM). Inputs are bf16, so they are exact in f32 and
// float64; every error comes from f32 arithmetic and the final rounding to
// bf16. Each kernel's own constants, with their reasons, live in its
// kernels/<name>/Reference.cpp; the rounding they share is here.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_KERNELS_TOLERANCES_H
#define HK_RUNTIME_KERNELS_TOLERANCES_H

#include <cmath>

namespace hk::kernels::tolerance {

/// Rounding an f32 result v to bf16 (8-bit significand, round to nearest
/// even) errs by at most half an ulp, 2^-8 |v| (reached just above powers of
/// two). The f32 error d = |v - exact| then counts (1 + 2^-8) times; each
/// kernel's arithmetic term has a factor 2 of margin for that.
inline const double kBF16Output = std::ldexp(1.0, -8);

/// A bf16 rounding inside a first-order error bound (the attention kernels
/// round P and dS to bf16 before their MFMAs): up to half an ulp, 2^-8
/// relative at the bottom of a binade (0.58393753 -> 0.58203125 errs by
/// 2^-8.26).
inline const double kBF16Rounding = std::ldexp(1.0, -8);

} // namespace hk::kernels::tolerance

#endif // HK_RUNTIME_KERNELS_TOLERANCES_H
