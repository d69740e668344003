//===- Run.cpp - dispatch per the AMDHSA ABI and the wave scheduler -------===//
//
// Each workgroup runs alone: its waves start as the kernel descriptor says
// (user SGPRs, workgroup ids, packed work-item ids in v0, EXEC covering the
// work-items of the block) and run in turn, each until it reaches
// s_barrier or s_endpgm; when every wave waits at the barrier, all go on.
// The timing mode (Timing.cpp) starts workgroups the same way (Dispatch)
// and steps the same instructions (step) in the order its model of the
// compute unit issues them.
// A wave that ends while others wait at a barrier is a barrier mismatch.
// Before an instruction runs, its registers are checked against the loads
// still outstanding: reading (or overwriting) a register a load has not yet
// written is the fault of a missing or too weak s_waitcnt.
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace hk::rt;
using namespace hk::rt::isa;

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

std::string registerName(File file, uint16_t reg) {
  if (file == File::S) {
    if (reg == kVcc || reg == kVcc + 1)
      return reg == kVcc ? "vcc_lo" : "vcc_hi";
    if (reg == kM0)
      return "m0";
    if (reg == kExec || reg == kExec + 1)
      return reg == kExec ? "exec_lo" : "exec_hi";
    return "s" + std::to_string(reg);
  }
  return reg >= kAgprBase ? "a" + std::to_string(reg - kAgprBase)
                          : "v" + std::to_string(reg);
}

/// Which counter a register's outstanding load belongs to, as "vmcnt=N"
/// with N the operations outstanding on it; a flat load names each counter
/// that still holds it.
std::string counterOf(const Wave &w, File file, uint16_t reg) {
  auto holds = [&](const std::deque<Pending> &queue) {
    for (const Pending &p : queue) {
      const Pending &q = p.joint ? *p.joint : p;
      const auto &regs = file == File::V ? q.vregs : q.sregs;
      if (std::find(regs.begin(), regs.end(), reg) != regs.end())
        return true;
    }
    return false;
  };
  std::string vm = "vmcnt=" + std::to_string(w.vm.size());
  std::string lgkm = "lgkmcnt=" + std::to_string(w.lgkm.size());
  bool inVm = holds(w.vm), inLgkm = holds(w.lgkm);
  if (inVm && inLgkm)
    return vm + ", " + lgkm;
  return inVm ? vm : lgkm;
}

void checkOutstanding(Sim &sim, const Wave &w, const Inst &inst) {
  auto check = [&](const Operand &o, const char *verb) {
    if (o.file == File::Imm)
      return;
    for (unsigned k = 0; k < o.width; ++k) {
      uint16_t reg = uint16_t(o.reg + k);
      bool pending =
          o.file == File::V ? w.pendingV[reg] != 0 : w.pendingS[reg] != 0;
      if (pending)
        sim.fail(registerName(o.file, reg) + " " + verb +
                 " while a load into it is outstanding, " +
                 counterOf(w, o.file, reg));
    }
  };
  for (unsigned s = 0; s < inst.numSrcs; ++s)
    check(inst.srcs[s], "read");
  if (!inst.memory)
    for (unsigned d = 0; d < inst.numDefs; ++d)
      check(inst.defs[d], "written");
}

/// A budget from environment variable `name`, if it is set: a positive
/// number (an integer for `integral`), else HKRT_ERROR_INVALID_ARGUMENT.
std::optional<double> budgetFromEnvironment(const char *name, bool integral) {
  const char *text = getenv(name);
  if (!text)
    return std::nullopt;
  char *end = nullptr;
  errno = 0;
  double value = strtod(text, &end);
  bool whole = !integral || std::floor(value) == value;
  if (end == text || *end || errno || !std::isfinite(value) || value <= 0 ||
      !whole || value > 1e18)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                std::string(name) + "='" + text + "' is not a positive " +
                    (integral ? "integer" : "number") +
                    " (docs/isa-simulator.md)");
  return value;
}

} // namespace

Sim::Sim(const CodeObject &code, const Launch &launch,
         const KernelDescriptor &kd)
    : code(code), launch(launch), kd(kd) {
  maxInstructions = launch.maxInstructions.value_or(
      uint64_t(budgetFromEnvironment("HK_ISA_MAX_INSTRUCTIONS", true)
                   .value_or(double(kDefaultMaxInstructions))));
  maxSeconds = launch.maxSeconds.value_or(
      budgetFromEnvironment("HK_ISA_MAX_SECONDS", false)
          .value_or(kDefaultMaxSeconds));
  // Far beyond any launch's end: the deadline is a sum that cannot wrap.
  maxSeconds = std::min(maxSeconds, 1e9);
  deadline = std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(maxSeconds));
}

