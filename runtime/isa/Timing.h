//===- Timing.h - the ISA simulator's cycle model
//---------------------------===//
//
// The timing mode runs a launch's code object as the functional simulator
// does, but issues the instructions in the order a model of one compute
// unit would, and counts cycles: four SIMDs taking turns, waves arbitrated
// by s_setprio and age, one instruction of each kind per turn, MFMAs
// holding their SIMD's matrix core, LDS bank conflicts from the lanes'
// addresses, vector memory through the CU's share of L2 bandwidth, the wait
// counters and barriers. A few batches of co-resident workgroups are
// simulated; the launch's time follows from them (docs/timing.md). The
// parameters are the chip's row of include/hk/Base/Timing.h.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_ISA_TIMING_H
#define HK_RUNTIME_ISA_TIMING_H

#include "IsaSimulator.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hk::rt::isa {

struct TimingOptions {
  std::string tracePath;   ///< Chrome trace JSON of the first batch, or ""
  unsigned maxSamples = 6; ///< batches of workgroups simulated at most
};

/// Cycles a wave could not issue at one instruction (an s_waitcnt, a
/// barrier, ...), summed over the waves of the simulated batches.
struct StallSite {
  uint64_t pc = 0;
  std::string text; ///< the instruction
  std::string cause;
  double cycles = 0;
};

/// A loop of the code (a backward branch and its target).
struct LoopTiming {
  uint64_t headPc = 0, branchPc = 0;
  uint64_t trips = 0;       ///< per wave, summed over the simulated waves
  double cyclesPerTrip = 0; ///< per wave
  double mfmaPerTrip = 0;   ///< matrix-core cycles per trip per SIMD
  std::string bound;        ///< what the trip's time is closest to
};

/// One wave of the first simulated batch.
struct WaveTiming {
  unsigned workgroup = 0, wave = 0, simd = 0;
  double issued = 0;                    ///< instructions
  double mfmaCycles = 0;                ///< its MFMAs' matrix-core cycles
  double endCycle = 0;                  ///< when it ended
  std::map<std::string, double> stalls; ///< cause -> cycles
};

struct TimingReport {
  std::string chip, product;
  double cycles = 0;       ///< the launch, in engine cycles
  double microseconds = 0; ///< at clockMHz, with the launch overhead
  double clockMHz = 0;
  double flops = 0; ///< MFMA operations of the whole launch
  double bytes = 0; ///< global bytes read and written by the whole launch
  double footprintBytes = 0; ///< bytes of the buffers it touches
  double tflops = 0, bytesPerSecond = 0;
  double mfmaBusy = 0;          ///< matrix cores busy / cycles, simulated CUs
  double issueUsed = 0;         ///< instructions issued / issue turns
  double ldsBusy = 0;           ///< LDS pipe busy / cycles
  double memoryBusy = 0;        ///< vector memory port busy / cycles
  double ldsConflictCycles = 0; ///< LDS cycles beyond conflict-free
  uint64_t workgroups = 0, simulatedWorkgroups = 0;
  unsigned residentWorkgroups = 0; ///< per CU
  unsigned wavesPerSimd = 0;       ///< occupancy the registers allow
  double batchCycles = 0;          ///< mean cycles of a simulated batch
  std::string bound; ///< "MFMA", "issue", "LDS", "memory", "HBM", "latency"
  std::map<std::string, double> stalls; ///< cause -> wave-cycles
  std::vector<StallSite> sites;         ///< largest first
  std::vector<LoopTiming> loops;
  std::vector<WaveTiming> waves; ///< the first simulated batch's

  /// A readable report, and the same as JSON.
  std::string text() const;
  std::string json() const;
};

/// Runs `launch` in timing mode. Only the simulated workgroups' results
/// reach memory: the outputs are not the kernel's.
TimingReport runTimed(const CodeObject &code, const Launch &launch,
                      const TimingOptions &options);

} // namespace hk::rt::isa

#endif // HK_RUNTIME_ISA_TIMING_H
