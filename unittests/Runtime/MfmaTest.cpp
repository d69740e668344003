//===- MfmaTest.cpp - emulator MFMA against AMD's register layouts --------===//
//
// For each instruction: random A, B, C; every lane's registers are filled
// from the calculator's CSV layout (unittests/Inputs/mfma-layouts-cdna3), the
// emulator runs the
// MFMA, and every register of D is compared, through the D CSV, with a
// float64 reference (for i8, an exact integer reference). The gfx950 shapes use
// the K-extension rule of the AMD notes (lane l holds A[l % M][8 * (l / (64 /
// (K * M / 512)))...]) with the D layout of the CDNA3 shape of the same M x N.
// xf32 is checked against inputs truncated to 10 mantissa bits, as gfx942 does
// (see Mfma.cpp).
//===----------------------------------------------------------------------===//

#include "TestTolerances.h"

#include "hk/Runtime/Emulator.h"
#include "hk/Target/Chip.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

/// layout[lane][slot] = (row, col) of the element in that register slot.
using Layout = std::vector<std::vector<std::pair<int, int>>>;

Layout readCsv(const std::string &name) {
  std::ifstream in(std::string(HK_MFMA_LAYOUTS_DIR) + "/" + name);
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
/// f32 reduced to 1 + 10 significant bits, by truncation (the hardware's
/// xf32) or, to show the test tells them apart, by rounding to nearest.
double reduceToXf32(float f, bool nearest) {
  int e;
  double m = std::frexp(double(f), &e); // |m| in [0.5, 1): 11 bits = m * 2^11
  double s = m * 2048.0;
  s = nearest ? std::nearbyint(s) : std::trunc(s);
  return std::ldexp(s, e - 11);
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
  int32_t ci[64][16], di[64][16];
  Case cs;
  bool floatEntry; ///< call hkemu_mfma even for i8 (to test its rejection)
};
LaneData data;

void mfmaLane(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane);
  if (data.cs.type == HKEMU_I8 && !data.floatEntry)
    hkemu_mfma_i32(lane, data.cs.m, data.cs.n, data.cs.k, data.cs.type,
                   data.cs.type, data.a[l], data.b[l], data.ci[l], data.di[l]);
  else
    hkemu_mfma(lane, data.cs.m, data.cs.n, data.cs.k, data.cs.type,
               data.cs.type, data.a[l], data.b[l], data.c[l], data.d[l]);
}

/// Runs `fn` in one wave; returns the launch error or "".
std::string launchOneWave(const char *kernel, const char *chip,
                          hkemu_lane_fn fn = mfmaLane) {
  hkemu_launch_desc desc{};
  desc.kernel = kernel;
  desc.chip = chip;
  desc.grid[0] = desc.grid[1] = desc.grid[2] = 1;
  desc.waves = 1;
  desc.fn = fn;
  char error[512] = "";
  if (hkemu_launch(&desc, error, sizeof(error)) != 0)
    return error[0] ? error : "launch failed without a message";
  return "";
}

class MfmaLayoutTest : public ::testing::TestWithParam<Case> {};

