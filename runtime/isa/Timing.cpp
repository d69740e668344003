//===- Timing.cpp - the ISA simulator's cycle model
//-------------------------===//
//
// One compute unit, cycle by cycle (Timing.h). Its four SIMDs take issue
// turns in rotation, one every `issueTurn` cycles each; at its turn a SIMD
// issues at most one instruction per kind (VALU or MFMA, SALU, scalar
// memory, LDS, vector memory, branch) from different waves, waves taken by
// s_setprio priority and then age, each wave at most one. An instruction
// waits for its wave's readiness (s_nop, s_sleep, a taken branch), for
// the VGPRs it reads (an MFMA result is visible to a non-MFMA reader a
// little after its last pass; an MFMA accumulating into it follows at
// once), for its SIMD's VALU or matrix core. s_waitcnt waits until the
// counted operations have completed in the model; a barrier until every
// wave of the workgroup arrived. Memory operations complete in order per
// counter: LDS after the bank cycles the lanes' real addresses cost plus
// the LDS latency, vector memory after its bytes passed the CU's share of
// L2 bandwidth plus the memory latency. Results reach registers when the
// model says they complete, exactly as the functional simulator would
// deliver them at the s_waitcnt: the instructions run unchanged (step()).
//
// A launch: residency per CU from the waves' VGPRs, LDS and wave slots;
// a few batches of co-resident workgroups spread over the grid are
// simulated; each workgroup of the launch then takes its interpolated
// batch time on the earliest free slot of the chip's CUs (list
// scheduling in dispatch order); the launch is bounded below by its
// buffers' bytes over HBM bandwidth; the clock falls from boost towards
// the loaded clock with the chip's modelled MFMA utilisation.
//===----------------------------------------------------------------------===//

#include "Timing.h"
#include "Internal.h"

#include "hk/Base/Error.h"
#include "hk/Base/Timing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <queue>
#include <sstream>

using namespace hk::rt;
using namespace hk::rt::isa;

namespace {

enum class Kind : uint8_t {
  Valu,
  Trans,
  Mfma,
  Salu,
  Smem,
  Lds,
  Vmem,
  Branch,
  Wait,
  Barrier,
  SetPrio,
  Nop,
  Sleep,
  End,
};

/// The issue category of a kind: at most one instruction of each per turn.
int categoryOf(Kind k) {
  switch (k) {
  case Kind::Valu:
  case Kind::Trans:
  case Kind::Mfma:
    return 0;
  case Kind::Salu:
  case Kind::Smem:
    return 1;
  case Kind::Lds:
    return 2;
  case Kind::Vmem:
    return 3;
  case Kind::Branch:
    return 4;
  default:
    return -1; // handled in the instruction buffer: no issue slot
  }
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, strlen(prefix), prefix) == 0;
}

struct Class {
  Kind kind = Kind::Valu;
  int mfmaCycles = 0;
  double flops = 0;
  int loop = -1; ///< innermost loop holding it
};

Class classify(const std::string &chip, const Inst &inst) {
  Class c;
  MfmaFacts f;
  if (mfmaFacts(inst, f)) {
    c.kind = Kind::Mfma;
    c.mfmaCycles =
        hk::mfmaCycles(chip, f.m, f.blocks, f.f64, f.f32, f.f8f6f4, f.anyF8);
    c.flops = 2.0 * f.m * f.n * f.k * f.blocks;
    return c;
  }
  std::string b = opcodeBaseName(inst.name);
  auto is = [&](std::initializer_list<const char *> prefixes) {
    for (const char *p : prefixes)
      if (startsWith(b, p))
        return true;
    return false;
  };
  if (is({"DS_"}))
    c.kind = Kind::Lds;
  else if (is({"BUFFER_", "GLOBAL_", "FLAT_", "SCRATCH_", "TBUFFER_"}))
    c.kind = Kind::Vmem;
  else if (is({"S_LOAD", "S_BUFFER_LOAD", "S_STORE", "S_BUFFER_STORE",
               "S_SCRATCH", "S_DCACHE", "S_MEMTIME", "S_MEMREALTIME",
               "S_ATOMIC", "S_BUFFER_ATOMIC"}))
    c.kind = Kind::Smem;
  else if (is({"S_WAITCNT"}))
    c.kind = Kind::Wait;
  else if (b == "S_BARRIER")
    c.kind = Kind::Barrier;
  else if (b == "S_SETPRIO")
    c.kind = Kind::SetPrio;
  else if (b == "S_NOP")
    c.kind = Kind::Nop;
  else if (b == "S_SLEEP")
    c.kind = Kind::Sleep;
  else if (b == "S_ENDPGM")
    c.kind = Kind::End;
  else if (is({"S_BRANCH", "S_CBRANCH", "S_SETPC", "S_SWAPPC"}))
    c.kind = Kind::Branch;
  else if (is({"S_"}))
    c.kind = Kind::Salu;
  else if (is({"V_EXP_", "V_LOG_", "V_RCP_", "V_RSQ_", "V_SQRT_", "V_SIN_",
               "V_COS_"}))
    c.kind = Kind::Trans;
  return c;
}

/// A backward branch and its target, as instruction indices.
struct Loop {
  int32_t head = 0, branch = 0;
};

/// The loops of the code: every branch whose target precedes it. Each
/// instruction belongs to the innermost (shortest) loop holding it.
std::vector<Loop> findLoops(const CodeObject &code, std::vector<Class> &cls) {
  std::vector<Loop> loops;
  for (size_t i = 0; i < code.insts.size(); ++i) {
    if (cls[i].kind != Kind::Branch)
      continue;
    const Inst &inst = code.insts[i];
    if (inst.numImms == 0)
      continue;
    // SOPP branches: target = pc + 4 + simm16 * 4.
    int64_t target = int64_t(inst.pc) + 4 + int64_t(int16_t(inst.imms[0])) * 4;
    int32_t head = target >= 0 ? code.indexOf(uint64_t(target)) : -1;
    if (head >= 0 && head <= int32_t(i))
      loops.push_back({head, int32_t(i)});
  }
  // A jump back from a block placed after its loop's back edge (LLVM
  // moves cold blocks there) spans the back edge without being a loop:
  // a range that starts inside another and ends beyond it is dropped.
  std::vector<Loop> nested;
  for (const Loop &b : loops) {
    bool crosses = false;
    for (const Loop &a : loops)
      crosses |= a.head < b.head && b.head <= a.branch && a.branch < b.branch;
    if (!crosses)
      nested.push_back(b);
  }
  loops = std::move(nested);
  for (size_t l = 0; l < loops.size(); ++l)
    for (int32_t i = loops[l].head; i <= loops[l].branch; ++i) {
      int &cur = cls[size_t(i)].loop;
      if (cur < 0 || loops[size_t(cur)].branch - loops[size_t(cur)].head >
                         loops[l].branch - loops[l].head)
        cur = int(l);
    }
  return loops;
}

