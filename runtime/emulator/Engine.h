//===- Engine.h - the emulator engine's internal state --------------------===//

#ifndef HK_RUNTIME_EMULATOR_ENGINE_H
#define HK_RUNTIME_EMULATOR_ENGINE_H

#include "hk/Runtime/Emulator.h"
#include "hk/Target/Chip.h"

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
  LdsLoad,
  LdsStore,
  LdsDma
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
  ucontext_t context;
  char *stack;
};

namespace hk::emu {

struct Wave {
  uint32_t id = 0;
  Collective pending = Collective::None;
  uint32_t arrived = 0;
  hkemu_lane *lanes = nullptr; ///< kWaveLanes of them
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
  std::vector<uint8_t> ldsWriter; ///< per byte: writer wave + 1, 0: none
  std::vector<uint32_t> ldsEpoch; ///< per byte: epoch of that write
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
