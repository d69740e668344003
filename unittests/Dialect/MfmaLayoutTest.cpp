//===- MfmaLayoutTest.cpp - layouts against AMD's MFMA register layouts ---===//
//
// The independent reference for Layout.h: the register layouts of CDNA3 MFMA
// instructions printed by AMD's matrix instruction calculator
// (unittests/Inputs/mfma-layouts-cdna3/*.csv, one row per lane, one cell per
// register or register part, naming the matrix element it holds). Every
// check here is element by element against those files.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/Layout.h"

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace hk;

namespace {

/// One cell of a layout file: element (row, col) of matrix A, B, C or D.
struct Cell {
  char matrix;
  int64_t row, col;
};

/// A parsed layout file: cells[lane][slot].
struct MfmaLayout {
  std::vector<std::vector<Cell>> cells;
  int64_t slots() const { return cells.empty() ? 0 : cells[0].size(); }
};

std::vector<std::string> splitCommas(const std::string &line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string field;
  while (std::getline(ss, field, ','))
    out.push_back(field);
  return out;
}

/// Reads `<instr>.<operand>.csv`. Fails the test (via ADD_FAILURE) and
/// returns an empty layout if the file is not what the calculator prints:
/// a `lane,...` header, then 64 rows numbered 0..63 with one cell per column.
MfmaLayout readLayout(const std::string &instr, char operand) {
  std::string path =
      std::string(HK_MFMA_LAYOUTS_DIR) + "/" + instr + "." + operand + ".csv";
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << "cannot open " << path;
    return {};
  }
  MfmaLayout out;
  std::string line;
  size_t columns = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.rfind("lane,", 0) == 0) {
      if (columns != 0) {
        ADD_FAILURE() << path << ": more than one block of rows";
        return {};
      }
      columns = splitCommas(line).size() - 1;
      continue;
    }
    if (columns == 0 || line.empty())
      continue; // the architecture and instruction lines
    std::vector<std::string> fields = splitCommas(line);
    if (fields.size() != columns + 1 ||
        std::stoll(fields[0]) != static_cast<int64_t>(out.cells.size())) {
      ADD_FAILURE() << path << ": bad row '" << line << "'";
      return {};
    }
    std::vector<Cell> row;
    for (size_t i = 1; i < fields.size(); ++i) {
      Cell c;
      long long r, k;
      char end;
      if (std::sscanf(fields[i].c_str(), "%c[%lld][%lld%c", &c.matrix, &r, &k,
                      &end) != 4 ||
          end != ']' || c.matrix != operand) {
        ADD_FAILURE() << path << ": bad cell '" << fields[i] << "'";
        return {};
      }
      c.row = r;
      c.col = k;
      row.push_back(c);
    }
    out.cells.push_back(row);
  }
  if (out.cells.size() != static_cast<size_t>(kWaveSize)) {
    ADD_FAILURE() << path << ": " << out.cells.size() << " lanes, not 64";
    return {};
  }
  return out;
}

/// The reference itself must be a bijection onto a rows x cols matrix, or
/// comparing against it proves nothing.
void expectBijection(const MfmaLayout &m, int64_t rows, int64_t cols) {
  ASSERT_EQ(m.slots() * kWaveSize, rows * cols);
  std::set<std::pair<int64_t, int64_t>> seen;
  for (const auto &lane : m.cells) {
    for (const Cell &c : lane) {
      ASSERT_TRUE(c.row >= 0 && c.row < rows && c.col >= 0 && c.col < cols);
      ASSERT_TRUE(seen.insert({c.row, c.col}).second);
    }
  }
}

/// Our tile, one base tile big, holds in lane l register i exactly the
/// element AMD's layout puts in lane l slot i.
void expectSameLayout(const std::string &instr, char operand,
                      const TileLayout &ours) {
  SCOPED_TRACE(instr + "." + operand);
  ASSERT_EQ(ours.validate(), "");
  MfmaLayout amd = readLayout(instr, operand);
  ASSERT_EQ(amd.cells.size(), static_cast<size_t>(kWaveSize));
  expectBijection(amd, ours.rows, ours.cols);
  ASSERT_EQ(amd.slots(), ours.regsPerLane());
  for (int64_t lane = 0; lane < kWaveSize; ++lane) {
    for (int64_t reg = 0; reg < ours.regsPerLane(); ++reg) {
      const Cell &c = amd.cells[lane][reg];
      EXPECT_EQ(ours.elementOf(lane, reg), (Coord{c.row, c.col}))
          << "lane " << lane << " register " << reg << ": AMD has " << c.matrix
          << "[" << c.row << "][" << c.col << "]";
    }
  }
}

