//===- Timing.h - the timing facts of each chip
//-----------------------------===//
//
// The parameters of the ISA simulator's cycle model (runtime/isa/Timing.cpp),
// one row per chip beside the chip table (Chip.h). Every figure names its
// source in lib/Base/Timing.cpp: AMD's ISA guides and whitepapers, AMD's
// published measurements, LLVM's AMDGPU scheduling model (SISchedule.td).
// Where no document gives a figure the row says it is an estimate.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_TIMING_H
#define HK_BASE_TIMING_H

#include <cstdint>
#include <string>

namespace hk {

struct ChipTiming {
  const char *product; ///< the product the figures are for, e.g. "MI355X"
  // The machine.
  int computeUnits;
  int xcds;             ///< dies; workgroups go round-robin to them
  int simdsPerCu;       ///< SIMDs per CU, each with a matrix core
  int wavesPerSimd;     ///< wave slots per SIMD
  int vgprsPerSimdLane; ///< the unified VGPR+AGPR file per lane of a SIMD
  int vgprGranule;      ///< allocation granule of that file
  int64_t ldsPerCu;     ///< LDS bytes per CU (shared by its workgroups)
  int ldsBanks;         ///< 4-byte banks
  int ldsReadBytesPerClock;
  int ldsWriteBytesPerClock;
  // Clocks.
  double boostMHz;    ///< the engine clock when lightly loaded
  double mfmaLoadMHz; ///< the engine clock under dense MFMA load
  /// The MFMA pipe utilisation of the kernels mfmaLoadMHz was measured
  /// with: the clock falls from boostMHz to mfmaLoadMHz as the chip's
  /// modelled MFMA utilisation rises to it.
  double mfmaLoadUtilisation;
  // Issue and latencies, in engine clock cycles.
  int issueTurn;       ///< cycles between issue turns of one SIMD
  int valuCycles;      ///< a wave64 VALU instruction on one SIMD
  int transCycles;     ///< a transcendental (quarter rate)
  int mfmaCoexecDelay; ///< after an MFMA issues, before a VALU may
  int mfmaResultDelay; ///< after an MFMA's last pass, before a non-MFMA
                       ///< reader sees its result
  int ldsLatency;      ///< DS issue to data, beyond the bank cycles
  int smemLatency;     ///< scalar memory issue to data
  int vmemLatency;     ///< vector memory issue to data (L2 hit)
  int branchCycles;    ///< a taken branch
  int barrierCycles;   ///< last wave's arrival to release
  // Bandwidths.
  int l2BytesPerClockPerXcd; ///< L2 read bandwidth of one die
  double hbmBytesPerSecond;
  double launchOverheadUs; ///< dispatch of one kernel
};

/// The timing row of `chip` ("gfx942", "gfx950"), or null.
const ChipTiming *lookupChipTiming(const std::string &chip);

/// Cycles one MFMA keeps its SIMD's matrix core busy (AMD's ISA guides,
/// "MFMA opcodes" tables), for an MFMA of shape m x n x k in `blocks`
/// blocks; `f64`/`f32` for the float64 and float32-input forms, `f8f6f4`
/// for gfx950's mixed narrow-float forms with `anyF8` when A or B is 8-bit.
/// 0 if the table has no such MFMA.
int mfmaCycles(const std::string &chip, unsigned m, unsigned blocks, bool f64,
               bool f32, bool f8f6f4, bool anyF8);

} // namespace hk

#endif // HK_BASE_TIMING_H