/// The phase in which the LDS serves lane `lane` of a DS access of
/// `bytes` per lane: lanes of one phase are checked against each other for
/// bank conflicts, phases follow one another. Contiguous lanes fill the
/// LDS's bytes per clock (CK Tile's "LDS bank conflicts" guide: eight
/// phases of eight lanes for ds_write_b128 on 32 banks), except 128-bit
/// reads, served in interleaved groups: on 32 banks lanes 0-3 with 20-23,
/// 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27, the same in the upper
/// half (the grouping given for gfx942's ds_read_b128); on 64 banks lanes
/// 0-3, 8-11, 16-19, 24-27 together and 4-7, 12-15, 20-23, 28-31 (not
/// documented: the grouping under which HipKittens' st_16x32 swizzle,
/// conflict-free on MI355X, is conflict-free).
unsigned ldsPhase(unsigned lane, uint64_t bytes, bool write, unsigned width,
                  unsigned banks) {
  if (bytes == 16 && !write) {
    unsigned half = lane / 32, q = (lane % 32) / 4;
    if (banks >= 64)
      return half * 2 + (q & 1);
    static const unsigned group32[8] = {0, 1, 2, 3, 1, 0, 3, 2};
    return half * 4 + group32[q];
  }
  uint64_t lanes = std::max<uint64_t>(1, width / std::max<uint64_t>(bytes, 1));
  return unsigned(lane / lanes);
}

/// The cycles one DS instruction keeps the LDS busy: each phase takes as
/// many cycles as the most distinct dwords one bank must deliver in it.
double ldsCycles(const std::vector<std::array<uint64_t, 3>> &acc, bool write,
                 const hk::ChipTiming &t, double &conflictFree) {
  if (acc.empty()) {
    conflictFree = 2;
    return 2; // permutes and no-ops still pass the LDS crossbar
  }
  unsigned width =
      unsigned(write ? t.ldsWriteBytesPerClock : t.ldsReadBytesPerClock);
  unsigned banks = unsigned(t.ldsBanks);
  uint64_t laneBytes[kLanes] = {0};
  uint64_t total = 0;
  for (const auto &a : acc) {
    laneBytes[a[0] % kLanes] += a[2];
    total += a[2];
  }
  conflictFree = std::max(1.0, std::ceil(double(total) / width));
  // phase -> bank -> the distinct dwords it must deliver
  std::map<unsigned, std::vector<std::vector<uint64_t>>> phases;
  for (const auto &a : acc) {
    unsigned lane = unsigned(a[0] % kLanes);
    auto &bankDwords =
        phases[ldsPhase(lane, laneBytes[lane], write, width, banks)];
    if (bankDwords.empty())
      bankDwords.resize(banks);
    for (uint64_t d = a[1] / 4; d <= (a[1] + a[2] - 1) / 4; ++d) {
      auto &b = bankDwords[size_t(d % banks)];
      if (std::find(b.begin(), b.end(), d) == b.end())
        b.push_back(d);
    }
  }
  double cycles = 0;
  for (const auto &phase : phases) {
    size_t most = 1;
    for (const auto &b : phase.second)
      most = std::max(most, b.size());
    cycles += double(most);
  }
  return std::max(cycles, conflictFree);
}

//===-- One compute unit --------------------------------------------------===//

/// A wave of the CU: the functional wave and what the model knows of it.
struct TimedWave {
  Sim *sim = nullptr;
  Wave *w = nullptr;
  std::vector<Wave> *group = nullptr;
  unsigned simd = 0, batchGroup = 0;
  int prio = 0;
  uint64_t age = 0;
  uint64_t readyAt = 0; ///< not before (s_nop, s_sleep, branch, barrier)
  std::string why;      ///< why readyAt is in the future
  uint64_t whyPc = 0;
  std::deque<uint64_t> vmDone, lgkmDone; ///< completion, oldest first
  std::vector<uint64_t> vReady;          ///< VGPR/AGPR readable from
  std::vector<uint8_t> vFromMfma;        ///< its last writer was an MFMA
  uint64_t lastIssue = 0;
  uint64_t busyUntil = 0; ///< its last MFMA's or memory operation's end
  bool ended = false;
  std::string stallWhy; ///< the stall in progress, for the trace
  uint64_t stallSince = 0;
  WaveTiming stats;
};

struct SimdState {
  uint64_t valuFree = 0, transFree = 0, mfmaFree = 0;
  double mfmaBusy = 0, valuBusy = 0;
};

struct TraceEvent {
  std::string name;
  unsigned pid, tid, simd;
  uint64_t begin, end;
};

/// Everything one batch of co-resident workgroups produced.
struct BatchResult {
  uint64_t cycles = 0;
  double flops = 0, bytes = 0, mfmaBusy = 0, valuBusy = 0, issued = 0;
  double turns = 0;
  double ldsBusy = 0, memoryBusy = 0, ldsConflict = 0;
  std::map<std::string, double> stalls;
  std::map<uint64_t, std::pair<std::string, double>> sites; // pc -> cause
  std::vector<double> loopCycles, loopMfma;
  std::vector<uint64_t> loopTrips;
  std::vector<bool> touched; ///< per range of the dispatch's memory
  std::vector<WaveTiming> waves;
};