/// Our A (M x K) and B (K x N) tiles feeding `splits` consecutive MFMAs of
/// AMD's shape M x N x k, with k = K / splits: MFMA h reads registers
/// [h*n, (h+1)*n) of each lane, n being AMD's slots per lane.
///
/// An MFMA computes D[m][n] += sum over k of A[m][k] * B[k][n], so which
/// K index sits where does not matter as long as A and B agree. The property
/// checked: for each h there is one map sigma_h from AMD's K index to ours
/// such that, in every lane and slot, our A register holds (m, sigma_h(k))
/// where AMD wants A[m][k] (same m), and our B register holds (sigma_h(k), n)
/// where AMD wants B[k][n] (same n); and the images of sigma_0..sigma_{s-1}
/// are disjoint and cover our K. Then the s MFMAs sum A[m][K'] * B[K'][n]
/// over every K' exactly once: the full product. Returns the maps found.
std::vector<std::vector<int64_t>> expectKSplit(const std::string &instr,
                                               const TileLayout &a,
                                               const TileLayout &b,
                                               int64_t splits) {
  SCOPED_TRACE(instr);
  std::vector<std::vector<int64_t>> sigma;
  int64_t bigK = a.cols;
  if (a.validate() != "" || b.validate() != "" || b.rows != bigK ||
      bigK % splits) {
    ADD_FAILURE() << "bad A/B tiles for the split";
    return sigma;
  }
  int64_t k = bigK / splits;
  MfmaLayout amdA = readLayout(instr, 'A'), amdB = readLayout(instr, 'B');
  if (amdA.cells.empty() || amdB.cells.empty())
    return sigma;
  expectBijection(amdA, a.rows, k);
  expectBijection(amdB, k, b.cols);
  if (amdA.slots() * splits != a.regsPerLane() ||
      amdB.slots() * splits != b.regsPerLane()) {
    ADD_FAILURE() << "register counts differ";
    return sigma;
  }
  sigma.assign(splits, std::vector<int64_t>(k, -1));
  auto bind = [&](int64_t h, int64_t amdK, int64_t ourK, const char *what) {
    int64_t &s = sigma[h][amdK];
    if (s == -1)
      s = ourK;
    EXPECT_EQ(s, ourK) << "MFMA " << h << ": AMD K index " << amdK
                       << " is our K " << s << " elsewhere but " << ourK
                       << " in " << what;
  };
  for (int64_t h = 0; h < splits; ++h) {
    for (int64_t lane = 0; lane < kWaveSize; ++lane) {
      for (int64_t i = 0; i < amdA.slots(); ++i) {
        const Cell &c = amdA.cells[lane][i];
        Coord ours = a.elementOf(lane, h * amdA.slots() + i);
        EXPECT_EQ(ours.row, c.row) << "A: lane " << lane << " slot " << i;
        bind(h, c.col, ours.col, "A");
      }
      for (int64_t i = 0; i < amdB.slots(); ++i) {
        const Cell &c = amdB.cells[lane][i];
        Coord ours = b.elementOf(lane, h * amdB.slots() + i);
        EXPECT_EQ(ours.col, c.col) << "B: lane " << lane << " slot " << i;
        bind(h, c.row, ours.row, "B");
      }
    }
  }
  std::set<int64_t> covered;
  for (const auto &s : sigma)
    for (int64_t ourK : s)
      EXPECT_TRUE(ourK >= 0 && ourK < bigK && covered.insert(ourK).second)
          << "our K index " << ourK << " is used twice or out of range";
  EXPECT_EQ(static_cast<int64_t>(covered.size()), bigK);
  return sigma;
}

TileLayout tile(Major m, int64_t rows, int64_t cols, int64_t group) {
  return {rows, cols, {m, rows, cols, group}};
}

const char *kBf16_16 = "v_mfma_f32_16x16x16_bf16";
const char *kBf16_32 = "v_mfma_f32_32x32x8_bf16";
const char *kFp8_16 = "v_mfma_f32_16x16x32_fp8_fp8";
const char *kFp8_32 = "v_mfma_f32_32x32x16_fp8_fp8";

} // namespace

TEST(MfmaLayoutTest, Bf16x16Operands) {
  expectSameLayout(kBf16_16, 'A', tile(Major::Row, 16, 16, 4));
  expectSameLayout(kBf16_16, 'B', tile(Major::Col, 16, 16, 4));
  expectSameLayout(kBf16_16, 'D', tile(Major::Col, 16, 16, 4));
}

