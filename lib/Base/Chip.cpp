//===- Chip.cpp - facts about the supported AMD chips ---------------------===//

#include "hk/Base/Chip.h"

#include <algorithm>
#include <iterator>

namespace hk {

using I = MfmaInput;

// Every MFMA shape the lowering selects (layouts in
// ../shared/amd/mfma-layouts). gfx950 (CDNA4) adds the bf16, f16 and i8
// MFMAs with twice the K of gfx942's (v_mfma_i32_16x16x64_i8,
// v_mfma_i32_32x32x32_i8: 16 K values per lane) and drops xf32. Its 8-bit
// floats also go to v_mfma_f32_16x16x128_f8f6f4 and _32x32x64_f8f6f4 (32 K
// values per lane): four times the K of the _fp8_fp8 forms in twice their
// cycles (CDNA4 ISA guide; lib/Base/Timing.cpp), so twice the rate. The
// scaled forms of those two are hk.mma_scaled's (MmaToMFMA.cpp), not here.
static constexpr MfmaInstr kGfx942Mfmas[] = {
    {I::BF16, 16, 16, 16}, {I::BF16, 32, 32, 8}, {I::F16, 16, 16, 16},
    {I::F16, 32, 32, 8},   {I::FP8, 16, 16, 32}, {I::FP8, 32, 32, 16},
    {I::BF8, 16, 16, 32},  {I::BF8, 32, 32, 16}, {I::I8, 16, 16, 32},
    {I::I8, 32, 32, 16},   {I::F32, 16, 16, 4},  {I::F32, 32, 32, 2},
    {I::XF32, 16, 16, 8}};
static constexpr MfmaInstr kGfx950Mfmas[] = {
    {I::BF16, 16, 16, 16}, {I::BF16, 32, 32, 8}, {I::BF16, 16, 16, 32},
    {I::BF16, 32, 32, 16}, {I::F16, 16, 16, 16}, {I::F16, 32, 32, 8},
    {I::F16, 16, 16, 32},  {I::F16, 32, 32, 16}, {I::FP8, 16, 16, 32},
    {I::FP8, 32, 32, 16},  {I::BF8, 16, 16, 32}, {I::BF8, 32, 32, 16},
    {I::FP8, 16, 16, 128}, {I::FP8, 32, 32, 64}, {I::BF8, 16, 16, 128},
    {I::BF8, 32, 32, 64},  {I::I8, 16, 16, 32},  {I::I8, 32, 32, 16},
    {I::I8, 16, 16, 64},   {I::I8, 32, 32, 32},  {I::F32, 16, 16, 4},
    {I::F32, 32, 32, 2}};

// Sources: AMD's CDNA3 and CDNA4 ISA guides (registers, LDS, s_waitcnt
// fields, "LDS Allocation and Clamping"), the MI300X and MI355X data sheets
// (compute units), LLVM's AMDGPU processor table (e_flags machine numbers).
// Both chips: 512 registers per lane of a SIMD shared by VGPRs and AGPRs in
// granules of 8, up to 256 of each and 102 SGPRs per wave, 4 SIMDs per CU
// and at most 8 waves per SIMD; vmcnt has 6 bits (split [3:0] and
// [15:14]), lgkmcnt 4, expcnt 3.
static constexpr ChipInfo kChips[] = {
    {/*name=*/"gfx942",
     /*family=*/"cdna3",
     /*elfMach=*/0x4C,
     /*waveSize=*/64,
     /*unifiedRegisters=*/512,
     /*registerGranule=*/8,
     /*vgprsPerWave=*/256,
     /*agprsPerWave=*/256,
     /*sgprsPerWave=*/102,
     /*simdsPerCu=*/4,
     /*wavesPerSimd=*/8,
     /*computeUnits=*/304,
     /*ldsBytes=*/64 * 1024,
     /*ldsBanks=*/32,
     /*ldsAllocBytes=*/512,
     /*waitBits=*/{6, 4, 3},
     Fp8Format::FNUZ,
     HipKittensTree::CDNA3,
     /*ldsDmaBytes=*/4,
     /*hasTransposeLoad=*/false,
     /*hasPermlaneSwap=*/false,
     /*hasScaledMfma=*/false,
     /*hasBf16Convert=*/false,
     {std::begin(kGfx942Mfmas), std::end(kGfx942Mfmas)}},
    {/*name=*/"gfx950",
     /*family=*/"cdna4",
     /*elfMach=*/0x4F,
     /*waveSize=*/64,
     /*unifiedRegisters=*/512,
     /*registerGranule=*/8,
     /*vgprsPerWave=*/256,
     /*agprsPerWave=*/256,
     /*sgprsPerWave=*/102,
     /*simdsPerCu=*/4,
     /*wavesPerSimd=*/8,
     /*computeUnits=*/256,
     /*ldsBytes=*/160 * 1024,
     /*ldsBanks=*/64,
     /*ldsAllocBytes=*/1280,
     /*waitBits=*/{6, 4, 3},
     Fp8Format::OCP,
     HipKittensTree::Main,
     /*ldsDmaBytes=*/16,
     /*hasTransposeLoad=*/true,
     /*hasPermlaneSwap=*/true,
     /*hasScaledMfma=*/true,
     /*hasBf16Convert=*/true,
     {std::begin(kGfx950Mfmas), std::end(kGfx950Mfmas)}},
};

/// Whether every row is a chip the fixed-width code can serve: a wave of
/// kWaveSize lanes, and FP8/BF8 MFMAs only with an 8-bit float format.
static constexpr bool rowsAreConsistent() {
  for (const ChipInfo &chip : kChips) {
    if (chip.waveSize != kWaveSize)
      return false;
    for (const MfmaInstr &mfma : chip.mfmas)
      if ((mfma.input == I::FP8 || mfma.input == I::BF8) &&
          chip.fp8 == Fp8Format::None)
        return false;
  }
  return true;
}
static_assert(rowsAreConsistent(),
              "a chip of another wave size than kWaveSize, or with fp8 "
              "MFMAs and no fp8 format");

const ChipInfo *lookupChip(const std::string &name) {
  for (const ChipInfo &chip : kChips)
    if (name == chip.name)
      return &chip;
  return nullptr;
}

const char *mfmaInputName(MfmaInput input) {
  switch (input) {
  case I::BF16:
    return "bf16";
  case I::F16:
    return "f16";
  case I::FP8:
    return "fp8";
  case I::BF8:
    return "bf8";
  case I::I8:
    return "i8";
  case I::F32:
    return "f32";
  case I::XF32:
    return "xf32";
  }
  return "?";
}

const MfmaInstr *findMfma(const ChipInfo &chip, MfmaInput input, int m, int n,
                          int k) {
  for (const MfmaInstr &mfma : chip.mfmas)
    if (mfma.input == input && mfma.m == m && mfma.n == n && mfma.k == k)
      return &mfma;
  return nullptr;
}

/// Whether an MFMA may take its operands from several K base tiles at once.
/// Only the 8-bit floats need it: every other input has a base tile holding
/// the K values per lane of its widest MFMA, but the 8-bit floats' usual
/// 16x32 and 32x16 tiles hold 8, and the f8f6f4 MFMAs take 32.
static bool gathersKTiles(MfmaInput input) {
  return input == I::FP8 || input == I::BF8;
}

const MfmaInstr *selectMfma(const ChipInfo &chip, MfmaInput input, int m,
                            int kPerLane, int kTiles) {
  const MfmaInstr *best = nullptr;
  for (const MfmaInstr &mfma : chip.mfmas) {
    int per = mfma.kPerLane();
    bool fits =
        kPerLane % per == 0 || (gathersKTiles(input) && per % kPerLane == 0 &&
                                (kPerLane * kTiles) % per == 0);
    if (mfma.input == input && mfma.m == m && mfma.n == m && fits &&
        (!best || per > best->kPerLane()))
      best = &mfma;
  }
  return best;
}

const ChipInfo *lookupChip(const std::string &name, std::string &error) {
  const ChipInfo *chip = lookupChip(name);
  if (!chip)
    error =
        "unknown chip '" + name + "' (supported: " + supportedChipNames() + ")";
  return chip;
}

const ChipInfo *lookupChipByElfMach(unsigned elfMach) {
  for (const ChipInfo &chip : kChips)
    if (chip.elfMach == elfMach)
      return &chip;
  return nullptr;
}

const char *hipKittensTreeName(HipKittensTree tree) {
  switch (tree) {
  case HipKittensTree::None:
    return "none";
  case HipKittensTree::CDNA3:
    return "cdna3";
  case HipKittensTree::Main:
    return "main";
  }
  return "?";
}

int64_t maxLdsBytes() {
  int64_t most = 0;
  for (const ChipInfo &chip : kChips)
    most = std::max(most, chip.ldsBytes);
  return most;
}

std::vector<std::string> supportedChips() {
  std::vector<std::string> names;
  for (const ChipInfo &chip : kChips)
    names.push_back(chip.name);
  return names;
}

std::string supportedChipNames() {
  std::string names;
  for (const ChipInfo &chip : kChips)
    names += (names.empty() ? "" : ", ") + std::string(chip.name);
  return names;
}

} // namespace hk