void Sim::failBudget(bool time) const {
  if (time)
    fail("the launch ran out of its budget of " + std::to_string(maxSeconds) +
         " host seconds (HK_ISA_MAX_SECONDS) after " +
         std::to_string(executed) + " instructions");
  fail("the launch ran out of its budget of " +
       std::to_string(maxInstructions) +
       " instructions over all its waves (HK_ISA_MAX_INSTRUCTIONS)");
}

void Sim::fail(const std::string &message) const {
  std::string where = "kernel " + launch.kernel + " (" + code.chip +
                      " code object), workgroup (" + std::to_string(group[0]) +
                      "," + std::to_string(group[1]) + "," +
                      std::to_string(group[2]) + ")";
  if (wave)
    where += ", wave " + std::to_string(wave->id);
  if (current)
    where += ", pc " + hex(current->pc) + " (" + current->name + ": " +
             current->text + ")";
  // The source position first, when the line table has one.
  std::string source = current ? sourcePrefix(code, current->pc) : "";
  throw Error(HKRT_ERROR_KERNEL_FAULT, source + where + ": " + message);
}

void Sim::checkMemory(uint64_t address, uint64_t bytes, bool store) const {
  if (observer)
    observer->global(address, bytes, store);
  // Overflow-safe: address + bytes is never formed.
  auto inside = [&](const MemoryRange &r) {
    return address >= r.begin && address <= r.end && bytes <= r.end - address;
  };
  // The lanes of one access mostly fall in the range the last one did.
  if (lastRange < memory.size() && inside(memory[lastRange]))
    return;
  // memory is sorted by begin: the candidate is the last range starting at
  // or before address.
  auto it = std::upper_bound(
      memory.begin(), memory.end(), address,
      [](uint64_t a, const MemoryRange &r) { return a < r.begin; });
  if (it != memory.begin()) {
    --it;
    if (inside(*it)) {
      lastRange = size_t(it - memory.begin());
      return;
    }
  }
  fail(std::string(store ? "store to " : "load from ") + hex(address) + " (" +
       std::to_string(bytes) + " bytes) outside every buffer of the device");
}

[[noreturn]] void Dispatch::unsupported(const std::string &what) const {
  throw Error(HKRT_ERROR_UNSUPPORTED, "kernel " + launch.kernel + " (" +
                                          code.chip + "): " + what +
                                          " is not simulated");
}

Dispatch::Dispatch(const CodeObject &code, const Launch &launch)
    : code(code), launch(launch), kd(kernelDescriptor(code, launch.kernel)) {
  if (kd.kernargPreload != 0)
    unsupported("kernel argument preloading into SGPRs");
  entry = code.indexOf(kd.entry);
  if (entry < 0)
    throw Error(HKRT_ERROR_INVALID_ARTIFACT,
                "kernel " + launch.kernel + ": its entry " + hex(kd.entry) +
                    " starts no instruction of .text");
  checkLimits();
  checkLds();
  buildSegments();
  buildUserSgprs();
}

/// The limits of a launch, checked before anything is allocated.
void Dispatch::checkLimits() {
  // The product in 64 bits cannot wrap for 32-bit dimensions.
  const uint64_t lanes64 =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  if (lanes64 > 64 * kLanes)
    unsupported("a workgroup of more than 64 waves (" +
                std::to_string(lanes64) + " work-items)");
  lanes = uint32_t(lanes64);
  numWaves = (lanes + kLanes - 1) / kLanes;
  // The dispatch packet holds each dimension's work-items in 32 bits.
  for (int d = 0; d < 3; ++d)
    if (uint64_t(launch.grid[d]) * launch.block[d] > UINT32_MAX)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "kernel " + launch.kernel + ": a grid of " +
                      std::to_string(launch.grid[d]) + " workgroups of " +
                      std::to_string(launch.block[d]) +
                      " work-items in dimension " + std::to_string(d) +
                      " exceeds the 2^32-1 work-items of a dispatch packet");
  if (kd.privateSegmentSize > kMaxPrivateSegmentBytes)
    unsupported("a private segment of " +
                std::to_string(kd.privateSegmentSize) +
                " bytes per lane (the simulator's limit is " +
                std::to_string(kMaxPrivateSegmentBytes) + ")");
}

