//===- TestTolerances.h - how close the emulator must come ----------------===//
//
// The one place for the numeric tolerances of the runtime tests, each with
// its reason. Errors are measured against a float64 reference and scaled by
// the sum of the magnitudes of the terms (|c| + sum |a*b|), which bounds the
// size of any intermediate sum.
//===----------------------------------------------------------------------===//

#ifndef HK_UNITTESTS_RUNTIME_TESTTOLERANCES_H
#define HK_UNITTESTS_RUNTIME_TESTTOLERANCES_H

namespace hk::test {

/// One MFMA: the emulator forms exact products, sums them in double and
/// rounds once to f32, so the error is at most half an f32 ulp of the result
/// (2^-24 relative); 2^-23 leaves a factor two of margin.
constexpr double kMfmaRelTol = 0x1p-23;

/// A GEMM built from MFMAs chaining K/k accumulations through f32
/// registers: each MFMA rounds once, so after K/k = 4 (64x64x64 with k = 16)
/// or 32 (512^3) steps the error is at most that many f32 roundings.
/// 2^-24 * 64 covers up to 64 chained MFMAs.
constexpr double kGemmRelTol = 0x1p-24 * 64;

/// Vector add through buffer loads/stores: one f32 addition, exact to half
/// an ulp; compared with the f32 sum computed on the host, it must be exact.
constexpr double kVectorAddAbsTol = 0.0;

} // namespace hk::test

#endif // HK_UNITTESTS_RUNTIME_TESTTOLERANCES_H
