//===- Engine.h - the emulator engine's internal state --------------------===//

#ifndef HK_RUNTIME_EMULATOR_ENGINE_H
#define HK_RUNTIME_EMULATOR_ENGINE_H

#include "hk/Runtime/Emulator.h"
#include "hk/Target/Chip.h"

#include <deque>
#include <string>
#include <ucontext.h>
#include <vector>

namespace hk::emu {

constexpr uint32_t kWaveLanes = 64;

enum class LaneState { Runnable, Collective, Barrier, Done };

/// Wave-collective operations; a wave's lanes must all reach the same one.
enum class Collective {
  None,
  Mfma,
  Bpermute,
  Shuffle,
  Dpp,
  PermlaneSwap,
  ReadFirstLane,
  WaveAny,
  Ballot,
  LdsLoad,
  LdsStore,
  LdsDma,
  WaitVmcnt
};
const char *collectiveName(Collective c);

struct Engine;
struct Wave;

} // namespace hk::emu

struct hkemu_lane {
  hk::emu::Engine *engine;
  hk::emu::Wave *wave;
  uint32_t id; ///< lane in its wave
  uint32_t wave_id;
  hk::emu::LaneState state;
  uint32_t barriers;    ///< barriers this lane has arrived at
  const void *operands; ///< this lane's operands of the pending collective
  /// Vector-memory instructions this lane has issued, in sixteenths: a
  /// buffer access of n bytes counts n (an instruction moves at most 16
  /// bytes per lane), an LDS DMA of the wave 16.
  uint64_t vmIssued;
  ucontext_t context;
  char *stack;
};

namespace hk::emu {

/// An LDS allocation the lane code declared (hkemu_lds_region).
struct LdsRegion {
  std::string name;
  uint32_t base = 0, bytes = 0;
};

/// An LDS DMA of one wave that has been issued and has not landed: its
/// global data was read at issue and is written to LDS when a wait of the
/// issuing wave requires it.
struct PendingDma {
  const char *site = nullptr;
  uint32_t addr = 0;  ///< LDS address of lane 0's bytes; lane l at +l*bytes
  uint32_t bytes = 0; ///< per lane
  uint64_t active = 0;
  uint32_t waitsAtIssue = 0; ///< the wave's waits before it
  uint64_t issuedAt[64];     ///< each lane's vmIssued after the DMA
  uint8_t data[64 * 16];
};

struct Wave {
  uint32_t id = 0;
  Collective pending = Collective::None;
  uint32_t arrived = 0;
  hkemu_lane *lanes = nullptr; ///< kWaveLanes of them
  std::deque<PendingDma> dmas; ///< oldest first
  uint32_t waits = 0;          ///< vmcnt waits executed
  const char *lastWaitSite = nullptr;
  uint32_t lastWaitCount = 0;
};

struct Engine {
  hkemu_launch_desc desc;
  const ChipInfo *chip = nullptr;
  size_t stackBytes = 0;
  uint32_t workgroup[3] = {0, 0, 0};
  std::vector<hkemu_lane> lanes;
  std::vector<Wave> waves;
  ucontext_t scheduler;
  uint32_t barrierArrived = 0;
  uint32_t epoch = 0; ///< barriers completed in this workgroup
  std::vector<uint8_t> lds;
  std::vector<uint8_t> ldsWriter;     ///< per byte: writer wave + 1, 0: none
  std::vector<uint32_t> ldsEpoch;     ///< per byte: epoch of that write
  std::vector<uint16_t> ldsReaders;   ///< per byte: reader waves (bit mask)
  std::vector<uint32_t> ldsReadEpoch; ///< per byte: epoch of those reads
  std::vector<uint16_t> ldsInFlight;  ///< per byte: pending DMAs into it
  uint32_t dmasInFlight = 0;          ///< pending DMAs of all waves
  /// Declared allocations; ldsRegionOf[byte] is the index + 1 of the one
  /// holding it, 0 for none. None declared: the whole LDS is one.
  std::vector<LdsRegion> ldsRegions;
  std::vector<uint8_t> ldsRegionOf;
  bool failed = false;
  std::string error;

  /// Records a fault located at `lane`'s wave and never returns to the lane.
  [[noreturn]] void fail(hkemu_lane *lane, const std::string &what);
  /// Records a fault located at a wave (stall diagnosis).
  void failAt(uint32_t wave, const std::string &what);
  std::string where(uint32_t wave) const;
  /// Suspends the calling lane until the scheduler runs it again.
  void yield(hkemu_lane *lane);
  /// Joins the wave's pending collective; returns when it has executed.
  void arrive(hkemu_lane *lane, Collective kind, const void *operands);
  void execute(Wave &wave);
};

/// MFMA over a whole wave; `operands[l]` is lane l's MfmaOperands.
struct MfmaOperands {
  uint32_t m, n, k;
  hkemu_type aType, bType;
  const void *a, *b;
  const float *c;
  float *d;
  /// hkemu_mfma_i32: C and D are int32 (ci, di), c and d unused.
  bool intAcc = false;
  const int32_t *ci = nullptr;
  int32_t *di = nullptr;
};
/// Empty if the shape and types are valid on `chip`, else why not.
std::string checkMfma(const ChipInfo &chip, const MfmaOperands &op);
void executeMfma(const ChipInfo &chip, const MfmaOperands *const *lanes);

} // namespace hk::emu

#endif // HK_RUNTIME_EMULATOR_ENGINE_H
