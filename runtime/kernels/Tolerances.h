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


/// Attention (AttentionSupport.h computes the terms). rel = 0: the whole
/// bound is the per-element errorScale, a first-order error bound built from
/// the float64 quantities of the reference, and abs = kAttentionMargin = 2
/// covers second-order terms. A bf16 rounding (8-bit significand, round to
/// nearest even) errs by up to half an ulp, 2^-8 relative at the bottom of a
/// binade (0.58393753 -> 0.58203125 errs by 2^-8.26).
inline const double kBF16Rounding = std::ldexp(1.0, -8);
inline const double kAttentionMargin = 2.0;
/// Forward. Scores s = Q.K log2(e)/sqrt(D) in f32: delta <= c D 2^-24
/// max_j sum|q k| + 2^-21 max|s| (dot product, scale, minus the row max).
/// Each P term is off by 2^-8 (P rounded to bf16 before P V; the row sum l
/// uses the f32 P), ln(2) delta + 2^-23 (exp2 via v_exp_f32, ~1 ulp) twice
/// (numerator and l), N 2^-24 twice (f32 sums of O and l, alpha rescalings).
/// L = (m + log2 l) ln 2 in f32: ln(2) delta, l's relative error through
/// log2, v_log_f32 and the add/multiply (2^-22 ln 2 (|m| + log2 N)).
inline const char *kAttentionForwardFormula =
    "2 x [O: 2^-8 |O| + (2^-8 + 2 eps_i + 2 N 2^-24) sum_j p_ij |V_jd|; "
    "L: ln2 delta_i + (N 2^-24 + 2^-23) + 2^-22 ln2 (max|s_i| + log2 N)], "
    "eps_i = ln2 delta_i + 2^-23, delta_i = D 2^-24 log2e/sqrt(D) "
    "max_j sum_d |q k| + 2^-21 max_j |s_ij|";
inline const char *kAttentionForwardReason =
    "bf16 inputs (exact products), f32 scores (dot over D), P rounded to "
    "bf16 before P V while l sums the f32 P, exp2 via v_exp_f32 (~1 ulp), "
    "f32 accumulation over N keys with per-block rescaling, bf16 O "
    "(2^-8); first-order bound, factor 2 for second-order terms";
/// Backward (D = 128). P = exp2(s - L log2 e) with relative error eps_P =
/// the forward's eps_i + 2^-22 |L|. dS = P (dP - delta) is rounded to bf16
/// (2^-8 |dS|) after f32 dP = dO.V and delta = dO.O whose absolute errors
/// (D 2^-24 sum|dO V|, D 2^-24 sum|dO O|) are not relative to dS: where
/// dP ~ delta the difference cancels, so E_ij = |dS|(2^-8 + eps_P + 2^-23)
/// + P (D 2^-24 (sum|dO V| + sum|dO O|)). Every gradient element sums
/// such terms: dV = P^T dO over N H/H_kv queries (bf16 P), dK = dS^T Q /
/// sqrt(D) (same count), dQ = dS K / sqrt(D) over N keys (f32 atomic adds of
/// per-wave partial sums). Larger than the forward's because every term
/// carries the bf16 rounding of dS or P with no normalisation dividing it
/// out, the cancellation in dP - delta, and n 2^-24 for n = N H/H_kv terms.
inline const char *kAttentionBackwardFormula =
    "2 x [dV: 2^-8 |dV| + (2^-8 + eps_P + n 2^-24) sum_i P |dO|; "
    "dK: 2^-8 |dK| + (1/sqrt D) sum_i (E_ij |Q| + n 2^-24 |dS Q|); "
    "dQ: (1/sqrt D) sum_j (E_ij |K| + N 2^-24 |dS K|)], n = N H/H_kv, "
    "E_ij = |dS|(2^-8 + eps_P + 2^-23) + P D 2^-24 (sum|dO V| + sum|dO O|)";
inline const char *kAttentionBackwardReason =
    "bf16 P and dS before the MFMAs (2^-8 per term, not divided out as in "
    "the forward), cancellation in dP - delta (f32 errors of dO.V and "
    "dO.O times P), f32 accumulation over N H/H_kv queries (dK, dV) and N "
    "keys with atomic adds (dQ), bf16 dK, dV (2^-8); first-order bound, "
    "factor 2 for second-order terms";

} // namespace hk::kernels::tolerance

#endif // HK_RUNTIME_KERNELS_TOLERANCES_H