class ComputeUnit : public AccessObserver {
public:
  ComputeUnit(const Dispatch &d, const hk::ChipTiming &t,
              const std::vector<Class> &cls, const std::vector<Loop> &loops,
              bool trace)
      : d(d), t(t), cls(cls), loops(loops), traceOn(trace) {
    r.loopCycles.assign(loops.size(), 0);
    r.loopMfma.assign(loops.size(), 0);
    r.loopTrips.assign(loops.size(), 0);
    r.touched.assign(d.memory.size(), false);
    bytesPerClock =
        double(t.l2BytesPerClockPerXcd) / double(t.computeUnits / t.xcds);
  }

  void addWorkgroup(const std::array<uint32_t, 3> &id);
  BatchResult run();
  std::vector<TraceEvent> trace;

  // AccessObserver.
  void lds(unsigned lane, uint64_t address, unsigned bytes,
           bool write) override {
    ldsAcc.push_back({lane, address, bytes});
    ldsWrite = write;
  }
  void global(uint64_t address, uint64_t bytes, bool) override {
    globalBytes += double(bytes);
    auto it = std::upper_bound(
        d.memory.begin(), d.memory.end(), address,
        [](uint64_t a, const MemoryRange &m) { return a < m.begin; });
    if (it != d.memory.begin())
      r.touched[size_t(it - d.memory.begin() - 1)] = true;
  }

private:
  struct Group {
    explicit Group(const Dispatch &d) : sim(d.code, d.launch, d.kd) {}
    Sim sim;
    std::vector<Wave> waves;
  };

  void turn(unsigned simd);
  bool blocked(TimedWave &tw, const Inst &inst, const Class &c,
               std::string &why);
  bool waitSatisfied(TimedWave &tw, const Inst &inst, std::string &why);
  void deliver(TimedWave &tw);
  void issue(TimedWave &tw, const Inst &inst, const Class &c);
  void account(TimedWave &tw, const Inst &inst, const Class &c,
               size_t vmBefore);
  void memoryDone(TimedWave &tw, const Class &c, size_t vmBefore);
  void arriveAtBarrier(TimedWave &tw);
  void stall(TimedWave &tw, const std::string &why, uint64_t pc);
  void event(const TimedWave &tw, std::string name, uint64_t begin,
             uint64_t end);

  const CodeObject &code() const { return d.code; }

  const Dispatch &d;
  const hk::ChipTiming &t;
  const std::vector<Class> &cls;
  const std::vector<Loop> &loops;
  bool traceOn;
  double bytesPerClock;
  std::vector<std::unique_ptr<Group>> groups;
  std::vector<TimedWave> waves;
  SimdState simds[4];
  uint64_t now = 0;
  double ldsFree = 0, vmemFree = 0;
  BatchResult r;
  std::vector<std::array<uint64_t, 3>> ldsAcc;
  bool ldsWrite = false;
  double globalBytes = 0;
};

void ComputeUnit::addWorkgroup(const std::array<uint32_t, 3> &id) {
  groups.push_back(std::make_unique<Group>(d));
  Group &g = *groups.back();
  d.allocate(g.sim, g.waves);
  d.startWorkgroup(g.sim, g.waves, id);
  g.sim.observer = this;
  // Races between waves are the functional mode's to find: their order
  // here is the model's, and a kernel whose waves write the same LDS bytes
  // with the same data still has a time.
  g.sim.raceChecks = false;
  for (Wave &w : g.waves) {
    TimedWave tw;
    tw.sim = &g.sim;
    tw.w = &w;
    tw.group = &g.waves;
    // A workgroup's waves go to the SIMDs in rotation, continuing where
    // the previous workgroup's stopped.
    tw.simd = unsigned(waves.size()) % unsigned(t.simdsPerCu);
    tw.batchGroup = unsigned(groups.size() - 1);
    tw.age = waves.size();
    tw.vReady.assign(kNumVgprs, 0);
    tw.vFromMfma.assign(kNumVgprs, 0);
    waves.push_back(std::move(tw));
  }
}

void ComputeUnit::stall(TimedWave &tw, const std::string &why, uint64_t pc) {
  if (tw.stallWhy != why) {
    if (!tw.stallWhy.empty())
      event(tw, tw.stallWhy, tw.stallSince, now);
    tw.stallWhy = why;
    tw.stallSince = now;
  }
  double c = double(t.issueTurn);
  r.stalls[why] += c;
  tw.stats.stalls[why] += c;
  auto &site = r.sites[pc];
  if (site.first.empty())
    site.first = why;
  site.second += c;
}

void ComputeUnit::event(const TimedWave &tw, std::string name, uint64_t begin,
                        uint64_t end) {
  if (traceOn && trace.size() < 400000)
    trace.push_back(
        {std::move(name), tw.batchGroup, tw.w->id, tw.simd, begin, end});
}

/// Results of memory operations the model has completed reach their
/// registers (and LDS) now, oldest first, as an s_waitcnt would deliver
/// them.
void ComputeUnit::deliver(TimedWave &tw) {
  Wave &w = *tw.w;
  auto settle = [&](std::deque<Pending> &queue, std::deque<uint64_t> &done) {
    size_t n = 0;
    while (n < done.size() && done[n] <= now)
      ++n;
    if (n == 0 || queue.size() != done.size())
      return;
    tw.sim->wave = &w;
    retire(*tw.sim, w, queue, queue.size() - n);
    done.erase(done.begin(), done.begin() + long(n));
  };
  settle(w.vm, tw.vmDone);
  settle(w.lgkm, tw.lgkmDone);
}

bool ComputeUnit::waitSatisfied(TimedWave &tw, const Inst &inst,
                                std::string &why) {
  uint32_t imm = uint32_t(inst.imms[0]);
  size_t vmcnt = (imm & 0xF) | ((imm >> 14) & 3) << 4;
  size_t lgkmcnt = (imm >> 8) & 0xF;
  auto until = [](const std::deque<uint64_t> &done, size_t keep) {
    return done.size() > keep ? done[done.size() - keep - 1] : 0;
  };
  uint64_t vm = until(tw.vmDone, vmcnt), lgkm = until(tw.lgkmDone, lgkmcnt);
  if (vm <= now && lgkm <= now)
    return true;
  why = vm > now ? "s_waitcnt vmcnt" : "s_waitcnt lgkmcnt";
  return false;
}

