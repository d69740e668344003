//===- Chip.cpp - facts about the supported AMD chips ---------------------===//

#include "hk/Target/Chip.h"

namespace hk {

static const ChipInfo kChips[] = {
    {"gfx942", "CDNA3", 64 * 1024, Fp8Format::FNUZ, 4, false, false, false},
    {"gfx950", "CDNA4", 160 * 1024, Fp8Format::OCP, 16, true, true, true},
};

const ChipInfo *lookupChip(const std::string &name) {
  for (const ChipInfo &chip : kChips)
    if (name == chip.name)
      return &chip;
  return nullptr;
}

std::string supportedChipNames() {
  std::string names;
  for (const ChipInfo &chip : kChips)
    names += (names.empty() ? "" : ", ") + std::string(chip.name);
  return names;
}

} // namespace hk
