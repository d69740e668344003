//===- Chip.h - facts about the supported AMD chips -----------------------===//
//
// The one table of per-chip facts (wave, registers, SIMDs, LDS, wait
// counters, 8-bit float formats, the HipKittens tree) and the one table of
// the MFMA instructions each chip has. Plain C++ so that the compiler
// (lowering, target checks, reports), the runtime and the ISA simulator
// share them: a chip is added here, as one row, and nowhere else.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_CHIP_H
#define HK_BASE_CHIP_H

#include <cstdint>
#include <string>
#include <vector>

namespace hk {

/// The 8-bit float formats a chip's MFMAs take: AMD's FNUZ formats
/// (E4M3FNUZ, E5M2FNUZ), the OCP ones (E4M3FN, E5M2), or none.
enum class Fp8Format { None, FNUZ, OCP };

/// The HipKittens include tree whose API the translation to HipKittens C++
/// writes for a chip: branch `cdna3` (16x16 base tiles only), branch `main`
/// (base-tile shapes, tile transposes, fp8 tiles), or none.
enum class HipKittensTree { None, CDNA3, Main };

/// "cdna3", "main" or "none": the tree's branch name.
const char *hipKittensTreeName(HipKittensTree tree);

/// The chip every tool and pass targets when none is named.
inline constexpr const char *kDefaultChip = "gfx950";

/// The lanes of a wave on every chip of the table. What cannot ask a chip
/// (the register-tile layouts of Layout.h, the MFMA lane maps, the ISA
/// simulator's register rows) is sized by this constant; Chip.cpp checks at
/// compile time that every row's ChipInfo::waveSize equals it, so a chip of
/// another wave size fails the build instead of being lowered wrongly.
inline constexpr int64_t kWaveSize = 64;

/// What an MFMA multiplies. FP8 and BF8 are the chip's 8-bit float formats
/// (E4M3 and E5M2, FNUZ or OCP by ChipInfo::fp8).
enum class MfmaInput { BF16, F16, FP8, BF8, I8, F32, XF32 };

/// "bf16", "f16", "fp8", "bf8", "i8", "f32", "xf32".
const char *mfmaInputName(MfmaInput input);

/// One MFMA instruction: D (m x n, f32 or i32) += A (m x k) * B (k x n).
struct MfmaInstr {
  MfmaInput input;
  int m, n, k;
  /// The K values of A (and of B) each lane of the wave gives it.
  constexpr int kPerLane() const { return int(k * m / kWaveSize); }
};

/// A range of MfmaInstr.
struct MfmaRange {
  const MfmaInstr *first, *last;
  constexpr const MfmaInstr *begin() const { return first; }
  constexpr const MfmaInstr *end() const { return last; }
};

/// The widths in bits of the s_waitcnt counters: a wait for N outstanding
/// operations needs N < 2^bits, and the all-ones value waits for nothing.
struct WaitCounterBits {
  int vmcnt;   ///< vector memory loads (and stores on gfx9)
  int lgkmcnt; ///< LDS, GDS, constant (scalar) memory and messages
  int expcnt;  ///< exports and GDS
};

struct ChipInfo {
  const char *name;   ///< LLVM processor name, e.g. "gfx942"
  const char *family; ///< the CDNA generation, "cdna3" or "cdna4"
  unsigned elfMach;   ///< EF_AMDGPU_MACH_* of its code objects' e_flags
  int64_t waveSize;   ///< lanes per wave (kWaveSize)
  /// Registers per lane of a SIMD, shared by the VGPRs and AGPRs of the
  /// waves resident on it and allocated in granules of `registerGranule`.
  int64_t unifiedRegisters;
  int64_t registerGranule;
  int64_t vgprsPerWave; ///< architectural VGPRs one wave can address
  int64_t agprsPerWave; ///< accumulation VGPRs one wave can address
  int64_t sgprsPerWave; ///< SGPRs one wave can address (without VCC)
  int64_t simdsPerCu;
  int64_t wavesPerSimd; ///< resident waves per SIMD at most
  int64_t computeUnits; ///< CUs of the largest part of the chip
  int64_t ldsBytes;     ///< LDS available to one workgroup (and per CU)
  int64_t ldsBanks;     ///< 4-byte LDS banks one phase of an access spans
  /// The granule LDS is allocated in to a workgroup (LDS_ALLOC).
  int64_t ldsAllocBytes;
  WaitCounterBits waitBits;
  Fp8Format fp8;             ///< the 8-bit float formats its MFMAs take
  HipKittensTree hipKittens; ///< the HipKittens tree that targets it
  int64_t ldsDmaBytes;       ///< bytes per lane of one global->LDS DMA load
  bool hasTransposeLoad;     ///< ds_read_b64_tr_b16
  bool hasPermlaneSwap;      ///< v_permlane16/32_swap
  bool hasScaledMfma;        ///< f8f6f4 16x16x128 / 32x32x64
  bool hasBf16Convert;       ///< v_cvt_pk_bf16_f32 (f32 -> bf16, to even)
  /// The MFMA instructions the lowering selects.
  MfmaRange mfmas;
};

/// The chip called `name`, or null if it is not supported.
const ChipInfo *lookupChip(const std::string &name);

/// The chip called `name`, or null with `error` set to a message that
/// names it and lists the supported chips ("unknown chip 'gfx90a' (supported:
/// gfx942, gfx950)").
const ChipInfo *lookupChip(const std::string &name, std::string &error);

/// The chip whose code objects carry `elfMach` in their e_flags, or null.
const ChipInfo *lookupChipByElfMach(unsigned elfMach);

/// The `input` MFMA of `chip` with shape m x n x k, or null.
const MfmaInstr *findMfma(const ChipInfo &chip, MfmaInput input, int m, int n,
                          int k);

/// For an m x m product whose operands keep `kPerLane` K values in each
/// lane of each of their `kTiles` base tiles along K: the MFMA of `chip`
/// taking `input` that consumes the most of them per instruction, among
/// those whose per-lane K divides `kPerLane` and, for the 8-bit floats,
/// those whose per-lane K is a multiple of `kPerLane` that divides
/// `kPerLane * kTiles` (one MFMA over several base tiles: the sum over K is
/// the same for any order of K alike in A and B); null if there is none.
const MfmaInstr *selectMfma(const ChipInfo &chip, MfmaInput input, int m,
                            int kPerLane, int kTiles = 1);

/// The LDS of the supported chip that has the most: what a kernel may
/// allocate before any chip is chosen.
int64_t maxLdsBytes();

/// "gfx942, gfx950": for messages.
std::string supportedChipNames();

/// The names of the supported chips ({"gfx942", "gfx950"}).
std::vector<std::string> supportedChips();

} // namespace hk

#endif // HK_BASE_CHIP_H