/// A register of `inst` that a load not yet complete in the model will
/// write. The functional simulator faults on such a read (no s_waitcnt
/// covers it); the timing mode holds the wave until the load completes, as
/// a kernel whose schedule relies on the hardware's timing runs on the
/// chip, and counts the cycles ("read before its wait").
bool readsPending(const Wave &w, const Inst &inst) {
  if (!w.pendingRegs)
    return false;
  auto pending = [&](const Operand &o) {
    for (unsigned k = 0; k < o.width; ++k) {
      uint16_t reg = uint16_t(o.reg + k);
      if (o.file == File::V
              ? reg < kNumVgprs && w.pendingV[reg]
              : o.file == File::S && reg < kNumSgprs && w.pendingS[reg])
        return true;
    }
    return false;
  };
  for (unsigned s = 0; s < inst.numSrcs; ++s)
    if (pending(inst.srcs[s]))
      return true;
  if (!inst.memory)
    for (unsigned d = 0; d < inst.numDefs; ++d)
      if (pending(inst.defs[d]))
        return true;
  return false;
}

bool ComputeUnit::blocked(TimedWave &tw, const Inst &inst, const Class &c,
                          std::string &why) {
  SimdState &s = simds[tw.simd];
  if (c.kind != Kind::Wait && readsPending(*tw.w, inst)) {
    why = "read before its wait";
    return true;
  }
  if (c.kind == Kind::Wait)
    return !waitSatisfied(tw, inst, why);
  if (c.kind == Kind::Valu || c.kind == Kind::Trans || c.kind == Kind::Mfma ||
      c.kind == Kind::Lds || c.kind == Kind::Vmem) {
    for (unsigned k = 0; k < inst.numSrcs; ++k) {
      const Operand &o = inst.srcs[k];
      if (o.file != File::V)
        continue;
      bool accumulate = c.kind == Kind::Mfma && k == 2;
      for (unsigned j = 0; j < o.width; ++j) {
        uint16_t reg = uint16_t(o.reg + j);
        if (reg >= kNumVgprs || tw.vReady[reg] <= now)
          continue;
        if (accumulate && tw.vFromMfma[reg])
          continue; // MFMA to MFMA accumulation is forwarded
        why = tw.vFromMfma[reg] ? "MFMA result" : "VALU result";
        return true;
      }
    }
  }
  if (c.kind == Kind::Mfma && s.mfmaFree > now) {
    why = "matrix core busy";
    return true;
  }
  if ((c.kind == Kind::Valu || c.kind == Kind::Mfma) && s.valuFree > now) {
    why = "VALU busy";
    return true;
  }
  if (c.kind == Kind::Trans && (s.transFree > now || s.valuFree > now)) {
    why = "transcendental unit busy";
    return true;
  }
  return false;
}

void ComputeUnit::arriveAtBarrier(TimedWave &tw) {
  // step() marked the wave atBarrier; release when every wave of its
  // workgroup has arrived or ended.
  for (const Wave &w : *tw.group)
    if (!w.ended && !w.atBarrier)
      return;
  if (!releaseBarrier(*tw.sim, *tw.group))
    return;
  for (TimedWave &o : waves)
    if (o.group == tw.group && !o.ended) {
      o.readyAt = now + uint64_t(t.barrierCycles);
      o.why = "barrier";
    }
}

void ComputeUnit::memoryDone(TimedWave &tw, const Class &c, size_t vmBefore) {
  Wave &w = *tw.w;
  double doneAt = double(now);
  if (c.kind == Kind::Lds) {
    double free = 0;
    double busy = ldsCycles(ldsAcc, ldsWrite, t, free);
    double start = std::max(double(now), ldsFree);
    ldsFree = start + busy;
    r.ldsBusy += busy;
    r.ldsConflict += busy - free;
    doneAt = ldsFree + t.ldsLatency;
  } else if (c.kind == Kind::Vmem) {
    double transfer =
        std::max(double(t.issueTurn), globalBytes / bytesPerClock);
    double start = std::max(double(now), vmemFree);
    vmemFree = start + transfer;
    r.memoryBusy += transfer;
    doneAt = vmemFree + t.vmemLatency;
    // An LDS DMA also writes the LDS when its data arrives; the pipe's
    // time for it is taken now (its arrival interleaves with other
    // traffic, which a single queue cannot hold in the future).
    if (w.vm.size() > vmBefore && !w.vm.back().ldsDwords.empty()) {
      double busy =
          double(w.vm.back().ldsDwords.size() * 4) / t.ldsWriteBytesPerClock;
      ldsFree = std::max(ldsFree, double(now)) + busy;
      r.ldsBusy += busy;
    }
  } else if (c.kind == Kind::Smem) {
    doneAt = double(now + uint64_t(t.smemLatency));
  }
  uint64_t done = uint64_t(std::ceil(doneAt));
  // Each counter completes in order.
  while (tw.vmDone.size() < w.vm.size())
    tw.vmDone.push_back(
        std::max(done, tw.vmDone.empty() ? 0 : tw.vmDone.back()));
  while (tw.lgkmDone.size() < w.lgkm.size())
    tw.lgkmDone.push_back(
        std::max(done, tw.lgkmDone.empty() ? 0 : tw.lgkmDone.back()));
  tw.busyUntil = std::max(tw.busyUntil, done);
  if (done > now)
    event(tw,
          c.kind == Kind::Lds    ? "LDS"
          : c.kind == Kind::Vmem ? "memory"
                                 : "scalar memory",
          now, done);
}

