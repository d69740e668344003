//===- gemm_fp8_blockwise/Reference.cpp - blockwise-scaled fp8 GEMM -------===//

#include "ProblemSupport.h"

#include <cmath>
#include <stdexcept>

namespace hk::kernels {

namespace {

/// The K block of one scale: a row of A and 128 values of K; 128x128 of B.
constexpr int64_t kBlock = 128;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// +-(1 + m/8) 2^e, e in [-4, 3]: normal E4M3 numbers in both formats
/// (FNUZ: 2^-7 .. 240; OCP: 2^-6 .. 448), so one set of values serves both
/// chips, whatever bytes encode them.
std::vector<double> randomE4M3(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> mant(0, 7), exp(-4, 3), sign(0, 1);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = (sign(gen) ? -1 : 1) * std::ldexp(1 + mant(gen) / 8.0, exp(gen));
  return v;
}

HostTensor typed(HostTensor t, hkrt_dtype dtype) {
  t.dtype = dtype;
  return t;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::gemm_fp8_blockwise(), p);
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  if (K % kBlock != 0)
    throw std::invalid_argument(
        "gemm_fp8_blockwise: K must be a multiple of 128 (one scale per 128 "
        "values of K), got " +
        std::to_string(K));
  int64_t KB = K / kBlock, NB = ceilDiv(N, kBlock);
  checkTensorSizes(entries::gemm_fp8_blockwise(), p,
                   {{"a", {M, K}, HKRT_DTYPE_FP8},
                    {"b", {N, K}, HKRT_DTYPE_FP8},
                    {"sa", {KB, M}, HKRT_DTYPE_F32},
                    {"sb", {NB, KB}, HKRT_DTYPE_F32},
                    {"c", {M, N}, HKRT_DTYPE_BF16}});
  // Scales in [2^-4, 4): bf16 values, whose pairwise products are exact in
  // f32, spread over a range wide enough that a kernel applying the wrong
  // block's scale, or one scale per tile, fails.
  p.tensors = {
      typed(input("a", {M, K}, randomE4M3(M * K, gen)), HKRT_DTYPE_FP8),
      typed(input("b", {N, K}, randomE4M3(N * K, gen)), HKRT_DTYPE_FP8),
      typed(input("sa", {KB, M}, randomBF16(KB * M, 0.0625, 4.0, gen)),
            HKRT_DTYPE_F32),
      typed(input("sb", {NB, KB}, randomBF16(NB * KB, 0.0625, 4.0, gen)),
            HKRT_DTYPE_F32),
      output("c", {M, N})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  int64_t KB = K / kBlock, NB = ceilDiv(N, kBlock);
  lib.kernel("gemm_fp8_blockwise", "gemm_fp8_blockwise")
      .launch({b[0].memref(HKRT_DTYPE_FP8, {M, K}),
               b[1].memref(HKRT_DTYPE_FP8, {N, K}),
               b[2].memref(HKRT_DTYPE_F32, {KB, M}),
               b[3].memref(HKRT_DTYPE_F32, {NB, KB}),
               b[4].memref(HKRT_DTYPE_BF16, {M, N})});
}

/// C in float64, block by block: each K block's exact dot product times
/// its two scales. The error scale of an element is
/// K sum_kb |s_kb| sum_{k in kb} |a_k b_k| (see toleranceFor).
void reference(Problem &p) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  int64_t KB = K / kBlock;
  const std::vector<double> &A = p.tensor("a").values;
  const std::vector<double> &B = p.tensor("b").values;
  const std::vector<double> &sa = p.tensor("sa").values;
  const std::vector<double> &sb = p.tensor("sb").values;
  HostTensor &C = p.tensor("c");
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t kb = 0; kb < KB; ++kb) {
        double block = 0, blockMagnitude = 0;
        for (int64_t k = kb * kBlock; k < (kb + 1) * kBlock; ++k) {
          double prod = A[i * K + k] * B[j * K + k];
          block += prod;
          blockMagnitude += std::fabs(prod);
        }
        double s = sa[kb * M + i] * sb[(j / kBlock) * KB + kb];
        sum += s * block;
        magnitude += std::fabs(s) * blockMagnitude;
      }
      C.exact[i * N + j] = sum;
      C.errorScale[i * N + j] = double(K) * magnitude;
    }
}

/// Products of two E4M3 numbers are exact in f32, and so are the products
/// of two bf16 scales. A block's 128 products are summed in f32 (at most
/// 127 2^-24 sum |a_k b_k|, first order), multiplied by the scale product
/// (2^-24 relative) and added into the f32 accumulator (K/128 additions of
/// at most 2^-24 of the running magnitude each): at most
/// (128 + K/128 + 1) 2^-24 sum_kb |s_kb| sum |a_k b_k|, within
/// 2^-23 K sum_kb |s_kb| sum |a_k b_k| for every K >= 128 (a factor near 2
/// of margin). The bf16 output rounding is 2^-9 |c|; 2^-8 |c| covers it.
Tolerance toleranceFor(const Problem &) {
  return {std::ldexp(1.0, -8), std::ldexp(1.0, -23),
          "2^-8 |c| + 2^-23 K sum_kb |s_kb| sum_{k in kb} |a_k b_k|",
          "exact E4M3 products summed in f32 per block, scaled per block in "
          "f32, bf16 output"};
}

} // namespace

const KernelEntry &entries::gemm_fp8_blockwise() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "gemm_fp8_blockwise";
    e.summary = "C = bf16(sum_kb sa[kb, i] sb[j/128, kb] A_kb B_kb^T): fp8 "
                "(!hk.fp8) GEMM with f32 scales per 1x128 of A and 128x128 "
                "of B, K a multiple of 128";
    e.shapeNames = "M,N,K";
    e.defaultShape = {1024, 1024, 1024};
    e.testShape = {200, 300, 640};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
