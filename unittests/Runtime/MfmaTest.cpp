//===- MfmaTest.cpp - emulator MFMA against AMD's register layouts --------===//
//
// For each instruction: random A, B, C; every lane's registers are filled
// from the calculator's CSV layout (Inputs/*.csv), the emulator runs the
// MFMA, and every register of D is compared, through the D CSV, with a
// float64 reference. The gfx950 shapes use the K-extension rule of the AMD
// notes (lane l holds A[l % M][8 * (l / (64 / (K * M / 512)))...]) with the
// D layout of the CDNA3 shape of the same M x N.
//===----------------------------------------------------------------------===//

#include "Tolerances.h"

#include "hk/Runtime/Emulator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

namespace {

/// layout[lane][slot] = (row, col) of the element in that register slot.
using Layout = std::vector<std::vector<std::pair<int, int>>>;

Layout readCsv(const std::string &name) {
  std::ifstream in(std::string(HK_RUNTIME_INPUTS) + "/" + name);
  EXPECT_TRUE(in) << "missing " << name;
  Layout layout(64);
  std::string line;
  std::regex cell(R"([ABCD]\[(\d+)\]\[(\d+)\])");
  while (std::getline(in, line)) {
    if (line.empty() || !isdigit(static_cast<unsigned char>(line[0])))
      continue; // header lines
    int lane = std::stoi(line);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), cell);
         it != std::sregex_iterator(); ++it)
      layout[lane].push_back({std::stoi((*it)[1]), std::stoi((*it)[2])});
  }
  return layout;
}

/// The gfx950 K-extended A/B layouts: lane l holds A[l % M][kpl*(l/M) + i].
Layout extendedLayout(int m, int k, bool isB) {
  int kpl = k * m / 64;
  Layout layout(64);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < kpl; ++i) {
      int row = l % m, kk = kpl * (l / m) + i;
      layout[l].push_back(isB ? std::make_pair(kk, row)
                              : std::make_pair(row, kk));
    }
  return layout;
}

// Independent decoders of the operand formats.
double decodeBF16(uint16_t b) {
  uint32_t w = uint32_t(b) << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}
double decodeF16(uint16_t h) {
  _Float16 f;
  memcpy(&f, &h, 2);
  return double(f);
}
/// e4m3 / e5m2, FNUZ (gfx942) or OCP (gfx950); NaN encodings never drawn.
double decodeFp8(uint8_t x, bool e5m2, bool fnuz) {
  int mb = e5m2 ? 2 : 3, eb = 7 - mb;
  int bias = (1 << (eb - 1)) - (fnuz ? 0 : 1);
  int e = (x >> mb) & ((1 << eb) - 1), mant = x & ((1 << mb) - 1);
  double frac = e ? 1.0 + mant / double(1 << mb) : mant / double(1 << mb);
  double v = std::pow(2.0, (e ? e : 1) - bias) * frac;
  return (x & 0x80) ? -v : v;
}

struct Case {
  const char *name; // CSV stem, or the gfx950 instruction
  int m, n, k;
  hkemu_type type;
  const char *chip;
  const char *csvStem; // for gfx950 shapes: the CDNA3 stem whose D it shares
  bool extended;
};

struct LaneData {
  uint8_t a[64][16], b[64][16];
  float c[64][16], d[64][16];
  Case cs;
};
LaneData data;

void mfmaLane(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane);
  hkemu_mfma(lane, data.cs.m, data.cs.n, data.cs.k, data.cs.type, data.cs.type,
             data.a[l], data.b[l], data.c[l], data.d[l]);
}

class MfmaLayoutTest : public ::testing::TestWithParam<Case> {};

