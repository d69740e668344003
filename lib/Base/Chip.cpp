//===- Chip.cpp - facts about the supported AMD chips ---------------------===//

#include "hk/Base/Chip.h"

#include <algorithm>
#include <iterator>

namespace hk {

using I = MfmaInput;

// Every MFMA shape the lowering selects (layouts in
// ../shared/amd/mfma-layouts). gfx950 (CDNA4) adds the bf16/f16 MFMAs with
// twice the K of gfx942's and drops xf32; the scaled f8f6f4 MFMAs are not
// here: nothing lowers to them yet.
static const MfmaInstr kGfx942Mfmas[] = {
    {I::BF16, 16, 16, 16}, {I::BF16, 32, 32, 8}, {I::F16, 16, 16, 16},
    {I::F16, 32, 32, 8},   {I::FP8, 16, 16, 32}, {I::FP8, 32, 32, 16},
    {I::BF8, 16, 16, 32},  {I::BF8, 32, 32, 16}, {I::I8, 16, 16, 32},
    {I::I8, 32, 32, 16},   {I::F32, 16, 16, 4},  {I::F32, 32, 32, 2},
    {I::XF32, 16, 16, 8}};
static const MfmaInstr kGfx950Mfmas[] = {
    {I::BF16, 16, 16, 16}, {I::BF16, 32, 32, 8}, {I::BF16, 16, 16, 32},
    {I::BF16, 32, 32, 16}, {I::F16, 16, 16, 16}, {I::F16, 32, 32, 8},
    {I::F16, 16, 16, 32},  {I::F16, 32, 32, 16}, {I::FP8, 16, 16, 32},
    {I::FP8, 32, 32, 16},  {I::BF8, 16, 16, 32}, {I::BF8, 32, 32, 16},
    {I::I8, 16, 16, 32},   {I::I8, 32, 32, 16},  {I::F32, 16, 16, 4},
    {I::F32, 32, 32, 2}};

static const ChipInfo kChips[] = {
    {"gfx942",
     "cdna3",
     64 * 1024,
     Fp8Format::FNUZ,
     4,
     false,
     false,
     false,
     false,
     {std::begin(kGfx942Mfmas), std::end(kGfx942Mfmas)}},
    {"gfx950",
     "cdna4",
     160 * 1024,
     Fp8Format::OCP,
     16,
     true,
     true,
     true,
     true,
     {std::begin(kGfx950Mfmas), std::end(kGfx950Mfmas)}},
};

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

const MfmaInstr *selectMfma(const ChipInfo &chip, MfmaInput input, int m,
                            int kPerLane) {
  const MfmaInstr *best = nullptr;
  for (const MfmaInstr &mfma : chip.mfmas)
    if (mfma.input == input && mfma.m == m && mfma.n == m &&
        kPerLane % mfma.kPerLane() == 0 &&
        (!best || mfma.kPerLane() > best->kPerLane()))
      best = &mfma;
  return best;
}

const ChipInfo *lookupFamily(const std::string &family) {
  for (const ChipInfo &chip : kChips)
    if (family == chip.family)
      return &chip;
  return nullptr;
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
