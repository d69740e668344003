//===- Engine.cpp - lanes as fibers, workgroup by workgroup ---------------===//
//
// Each lane is a ucontext fiber. The scheduler runs the lanes of one
// workgroup in order; a lane runs until it reaches a wave-collective call, a
// barrier or its end. The last lane of a wave to reach a collective executes
// it for the whole wave; the last lane of the workgroup to reach a barrier
// releases it. When no lane can run and some have not finished, the
// scheduler diagnoses why (a partial collective, a barrier some waves never
// reach, or a plain deadlock) instead of waiting.
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include <cstdio>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace hk;
using namespace hk::emu;

const char *hk::emu::collectiveName(Collective c) {
  switch (c) {
  case Collective::None:
    return "none";
  case Collective::Mfma:
    return "mfma";
  case Collective::Bpermute:
    return "bpermute";
  case Collective::Shuffle:
    return "shuffle";
  case Collective::Dpp:
    return "dpp";
  case Collective::PermlaneSwap:
    return "permlane_swap";
  case Collective::ReadFirstLane:
    return "readfirstlane";
  case Collective::WaveAny:
    return "wave_any";
  case Collective::Ballot:
    return "ballot";
  case Collective::LdsLoad:
    return "lds_load";
  case Collective::LdsStore:
    return "lds_store";
  case Collective::LdsDma:
    return "lds_dma";
  case Collective::WaitVmcnt:
    return "wait_vmcnt";
  }
  return "?";
}

std::string Engine::where(uint32_t wave) const {
  return "kernel '" + std::string(desc.kernel ? desc.kernel : "?") +
         "', workgroup (" + std::to_string(workgroup[0]) + ", " +
         std::to_string(workgroup[1]) + ", " + std::to_string(workgroup[2]) +
         "), wave " + std::to_string(wave) + ": ";
}

void Engine::failAt(uint32_t wave, const std::string &what) {
  if (!failed) {
    failed = true;
    error = where(wave) + what;
  }
}

void Engine::fail(hkemu_lane *lane, const std::string &what) {
  failAt(lane->wave_id, what);
  // The scheduler stops at the first fault; this fiber is never resumed.
  swapcontext(&lane->context, &scheduler);
  __builtin_unreachable();
}

void Engine::yield(hkemu_lane *lane) {
  swapcontext(&lane->context, &scheduler);
}

void Engine::arrive(hkemu_lane *lane, Collective kind, const void *operands) {
  Wave &w = *lane->wave;
  if (w.arrived == 0) {
    w.pending = kind;
  } else if (w.pending != kind) {
    fail(lane, "lanes of the wave reached different wave-collective ops: "
               "lane " +
                   std::to_string(lane->id) + " reached " +
                   collectiveName(kind) + " while " +
                   std::to_string(w.arrived) + " lanes wait at " +
                   collectiveName(w.pending));
  }
  lane->operands = operands;
  lane->state = LaneState::Collective;
  if (++w.arrived < kWaveLanes) {
    yield(lane);
    return;
  }
  execute(w);
  if (failed)
    fail(lane, "");
  w.arrived = 0;
  w.pending = Collective::None;
  for (uint32_t l = 0; l < kWaveLanes; ++l)
    w.lanes[l].state = LaneState::Runnable;
}

//===----------------------------------------------------------------------===//
// Fibers and the scheduler
//===----------------------------------------------------------------------===//

static void laneEntry(unsigned lo, unsigned hi) {
  auto *lane = reinterpret_cast<hkemu_lane *>((uintptr_t(hi) << 32) | lo);
  Engine &e = *lane->engine;
  e.desc.fn(lane, e.desc.args);
  lane->state = LaneState::Done;
  swapcontext(&lane->context, &e.scheduler);
}

static bool startLanes(Engine &e) {
  for (hkemu_lane &l : e.lanes) {
    l.state = LaneState::Runnable;
    l.barriers = 0;
    l.operands = nullptr;
    l.vmIssued = 0;
    getcontext(&l.context);
    l.context.uc_stack.ss_sp = l.stack;
    l.context.uc_stack.ss_size = e.stackBytes;
    l.context.uc_link = nullptr;
    uintptr_t p = reinterpret_cast<uintptr_t>(&l);
    makecontext(&l.context, reinterpret_cast<void (*)()>(laneEntry), 2,
                unsigned(p & 0xFFFFFFFFu), unsigned(p >> 32));
  }
  return true;
}

