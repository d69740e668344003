// Runs the library's RMSNorm through the launch function hkc generated
// (rmsnorm.h) on the ISA simulator of the chip named on the command line,
// and checks every output element against a float64 RMSNorm computed here.
#include "rmsnorm.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

float fromBF16(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

uint16_t toBF16(float value) { // round to nearest even; no NaN here
  uint32_t word;
  std::memcpy(&word, &value, sizeof word);
  return uint16_t((word + 0x7fff + ((word >> 16) & 1)) >> 16);
}

int fail(const char *what, hkrt_status status) {
  std::printf("%s failed (%d): %s\n", what, int(status), rmsnorm_last_error());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::printf("usage: rmsnorm_app <chip>\n");
    return 2;
  }
  const int64_t rows = 300, cols = 128; // 300: not a multiple of the tile
  const float eps = 1e-6f;
  std::vector<uint16_t> x(rows * cols), weight(cols), y(rows * cols, 0xffff);
  uint32_t seed = 12345;
  auto uniform = [&] { // in [-2, 2)
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1 << 24) * 4.0f - 2.0f;
  };
  for (uint16_t &v : x)
    v = toBF16(uniform());
  for (uint16_t &v : weight)
    v = toBF16(uniform());

  int64_t grid[3];
  if (hkrt_status s = rmsnorm_rmsnorm_grid(rows, grid))
    return fail("rmsnorm_rmsnorm_grid", s);
  std::printf("grid %lld %lld %lld\n", (long long)grid[0], (long long)grid[1],
              (long long)grid[2]);

  hkrt_device device = nullptr;
  if (hkrt_status s = hkrt_device_open_isa(argv[1], &device))
    return std::printf("device: %s\n", hkrt_last_error()), 1;
  rmsnorm_library library;
  if (hkrt_status s = rmsnorm_load(device, &library))
    return fail("rmsnorm_load", s);
  // A missing array is refused before anything runs, with a message.
  hkrt_status refused = rmsnorm_rmsnorm(&library, nullptr, rows, weight.data(),
                                        y.data(), rows, eps);
  std::printf("null x: status %d: %s\n", int(refused), rmsnorm_last_error());
  if (hkrt_status s = rmsnorm_rmsnorm(&library, x.data(), rows, weight.data(),
                                      y.data(), rows, eps))
    return fail("rmsnorm_rmsnorm", s);

  // Each output is a bf16 rounding of the exact value (2^-8 relative) after
  // an f32 sum of squares and an rsqrt: within 2^-7 of it, relatively.
  int64_t wrong = 0;
  double worst = 0;
  for (int64_t i = 0; i < rows; ++i) {
    double squares = 0;
    for (int64_t j = 0; j < cols; ++j)
      squares += std::pow(double(fromBF16(x[i * cols + j])), 2);
    double rms = std::sqrt(squares / cols + double(eps));
    for (int64_t j = 0; j < cols; ++j) {
      double ref = fromBF16(x[i * cols + j]) / rms * fromBF16(weight[j]);
      double err = std::fabs(fromBF16(y[i * cols + j]) - ref);
      worst = std::fmax(worst, err);
      wrong += !(err <= std::ldexp(std::fabs(ref), -7) + 1e-6);
    }
  }
  std::printf("%s: %lld of %lld elements wrong\n", argv[1], (long long)wrong,
              (long long)(rows * cols));
  rmsnorm_unload(&library);
  hkrt_device_close(device);
  return wrong != 0;
}
