//===- gemm_mx/Reference.cpp - OCP MX GEMMs (MXFP8, MXFP4), C = A B^T -----===//

#include "ProblemSupport.h"

#include "hk/Base/Formats.h"

#include <cmath>

namespace hk::kernels {

namespace {

/// Elements per e8m0 scale along K (OCP MX).
constexpr int64_t kBlock = 32;

/// The formats a shape's last size picks: 8 (MXFP8), 4 (MXFP4) or 0 (both,
/// the test shape).
bool runs(const Problem &p, int64_t bits) {
  return p.shape[3] == 0 || p.shape[3] == bits;
}

/// Random E4M3 codes (OCP): every finite code but the largest binade's
/// (|x| < 256), so that block sums stay far from overflow.
std::vector<double> randomE4M3Codes(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> code(0, 0x77);
  std::uniform_int_distribution<int> sign(0, 1);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = int8_t(uint8_t(code(gen) | (sign(gen) << 7)));
  return v;
}

/// Random bytes of two E2M1 codes each (every code of the format).
std::vector<double> randomE2M1Pairs(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = int8_t(uint8_t(byte(gen)));
  return v;
}

/// Random e8m0 scale codes, 2^-4 .. 2^4.
std::vector<double> randomScales(int64_t n, std::mt19937 &gen) {
  std::uniform_int_distribution<int> code(127 - 4, 127 + 4);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = int8_t(uint8_t(code(gen)));
  return v;
}

uint8_t byteOf(double v) { return uint8_t(int8_t(v)); }

/// The value of element k of a row of MX data given as bytes.
double elementOf(const std::vector<double> &bytes, int64_t rowStart, int64_t k,
                 int64_t bits) {
  if (bits == 8)
    return fmt::decode(byteOf(bytes[rowStart + k]), fmt::kE4M3);
  uint8_t b = byteOf(bytes[rowStart + k / 2]);
  return fmt::decode(k % 2 ? b >> 4 : b & 0xF, fmt::kE2M1);
}

/// Rows x K values of MX data: elements times their block's scale.
std::vector<double> decodeMx(const std::vector<double> &bytes,
                             const std::vector<double> &scales, int64_t rows,
                             int64_t K, int64_t bits) {
  std::vector<double> v(static_cast<size_t>(rows * K));
  int64_t rowBytes = bits == 8 ? K : K / 2;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = 0; k < K; ++k)
      v[i * K + k] =
          elementOf(bytes, i * rowBytes, k, bits) *
          fmt::decodeE8M0(byteOf(scales[i * (K / kBlock) + k / kBlock]));
  return v;
}

HostTensor typed(HostTensor t, hkrt_dtype dtype) {
  t.dtype = dtype;
  return t;
}

void setup(Problem &p, std::mt19937 &gen) {
  checkShape(entries::gemm_mx(), p);
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  if (K % kBlock)
    throw std::invalid_argument(
        "--shape: K = " + std::to_string(K) +
        " is not a multiple of 32: every MX scale covers a block of 32 "
        "elements along K");
  if (p.shape[3] != 0 && p.shape[3] != 8 && p.shape[3] != 4)
    throw std::invalid_argument(
        "--shape: bits = " + std::to_string(p.shape[3]) +
        " is not 8 (MXFP8), 4 (MXFP4) or 0 (both)");
  checkTensorSizes(entries::gemm_mx(), p,
                   {{"a8", {M, K}, HKRT_DTYPE_I8},
                    {"b8", {N, K}, HKRT_DTYPE_I8},
                    {"a4", {M, K / 2}, HKRT_DTYPE_I8},
                    {"b4", {N, K / 2}, HKRT_DTYPE_I8},
                    {"sa", {M, K / kBlock}, HKRT_DTYPE_I8},
                    {"sb", {N, K / kBlock}, HKRT_DTYPE_I8},
                    {"c8", {M, N}, HKRT_DTYPE_BF16},
                    {"c4", {M, N}, HKRT_DTYPE_BF16}});
  // The format not run gets empty tensors.
  int64_t M8 = runs(p, 8) ? M : 0, N8 = runs(p, 8) ? N : 0;
  int64_t M4 = runs(p, 4) ? M : 0, N4 = runs(p, 4) ? N : 0;
  p.tensors = {
      typed(input("a8", {M8, K}, randomE4M3Codes(M8 * K, gen)), HKRT_DTYPE_I8),
      typed(input("b8", {N8, K}, randomE4M3Codes(N8 * K, gen)), HKRT_DTYPE_I8),
      typed(input("a4", {M4, K / 2}, randomE2M1Pairs(M4 * K / 2, gen)),
            HKRT_DTYPE_I8),
      typed(input("b4", {N4, K / 2}, randomE2M1Pairs(N4 * K / 2, gen)),
            HKRT_DTYPE_I8),
      typed(input("sa", {M, K / kBlock}, randomScales(M * K / kBlock, gen)),
            HKRT_DTYPE_I8),
      typed(input("sb", {N, K / kBlock}, randomScales(N * K / kBlock, gen)),
            HKRT_DTYPE_I8),
      output("c8", {M8, N8}),
      output("c4", {M4, N4})};
}

void launch(Library &lib, const Problem &p,
            const std::vector<hkrt::Buffer> &b) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  hkrt_arg sa = b[4].memref(HKRT_DTYPE_I8, {M, K / kBlock});
  hkrt_arg sb = b[5].memref(HKRT_DTYPE_I8, {N, K / kBlock});
  if (runs(p, 8))
    lib.kernel("gemm_mx", "gemm_mx_fp8")
        .launch({b[0].memref(HKRT_DTYPE_I8, {M, K}), sa,
                 b[1].memref(HKRT_DTYPE_I8, {N, K}), sb,
                 b[6].memref(HKRT_DTYPE_BF16, {M, N})});
  if (runs(p, 4))
    lib.kernel("gemm_mx", "gemm_mx_fp4")
        .launch({b[2].memref(HKRT_DTYPE_I8, {M, K / 2}), sa,
                 b[3].memref(HKRT_DTYPE_I8, {N, K / 2}), sb,
                 b[7].memref(HKRT_DTYPE_BF16, {M, N})});
}