static const char *stateText(LaneState s) {
  switch (s) {
  case LaneState::Runnable:
    return "can run";
  case LaneState::Collective:
    return "wait at a wave-collective op";
  case LaneState::Barrier:
    return "wait at a barrier";
  case LaneState::Done:
    return "finished";
  }
  return "?";
}

/// Nothing can run: says why, in order of the most specific cause.
static void diagnoseStall(Engine &e) {
  for (Wave &w : e.waves) {
    if (w.arrived == 0)
      continue;
    uint32_t counts[4] = {0, 0, 0, 0};
    for (uint32_t l = 0; l < kWaveLanes; ++l)
      if (w.lanes[l].state != LaneState::Collective)
        ++counts[int(w.lanes[l].state)];
    std::string others;
    for (LaneState s : {LaneState::Barrier, LaneState::Done})
      if (counts[int(s)])
        others += std::string(others.empty() ? "" : ", ") +
                  std::to_string(counts[int(s)]) + " " + stateText(s);
    e.failAt(w.id, std::string("wave-collective op ") +
                       collectiveName(w.pending) + " reached by only " +
                       std::to_string(w.arrived) + " of 64 lanes (the other " +
                       "lanes: " + others + ")");
    return;
  }
  if (e.barrierArrived) {
    const Wave *waiting = nullptr, *finished = nullptr;
    for (const Wave &w : e.waves) {
      LaneState s = w.lanes[0].state;
      if (s == LaneState::Barrier && !waiting)
        waiting = &w;
      if (s == LaneState::Done && !finished)
        finished = &w;
    }
    if (waiting && finished) {
      e.failAt(waiting->id,
               "barrier count mismatch: this wave waits at its barrier #" +
                   std::to_string(waiting->lanes[0].barriers) + " but wave " +
                   std::to_string(finished->id) + " finished after " +
                   std::to_string(finished->lanes[0].barriers) + " barrier(s)");
      return;
    }
    for (const Wave &w : e.waves)
      for (uint32_t l = 1; l < kWaveLanes; ++l)
        if (w.lanes[l].state != w.lanes[0].state) {
          e.failAt(w.id, "lanes of the wave diverged at a barrier: lane 0 " +
                             std::string(stateText(w.lanes[0].state)) +
                             ", lane " + std::to_string(l) + " " +
                             stateText(w.lanes[l].state));
          return;
        }
  }
  e.failAt(0, "deadlock: no lane can make progress");
}