TEST(MfmaLayoutTest, Bf16x32Accumulator) {
  expectSameLayout(kBf16_32, 'D', tile(Major::Col, 32, 32, 4));
}

// The group matters: the default (one chunk of 16 per lane) is not AMD's.
TEST(MfmaLayoutTest, Bf16x32AccumulatorNeedsGroup4) {
  MfmaLayout amd = readLayout(kBf16_32, 'D');
  ASSERT_EQ(amd.cells.size(), static_cast<size_t>(kWaveSize));
  TileLayout wrong = tile(Major::Col, 32, 32, 16);
  int64_t differ = 0;
  for (int64_t lane = 0; lane < kWaveSize; ++lane)
    for (int64_t reg = 0; reg < wrong.regsPerLane(); ++reg)
      differ += !(wrong.elementOf(lane, reg) ==
                  Coord{amd.cells[lane][reg].row, amd.cells[lane][reg].col});
  EXPECT_GT(differ, 0);
}

// A row 32x16 tile (the A operand of gfx950's 32x32x16 bf16 MFMA, group 8:
// lane l holds A[l % 32][8 * (l / 32) + i], i < 8) feeds two 32x32x8 MFMAs:
// the first four registers of each lane, then the last four, with B a col
// 16x32 tile read the same way. AMD's K index k of MFMA h is our
// 8 * (k / 4) + 4 * h + k % 4.
TEST(MfmaLayoutTest, Bf16x32OperandsSplitAlongK) {
  auto sigma = expectKSplit(kBf16_32, tile(Major::Row, 32, 16, 8),
                            tile(Major::Col, 16, 32, 8), 2);
  ASSERT_EQ(sigma.size(), 2u);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t k = 0; k < 8; ++k)
      EXPECT_EQ(sigma[h][k], 8 * (k / 4) + 4 * h + k % 4) << h << " " << k;
}

// With group 4 the same tiles are two 32x32x8 operands side by side along K.
TEST(MfmaLayoutTest, Bf16x32OperandsSplitAlongKGroup4) {
  auto sigma = expectKSplit(kBf16_32, tile(Major::Row, 32, 16, 4),
                            tile(Major::Col, 16, 32, 4), 2);
  ASSERT_EQ(sigma.size(), 2u);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t k = 0; k < 8; ++k)
      EXPECT_EQ(sigma[h][k], 8 * h + k) << h << " " << k;
}

// Likewise gfx950's 16x16x32 bf16 operands (row 16x32, col 32x16) feed two
// 16x16x16 MFMAs on gfx942.
TEST(MfmaLayoutTest, Bf16x16OperandsSplitAlongK) {
  auto sigma = expectKSplit(kBf16_16, tile(Major::Row, 16, 32, 8),
                            tile(Major::Col, 32, 16, 8), 2);
  ASSERT_EQ(sigma.size(), 2u);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t k = 0; k < 16; ++k)
      EXPECT_EQ(sigma[h][k], 8 * (k / 4) + 4 * h + k % 4) << h << " " << k;
}

// A layout that gives A and B different K orders must be caught.
TEST(MfmaLayoutTest, KSplitCatchesMismatchedOperands) {
  testing::TestPartResultArray failures;
  {
    testing::ScopedFakeTestPartResultReporter intercept(
        testing::ScopedFakeTestPartResultReporter::
            INTERCEPT_ONLY_CURRENT_THREAD,
        &failures);
    expectKSplit(kBf16_32, tile(Major::Row, 32, 16, 8),
                 tile(Major::Col, 16, 32, 4), 2);
  }
  ASSERT_GT(failures.size(), 0);
  EXPECT_NE(
      std::string(failures.GetTestPartResult(0).message()).find("AMD K index"),
      std::string::npos)
      << failures.GetTestPartResult(0).message();
}

TEST(MfmaLayoutTest, Fp8x16Operands) {
  expectSameLayout(kFp8_16, 'A', tile(Major::Row, 16, 32, 8));
  expectSameLayout(kFp8_16, 'B', tile(Major::Col, 32, 16, 8));
  expectSameLayout(kFp8_16, 'D', tile(Major::Col, 16, 16, 4));
}

TEST(MfmaLayoutTest, Fp8x32Operands) {
  expectSameLayout(kFp8_32, 'A', tile(Major::Row, 32, 16, 8));
  expectSameLayout(kFp8_32, 'B', tile(Major::Col, 16, 32, 8));
  expectSameLayout(kFp8_32, 'D', tile(Major::Col, 32, 32, 4));
}
