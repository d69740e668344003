//===- gemm-check.cpp - runs an A * B^T GEMM artifact on the emulator -----===//
//
// Usage: hk-emulator-gemm-check ARTIFACT CHIP M N K [KERNEL]
//
// Loads the artifact through hkrt on the emulator modelling CHIP, launches
// KERNEL (default gemm_reg; arguments A: MxK bf16, B: NxK bf16, C: MxN bf16)
// on random inputs and compares C element-wise with a float64 reference.
//
// Tolerance, per element c = sum_k a_k * b_k:
//   |c_emulated - c_exact| <= 2^-8 * |c_exact| + 2 * K * 2^-24 * sum_k |a_k
//   b_k|
// The products of bf16 inputs are exact in f32 (8-bit significands); summing
// K of them in f32, in any order, errs by at most (K - 1) * 2^-24 *
// sum |a_k b_k| (first-order bound); rounding the f32 sum to bf16 (8-bit
// significand, round to nearest even) adds at most 2^-8 relative. The factor
// 2 covers the rounding of the error term itself and second-order terms.
// Beyond the values, C's out-of-range neighbours (a guard zone after C in
// the same buffer) must be untouched and every element of C written.
// Prints one summary line; exits 1 on any mismatch.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/hkrt.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

float fromBF16(uint16_t h) {
  uint32_t w = uint32_t(h) << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}

uint16_t toBF16(float f) {
  uint32_t w;
  memcpy(&w, &f, 4);
  return uint16_t((w + 0x7FFF + ((w >> 16) & 1)) >> 16);
}

int fail(const char *what) {
  fprintf(stderr, "error: %s: %s\n", what, hkrt_last_error());
  return 2;
}

/// Fills a bf16 buffer with values in [-1, 1), rounded to bf16.
std::vector<uint16_t> randomBF16(size_t n, std::mt19937 &gen) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<uint16_t> v(n);
  for (auto &x : v)
    x = toBF16(dist(gen));
  return v;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s ARTIFACT CHIP M N K [KERNEL]\n", argv[0]);
    return 2;
  }
  const char *path = argv[1], *chip = argv[2];
  int64_t M = atoll(argv[3]), N = atoll(argv[4]), K = atoll(argv[5]);
  const char *kernelName = argc > 6 ? argv[6] : "gemm_reg";

  hkrt_device dev;
  hkrt_module mod;
  hkrt_kernel kernel;
  if (hkrt_device_open_emulator(chip, &dev))
    return fail("open the emulator");
  if (hkrt_module_load_file(dev, path, &mod))
    return fail("load the artifact");
  if (hkrt_kernel_get(mod, kernelName, &kernel))
    return fail("find the kernel");

  std::mt19937 gen(uint32_t(M * 131071 + N * 8191 + K));
  std::vector<uint16_t> a = randomBF16(M * K, gen), b = randomBF16(N * K, gen);
  // C, then a guard zone that an out-of-range store would hit; all of it
  // starts as a NaN pattern no result can have.
  const int64_t guard = 4096;
  const uint16_t sentinel = 0x7FC1;
  std::vector<uint16_t> c(M * N + guard, sentinel);

  hkrt_buffer da, db, dc;
  if (hkrt_buffer_alloc(dev, a.size() * 2, &da) ||
      hkrt_buffer_alloc(dev, b.size() * 2, &db) ||
      hkrt_buffer_alloc(dev, c.size() * 2, &dc) ||
      hkrt_buffer_write(da, 0, a.data(), a.size() * 2) ||
      hkrt_buffer_write(db, 0, b.data(), b.size() * 2) ||
      hkrt_buffer_write(dc, 0, c.data(), c.size() * 2))
    return fail("prepare the buffers");
  int64_t sa[2] = {M, K}, sb[2] = {N, K}, sc[2] = {M, N};
  hkrt_arg args[3] = {hkrt_arg_memref(da, HKRT_DTYPE_BF16, 2, sa, nullptr),
                      hkrt_arg_memref(db, HKRT_DTYPE_BF16, 2, sb, nullptr),
                      hkrt_arg_memref(dc, HKRT_DTYPE_BF16, 2, sc, nullptr)};
  if (hkrt_launch(kernel, args, 3))
    return fail("launch");
  if (hkrt_buffer_read(dc, 0, c.data(), c.size() * 2))
    return fail("read C");

  int64_t bad = 0, unwritten = 0, guardHits = 0;
  double worst = 0; // max |error| / tolerance
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      double exact = 0, magnitude = 0;
      for (int64_t k = 0; k < K; ++k) {
        double p = double(fromBF16(a[i * K + k])) * fromBF16(b[j * K + k]);
        exact += p;
        magnitude += std::fabs(p);
      }
      uint16_t got = c[i * N + j];
      if (got == sentinel) {
        ++unwritten;
        continue;
      }
      double tol = std::ldexp(std::fabs(exact), -8) +
                   2.0 * double(K) * std::ldexp(magnitude, -24) + 1e-30;
      double err = std::fabs(double(fromBF16(got)) - exact);
      worst = std::fmax(worst, err / tol);
      if (!(err <= tol) && bad++ < 5)
        fprintf(stderr,
                "mismatch at C[%lld][%lld]: got %.8g, expected %.8g "
                "(tolerance %.3g)\n",
                (long long)i, (long long)j, fromBF16(got), exact, tol);
    }
  }
  for (int64_t g = 0; g < guard; ++g)
    guardHits += c[M * N + g] != sentinel;

  bool ok = bad == 0 && unwritten == 0 && guardHits == 0;
  printf("%s %s %s %lldx%lldx%lld: %lld elements, %lld mismatches, %lld "
         "unwritten, %lld guard writes, max error/tolerance %.3f\n",
         ok ? "PASS" : "FAIL", kernelName, chip, (long long)M, (long long)N,
         (long long)K, (long long)(M * N), (long long)bad, (long long)unwritten,
         (long long)guardHits, worst);
  hkrt_module_unload(mod);
  hkrt_device_close(dev);
  return ok ? 0 : 1;
}
