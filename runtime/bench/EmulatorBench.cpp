//===- EmulatorBench.cpp - what the emulator costs ------------------------===//
//
// Prints (1) the cost of one fiber switch, measured with a one-wave kernel
// whose lanes do nothing but bpermute (each call suspends and resumes every
// lane once), and (2) the time of a 512x512x512 bf16 GEMM written as a lane
// function over v_mfma_f32_16x16x16_bf16, one workgroup of 4 waves per
// 64x64 tile of C, on one core.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/Emulator.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr uint32_t kSwitchRounds = 20000;

void switchLane(hkemu_lane *lane, void *const *) {
  uint32_t v = hkemu_lane_id(lane);
  for (uint32_t i = 0; i < kSwitchRounds; ++i)
    v = hkemu_bpermute(lane, v * 4, v);
}

constexpr uint32_t kN = 512;
std::vector<uint16_t> A, B;
std::vector<float> C;

/// Wave w of workgroup (x, y) computes rows [64x + 16w, +16) and columns
/// [64y, +64) of C = A * B^T (A, B: 512 x 512 bf16, K-minor) as four 16x16
/// accumulators, reading its operands through buffer loads.
void gemmLane(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane), w = hkemu_wave_id(lane);
  uint32_t row = hkemu_workgroup_id(lane, 0) * 64 + 16 * w + l % 16;
  uint32_t col0 = hkemu_workgroup_id(lane, 1) * 64;
  hkemu_buffer ra{A.data(), kN * kN * 2}, rb{B.data(), kN * kN * 2};
  float acc[4][4] = {};
  for (uint32_t k = 0; k < kN; k += 16) {
    uint16_t a[4], b[4];
    hkemu_buffer_load(lane, ra, (row * kN + k + 4 * (l / 16)) * 2, 8, a);
    for (uint32_t t = 0; t < 4; ++t) {
      uint32_t col = col0 + 16 * t + l % 16;
      hkemu_buffer_load(lane, rb, (col * kN + k + 4 * (l / 16)) * 2, 8, b);
      hkemu_mfma(lane, 16, 16, 16, HKEMU_BF16, HKEMU_BF16, a, b, acc[t],
                 acc[t]);
    }
  }
  hkemu_buffer rc{C.data(), kN * kN * 4};
  for (uint32_t t = 0; t < 4; ++t)
    for (uint32_t r = 0; r < 4; ++r) {
      uint32_t orow =
          hkemu_workgroup_id(lane, 0) * 64 + 16 * w + 4 * (l / 16) + r;
      hkemu_buffer_store(lane, rc, (orow * kN + col0 + 16 * t + l % 16) * 4, 4,
                         &acc[t][r]);
    }
}

double run(hkemu_lane_fn fn, uint32_t gx, uint32_t gy, uint32_t waves) {
  hkemu_launch_desc d{};
  d.kernel = "bench";
  d.chip = "gfx942";
  d.grid[0] = gx;
  d.grid[1] = gy;
  d.grid[2] = 1;
  d.waves = waves;
  d.fn = fn;
  char error[512];
  auto t0 = std::chrono::steady_clock::now();
  if (hkemu_launch(&d, error, sizeof(error))) {
    fprintf(stderr, "launch failed: %s\n", error);
    return -1;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

uint16_t bf16(float f) {
  uint32_t w;
  memcpy(&w, &f, 4);
  return uint16_t(w >> 16);
}

} // namespace

int main() {
  double s = run(switchLane, 1, 1, 1);
  // Each bpermute suspends 63 lanes and resumes all 64: two switches per
  // suspended lane (lane -> scheduler -> lane).
  double switches = 2.0 * 63 * kSwitchRounds;
  printf("fiber switch: %.1f ns (%u collective rounds of one wave in %.3f s)\n",
         s / switches * 1e9, kSwitchRounds, s);

  A.resize(kN * kN);
  B.resize(kN * kN);
  C.assign(kN * kN, 0);
  for (uint32_t i = 0; i < kN * kN; ++i) {
    A[i] = bf16(float((i * 7) % 13) / 13 - 0.5f);
    B[i] = bf16(float((i * 5) % 11) / 11 - 0.5f);
  }
  s = run(gemmLane, kN / 64, kN / 64, 4);
  uint64_t mfmas = uint64_t(kN / 16) * (kN / 16) * (kN / 16);
  printf("512x512x512 bf16 GEMM: %.3f s on one core (%llu wave MFMAs, "
         "%.2f us each, %.2f GFLOP/s)\n",
         s, (unsigned long long)mfmas, s / mfmas * 1e6,
         2.0 * kN * kN * kN / s / 1e9);
  // Spot check one element against a float64 dot product.
  double ref = 0;
  for (uint32_t k = 0; k < kN; ++k) {
    uint32_t a = uint32_t(A[5 * kN + k]) << 16, b = uint32_t(B[9 * kN + k])
                                                    << 16;
    float fa, fb;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    ref += double(fa) * fb;
  }
  printf("check: C[5][9] = %.6f, float64 reference %.6f\n", C[5 * kN + 9], ref);
  return 0;
}