static void runWorkgroup(Engine &e) {
  startLanes(e);
  e.barrierArrived = 0;
  e.epoch = 0;
  std::fill(e.lds.begin(), e.lds.end(), 0);
  std::fill(e.ldsWriter.begin(), e.ldsWriter.end(), 0);
  std::fill(e.ldsReaders.begin(), e.ldsReaders.end(), 0);
  std::fill(e.ldsInFlight.begin(), e.ldsInFlight.end(), 0);
  e.dmasInFlight = 0;
  for (Wave &w : e.waves) {
    w.arrived = 0;
    w.pending = Collective::None;
    // Copies still in flight when the workgroup ended land in LDS nobody
    // reads any more.
    w.dmas.clear();
    w.waits = 0;
    w.lastWaitSite = nullptr;
    w.lastWaitCount = 0;
  }
  while (true) {
    bool progressed = false, allDone = true;
    for (hkemu_lane &l : e.lanes) {
      if (l.state == LaneState::Runnable) {
        progressed = true;
        swapcontext(&e.scheduler, &l.context);
        if (e.failed)
          return;
      }
      allDone &= l.state == LaneState::Done;
    }
    if (allDone)
      return;
    if (!progressed) {
      diagnoseStall(e);
      return;
    }
  }
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

namespace {
/// Lane stacks with a guard page below each, reused across workgroups.
struct Stacks {
  char *base = nullptr;
  size_t total = 0;
  ~Stacks() {
    if (base)
      munmap(base, total);
  }
};
} // namespace

static std::string checkDesc(const hkemu_launch_desc &d,
                             const ChipInfo *&chip) {
  if (!d.fn)
    return "no lane function";
  chip = d.chip ? lookupChip(d.chip) : nullptr;
  if (!chip)
    return std::string("unknown chip '") + (d.chip ? d.chip : "") +
           "' (supported: " + supportedChipNames() + ")";
  if (d.waves < 1 || d.waves > 16)
    return "waves must be in [1, 16], got " + std::to_string(d.waves);
  if (d.lds_bytes > chip->ldsBytes)
    return "the kernel uses " + std::to_string(d.lds_bytes) +
           " bytes of LDS, " + chip->name + " has " +
           std::to_string(chip->ldsBytes);
  return "";
}

extern "C" int hkemu_launch(const hkemu_launch_desc *desc, char *error,
                            size_t errorSize) {
  auto report = [&](const std::string &msg) {
    if (error && errorSize)
      snprintf(error, errorSize, "%s", msg.c_str());
    return 1;
  };
  if (!desc)
    return report("null launch descriptor");
  Engine e;
  e.desc = *desc;
  std::string bad = checkDesc(*desc, e.chip);
  if (!bad.empty())
    return report("kernel '" + std::string(desc->kernel ? desc->kernel : "?") +
                  "': " + bad);
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  e.stackBytes =
      ((desc->stack_bytes ? desc->stack_bytes : 64 * 1024) + page - 1) / page *
      page;
  uint32_t numLanes = desc->waves * kWaveLanes;
  Stacks stacks;
  stacks.total = (e.stackBytes + page) * numLanes;
  void *mem = mmap(nullptr, stacks.total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED)
    return report("cannot map lane stacks");
  stacks.base = static_cast<char *>(mem);
  e.lanes.resize(numLanes);
  e.waves.resize(desc->waves);
  for (uint32_t i = 0; i < numLanes; ++i) {
    char *slot = stacks.base + size_t(i) * (e.stackBytes + page);
    mprotect(slot, page, PROT_NONE); // overflow faults instead of corrupting
    hkemu_lane &l = e.lanes[i];
    l.engine = &e;
    l.wave = &e.waves[i / kWaveLanes];
    l.id = i % kWaveLanes;
    l.wave_id = i / kWaveLanes;
    l.stack = slot + page;
  }
  for (uint32_t w = 0; w < desc->waves; ++w) {
    e.waves[w].id = w;
    e.waves[w].lanes = &e.lanes[w * kWaveLanes];
  }
  e.lds.resize(desc->lds_bytes);
  e.ldsWriter.resize(desc->lds_bytes);
  e.ldsEpoch.resize(desc->lds_bytes);
  e.ldsReaders.resize(desc->lds_bytes);
  e.ldsReadEpoch.resize(desc->lds_bytes);
  e.ldsInFlight.resize(desc->lds_bytes);
  e.ldsRegionOf.resize(desc->lds_bytes);
  for (uint32_t z = 0; z < desc->grid[2]; ++z)
    for (uint32_t y = 0; y < desc->grid[1]; ++y)
      for (uint32_t x = 0; x < desc->grid[0]; ++x) {
        e.workgroup[0] = x;
        e.workgroup[1] = y;
        e.workgroup[2] = z;
        runWorkgroup(e);
        if (e.failed)
          return report(e.error);
      }
  return 0;
}

//===----------------------------------------------------------------------===//
// Ids and barrier
//===----------------------------------------------------------------------===//

extern "C" {

uint32_t hkemu_lane_id(hkemu_lane *lane) { return lane->id; }
uint32_t hkemu_wave_id(hkemu_lane *lane) { return lane->wave_id; }
uint32_t hkemu_num_waves(hkemu_lane *lane) { return lane->engine->desc.waves; }
uint32_t hkemu_workgroup_id(hkemu_lane *lane, uint32_t dim) {
  return dim < 3 ? lane->engine->workgroup[dim] : 0;
}
uint32_t hkemu_num_workgroups(hkemu_lane *lane, uint32_t dim) {
  return dim < 3 ? lane->engine->desc.grid[dim] : 1;
}

void hkemu_barrier_if(hkemu_lane *lane, int32_t active) {
  if (hkemu_wave_any(lane, active != 0))
    hkemu_barrier(lane);
}

void hkemu_barrier(hkemu_lane *lane) {
  Engine &e = *lane->engine;
  lane->state = LaneState::Barrier;
  ++lane->barriers;
  if (++e.barrierArrived < e.lanes.size()) {
    e.yield(lane);
    return;
  }
  e.barrierArrived = 0;
  ++e.epoch;
  for (hkemu_lane &l : e.lanes)
    l.state = LaneState::Runnable;
}

} // extern "C"