void ComputeUnit::account(TimedWave &tw, const Inst &inst, const Class &c,
                          size_t vmBefore) {
  Wave &w = *tw.w;
  SimdState &s = simds[tw.simd];
  auto results = [&](uint64_t readyAt, bool mfma) {
    for (unsigned k = 0; k < inst.numDefs; ++k) {
      const Operand &o = inst.defs[k];
      if (o.file != File::V)
        continue;
      for (unsigned j = 0; j < o.width && o.reg + j < kNumVgprs; ++j) {
        tw.vReady[o.reg + j] = readyAt;
        tw.vFromMfma[o.reg + j] = mfma;
      }
    }
  };
  switch (c.kind) {
  case Kind::Valu:
    s.valuFree = now + uint64_t(t.valuCycles);
    s.valuBusy += t.valuCycles;
    results(now + uint64_t(t.valuCycles), false);
    break;
  case Kind::Trans:
    s.valuFree = now + uint64_t(t.valuCycles);
    s.transFree = now + uint64_t(t.transCycles);
    s.valuBusy += t.transCycles;
    results(now + uint64_t(t.transCycles), false);
    break;
  case Kind::Mfma: {
    uint64_t cycles = uint64_t(c.mfmaCycles);
    s.mfmaFree = now + cycles;
    s.valuFree = now + uint64_t(t.mfmaCoexecDelay);
    s.mfmaBusy += double(cycles);
    r.flops += c.flops;
    if (c.loop >= 0)
      r.loopMfma[size_t(c.loop)] += double(cycles);
    results(now + cycles + uint64_t(t.mfmaResultDelay), true);
    tw.busyUntil = std::max(tw.busyUntil, now + cycles);
    event(tw, "MFMA", now, now + cycles);
    break;
  }
  case Kind::Branch:
    if (w.index != int32_t(code().indexOf(inst.pc)) + 1) {
      tw.readyAt = now + uint64_t(t.branchCycles);
      tw.why = "branch";
    }
    break;
  case Kind::Nop:
    tw.readyAt = now + uint64_t(inst.imms[0] & 0xF) + 1;
    tw.why = "s_nop";
    break;
  case Kind::Sleep:
    tw.readyAt = now + 64 * uint64_t(inst.imms[0] & 0x7F);
    tw.why = "s_sleep";
    break;
  case Kind::SetPrio:
    tw.prio = int(inst.imms[0] & 3);
    break;
  case Kind::Barrier:
  case Kind::End:
    tw.ended = w.ended;
    arriveAtBarrier(tw);
    break;
  case Kind::Wait:
    while (tw.vmDone.size() > w.vm.size())
      tw.vmDone.pop_front();
    while (tw.lgkmDone.size() > w.lgkm.size())
      tw.lgkmDone.pop_front();
    break;
  case Kind::Lds:
  case Kind::Vmem:
  case Kind::Smem:
    memoryDone(tw, c, vmBefore);
    break;
  case Kind::Salu:
    break;
  }
}

void ComputeUnit::issue(TimedWave &tw, const Inst &inst, const Class &c) {
  Wave &w = *tw.w;
  if (!tw.stallWhy.empty()) {
    event(tw, tw.stallWhy, tw.stallSince, now);
    tw.stallWhy.clear();
  }
  size_t vmBefore = w.vm.size();
  ldsAcc.clear();
  globalBytes = 0;
  tw.sim->wave = &w;
  step(*tw.sim, w);
  r.issued += 1;
  tw.stats.issued += 1;
  if (c.kind == Kind::Mfma)
    tw.stats.mfmaCycles += c.mfmaCycles;
  r.bytes += globalBytes;
  if (c.loop >= 0) {
    r.loopCycles[size_t(c.loop)] += double(now - tw.lastIssue);
    if (loops[size_t(c.loop)].branch == int32_t(&inst - &code().insts[0]))
      ++r.loopTrips[size_t(c.loop)];
  }
  tw.lastIssue = now;
  account(tw, inst, c, vmBefore);
}

void ComputeUnit::turn(unsigned simd) {
  std::vector<TimedWave *> here;
  for (TimedWave &tw : waves)
    if (tw.simd == simd && !tw.ended)
      here.push_back(&tw);
  std::sort(here.begin(), here.end(),
            [](const TimedWave *a, const TimedWave *b) {
              return a->prio != b->prio ? a->prio > b->prio : a->age < b->age;
            });
  bool used[5] = {false, false, false, false, false};
  const auto &insts = code().insts;
  for (TimedWave *tw : here) {
    Wave &w = *tw->w;
    deliver(*tw);
    size_t at = size_t(std::max<int32_t>(w.index, 0));
    uint64_t pc = at < insts.size() ? insts[at].pc : 0;
    if (w.atBarrier) {
      stall(*tw, "barrier", at > 0 ? insts[at - 1].pc : pc);
      continue;
    }
    if (tw->readyAt > now) {
      stall(*tw, tw->why, pc);
      continue;
    }
    if (at >= insts.size()) { // let the functional step fault
      issue(*tw, insts[0], cls[0]);
      continue;
    }
    const Inst &inst = insts[at];
    const Class &c = cls[at];
    std::string why;
    if (blocked(*tw, inst, c, why)) {
      stall(*tw, why, pc);
      continue;
    }
    int cat = categoryOf(c.kind);
    if (cat >= 0 && used[cat]) {
      stall(*tw, "issue arbitration", pc);
      continue;
    }
    if (cat >= 0)
      used[cat] = true;
    issue(*tw, inst, c);
  }
}

BatchResult ComputeUnit::run() {
  const uint64_t limit = uint64_t(1) << 36;
  for (;;) {
    bool any = false;
    for (const TimedWave &tw : waves)
      any |= !tw.ended;
    if (!any)
      break;
    turn(unsigned(now % uint64_t(t.issueTurn)) % unsigned(t.simdsPerCu));
    if (++now > limit)
      throw Error(HKRT_ERROR_KERNEL_FAULT,
                  "kernel " + d.launch.kernel +
                      ": the timing model ran 2^36 cycles without the "
                      "workgroups ending");
  }
  // A wave's end waits for its MFMAs and memory operations in flight.
  for (TimedWave &tw : waves) {
    tw.stats.workgroup = tw.batchGroup;
    tw.stats.wave = tw.w->id;
    tw.stats.simd = tw.simd;
    tw.stats.endCycle = double(std::max(tw.lastIssue, tw.busyUntil));
    r.waves.push_back(tw.stats);
    now = std::max(now, tw.busyUntil);
  }
  r.cycles = now;
  for (const SimdState &s : simds) {
    r.mfmaBusy += s.mfmaBusy;
    r.valuBusy += s.valuBusy;
  }
  r.turns = double(now) / t.issueTurn;
  return r;
}

} // namespace