/// The workgroup's LDS: the static group segment, then the dynamic part,
/// within what the chip gives one workgroup.
void Dispatch::checkLds() {
  uint64_t ldsBytes64 = uint64_t(kd.groupSegmentSize) + launch.dynamicLds;
  const hk::ChipInfo *chip = hk::lookupChip(code.chip);
  const uint64_t ldsLimit = chip ? uint64_t(chip->ldsBytes) : 0;
  if (ldsBytes64 > ldsLimit)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "kernel " + launch.kernel + ": " + std::to_string(ldsBytes64) +
                    " bytes of LDS (" + std::to_string(kd.groupSegmentSize) +
                    " static + " + std::to_string(launch.dynamicLds) +
                    " dynamic) exceed the " + std::to_string(ldsLimit) +
                    " of a " + code.chip + " workgroup");
  ldsBytes = uint32_t(ldsBytes64);
}

/// The kernarg segment (16-byte aligned) and the dispatch packet
/// (hsa_kernel_dispatch_packet_t, 64 bytes), and the memory a kernel may
/// touch: the device's buffers and these two.
void Dispatch::buildSegments() {
  kernarg.assign((launch.kernarg.size() + 7) / 8 + 1, 0);
  // A kernel without arguments has no bytes, and possibly no buffer: memcpy
  // from a null pointer is undefined even for 0 bytes.
  if (!launch.kernarg.empty())
    memcpy(kernarg.data(), launch.kernarg.data(), launch.kernarg.size());
  auto *p = reinterpret_cast<uint8_t *>(packet);
  uint16_t block[3] = {uint16_t(launch.block[0]), uint16_t(launch.block[1]),
                       uint16_t(launch.block[2])};
  memcpy(p + 4, block, 6);
  for (int d = 0; d < 3; ++d) {
    uint32_t size = launch.grid[d] * launch.block[d];
    memcpy(p + 12 + 4 * d, &size, 4);
  }
  uint32_t group = ldsBytes;
  memcpy(p + 28, &group, 4);
  uint64_t args = reinterpret_cast<uint64_t>(kernarg.data());
  memcpy(p + 40, &args, 8);
  memory = launch.memory;
  memory.push_back(
      {reinterpret_cast<uint64_t>(kernarg.data()),
       reinterpret_cast<uint64_t>(kernarg.data()) + 8 * kernarg.size()});
  memory.push_back({reinterpret_cast<uint64_t>(packet),
                    reinterpret_cast<uint64_t>(packet) + sizeof(packet)});
  std::sort(memory.begin(), memory.end(),
            [](const MemoryRange &a, const MemoryRange &b) {
              return a.begin < b.begin;
            });
}

/// User SGPRs in ABI order (kernel_code_properties bits 0-6).
void Dispatch::buildUserSgprs() {
  uint16_t props = kd.codeProperties;
  auto push64 = [&](uint64_t v) {
    user.push_back(uint32_t(v));
    user.push_back(uint32_t(v >> 32));
  };
  if (props & 1) // private segment buffer: no scratch is simulated
    user.insert(user.end(), 4, 0);
  if (props & 2)
    push64(reinterpret_cast<uint64_t>(packet));
  if (props & 4)
    unsupported("the queue pointer");
  if (props & 8)
    push64(reinterpret_cast<uint64_t>(kernarg.data()));
  if (props & 16)
    push64(0); // dispatch id
  if (props & 32)
    unsupported("flat scratch initialization");
  if (props & 64)
    user.push_back(0);
  unsigned userCount = (kd.rsrc2 >> 1) & 0x1F;
  if (userCount != user.size())
    unsupported("a kernel descriptor with " + std::to_string(userCount) +
                " user SGPRs where its enabled inputs need " +
                std::to_string(user.size()));
  if (kd.rsrc2 & (1u << 10))
    unsupported("the workgroup info SGPR");
}

void Dispatch::allocate(Sim &sim, std::vector<Wave> &waves) const {
  waves.resize(numWaves);
  sim.waves = &waves;
  sim.memory = memory;
  for (Wave &w : waves) {
    w.v.assign(kNumVgprs * kLanes, 0);
    w.scratch.assign(size_t(kd.privateSegmentSize) * kLanes, 0);
  }
  sim.lds.assign(ldsBytes, 0);
  sim.ldsPending.assign((ldsBytes + 3) / 4, 0);
  sim.ldsWriteEpoch.assign(sim.ldsPending.size(), UINT32_MAX);
  sim.ldsReadEpoch.assign(sim.ldsPending.size(), UINT32_MAX);
  sim.ldsWriter.assign(sim.ldsPending.size(), 0);
  sim.ldsReaders.assign(sim.ldsPending.size(), 0);
}

