//===- rmsnorm-check.cpp - runs the RMSNorm example on the emulator -------===//
//
// Usage: hk-emulator-rmsnorm-check ARTIFACT CHIP M
//
// examples/rmsnorm.mlir: y = x / sqrt(mean_d(x^2) + eps) * weight, D = 128,
// x, weight, y bf16, math in f32. Its row sums are cross-lane reductions
// (gpu.shuffle on gfx942, amdgpu.permlane_swap on gfx950), so a wrong lane
// exchange shows up as a wrong row scale.
//
// Tolerance per element: (2^-8 + 2^-15) * |y_exact| + 1e-30. The f32 part
// (128 squares summed in f32: at most 127 * 2^-24 relative, halved under
// the square root; sqrt, division and two products: a few 2^-24) stays
// below 2^-16 relative; rounding to bf16 adds at most 2^-8 relative.
// Rows past M must not be written (a guard zone after y). Exits 1 on any
// mismatch.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/hkrt.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
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

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s ARTIFACT CHIP M\n", argv[0]);
    return 2;
  }
  const char *chip = argv[2];
  const int64_t M = atoll(argv[3]), D = 128, guard = 1024;
  const double eps = 1e-6;
  hkrt_device dev;
  hkrt_module mod;
  hkrt_kernel kernel;
  if (hkrt_device_open_emulator(chip, &dev))
    return fail("open the emulator");
  if (hkrt_module_load_file(dev, argv[1], &mod))
    return fail("load the artifact");
  if (hkrt_kernel_get(mod, "rmsnorm", &kernel))
    return fail("find the kernel");

  std::mt19937 gen{uint32_t(M)};
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<uint16_t> x(M * D), w(D);
  for (auto &v : x)
    v = toBF16(dist(gen));
  for (auto &v : w)
    v = toBF16(dist(gen));
  const uint16_t sentinel = 0x7FC1;
  std::vector<uint16_t> y(M * D + guard, sentinel);

  hkrt_buffer dx, dw, dy;
  if (hkrt_buffer_alloc(dev, x.size() * 2, &dx) ||
      hkrt_buffer_alloc(dev, w.size() * 2, &dw) ||
      hkrt_buffer_alloc(dev, y.size() * 2, &dy) ||
      hkrt_buffer_write(dx, 0, x.data(), x.size() * 2) ||
      hkrt_buffer_write(dw, 0, w.data(), w.size() * 2) ||
      hkrt_buffer_write(dy, 0, y.data(), y.size() * 2))
    return fail("prepare the buffers");
  int64_t sx[2] = {M, D}, sw[1] = {D};
  hkrt_arg args[4] = {hkrt_arg_memref(dx, HKRT_DTYPE_BF16, 2, sx, nullptr),
                      hkrt_arg_memref(dw, HKRT_DTYPE_BF16, 1, sw, nullptr),
                      hkrt_arg_memref(dy, HKRT_DTYPE_BF16, 2, sx, nullptr),
                      hkrt_arg_float(HKRT_DTYPE_F32, eps)};
  if (hkrt_launch(kernel, args, 4))
    return fail("launch");
  if (hkrt_buffer_read(dy, 0, y.data(), y.size() * 2))
    return fail("read y");

  int64_t bad = 0, guardHits = 0;
  double worst = 0;
  for (int64_t i = 0; i < M; ++i) {
    double ss = 0;
    for (int64_t d = 0; d < D; ++d)
      ss += double(fromBF16(x[i * D + d])) * fromBF16(x[i * D + d]);
    // eps reaches the kernel as an f32.
    double scale = 1.0 / std::sqrt(ss / D + double(float(eps)));
    for (int64_t d = 0; d < D; ++d) {
      double exact = fromBF16(x[i * D + d]) * scale * fromBF16(w[d]);
      double got = fromBF16(y[i * D + d]);
      double tol =
          (std::ldexp(1.0, -8) + std::ldexp(1.0, -15)) * std::fabs(exact) +
          1e-30;
      double err = std::fabs(got - exact);
      worst = std::fmax(worst, err / tol);
      if (!(err <= tol) && bad++ < 5)
        fprintf(stderr, "mismatch at y[%lld][%lld]: got %.8g, expected %.8g\n",
                (long long)i, (long long)d, got, exact);
    }
  }
  for (int64_t g = 0; g < guard; ++g)
    guardHits += y[M * D + g] != sentinel;
  bool ok = bad == 0 && guardHits == 0;
  printf("%s rmsnorm %s M=%lld: %lld elements, %lld mismatches, %lld guard "
         "writes, max error/tolerance %.3f\n",
         ok ? "PASS" : "FAIL", chip, (long long)M, (long long)(M * D),
         (long long)bad, (long long)guardHits, worst);
  hkrt_module_unload(mod);
  hkrt_device_close(dev);
  return ok ? 0 : 1;
}