//===-- The launch --------------------------------------------------------===//

namespace {

/// Workgroups of the kernel one CU holds at once: its VGPRs (the
/// descriptor's granulated count, VGPRs and AGPRs in one file), its waves
/// against the SIMDs' wave slots, its LDS against the CU's.
unsigned residency(const Dispatch &d, const hk::ChipTiming &t,
                   unsigned &wavesPerSimd) {
  unsigned vgprs = ((d.kd.rsrc1 & 0x3F) + 1) * unsigned(t.vgprGranule);
  wavesPerSimd = std::min(unsigned(t.wavesPerSimd),
                          unsigned(t.vgprsPerSimdLane) / std::max(vgprs, 1u));
  unsigned perSimd =
      (d.numWaves + unsigned(t.simdsPerCu) - 1) / unsigned(t.simdsPerCu);
  unsigned byWaves = wavesPerSimd / std::max(perSimd, 1u);
  unsigned byLds = d.ldsBytes ? unsigned(t.ldsPerCu / d.ldsBytes) : 64;
  return std::min(byWaves, byLds);
}

/// The workgroup of linear id `id` (x fastest).
std::array<uint32_t, 3> groupId(const Launch &l, uint64_t id) {
  return {uint32_t(id % l.grid[0]), uint32_t(id / l.grid[0] % l.grid[1]),
          uint32_t(id / (uint64_t(l.grid[0]) * l.grid[1]))};
}

struct Sample {
  uint64_t position; ///< linear id of its first workgroup
  BatchResult result;
};

/// The linear id of sample `k` of `n`: the samples run along the grid's
/// diagonal, each dimension's coordinate evenly spaced over its extent, so
/// that work depending on any one coordinate (the query block of causal
/// attention in y, the batch in z) is sampled over its whole range.
uint64_t samplePosition(const Launch &l, uint64_t k, uint64_t n) {
  uint64_t id = 0, scale = 1;
  for (int d = 0; d < 3; ++d) {
    uint64_t extent = l.grid[d];
    uint64_t c = n <= 1 ? 0 : k * (extent - 1) / (n - 1);
    id += c * scale;
    scale *= extent;
  }
  return id;
}

/// A workgroup's time: the samples' in turn, so that every stretch of the
/// dispatch order holds their mix.
double durationAt(const std::vector<Sample> &samples, uint64_t id) {
  return double(samples[id % samples.size()].result.cycles);
}

/// The makespan of `count` workgroups on `slots` slots, each taken in
/// dispatch order by the earliest free slot.
double makespan(const std::vector<Sample> &samples, uint64_t count,
                uint64_t slots) {
  std::priority_queue<double, std::vector<double>, std::greater<double>> free;
  for (uint64_t s = 0; s < std::min(slots, count); ++s)
    free.push(0);
  double end = 0;
  for (uint64_t id = 0; id < count; ++id) {
    double start = free.top();
    free.pop();
    double finish = start + durationAt(samples, id);
    end = std::max(end, finish);
    free.push(finish);
  }
  return end;
}

std::string fmt(const char *f, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, f, v);
  return buf;
}

void writeTrace(const std::string &path, const std::vector<TraceEvent> &ev,
                double mhz) {
  std::ofstream out(path);
  if (!out)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "cannot write the trace file " + path);
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  std::map<std::pair<unsigned, unsigned>, bool> named;
  for (const TraceEvent &e : ev) {
    if (!named[{e.pid, e.tid}]) {
      named[{e.pid, e.tid}] = true;
      out << (first ? "" : ",\n") << "{\"ph\":\"M\",\"name\":\"thread_name\","
          << "\"pid\":" << e.pid << ",\"tid\":" << e.tid
          << ",\"args\":{\"name\":\"wave " << e.tid << " (SIMD " << e.simd
          << ")\"}}";
      first = false;
    }
    out << ",\n{\"ph\":\"X\",\"name\":\"" << e.name << "\",\"pid\":" << e.pid
        << ",\"tid\":" << e.tid << ",\"ts\":" << fmt("%.4f", e.begin / mhz)
        << ",\"dur\":" << fmt("%.4f", double(e.end - e.begin) / mhz)
        << ",\"args\":{\"cycles\":" << (e.end - e.begin) << "}}";
  }
  out << "\n]}\n";
}

} // namespace