void Dispatch::startWave(Wave &w, unsigned wi,
                         const std::array<uint32_t, 3> &group) const {
  memset(w.s, 0, sizeof(w.s));
  memset(w.pendingV, 0, sizeof(w.pendingV));
  memset(w.pendingS, 0, sizeof(w.pendingS));
  w.pendingRegs = 0;
  w.vm.clear();
  w.lgkm.clear();
  std::fill(w.v.begin(), w.v.end(), 0);
  std::fill(w.scratch.begin(), w.scratch.end(), 0);
  w.scc = false;
  w.ended = w.atBarrier = false;
  w.id = wi;
  w.executed = 0;
  w.mode = modeFromRsrc1(kd.rsrc1);
  w.index = entry;
  unsigned s = 0;
  for (uint32_t u : user)
    w.s[s++] = u;
  for (int d = 0; d < 3; ++d)
    if (kd.rsrc2 & (1u << (7 + d)))
      w.s[s++] = group[d];
  if (kd.rsrc2 & 1u)
    w.s[s++] = 0; // private segment wave offset
  uint64_t exec = 0;
  for (unsigned l = 0; l < kLanes; ++l) {
    uint32_t t = wi * kLanes + l;
    if (t >= lanes)
      continue;
    exec |= uint64_t(1) << l;
    uint32_t x = t % launch.block[0];
    uint32_t y = t / launch.block[0] % launch.block[1];
    uint32_t z = t / (launch.block[0] * launch.block[1]);
    // gfx90a and later pack the ids into v0: x | y << 10 | z << 20.
    w.v[l] = x | y << 10 | z << 20;
  }
  w.setExec(exec);
}

void Dispatch::startWorkgroup(Sim &sim, std::vector<Wave> &waves,
                              const std::array<uint32_t, 3> &group) const {
  sim.group = group;
  sim.current = nullptr;
  sim.wave = nullptr;
  std::fill(sim.lds.begin(), sim.lds.end(), 0);
  std::fill(sim.ldsPending.begin(), sim.ldsPending.end(), 0);
  sim.ldsPendingCount = 0;
  sim.epoch = 0;
  std::fill(sim.ldsWriteEpoch.begin(), sim.ldsWriteEpoch.end(), UINT32_MAX);
  std::fill(sim.ldsReadEpoch.begin(), sim.ldsReadEpoch.end(), UINT32_MAX);
  for (unsigned wi = 0; wi < numWaves; ++wi)
    startWave(waves[wi], wi, group);
}

void hk::rt::isa::step(Sim &sim, Wave &w) {
  if (w.index < 0 || size_t(w.index) >= sim.code.insts.size()) {
    sim.current = nullptr;
    sim.fail("wave ran past the end of .text");
  }
  const Inst &inst = sim.code.insts[w.index];
  sim.current = &inst;
  // VGPR indexing on (s_set_gpr_idx_on): a VALU instruction runs as a copy
  // with its indexed VGPR operands moved.
  std::unique_ptr<Inst> indexed;
  if (w.mode & kModeGprIdxEn)
    indexed = gprIndexed(sim, w, inst);
  const Inst &now = indexed ? *indexed : inst;
  if (w.pendingRegs)
    checkOutstanding(sim, w, now);
  ++w.index;
  now.fn(sim, w, now);
  ++w.executed;
  sim.charge();
}

bool hk::rt::isa::releaseBarrier(Sim &sim, std::vector<Wave> &waves) {
  unsigned ended = 0, waiting = 0;
  for (const Wave &w : waves)
    (w.ended ? ended : waiting) += 1;
  if (waiting == 0)
    return false;
  if (ended != 0) {
    Wave *at = nullptr;
    for (Wave &w : waves)
      if (w.atBarrier)
        at = &w;
    sim.wave = at;
    sim.current = &sim.code.insts[at->index - 1];
    sim.fail("barrier mismatch: " + std::to_string(waiting) +
             " wave(s) wait at s_barrier while " + std::to_string(ended) +
             " ended");
  }
  for (Wave &w : waves)
    w.atBarrier = false;
  ++sim.epoch; // a new barrier interval
  return true;
}

void hk::rt::isa::run(const CodeObject &code, const Launch &launch) {
  Dispatch dispatch(code, launch);
  Sim sim(code, launch, dispatch.kd);
  std::vector<Wave> waves;
  dispatch.allocate(sim, waves);
  for (uint32_t gz = 0; gz < launch.grid[2]; ++gz)
    for (uint32_t gy = 0; gy < launch.grid[1]; ++gy)
      for (uint32_t gx = 0; gx < launch.grid[0]; ++gx) {
        dispatch.startWorkgroup(sim, waves, {gx, gy, gz});
        do {
          // Each wave runs until it reaches s_barrier or s_endpgm.
          for (Wave &w : waves) {
            sim.wave = &w;
            while (!w.ended && !w.atBarrier)
              step(sim, w);
          }
        } while (releaseBarrier(sim, waves));
      }
}
