//===- Chip.h - facts about the supported AMD chips -----------------------===//
//
// The one table of per-chip limits and features, and the one table of the
// MFMA instructions each chip has. Plain C++ so that the compiler (lowering,
// target checks), the runtime and the ISA simulator share them.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_CHIP_H
#define HK_BASE_CHIP_H

#include <cstdint>
#include <string>
#include <vector>

namespace hk {

enum class Fp8Format { FNUZ, OCP };

/// The chip every tool and pass targets when none is named.
inline constexpr const char *kDefaultChip = "gfx950";

/// What an MFMA multiplies. FP8 and BF8 are the chip's 8-bit float formats
/// (E4M3 and E5M2, FNUZ or OCP by ChipInfo::fp8).
enum class MfmaInput { BF16, F16, FP8, BF8, I8, F32, XF32 };

/// "bf16", "f16", "fp8", "bf8", "i8", "f32", "xf32".
const char *mfmaInputName(MfmaInput input);

/// One MFMA instruction: D (m x n, f32 or i32) += A (m x k) * B (k x n).
struct MfmaInstr {
  MfmaInput input;
  int m, n, k;
  /// The K values of A (and of B) each of the 64 lanes gives it.
  int kPerLane() const { return k * m / 64; }
};

/// A range of MfmaInstr.
struct MfmaRange {
  const MfmaInstr *first, *last;
  const MfmaInstr *begin() const { return first; }
  const MfmaInstr *end() const { return last; }
};

struct ChipInfo {
  const char *name;      ///< LLVM processor name, e.g. "gfx942"
  const char *family;    ///< "cdna3" or "cdna4" (HipKittens' tree for it)
  int64_t ldsBytes;      ///< LDS available to one workgroup
  Fp8Format fp8;         ///< the 8-bit float formats its MFMAs take
  int64_t ldsDmaBytes;   ///< bytes per lane of one global->LDS DMA load
  bool hasTransposeLoad; ///< ds_read_b64_tr_b16
  bool hasPermlaneSwap;  ///< v_permlane16/32_swap
  bool hasScaledMfma;    ///< f8f6f4 16x16x128 / 32x32x64
  bool hasBf16Convert;   ///< v_cvt_pk_bf16_f32 (f32 -> bf16, round to even)
  /// The MFMA instructions the lowering selects.
  MfmaRange mfmas;
};

/// The chip called `name`, or null if it is not supported.
const ChipInfo *lookupChip(const std::string &name);

/// The `input` MFMA of `chip` with shape m x n x k, or null.
const MfmaInstr *findMfma(const ChipInfo &chip, MfmaInput input, int m, int n,
                          int k);

/// For an m x m product whose operands keep `kPerLane` K values in each
/// lane: the MFMA of `chip` taking `input` that consumes the most of them
/// per instruction, among those whose per-lane K divides `kPerLane`; null if
/// there is none.
const MfmaInstr *selectMfma(const ChipInfo &chip, MfmaInput input, int m,
                            int kPerLane);

/// The LDS of the supported chip that has the most: what a kernel may
/// allocate before any chip is chosen.
int64_t maxLdsBytes();

/// The chip of a family ("cdna3"), or null.
const ChipInfo *lookupFamily(const std::string &family);

/// "gfx942, gfx950": for messages.
std::string supportedChipNames();

/// The names of the supported chips ({"gfx942", "gfx950"}).
std::vector<std::string> supportedChips();

} // namespace hk

#endif // HK_BASE_CHIP_H
