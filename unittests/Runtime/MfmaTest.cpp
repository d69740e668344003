//===- MfmaTest.cpp - the chip table's MFMAs against AMD's calculator -----===//
//
// The MFMA instructions the lowering selects (hk::ChipInfo::mfmas) are those
// AMD's matrix instruction calculator documents for CDNA3 (its CSV layouts in
// unittests/Inputs/mfma-layouts-cdna3), and the lowering's choice among them.
// The layouts and arithmetic of the instructions themselves are checked on
// the ISA simulator (IsaMatrixTest.cpp).
//===----------------------------------------------------------------------===//

#include "hk/Base/Chip.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

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
// keeps, among those whose per-lane K divides them (or, for the 8-bit
// floats, a multiple of them that divides those of all the K base tiles).
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
  // gfx950's f8f6f4 MFMAs take 32 K values per lane: a 16x128 base tile's,
  // or those of four base tiles of 8 along K together;
  // with too few along K the _fp8_fp8 forms stay. Only the 8-bit floats
  // gather K base tiles, and gfx942 has no f8f6f4 form.
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::FP8, 16, 32)), 128);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::BF8, 32, 32)), 64);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::FP8, 16, 8, 4)), 128);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::FP8, 32, 8, 8)), 64);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::FP8, 16, 8, 2)), 32);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::FP8, 16, 8, 6)), 32);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::FP8, 16, 8, 4)), 32);
  EXPECT_EQ(k(hk::selectMfma(gfx942, I::FP8, 16, 32)), 32);
  EXPECT_EQ(k(hk::selectMfma(gfx950, I::BF16, 16, 4, 2)), 16);
}