TEST_P(MfmaLayoutTest, MatchesFloat64Reference) {
  const Case cs = GetParam();
  std::string stem = cs.csvStem;
  Layout la = cs.extended ? extendedLayout(cs.m, cs.k, false)
                          : readCsv(stem + ".A.csv");
  Layout lb =
      cs.extended ? extendedLayout(cs.m, cs.k, true) : readCsv(stem + ".B.csv");
  Layout lc = readCsv(stem + ".C.csv"), ld = readCsv(stem + ".D.csv");
  int kpl = cs.k * cs.m / 64, dregs = cs.m * cs.n / 64;
  ASSERT_EQ(int(la[0].size()), kpl);
  ASSERT_EQ(int(ld[0].size()), dregs);

  bool is8 = cs.type == HKEMU_FP8 || cs.type == HKEMU_BF8;
  bool is32 = cs.type == HKEMU_F32 || cs.type == HKEMU_XF32;
  bool isI8 = cs.type == HKEMU_I8;
  bool fnuz = std::string(cs.chip) == "gfx942";
  std::mt19937 rng(1234);
  std::vector<std::vector<double>> A(cs.m, std::vector<double>(cs.k)),
      B(cs.k, std::vector<double>(cs.n)), C(cs.m, std::vector<double>(cs.n));
  // Raw element bits (the low 8, 16 or all 32 bits used).
  std::vector<std::vector<uint32_t>> A16(cs.m, std::vector<uint32_t>(cs.k)),
      B16(cs.k, std::vector<uint32_t>(cs.n));
  // xf32 only: the inputs as f32 and rounded to nearest xf32 (alternatives
  // the check must reject).
  std::vector<std::vector<double>> Af(cs.m, std::vector<double>(cs.k)),
      Bf(cs.k, std::vector<double>(cs.n)), An = Af, Bn = Bf;
  auto draw = [&](double &value, uint32_t &bits, double &full,
                  double &nearest) {
    if (is32) {
      float f = std::uniform_real_distribution<float>(-2, 2)(rng);
      memcpy(&bits, &f, 4);
      full = f;
      nearest = reduceToXf32(f, true);
      value = cs.type == HKEMU_XF32 ? reduceToXf32(f, false) : double(f);
    } else if (isI8) {
      int8_t x = int8_t(rng());
      bits = uint8_t(x);
      value = x;
    } else if (is8) {
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
      draw(A[i][k], A16[i][k], Af[i][k], An[i][k]);
  for (int k = 0; k < cs.k; ++k)
    for (int j = 0; j < cs.n; ++j)
      draw(B[k][j], B16[k][j], Bf[k][j], Bn[k][j]);
  for (int i = 0; i < cs.m; ++i)
    for (int j = 0; j < cs.n; ++j)
      C[i][j] = isI8 ? double(std::uniform_int_distribution<int32_t>(
                           -(1 << 30), 1 << 30)(rng))
                     : float(std::uniform_real_distribution<float>(-4, 4)(rng));

  memset(&data, 0, sizeof(data));
  data.cs = cs;
  for (int l = 0; l < 64; ++l) {
    for (int s = 0; s < kpl; ++s) {
      auto [ar, ac] = la[l][s];
      auto [br, bc] = lb[l][s];
      // Slot s sits at byte offset s * size, little-endian, as in the
      // registers (v0 bits [7:0] first).
      int size = is32 ? 4 : (is8 || isI8) ? 1 : 2;
      memcpy(&data.a[l][size * s], &A16[ar][ac], size);
      memcpy(&data.b[l][size * s], &B16[br][bc], size);
    }
    for (int r = 0; r < dregs; ++r) {
      double c = C[lc[l][r].first][lc[l][r].second];
      data.c[l][r] = float(c);
      data.ci[l][r] = int32_t(c);
    }
  }

  ASSERT_EQ(launchOneWave(cs.name, cs.chip), "");

  // xf32: how many D elements an f32 or round-to-nearest reference would
  // reject, to show that the check tells truncation apart from both.
  int fullMisses = 0, nearestMisses = 0;
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < dregs; ++r) {
      auto [i, j] = ld[l][r];
      if (isI8) {
        int64_t ref = int64_t(C[i][j]);
        for (int k = 0; k < cs.k; ++k)
          ref += int64_t(A[i][k]) * int64_t(B[k][j]);
        ASSERT_EQ(data.di[l][r], ref)
            << cs.name << ": lane " << l << " register " << r << " = D[" << i
            << "][" << j << "]";
        continue;
      }
      double ref = C[i][j], scale = std::fabs(C[i][j]), full = C[i][j],
             nearest = C[i][j];
      for (int k = 0; k < cs.k; ++k) {
        ref += A[i][k] * B[k][j];
        scale += std::fabs(A[i][k] * B[k][j]);
        full += Af[i][k] * Bf[k][j];
        nearest += An[i][k] * Bn[k][j];
      }
      double tol = hk::test::kMfmaRelTol * scale;
      ASSERT_NEAR(data.d[l][r], ref, tol)
          << cs.name << ": lane " << l << " register " << r << " = D[" << i
          << "][" << j << "]";
      fullMisses += std::fabs(data.d[l][r] - full) > tol;
      nearestMisses += std::fabs(data.d[l][r] - nearest) > tol;
    }
  if (cs.type == HKEMU_XF32) {
    EXPECT_GT(fullMisses, dregs * 64 / 2);
    EXPECT_GT(nearestMisses, dregs * 64 / 2);
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
    // f32, xf32 and i8 (i32 accumulation).
    {"v_mfma_f32_16x16x4_f32", 16, 16, 4, HKEMU_F32, "gfx942",
     "v_mfma_f32_16x16x4_f32", false},
    {"v_mfma_f32_32x32x2_f32", 32, 32, 2, HKEMU_F32, "gfx942",
     "v_mfma_f32_32x32x2_f32", false},
    {"v_mfma_f32_16x16x8_xf32", 16, 16, 8, HKEMU_XF32, "gfx942",
     "v_mfma_f32_16x16x8_xf32", false},
    {"v_mfma_i32_16x16x32_i8", 16, 16, 32, HKEMU_I8, "gfx942",
     "v_mfma_i32_16x16x32_i8", false},
    {"v_mfma_i32_32x32x16_i8", 32, 32, 16, HKEMU_I8, "gfx942",
     "v_mfma_i32_32x32x16_i8", false},
    // gfx950 keeps the f32 and i8 instructions.
    {"v_mfma_f32_16x16x4_f32_gfx950", 16, 16, 4, HKEMU_F32, "gfx950",
     "v_mfma_f32_16x16x4_f32", false},
    {"v_mfma_i32_32x32x16_i8_gfx950", 32, 32, 16, HKEMU_I8, "gfx950",
     "v_mfma_i32_32x32x16_i8", false},
};

INSTANTIATE_TEST_SUITE_P(Emulator, MfmaLayoutTest, ::testing::ValuesIn(kCases),
                         [](const auto &info) {
                           return std::string(info.param.name);
                         });

// Every instruction of the calculator's tables (unittests/Inputs/
// mfma-layouts-cdna3) has a case that reads its four CSVs.
TEST(MfmaTest, EveryCsvIsChecked) {
  int stems = 0;
  for (const auto &entry :
       std::filesystem::directory_iterator(HK_MFMA_LAYOUTS_DIR)) {
    std::string file = entry.path().filename().string();
    const std::string suffix = ".A.csv";
    if (file.size() <= suffix.size() ||
        file.compare(file.size() - suffix.size(), suffix.size(), suffix))
      continue;
    std::string stem = file.substr(0, file.size() - suffix.size());
    ++stems;
    bool covered = false;
    for (const Case &cs : kCases)
      covered |= !cs.extended && stem == cs.csvStem;
    EXPECT_TRUE(covered) << stem << " has no MfmaLayoutTest case";
  }
  EXPECT_EQ(stems, 11);
}

TEST(MfmaTest, Gfx950ShapeRejectedOnGfx942) {
  memset(&data, 0, sizeof(data));
  data.cs = {"x", 16, 16, 32, HKEMU_BF16, "gfx942", "", true};
  EXPECT_EQ(launchOneWave("k32", "gfx942"),
            "kernel 'k32', workgroup (0, 0, 0), wave 0: no bf16 MFMA "
            "16x16x32 on gfx942");
}

// LLVM 22 cannot select llvm.amdgcn.mfma.f32.16x16x8.xf32 for gfx950 and
// its assembler rejects v_mfma_f32_16x16x8_xf32 there.
TEST(MfmaTest, Xf32RejectedOnGfx950) {
  memset(&data, 0, sizeof(data));
  data.cs = {"x", 16, 16, 8, HKEMU_XF32, "gfx950", "", false};
  EXPECT_EQ(launchOneWave("kx", "gfx950"),
            "kernel 'kx', workgroup (0, 0, 0), wave 0: no xf32 MFMA on "
            "gfx950");
}

TEST(MfmaTest, I8NeedsTheI32EntryPoint) {
  memset(&data, 0, sizeof(data));
  data.cs = {"x", 16, 16, 32, HKEMU_I8, "gfx942", "", false};
  data.floatEntry = true;
  EXPECT_EQ(launchOneWave("ki", "gfx942"),
            "kernel 'ki', workgroup (0, 0, 0), wave 0: i8 MFMA accumulates "
            "in i32: use hkemu_mfma_i32");
}

TEST(MfmaTest, I32EntryPointRejectsFloatOperands) {
  memset(&data, 0, sizeof(data));
  auto lane = [](hkemu_lane *lane, void *const *) {
    uint32_t l = hkemu_lane_id(lane);
    hkemu_mfma_i32(lane, 16, 16, 4, HKEMU_F32, HKEMU_F32, data.a[l], data.b[l],
                   data.ci[l], data.di[l]);
  };
  EXPECT_EQ(launchOneWave("kf", "gfx942", lane),
            "kernel 'kf', workgroup (0, 0, 0), wave 0: hkemu_mfma_i32 takes "
            "i8 operands, not f32");
}

TEST(MfmaTest, F32ShapeOfAnotherKRejected) {
  memset(&data, 0, sizeof(data));
  data.cs = {"x", 16, 16, 8, HKEMU_F32, "gfx942", "", false};
  EXPECT_EQ(launchOneWave("kf8", "gfx942"),
            "kernel 'kf8', workgroup (0, 0, 0), wave 0: no f32 MFMA 16x16x8 "
            "on gfx942");
}

/// i32 accumulation wraps modulo 2^32 (the engine's documented choice):
/// C = INT32_MAX everywhere plus the one product A[i][0] * B[0][j] = 1 * 1
/// gives INT32_MIN in every element.
TEST(MfmaTest, I32AccumulationWraps) {
  memset(&data, 0, sizeof(data));
  data.cs = {"x", 16, 16, 32, HKEMU_I8, "gfx942", "", false};
  for (int l = 0; l < 64; ++l) {
    // Lanes 0-15 hold k = 0..7 of row (A) / column (B) l; byte 0 is k = 0.
    if (l < 16)
      data.a[l][0] = data.b[l][0] = 1;
    for (int r = 0; r < 4; ++r)
      data.ci[l][r] = INT32_MAX;
  }
  ASSERT_EQ(launchOneWave("kw", "gfx942"), "");
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < 4; ++r)
      ASSERT_EQ(data.di[l][r], INT32_MIN) << "lane " << l << " register " << r;
}

} // namespace