/// C = A B^T in float64 from the decoded blocks; the error scale of each
/// element is K sum_k |a_k b_k| (see toleranceFor).
void referenceOf(Problem &p, int64_t bits, const char *a, const char *b,
                 const char *c) {
  int64_t M = p.shape[0], N = p.shape[1], K = p.shape[2];
  std::vector<double> A =
      decodeMx(p.tensor(a).values, p.tensor("sa").values, M, K, bits);
  std::vector<double> B =
      decodeMx(p.tensor(b).values, p.tensor("sb").values, N, K, bits);
  HostTensor &C = p.tensor(c);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t k = 0; k < K; ++k) {
        double prod = A[i * K + k] * B[j * K + k];
        sum += prod;
        magnitude += std::fabs(prod);
      }
      C.exact[i * N + j] = sum;
      C.errorScale[i * N + j] = double(K) * magnitude;
    }
}

void reference(Problem &p) {
  if (runs(p, 8))
    referenceOf(p, 8, "a8", "b8", "c8");
  if (runs(p, 4))
    referenceOf(p, 4, "a4", "b4", "c4");
}

/// Products of two E4M3 (or E2M1) numbers times two powers of two are
/// exact in f32; the MFMAs and the loop add K of them in f32, erring by at
/// most (K - 1) 2^-24 sum_k |a_k b_k| (first order), taken as 2^-23 K
/// sum_k |a_k b_k| (a factor 2 of margin); the bf16 output rounding adds
/// 2^-9 |c|, covered by 2^-8 |c|.
Tolerance toleranceFor(const Problem &) {
  return {std::ldexp(1.0, -8), std::ldexp(1.0, -23),
          "2^-8 |c| + 2^-23 K sum_k |a_k b_k|",
          "exact scaled E4M3 / E2M1 products summed in f32, bf16 output"};
}

} // namespace

const KernelEntry &entries::gemm_mx() {
  static const KernelEntry entry = [] {
    KernelEntry e;
    e.name = "gemm_mx";
    e.entryPoint = "gemm_mx_fp8";
    e.summary = "OCP MX GEMMs C = bf16(A B^T), MXFP8 (E4M3) and MXFP4 (E2M1) "
                "with e8m0 scales per 32 elements of K, on gfx950's scaled "
                "MFMAs; bits 8, 4 or 0 (both)";
    e.shapeNames = "M,N,K,bits";
    e.defaultShape = {1024, 1024, 1024, 0};
    e.testShape = {300, 200, 160, 0};
    e.setup = setup;
    e.launch = launch;
    e.reference = reference;
    e.tolerance = toleranceFor;
    return e;
  }();
  return entry;
}

} // namespace hk::kernels