TEST_P(MfmaLayoutTest, MatchesFloat64Reference) {
  const Case cs = GetParam();
  std::string stem = cs.csvStem;
  Layout la = cs.extended ? extendedLayout(cs.m, cs.k, false)
                          : readCsv(stem + ".A.csv");
  Layout lb = cs.extended ? extendedLayout(cs.m, cs.k, true)
                          : readCsv(stem + ".B.csv");
  Layout lc = readCsv(stem + ".C.csv"), ld = readCsv(stem + ".D.csv");
  int kpl = cs.k * cs.m / 64, dregs = cs.m * cs.n / 64;
  ASSERT_EQ(int(la[0].size()), kpl);
  ASSERT_EQ(int(ld[0].size()), dregs);

  bool is8 = cs.type == HKEMU_FP8 || cs.type == HKEMU_BF8;
  bool fnuz = std::string(cs.chip) == "gfx942";
  std::mt19937 rng(1234);
  std::vector<std::vector<double>> A(cs.m, std::vector<double>(cs.k)),
      B(cs.k, std::vector<double>(cs.n)), C(cs.m, std::vector<double>(cs.n));
  std::vector<std::vector<uint16_t>> A16(cs.m, std::vector<uint16_t>(cs.k)),
      B16(cs.k, std::vector<uint16_t>(cs.n));
  auto draw = [&](double &value, uint16_t &bits) {
    if (is8) {
      uint8_t x;
      do
        x = uint8_t(rng());
      while ((fnuz && x == 0x80) || (!fnuz && (x & 0x7F) == 0x7F));
      bits = x;
      value = decodeFp8(x, false, fnuz);
    } else if (cs.type == HKEMU_BF16) {
      float f = std::uniform_real_distribution<float>(-2, 2)(rng);
      uint32_t w;
      memcpy(&w, &f, 4);
      bits = uint16_t(w >> 16);
      value = decodeBF16(bits);
    } else {
      _Float16 h = _Float16(std::uniform_real_distribution<float>(-2, 2)(rng));
      memcpy(&bits, &h, 2);
      value = decodeF16(bits);
    }
  };
  for (int i = 0; i < cs.m; ++i)
    for (int k = 0; k < cs.k; ++k)
      draw(A[i][k], A16[i][k]);
  for (int k = 0; k < cs.k; ++k)
    for (int j = 0; j < cs.n; ++j)
      draw(B[k][j], B16[k][j]);
  for (int i = 0; i < cs.m; ++i)
    for (int j = 0; j < cs.n; ++j)
      C[i][j] = float(std::uniform_real_distribution<float>(-4, 4)(rng));

  memset(&data, 0, sizeof(data));
  data.cs = cs;
  for (int l = 0; l < 64; ++l) {
    for (int s = 0; s < kpl; ++s) {
      auto [ar, ac] = la[l][s];
      auto [br, bc] = lb[l][s];
      if (is8) {
        data.a[l][s] = uint8_t(A16[ar][ac]);
        data.b[l][s] = uint8_t(B16[br][bc]);
      } else {
        memcpy(&data.a[l][2 * s], &A16[ar][ac], 2);
        memcpy(&data.b[l][2 * s], &B16[br][bc], 2);
      }
    }
    for (int r = 0; r < dregs; ++r)
      data.c[l][r] = float(C[lc[l][r].first][lc[l][r].second]);
  }

  hkemu_launch_desc desc{};
  desc.kernel = cs.name;
  desc.chip = cs.chip;
  desc.grid[0] = desc.grid[1] = desc.grid[2] = 1;
  desc.waves = 1;
  desc.fn = mfmaLane;
  char error[512] = "";
  ASSERT_EQ(hkemu_launch(&desc, error, sizeof(error)), 0) << error;

  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < dregs; ++r) {
      auto [i, j] = ld[l][r];
      double ref = C[i][j], scale = std::fabs(C[i][j]);
      for (int k = 0; k < cs.k; ++k) {
        ref += A[i][k] * B[k][j];
        scale += std::fabs(A[i][k] * B[k][j]);
      }
      ASSERT_NEAR(data.d[l][r], ref, hk::test::kMfmaRelTol * scale)
          << cs.name << ": lane " << l << " register " << r << " = D[" << i
          << "][" << j << "]";
    }
}

const Case kCases[] = {
    {"v_mfma_f32_16x16x16_bf16", 16, 16, 16, HKEMU_BF16, "gfx942",
     "v_mfma_f32_16x16x16_bf16", false},
    {"v_mfma_f32_16x16x16_f16", 16, 16, 16, HKEMU_F16, "gfx942",
     "v_mfma_f32_16x16x16_f16", false},
    {"v_mfma_f32_32x32x8_bf16", 32, 32, 8, HKEMU_BF16, "gfx942",
     "v_mfma_f32_32x32x8_bf16", false},
    {"v_mfma_f32_32x32x8_f16", 32, 32, 8, HKEMU_F16, "gfx942",
     "v_mfma_f32_32x32x8_f16", false},
    {"v_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, HKEMU_FP8, "gfx942",
     "v_mfma_f32_16x16x32_fp8_fp8", false},
    {"v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, HKEMU_FP8, "gfx942",
     "v_mfma_f32_32x32x16_fp8_fp8", false},
    // gfx950: OCP fp8 in the same layouts.
    {"v_mfma_f32_16x16x32_fp8_fp8_ocp", 16, 16, 32, HKEMU_FP8, "gfx950",
     "v_mfma_f32_16x16x32_fp8_fp8", false},
    {"v_mfma_f32_32x32x16_fp8_fp8_ocp", 32, 32, 16, HKEMU_FP8, "gfx950",
     "v_mfma_f32_32x32x16_fp8_fp8", false},
    // gfx950 K-extended shapes.
    {"v_mfma_f32_16x16x32_bf16", 16, 16, 32, HKEMU_BF16, "gfx950",
     "v_mfma_f32_16x16x16_bf16", true},
    {"v_mfma_f32_16x16x32_f16", 16, 16, 32, HKEMU_F16, "gfx950",
     "v_mfma_f32_16x16x16_f16", true},
    {"v_mfma_f32_32x32x16_bf16", 32, 32, 16, HKEMU_BF16, "gfx950",
     "v_mfma_f32_32x32x8_bf16", true},
    {"v_mfma_f32_32x32x16_f16", 32, 32, 16, HKEMU_F16, "gfx950",
     "v_mfma_f32_32x32x8_f16", true},
};

INSTANTIATE_TEST_SUITE_P(Emulator, MfmaLayoutTest, ::testing::ValuesIn(kCases),
                         [](const auto &info) {
                           return std::string(info.param.name);
                         });

TEST(MfmaTest, Gfx950ShapeRejectedOnGfx942) {
  memset(&data, 0, sizeof(data));
  data.cs = {"x", 16, 16, 32, HKEMU_BF16, "gfx942", "", true};
  hkemu_launch_desc desc{};
  desc.kernel = "k32";
  desc.chip = "gfx942";
  desc.grid[0] = desc.grid[1] = desc.grid[2] = 1;
  desc.waves = 1;
  desc.fn = mfmaLane;
  char error[512] = "";
  ASSERT_NE(hkemu_launch(&desc, error, sizeof(error)), 0);
  EXPECT_STREQ(error, "kernel 'k32', workgroup (0, 0, 0), wave 0: no bf16 "
                      "MFMA 16x16x32 on gfx942");
}

} // namespace