/// The calculator's file stem of an MFMA ("v_mfma_f32_16x16x16_bf16").
static std::string csvStem(const hk::MfmaInstr &mfma) {
  static const char *kSuffix[] = {"bf16", "f16", "fp8_fp8", "bf8_bf8",
                                  "i8",   "f32", "xf32"};
  bool i8 = mfma.input == hk::MfmaInput::I8;
  return std::string(i8 ? "v_mfma_i32_" : "v_mfma_f32_") +
         std::to_string(mfma.m) + "x" + std::to_string(mfma.n) + "x" +
         std::to_string(mfma.k) + "_" + kSuffix[int(mfma.input)];
}

// The chip table's gfx942 MFMAs are the CDNA3 instructions AMD's calculator
// documents, both ways (bf8 has the fp8 layout and no table of its own).
TEST(MfmaTest, Gfx942TableMatchesTheCalculator) {
  std::set<std::string> stems;
  for (const auto &entry :
       std::filesystem::directory_iterator(HK_MFMA_LAYOUTS_DIR)) {
    std::string file = entry.path().filename().string();
    if (file.size() > 6 && file.substr(file.size() - 6) == ".A.csv")
      stems.insert(file.substr(0, file.size() - 6));
  }
  std::set<std::string> table;
  for (const hk::MfmaInstr &mfma : hk::lookupChip("gfx942")->mfmas)
    if (mfma.input != hk::MfmaInput::BF8)
      table.insert(csvStem(mfma));
  EXPECT_EQ(table, stems);
}

// The lowering's choice: the MFMA that takes the most of the K values a lane
// keeps, among those whose per-lane K divides them.
TEST(MfmaTest, SelectMfmaFromTheTable) {
  const hk::ChipInfo &gfx942 = *hk::lookupChip("gfx942");
  const hk::ChipInfo &gfx950 = *hk::lookupChip("gfx950");
  using I = hk::MfmaInput;
  auto k = [](const hk::MfmaInstr *mfma) { return mfma ? mfma->k : 0; };
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::BF16, 16, 8)), 32);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::BF16, 16, 8)), 16);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::BF16, 16, 4)), 16);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::F16, 32, 8)), 16);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::F16, 32, 8)), 8);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::FP8, 16, 8)), 32);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::FP8, 16, 4)), 0);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::XF32, 16, 2)), 0);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::XF32, 16, 2)), 8);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::BF16, 16, 6)), 0);
}
