//===- Chip.h - facts about the supported AMD chips -----------------------===//
//
// The one table of per-chip limits and features. Plain C++ so that the
// compiler, the runtime and the emulator share it.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_CHIP_H
#define HK_TARGET_CHIP_H

#include <cstdint>
#include <string>

namespace hk {

enum class Fp8Format { FNUZ, OCP };

/// The chip every tool and pass targets when none is named.
inline constexpr const char *kDefaultChip = "gfx950";

struct ChipInfo {
  const char *name;        ///< LLVM processor name, e.g. "gfx942"
  const char *family;      ///< "CDNA3" or "CDNA4"
  int64_t ldsBytes;        ///< LDS available to one workgroup
  Fp8Format fp8;           ///< the 8-bit float formats its MFMAs take
  int64_t ldsDmaBytes;     ///< bytes per lane of one global->LDS DMA load
  bool hasTransposeLoad;   ///< ds_read_b64_tr_b16
  bool hasPermlaneSwap;    ///< v_permlane16/32_swap
  bool hasScaledMfma;      ///< f8f6f4 16x16x128 / 32x32x64
};

/// The chip called `name`, or null if it is not supported.
const ChipInfo *lookupChip(const std::string &name);

/// "gfx942, gfx950": for messages.
std::string supportedChipNames();

} // namespace hk

#endif // HK_TARGET_CHIP_H
