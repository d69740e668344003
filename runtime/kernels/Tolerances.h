//===- Tolerances.h - how far each library kernel may be from float64 -----===//
//
// The one place for the kernels' tolerances. An output element passes when
//   |got - exact| <= rel * |exact| + abs * errorScale
// where exact is the float64 reference and errorScale a per-element magnitude
// the kernel's file computes with the reference (e.g. K * sum_k |a_k b_k| for
// the GEMM). Inputs are bf16, so they are exact in f32 and float64; every
// error comes from f32 arithmetic and the final rounding to bf16.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_KERNELS_TOLERANCES_H
#define HK_RUNTIME_KERNELS_TOLERANCES_H

#include <cmath>

namespace hk::kernels::tolerance {

/// Rounding an f32 result v to bf16 (8-bit significand, round to nearest
/// even) errs by at most half an ulp, 2^-8 |v| (reached just above powers of
/// two). The f32 error d = |v - exact| then counts (1 + 2^-8) times; each
/// arithmetic term below has a factor 2 of margin for that.
inline const double kBF16Output = std::ldexp(1.0, -8);

/// GEMM, per element c = sum_k a_k b_k: products of bf16 are exact in f32;
/// summing K of them in f32 in any order errs by at most
/// (K - 1) 2^-24 sum_k |a_k b_k| (first order). errorScale = K sum |a_k b_k|;
/// the factor 2 (2^-23) covers second-order terms.
inline const double kGemmAccumulation = std::ldexp(1.0, -23);
inline const char *kGemmFormula = "2^-8 |c| + 2^-23 K sum_k |a_k b_k|";
inline const char *kGemmReason =
    "bf16 inputs (exact products), f32 accumulation of K products "
    "(<= (K-1) 2^-24 sum|ab|), bf16 output rounding (2^-8)";

/// Rotary: x1 cos - x2 sin is two exact products and one f32 rounding
/// (2^-24 (|x1 cos| + |x2 sin|), one more with an FMA-free lowering).
/// errorScale = |x1 cos| + |x2 sin|.
inline const double kRotaryArithmetic = std::ldexp(1.0, -23);
inline const char *kRotaryFormula = "2^-8 |out| + 2^-23 (|x1 cos| + |x2 sin|)";
inline const char *kRotaryReason =
    "bf16 inputs (exact products), one f32 add/sub (cancellation bounded by "
    "the products), bf16 output rounding (2^-8)";

/// Row norms over D = 128 in f32: the sum of 128 terms errs by at most
/// 127 2^-24 (< 2^-17) of the sum of magnitudes; halved under the square
/// root; v_rsq_f32 / sqrt + division ~1 ulp each; a few products of 2^-24.
/// Together below 2^-16 of errorScale; 2^-15 leaves a factor 2.
/// RMSNorm: errorScale = |y| (every error is relative to y).
/// LayerNorm: errorScale = (|r - mean| + mean|r|) * rstd * |w| + |b|: an
/// error in the mean shifts every (r - mean) by up to 2^-17 mean|r|.
inline const double kNormArithmetic = std::ldexp(1.0, -15);
inline const char *kRmsNormFormula = "2^-8 |y| + 2^-15 |y|";
inline const char *kRmsNormReason =
    "f32 sum of 128 squares (<= 2^-17), rsqrt ~1 ulp, bf16 output rounding "
    "(2^-8)";
inline const char *kLayerNormFormula =
    "2^-8 |out| + 2^-15 ((|r - mean| + mean|r|) rstd |w| + |b|); "
    "res_out: 2^-8 |r|";
inline const char *kLayerNormReason =
    "f32 row mean and variance over 128 (<= 2^-17 of the magnitudes, the "
    "mean's error shifts every r - mean), rsqrt ~1 ulp, bf16 output "
    "rounding (2^-8)";

/// Softmax, relative to |y|: the f32 sum of N positive terms errs by at most
/// (N - 1) 2^-24; exp2 (v_exp_f32, ~1 ulp) of an argument x log2(e) - m
/// log2(e) whose f32 rounding is at most 2^-24 * 2 * 11.6 for |x| <= 4
/// (about 2^-19 absolute, so 2^-19.5 relative after exp2); the division
/// ~1 ulp. errorScale = (N + 32) |y|, times 2^-23: N 2^-24 with a factor 2,
/// plus 32 2^-23 = 2^-18 for exp2 and the division.
inline const double kSoftmaxArithmetic = std::ldexp(1.0, -23);
inline const double kSoftmaxInputRange = 4.0; // inputs in [-4, 4)
inline const char *kSoftmaxFormula = "2^-8 |y| + 2^-23 (N + 32) |y|";
inline const char *kSoftmaxReason =
    "f32 row sum of N exponentials (<= N 2^-24), exp2 via v_exp_f32 ~1 ulp "
    "of an f32 argument x*log2(e) - max*log2(e) (|x| < 4), bf16 output "
    "rounding (2^-8)";

} // namespace hk::kernels::tolerance

#endif // HK_RUNTIME_KERNELS_TOLERANCES_H