namespace {

/// Sums the samples' batches into the report's per-CU figures.
void summarise(const std::vector<Sample> &samples,
               const std::vector<Loop> &loops, const CodeObject &code,
               const hk::ChipTiming &t, double wavesPerSimd,
               TimingReport &rep) {
  double cycles = 0, mfma = 0, issued = 0, lds = 0, mem = 0;
  std::map<uint64_t, std::pair<std::string, double>> sites;
  std::vector<double> loopCycles(loops.size()), loopMfma(loops.size());
  std::vector<uint64_t> trips(loops.size());
  for (const Sample &s : samples) {
    const BatchResult &b = s.result;
    cycles += double(b.cycles);
    mfma += b.mfmaBusy;
    issued += b.issued;
    lds += b.ldsBusy;
    mem += b.memoryBusy;
    rep.ldsConflictCycles += b.ldsConflict;
    for (const auto &[why, c] : b.stalls)
      rep.stalls[why] += c;
    for (const auto &[pc, site] : b.sites) {
      sites[pc].first = site.first;
      sites[pc].second += site.second;
    }
    for (size_t l = 0; l < loops.size(); ++l) {
      loopCycles[l] += b.loopCycles[l];
      loopMfma[l] += b.loopMfma[l];
      trips[l] += b.loopTrips[l];
    }
  }
  rep.batchCycles = cycles / double(samples.size());
  double simdCycles = cycles * t.simdsPerCu;
  rep.mfmaBusy = mfma / simdCycles;
  rep.issueUsed = issued / (cycles / t.issueTurn * t.simdsPerCu);
  rep.ldsBusy = lds / cycles;
  rep.memoryBusy = mem / cycles;
  for (const auto &[pc, site] : sites) {
    int32_t i = code.indexOf(pc);
    rep.sites.push_back({pc, i >= 0 ? code.insts[size_t(i)].text : "",
                         site.first, site.second});
  }
  std::sort(rep.sites.begin(), rep.sites.end(),
            [](const StallSite &a, const StallSite &b) {
              return a.cycles > b.cycles;
            });
  if (rep.sites.size() > 12)
    rep.sites.resize(12);
  for (size_t l = 0; l < loops.size(); ++l) {
    if (!trips[l])
      continue;
    LoopTiming lt;
    lt.headPc = code.insts[size_t(loops[l].head)].pc;
    lt.branchPc = code.insts[size_t(loops[l].branch)].pc;
    lt.trips = trips[l];
    lt.cyclesPerTrip = loopCycles[l] / double(trips[l]);
    // Matrix-core cycles per trip of one SIMD: the waves of a SIMD run
    // their trips side by side and share its matrix core.
    lt.mfmaPerTrip = loopMfma[l] / double(trips[l]) * wavesPerSimd;
    lt.bound = lt.mfmaPerTrip >= 0.8 * lt.cyclesPerTrip ? "MFMA" : "latency";
    rep.loops.push_back(lt);
  }
}

/// What the launch is closest to being limited by.
/// Issue counts against what the SIMD's waves could issue: one each per
/// turn, at most five kinds.
std::string boundOf(const TimingReport &r, double hbmCycles,
                    double wavesPerSimd) {
  if (hbmCycles > r.cycles)
    return "HBM";
  std::pair<double, const char *> use[] = {
      {r.mfmaBusy, "MFMA"},
      {r.issueUsed / std::min(5.0, std::max(1.0, wavesPerSimd)), "issue"},
      {r.ldsBusy, "LDS"},
      {r.memoryBusy, "memory"}};
  auto most = *std::max_element(
      std::begin(use), std::end(use),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  return most.first >= 0.6 ? most.second : "latency";
}

} // namespace

TimingReport hk::rt::isa::runTimed(const CodeObject &code, const Launch &launch,
                                   const TimingOptions &options) {
  const hk::ChipTiming *tp = hk::lookupChipTiming(code.chip);
  if (!tp)
    throw Error(HKRT_ERROR_UNSUPPORTED, "no timing model for " + code.chip);
  const hk::ChipTiming &t = *tp;
  Dispatch d(code, launch);
  std::vector<Class> cls;
  for (const Inst &inst : code.insts)
    cls.push_back(classify(code.chip, inst));
  std::vector<Loop> loops = findLoops(code, cls);

  TimingReport rep;
  rep.chip = code.chip;
  rep.product = t.product;
  unsigned occ = residency(d, t, rep.wavesPerSimd);
  if (occ == 0)
    throw Error(HKRT_ERROR_UNSUPPORTED,
                "kernel " + launch.kernel + ": a workgroup of " +
                    std::to_string(d.numWaves) + " waves does not fit a " +
                    code.chip + " CU (" + std::to_string(rep.wavesPerSimd) +
                    " waves per SIMD by its VGPRs)");
  uint64_t count = uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  rep.workgroups = count;
  if (count == 0)
    return rep;
  uint64_t cus = uint64_t(t.computeUnits);
  rep.residentWorkgroups =
      unsigned(std::min<uint64_t>(occ, (count + cus - 1) / cus));
  uint64_t numSamples = std::min<uint64_t>(options.maxSamples, count);

  std::vector<Sample> samples;
  std::vector<TraceEvent> trace;
  std::vector<bool> touched(d.memory.size(), false);
  double flops = 0, bytes = 0, activity = 0;
  for (uint64_t s = 0; s < numSamples; ++s) {
    uint64_t first = samplePosition(launch, s, numSamples);
    ComputeUnit cu(d, t, cls, loops, s == 0 && !options.tracePath.empty());
    for (unsigned j = 0; j < rep.residentWorkgroups; ++j)
      cu.addWorkgroup(groupId(launch, (first + j * cus) % count));
    samples.push_back({first, cu.run()});
    const BatchResult &b = samples.back().result;
    rep.simulatedWorkgroups += rep.residentWorkgroups;
    flops += b.flops / rep.residentWorkgroups;
    bytes += b.bytes / rep.residentWorkgroups;
    // The matrix and vector ALUs' activity of the CU while it runs.
    activity += std::min(1.0, (b.mfmaBusy + b.valuBusy) /
                                  (double(t.simdsPerCu) *
                                   std::max<double>(double(b.cycles), 1)));
    for (size_t k = 0; k < touched.size(); ++k)
      touched[k] = touched[k] || b.touched[k];
    if (s == 0 && !options.tracePath.empty())
      trace = std::move(cu.trace);
  }
  rep.waves = samples.front().result.waves;
  summarise(samples, loops, code, t,
            double(d.numWaves * rep.residentWorkgroups) / t.simdsPerCu, rep);
  double perGroup = 1.0 / double(numSamples);
  rep.flops = flops * perGroup * double(count);
  rep.bytes = bytes * perGroup * double(count);
  for (size_t k = 0; k < touched.size(); ++k)
    if (touched[k])
      rep.footprintBytes += double(d.memory[k].end - d.memory[k].begin);

  rep.cycles = makespan(samples, count, cus * rep.residentWorkgroups);
  // The clock falls from boost towards the loaded clock with the chip's
  // load: the share of its CUs' time they hold workgroups, times their
  // ALUs' activity against that of the kernels the loaded clock was
  // measured with.
  double occupied = 0;
  for (uint64_t id = 0; id < count; ++id)
    occupied += durationAt(samples, id);
  double chipShare = occupied / (double(cus) * rep.residentWorkgroups *
                                 std::max(rep.cycles, 1.0));
  double load =
      std::min(1.0, chipShare * activity * perGroup / t.mfmaLoadUtilisation);
  rep.clockMHz = t.boostMHz - (t.boostMHz - t.mfmaLoadMHz) * load;
  double computeUs = rep.cycles / rep.clockMHz;
  double hbmUs = rep.footprintBytes / t.hbmBytesPerSecond * 1e6;
  rep.bound =
      boundOf(rep, hbmUs * rep.clockMHz,
              double(d.numWaves * rep.residentWorkgroups) / t.simdsPerCu);
  rep.microseconds = std::max(computeUs, hbmUs) + t.launchOverheadUs;
  rep.tflops = rep.flops / rep.microseconds * 1e-6;
  rep.bytesPerSecond = rep.bytes / rep.microseconds * 1e6;
  if (!options.tracePath.empty())
    writeTrace(options.tracePath, trace, rep.clockMHz);
  return rep;
}

//===-- Reports -----------------------------------------------------------===//

std::string TimingReport::text() const {
  std::ostringstream o;
  o << "timing:    " << product << " (" << chip
    << ") model: " << fmt("%.2f", microseconds) << " us, "
    << fmt("%.0f", cycles) << " cycles at " << fmt("%.0f", clockMHz) << " MHz; "
    << fmt("%.1f", tflops) << " TFLOP/s, " << fmt("%.1f", bytesPerSecond * 1e-9)
    << " GB/s; bound: " << bound << "\n";
  o << "           " << workgroups << " workgroups, " << residentWorkgroups
    << " per CU (" << wavesPerSimd << " waves per SIMD by VGPRs); "
    << simulatedWorkgroups << " simulated, a batch " << fmt("%.0f", batchCycles)
    << " cycles\n";
  o << "           MFMA busy " << fmt("%.1f", 100 * mfmaBusy) << "%, issue "
    << fmt("%.2f", issueUsed) << " per SIMD turn, LDS busy "
    << fmt("%.1f", 100 * ldsBusy) << "% (bank conflicts "
    << fmt("%.0f", ldsConflictCycles) << " cycles), memory port "
    << fmt("%.1f", 100 * memoryBusy) << "%\n";
  o << "stalls:    (wave-cycles, simulated batches)";
  for (const auto &[why, c] : stalls)
    o << " " << why << " " << fmt("%.0f", c) << ";";
  o << "\n";
  for (const StallSite &s : sites)
    o << "  site     pc 0x" << std::hex << s.pc << std::dec << " " << s.cause
      << ": " << fmt("%.0f", s.cycles) << " cycles  (" << s.text << ")\n";
  for (const WaveTiming &w : waves) {
    auto most = std::max_element(
        w.stalls.begin(), w.stalls.end(),
        [](const auto &a, const auto &b) { return a.second < b.second; });
    o << "  wave     " << w.workgroup << "." << w.wave << " (SIMD " << w.simd
      << "): " << fmt("%.0f", w.issued) << " instructions, MFMA "
      << fmt("%.0f", w.mfmaCycles) << " cycles, ended at "
      << fmt("%.0f", w.endCycle);
    if (most != w.stalls.end())
      o << "; most stalled on " << most->first << " ("
        << fmt("%.0f", most->second) << " cycles)";
    o << "\n";
  }
  for (const LoopTiming &l : loops)
    o << "  loop     pc 0x" << std::hex << l.headPc << "..0x" << l.branchPc
      << std::dec << ": " << l.trips << " trips, "
      << fmt("%.1f", l.cyclesPerTrip) << " cycles per trip, MFMA "
      << fmt("%.1f", l.mfmaPerTrip) << " cycles per trip per SIMD; " << l.bound
      << "\n";
  return o.str();
}

std::string TimingReport::json() const {
  std::ostringstream o;
  auto num = [&](const char *k, double v, bool comma = true) {
    o << "\"" << k << "\": " << fmt("%.15g", v) << (comma ? ", " : "");
  };
  o << "{\"chip\": \"" << chip << "\", \"product\": \"" << product << "\", ";
  num("microseconds", microseconds);
  num("cycles", cycles);
  num("clock_mhz", clockMHz);
  num("flops", flops);
  num("bytes", bytes);
  num("footprint_bytes", footprintBytes);
  num("tflops", tflops);
  num("bytes_per_second", bytesPerSecond);
  num("mfma_busy", mfmaBusy);
  num("issue_per_turn", issueUsed);
  num("lds_busy", ldsBusy);
  num("memory_busy", memoryBusy);
  num("lds_conflict_cycles", ldsConflictCycles);
  num("workgroups", double(workgroups));
  num("simulated_workgroups", double(simulatedWorkgroups));
  num("resident_workgroups", residentWorkgroups);
  num("waves_per_simd", wavesPerSimd);
  num("batch_cycles", batchCycles);
  o << "\"bound\": \"" << bound << "\", \"stalls\": {";
  bool first = true;
  for (const auto &[why, c] : stalls) {
    o << (first ? "" : ", ") << "\"" << why << "\": " << fmt("%.0f", c);
    first = false;
  }
  o << "}, \"loops\": [";
  first = true;
  for (const LoopTiming &l : loops) {
    o << (first ? "" : ", ") << "{\"head_pc\": " << l.headPc
      << ", \"branch_pc\": " << l.branchPc << ", \"trips\": " << l.trips
      << ", \"cycles_per_trip\": " << fmt("%.2f", l.cyclesPerTrip)
      << ", \"mfma_per_trip\": " << fmt("%.2f", l.mfmaPerTrip)
      << ", \"bound\": \"" << l.bound << "\"}";
    first = false;
  }
  o << "], \"waves\": [";
  first = true;
  for (const WaveTiming &w : waves) {
    o << (first ? "" : ", ") << "{\"workgroup\": " << w.workgroup
      << ", \"wave\": " << w.wave << ", \"simd\": " << w.simd
      << ", \"issued\": " << fmt("%.0f", w.issued)
      << ", \"mfma_cycles\": " << fmt("%.0f", w.mfmaCycles)
      << ", \"end_cycle\": " << fmt("%.0f", w.endCycle) << ", \"stalls\": {";
    bool inner = true;
    for (const auto &[why, c] : w.stalls) {
      o << (inner ? "" : ", ") << "\"" << why << "\": " << fmt("%.0f", c);
      inner = false;
    }
    o << "}}";
    first = false;
  }
  o << "]}";
  return o.str();
}
