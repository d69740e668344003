//===- LaneOps.cpp - the engine's lane-level operations -------------------===//
//
// Cross-lane ops, MFMA, buffer and LDS accesses. A collective packs the
// lane's operands on its stack, arrives, and the last lane of the wave runs
// Engine::execute over all 64 operand sets.
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include <cstring>

using namespace hk;
using namespace hk::emu;

namespace {
struct CrossLane {
  uint32_t value, offset, width, mode; // bpermute: offset = byte address
  uint32_t old, rowMask, bankMask;
  int32_t boundCtrl;
  uint32_t result;
  int32_t valid;
  uint64_t mask; // ballot's result
};
struct Swap {
  uint32_t rows;
  uint32_t *vdst, *vsrc;
};
struct LdsAccess {
  uint32_t base; // the allocation's address (its memref's aligned pointer)
  uint32_t addr, bytes;
  void *data;
  int32_t active;
  hkemu_buffer rsrc; // LDS DMA: the global source
  uint32_t offset;
  const char *site; // LDS DMA: where it was issued
};
struct VmWait {
  uint32_t count;
  const char *site;
};

std::string laneText(uint32_t l) { return "lane " + std::to_string(l); }

/// The source lane of a DPP move, or -1 if it is invalid.
int dppSource(uint32_t l, uint32_t ctrl) {
  int row = l / 16, rl = l % 16;
  if (ctrl <= 0xFF)
    return (l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10F)
    return rl + int(ctrl & 0xF) < 16 ? int(l + (ctrl & 0xF)) : -1;
  if (ctrl >= 0x111 && ctrl <= 0x11F)
    return rl - int(ctrl & 0xF) >= 0 ? int(l - (ctrl & 0xF)) : -1;
  if (ctrl >= 0x121 && ctrl <= 0x12F)
    return row * 16 + (rl - int(ctrl & 0xF) + 16) % 16;
  switch (ctrl) {
  case 0x130:
    return l < 63 ? int(l + 1) : -1; // wave_shl:1
  case 0x134:
    return int((l + 1) % 64); // wave_rol:1
  case 0x138:
    return l > 0 ? int(l - 1) : -1; // wave_shr:1
  case 0x13C:
    return int((l + 63) % 64); // wave_ror:1
  case 0x140:
    return row * 16 + (15 - rl); // row_mirror
  case 0x141:
    return row * 16 + (rl & 8) + (7 - (rl & 7)); // row_half_mirror
  case 0x142:
    return row > 0 ? row * 16 - 1 : -1; // row_bcast:15
  case 0x143:
    return row > 1 ? 31 : -1; // row_bcast:31
  }
  return -2; // unknown control
}

bool validDppCtrl(uint32_t ctrl) { return dppSource(0, ctrl) != -2; }
} // namespace

static void executeCrossLane(Engine &e, Wave &w, Collective kind) {
  CrossLane *ops[kWaveLanes];
  for (uint32_t l = 0; l < kWaveLanes; ++l)
    ops[l] = const_cast<CrossLane *>(
        static_cast<const CrossLane *>(w.lanes[l].operands));
  uint32_t values[kWaveLanes];
  uint64_t mask = 0; // bit l: lane l's value is nonzero
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    values[l] = ops[l]->value;
    mask |= uint64_t(values[l] != 0) << l;
  }
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    CrossLane &op = *ops[l];
    switch (kind) {
    case Collective::Bpermute:
      op.result = values[(op.offset / 4) % kWaveLanes];
      break;
    case Collective::ReadFirstLane:
      op.result = values[0];
      break;
    case Collective::WaveAny:
      op.result = mask != 0;
      break;
    case Collective::Ballot:
      op.mask = mask;
      break;
    case Collective::Shuffle: {
      uint32_t local = l % op.width, base = l - local;
      int64_t src = op.mode == 0   ? int64_t(local ^ op.offset)
                    : op.mode == 1 ? int64_t(local) - op.offset
                    : op.mode == 2 ? int64_t(local) + op.offset
                                   : int64_t(op.offset);
      op.valid = src >= 0 && src < int64_t(op.width);
      op.result = op.valid ? values[base + src] : op.value;
      break;
    }
    case Collective::Dpp: {
      bool enabled = ((op.rowMask >> (l / 16)) & 1) &&
                     ((op.bankMask >> ((l >> 2) & 3)) & 1);
      int src = dppSource(l, op.offset);
      op.result = !enabled       ? op.old
                  : src >= 0     ? values[src]
                  : op.boundCtrl ? 0
                                 : op.old;
      break;
    }
    default:
      break;
    }
  }
}

static void executeSwap(Wave &w) {
  uint32_t x[kWaveLanes], y[kWaveLanes];
  const Swap *ops[kWaveLanes];
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    ops[l] = static_cast<const Swap *>(w.lanes[l].operands);
    x[l] = *ops[l]->vdst;
    y[l] = *ops[l]->vsrc;
  }
  uint32_t rows = ops[0]->rows;
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    // permlane32: block = 32 lanes; permlane16: 16-lane rows in pairs. The
    // upper block of each pair in vdst trades places with the lower block
    // of the pair in vsrc.
    bool upper = (l / rows) % 2 == 1;
    if (upper)
      *ops[l]->vdst = y[l - rows];
    else
      *ops[l]->vsrc = x[l + rows];
  }
}

/// The allocation an access through `base` (the aligned pointer of its
/// memref) belongs to, or null after a fault. Without declared allocations
/// the whole LDS is one, at 0.
static const LdsRegion *regionOf(Engine &e, Wave &w, uint32_t lane,
                                 uint32_t base) {
  uint8_t r = base < e.ldsRegionOf.size() ? e.ldsRegionOf[base] : 0;
  if (r == 0 || e.ldsRegions[r - 1].base != base) {
    e.failAt(w.id, "LDS access by " + laneText(lane) + " through address " +
                       std::to_string(base) +
                       ", which starts no LDS allocation");
    return nullptr;
  }
  return &e.ldsRegions[r - 1];
}

static std::string regionName(const Engine &e, uint32_t addr) {
  uint8_t r = addr < e.ldsRegionOf.size() ? e.ldsRegionOf[addr] : 0;
  if (e.ldsRegions.empty() || r == 0)
    return "";
  const LdsRegion &g = e.ldsRegions[r - 1];
  return " (allocation '" + g.name + "')";
}

/// Checks an access of `bytes` at `addr` against the allocation of `base`
/// and the workgroup's LDS; false after a fault.
static bool ldsBounds(Engine &e, Wave &w, uint32_t lane, uint32_t base,
                      uint32_t addr, uint32_t bytes, const char *verb) {
  auto access = [&] {
    return laneText(lane) + " " + verb + " " + std::to_string(bytes) +
           " bytes at address " + std::to_string(addr);
  };
  if (e.ldsRegions.empty()) {
    if (uint64_t(addr) + bytes <= e.lds.size())
      return true;
    e.failAt(w.id, "out-of-range LDS access: " + access() +
                       ", the workgroup has " + std::to_string(e.lds.size()) +
                       " bytes of LDS");
    return false;
  }
  const LdsRegion *g = regionOf(e, w, lane, base);
  if (!g)
    return false;
  if (addr >= g->base && uint64_t(addr) + bytes <= uint64_t(g->base) + g->bytes)
    return true;
  std::string lands;
  uint32_t first = addr < g->base ? addr : g->base + g->bytes; // first stray
  if (first >= e.lds.size())
    lands = "past the workgroup's " + std::to_string(e.lds.size()) +
            " bytes of LDS";
  else if (uint8_t r = e.ldsRegionOf[first])
    lands = "in allocation '" + e.ldsRegions[r - 1].name + "'";
  else
    lands = "in no allocation";
  e.failAt(w.id, "LDS access outside its allocation: " + access() +
                     " through allocation '" + g->name + "' (bytes " +
                     std::to_string(g->base) + " to " +
                     std::to_string(g->base + g->bytes) + "); address " +
                     std::to_string(first) + " is " + lands);
  return false;
}

/// The in-flight DMA that writes LDS byte `addr`, and its wave.
static const PendingDma *dmaInto(Engine &e, uint32_t addr, uint32_t &wave) {
  for (Wave &w : e.waves)
    for (const PendingDma &d : w.dmas) {
      if (addr < d.addr || addr >= d.addr + kWaveLanes * d.bytes)
        continue;
      if ((d.active >> ((addr - d.addr) / d.bytes)) & 1) {
        wave = w.id;
        return &d;
      }
    }
  return nullptr;
}

static std::string site(const char *s) {
  return s && *s ? std::string(s) : std::string("an unknown location");
}

/// Why the copy writing `addr` has not landed.
static std::string inFlight(Engine &e, uint32_t addr) {
  uint32_t wave = 0;
  const PendingDma *d = dmaInto(e, addr, wave);
  if (!d)
    return "a copy in flight has landed there";
  const Wave &w = e.waves[wave];
  std::string why = w.waits > d->waitsAtIssue
                        ? "wave " + std::to_string(wave) + "'s last wait, at " +
                              site(w.lastWaitSite) + " (vmcnt " +
                              std::to_string(w.lastWaitCount) +
                              "), leaves it outstanding"
                        : "wave " + std::to_string(wave) +
                              " has executed no wait since it issued the copy";
  return "the LDS DMA issued by wave " + std::to_string(wave) + " at " +
         site(d->site) + " has landed there: " + why;
}

/// Race checks for a write of wave `w` to [addr, addr + bytes) in the
/// current epoch: another wave's write (write-write) or read (write after
/// read) since the last barrier.
static bool checkWrite(Engine &e, Wave &w, uint32_t lane, uint32_t addr,
                       uint32_t bytes, const char *what) {
  uint16_t self = uint16_t(1u << w.id);
  for (uint32_t i = addr; i < addr + bytes; ++i) {
    uint8_t writer = e.ldsWriter[i];
    if (writer && writer != w.id + 1 && e.ldsEpoch[i] == e.epoch) {
      e.failAt(w.id, "LDS race (write-write): " + laneText(lane) + " " + what +
                         " address " + std::to_string(i) + regionName(e, i) +
                         ", written by wave " + std::to_string(writer - 1) +
                         " with no barrier in between");
      return false;
    }
    uint16_t others =
        e.ldsReadEpoch[i] == e.epoch ? e.ldsReaders[i] & ~self : 0;
    if (others) {
      e.failAt(w.id, "LDS race (write after read): " + laneText(lane) + " " +
                         what + " address " + std::to_string(i) +
                         regionName(e, i) + ", read by wave " +
                         std::to_string(__builtin_ctz(others)) +
                         " with no barrier in between");
      return false;
    }
  }
  return true;
}

static void ldsWrite(Engine &e, Wave &w, uint32_t addr, const void *src,
                     uint32_t bytes) {
  memcpy(&e.lds[addr], src, bytes);
  memset(&e.ldsWriter[addr], int(w.id + 1), bytes);
  for (uint32_t i = 0; i < bytes; ++i)
    e.ldsEpoch[addr + i] = e.epoch;
}

static void bufferRead(hkemu_buffer rsrc, uint32_t offset, uint32_t bytes,
                       void *dst) {
  uint32_t comp = bytes < 4 ? bytes : 4;
  for (uint32_t c = 0; c < bytes; c += comp) {
    uint64_t at = uint64_t(offset) + c;
    char *out = static_cast<char *>(dst) + c;
    if (at + comp <= rsrc.num_records)
      memcpy(out, static_cast<const char *>(rsrc.base) + at, comp);
    else
      memset(out, 0, comp);
  }
}

/// Issues an LDS DMA for the wave: reads the global data now, writes LDS
/// when a wait requires it (landDmas).
static void issueDma(Engine &e, Wave &w) {
  const auto &a0 = *static_cast<const LdsAccess *>(w.lanes[0].operands);
  // Built in place (it holds the data of every lane); dropped again if no
  // lane takes it. After a fault the launch is over.
  PendingDma &d = w.dmas.emplace_back();
  d.site = a0.site;
  d.addr = a0.addr;
  d.bytes = a0.bytes;
  d.waitsAtIssue = w.waits;
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    const auto &a = *static_cast<const LdsAccess *>(w.lanes[l].operands);
    if (a.addr != a0.addr) {
      e.failAt(w.id, "LDS DMA base differs across lanes (it is M0): lane 0 "
                     "has " +
                         std::to_string(a0.addr) + ", " + laneText(l) +
                         " has " + std::to_string(a.addr));
      return;
    }
    if (!a.active)
      continue;
    uint32_t at = a.addr + l * a.bytes;
    if (!ldsBounds(e, w, l, a0.base, at, a.bytes, "writes (LDS DMA)") ||
        !checkWrite(e, w, l, at, a.bytes, "writes (LDS DMA)"))
      return;
    for (uint32_t i = at; i < at + a.bytes; ++i) {
      uint32_t other = 0;
      if (e.ldsInFlight[i] && dmaInto(e, i, other) && other != w.id) {
        e.failAt(w.id, "LDS race (write-write): " + laneText(l) +
                           " writes (LDS DMA) address " + std::to_string(i) +
                           regionName(e, i) + " before " + inFlight(e, i));
        return;
      }
    }
    d.active |= uint64_t(1) << l;
    bufferRead(a.rsrc, a.offset, a.bytes, &d.data[l * a.bytes]);
  }
  if (!d.active) {
    w.dmas.pop_back(); // no lane takes it: the wave skips the instruction
    return;
  }
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    w.lanes[l].vmIssued += 16;
    d.issuedAt[l] = w.lanes[l].vmIssued;
    if ((d.active >> l) & 1)
      for (uint32_t i = 0; i < d.bytes; ++i)
        ++e.ldsInFlight[d.addr + l * d.bytes + i];
  }
  ++e.dmasInFlight;
}

/// s_waitcnt vmcnt(n) for the wave: every DMA with at least n
/// vector-memory instructions of the wave issued after it has completed
/// and lands. The instructions after it are counted from below (each
/// lane's bytes / 16, rounded up, and whole DMAs; the most of any lane),
/// so a DMA is taken to land only when the hardware is sure to have
/// completed it.
static void landDmas(Engine &e, Wave &w, uint32_t count, const char *at) {
  ++w.waits;
  w.lastWaitSite = at;
  w.lastWaitCount = count;
  while (!w.dmas.empty()) {
    PendingDma &d = w.dmas.front();
    uint64_t after = 0;
    for (uint32_t l = 0; l < kWaveLanes; ++l)
      after = std::max(after, w.lanes[l].vmIssued - d.issuedAt[l]);
    if ((after + 15) / 16 < count)
      return;
    for (uint32_t l = 0; l < kWaveLanes; ++l) {
      if (!((d.active >> l) & 1))
        continue;
      uint32_t addr = d.addr + l * d.bytes;
      for (uint32_t i = addr; i < addr + d.bytes; ++i)
        --e.ldsInFlight[i];
      if (!checkWrite(e, w, l, addr, d.bytes, "writes (LDS DMA landing)"))
        return;
      ldsWrite(e, w, addr, &d.data[l * d.bytes], d.bytes);
    }
    w.dmas.pop_front();
    --e.dmasInFlight;
  }
}

static void executeLds(Engine &e, Wave &w, Collective kind) {
  if (kind == Collective::LdsDma) {
    issueDma(e, w);
    return;
  }
  uint16_t self = uint16_t(1u << w.id);
  for (uint32_t l = 0; l < kWaveLanes && !e.failed; ++l) {
    const auto &a = *static_cast<const LdsAccess *>(w.lanes[l].operands);
    if (!a.active)
      continue;
    bool store = kind == Collective::LdsStore;
    if (!ldsBounds(e, w, l, a.base, a.addr, a.bytes,
                   store ? "writes" : "reads"))
      return;
    for (uint32_t i = a.addr; e.dmasInFlight && i < a.addr + a.bytes; ++i)
      if (e.ldsInFlight[i]) {
        e.failAt(w.id, std::string("LDS ") + (store ? "write" : "read") +
                           " of a copy in flight: " + laneText(l) + " " +
                           (store ? "writes" : "reads") + " address " +
                           std::to_string(i) + regionName(e, i) + " before " +
                           inFlight(e, i));
        return;
      }
    if (store) {
      if (!checkWrite(e, w, l, a.addr, a.bytes, "writes"))
        return;
      ldsWrite(e, w, a.addr, a.data, a.bytes);
      continue;
    }
    for (uint32_t i = a.addr; i < a.addr + a.bytes; ++i) {
      uint8_t writer = e.ldsWriter[i];
      if (writer && writer != w.id + 1 && e.ldsEpoch[i] == e.epoch) {
        e.failAt(w.id, "LDS race (read after write): " + laneText(l) +
                           " reads address " + std::to_string(i) +
                           regionName(e, i) + ", written by wave " +
                           std::to_string(writer - 1) +
                           " with no barrier in between");
        return;
      }
      if (e.ldsReadEpoch[i] != e.epoch) {
        e.ldsReadEpoch[i] = e.epoch;
        e.ldsReaders[i] = 0;
      }
      e.ldsReaders[i] |= self;
    }
    memcpy(a.data, &e.lds[a.addr], a.bytes);
  }
}

void Engine::execute(Wave &w) {
  switch (w.pending) {
  case Collective::Mfma: {
    const MfmaOperands *ops[kWaveLanes];
    for (uint32_t l = 0; l < kWaveLanes; ++l) {
      ops[l] = static_cast<const MfmaOperands *>(w.lanes[l].operands);
      if (ops[l]->m != ops[0]->m || ops[l]->n != ops[0]->n ||
          ops[l]->k != ops[0]->k || ops[l]->aType != ops[0]->aType ||
          ops[l]->bType != ops[0]->bType) {
        failAt(w.id, "lanes of the wave issued different MFMAs (lane 0 and " +
                         laneText(l) + ")");
        return;
      }
    }
    executeMfma(*chip, ops);
    return;
  }
  case Collective::PermlaneSwap:
    executeSwap(w);
    return;
  case Collective::LdsLoad:
  case Collective::LdsStore:
  case Collective::LdsDma:
    executeLds(*this, w, w.pending);
    return;
  case Collective::WaitVmcnt: {
    const auto &op = *static_cast<const VmWait *>(w.lanes[0].operands);
    landDmas(*this, w, op.count, op.site);
    return;
  }
  default:
    executeCrossLane(*this, w, w.pending);
  }
}

extern "C" {

void hkemu_mfma(hkemu_lane *lane, uint32_t m, uint32_t n, uint32_t k,
                hkemu_type aType, hkemu_type bType, const void *a,
                const void *b, const float *c, float *d) {
  MfmaOperands op{m, n, k, aType, bType, a, b, c, d};
  std::string bad = checkMfma(*lane->engine->chip, op);
  if (!bad.empty())
    lane->engine->fail(lane, bad);
  lane->engine->arrive(lane, Collective::Mfma, &op);
}

static uint32_t crossLane(hkemu_lane *lane, Collective kind, CrossLane &op) {
  lane->engine->arrive(lane, kind, &op);
  return op.result;
}

uint32_t hkemu_bpermute(hkemu_lane *lane, uint32_t byteAddr, uint32_t value) {
  CrossLane op{};
  op.value = value;
  op.offset = byteAddr;
  return crossLane(lane, Collective::Bpermute, op);
}

uint32_t hkemu_shuffle(hkemu_lane *lane, uint32_t value, uint32_t offset,
                       uint32_t width, uint32_t mode, int32_t *valid) {
  if (width == 0 || width > kWaveLanes || (width & (width - 1)) || mode > 3)
    lane->engine->fail(lane, "shuffle with width " + std::to_string(width) +
                                 " and mode " + std::to_string(mode) +
                                 " (width must be a power of 2 up to 64)");
  CrossLane op{};
  op.value = value;
  op.offset = offset;
  op.width = width;
  op.mode = mode;
  uint32_t r = crossLane(lane, Collective::Shuffle, op);
  if (valid)
    *valid = op.valid;
  return r;
}

uint32_t hkemu_dpp(hkemu_lane *lane, uint32_t old, uint32_t src, uint32_t ctrl,
                   uint32_t rowMask, uint32_t bankMask, int32_t boundCtrl) {
  if (!validDppCtrl(ctrl))
    lane->engine->fail(lane, "unsupported DPP control " + std::to_string(ctrl));
  CrossLane op{};
  op.value = src;
  op.offset = ctrl;
  op.old = old;
  op.rowMask = rowMask;
  op.bankMask = bankMask;
  op.boundCtrl = boundCtrl;
  return crossLane(lane, Collective::Dpp, op);
}

void hkemu_permlane_swap(hkemu_lane *lane, uint32_t rows, uint32_t *vdst,
                         uint32_t *vsrc) {
  Engine &e = *lane->engine;
  if (!e.chip->hasPermlaneSwap)
    e.fail(lane, std::string("permlane swaps do not exist on ") + e.chip->name);
  if (rows != 16 && rows != 32)
    e.fail(lane,
           "permlane swap of " + std::to_string(rows) + " lanes (16 or 32)");
  Swap op{rows, vdst, vsrc};
  e.arrive(lane, Collective::PermlaneSwap, &op);
}

uint32_t hkemu_readfirstlane(hkemu_lane *lane, uint32_t value) {
  CrossLane op{};
  op.value = value;
  return crossLane(lane, Collective::ReadFirstLane, op);
}

uint32_t hkemu_wave_any(hkemu_lane *lane, uint32_t pred) {
  CrossLane op{};
  op.value = pred;
  return crossLane(lane, Collective::WaveAny, op);
}

uint64_t hkemu_ballot(hkemu_lane *lane, uint32_t pred) {
  CrossLane op{};
  op.value = pred;
  crossLane(lane, Collective::Ballot, op);
  return op.mask;
}

static void checkAccessSize(hkemu_lane *lane, uint32_t bytes,
                            const char *what) {
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 12 &&
      bytes != 16)
    lane->engine->fail(lane, std::string(what) + " of " +
                                 std::to_string(bytes) +
                                 " bytes (1, 2, 4, 8, 12 or 16)");
}

void hkemu_buffer_load(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                       uint32_t bytes, void *dst) {
  checkAccessSize(lane, bytes, "buffer load");
  lane->vmIssued += bytes;
  bufferRead(rsrc, offset, bytes, dst);
}

void hkemu_buffer_store(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                        uint32_t bytes, const void *src) {
  checkAccessSize(lane, bytes, "buffer store");
  lane->vmIssued += bytes;
  uint32_t comp = bytes < 4 ? bytes : 4;
  for (uint32_t c = 0; c < bytes; c += comp) {
    uint64_t at = uint64_t(offset) + c;
    if (at + comp <= rsrc.num_records)
      memcpy(static_cast<char *>(const_cast<void *>(rsrc.base)) + at,
             static_cast<const char *>(src) + c, comp);
  }
}

void hkemu_buffer_atomic_fadd(hkemu_lane *lane, hkemu_buffer rsrc,
                              uint32_t offset, float value) {
  lane->vmIssued += 4;
  if (uint64_t(offset) + 4 > rsrc.num_records)
    return;
  // Lanes run one at a time: a plain read-modify-write is atomic here.
  float *p = reinterpret_cast<float *>(
      static_cast<char *>(const_cast<void *>(rsrc.base)) + offset);
  *p += value;
}

void hkemu_lds_region(hkemu_lane *lane, const char *name, uint32_t base,
                      uint32_t bytes) {
  Engine &e = *lane->engine;
  for (const LdsRegion &g : e.ldsRegions)
    if (g.base == base) {
      if (g.bytes != bytes || g.name != name)
        e.fail(lane, "LDS allocation '" + std::string(name) + "' at " +
                         std::to_string(base) + " redeclared: it was '" +
                         g.name + "' of " + std::to_string(g.bytes) + " bytes");
      return;
    }
  if (e.ldsRegions.size() >= 255)
    e.fail(lane, "more than 255 LDS allocations");
  if (bytes == 0 || uint64_t(base) + bytes > e.lds.size())
    e.fail(lane, "LDS allocation '" + std::string(name) + "' of " +
                     std::to_string(bytes) + " bytes at " +
                     std::to_string(base) + " does not fit the workgroup's " +
                     std::to_string(e.lds.size()) + " bytes of LDS");
  for (uint32_t i = base; i < base + bytes; ++i)
    if (uint8_t r = e.ldsRegionOf[i])
      e.fail(lane, "LDS allocation '" + std::string(name) + "' overlaps '" +
                       e.ldsRegions[r - 1].name + "' at address " +
                       std::to_string(i));
  e.ldsRegions.push_back({name, base, bytes});
  std::fill(e.ldsRegionOf.begin() + base, e.ldsRegionOf.begin() + base + bytes,
            uint8_t(e.ldsRegions.size()));
}

void hkemu_lds_load(hkemu_lane *lane, uint32_t base, uint32_t addr,
                    uint32_t bytes, void *dst, int32_t active) {
  checkAccessSize(lane, bytes, "LDS load");
  LdsAccess a{base, addr, bytes, dst, active, {}, 0, nullptr};
  lane->engine->arrive(lane, Collective::LdsLoad, &a);
}

void hkemu_lds_store(hkemu_lane *lane, uint32_t base, uint32_t addr,
                     uint32_t bytes, const void *src, int32_t active) {
  checkAccessSize(lane, bytes, "LDS store");
  // Copy the data: the store executes when the whole wave has arrived.
  uint8_t copy[16];
  memcpy(copy, src, bytes);
  LdsAccess a{base, addr, bytes, copy, active, {}, 0, nullptr};
  lane->engine->arrive(lane, Collective::LdsStore, &a);
}

void hkemu_lds_dma(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                   uint32_t base, uint32_t ldsAddr, uint32_t bytesPerLane,
                   int32_t active, const char *site) {
  Engine &e = *lane->engine;
  bool wide = bytesPerLane == 12 || bytesPerLane == 16;
  if (!(bytesPerLane == 1 || bytesPerLane == 2 || bytesPerLane == 4 ||
        (wide && bytesPerLane <= uint32_t(e.chip->ldsDmaBytes))))
    e.fail(lane, "LDS DMA of " + std::to_string(bytesPerLane) +
                     " bytes per lane is not available on " + e.chip->name);
  LdsAccess a{base, ldsAddr, bytesPerLane, nullptr, active, rsrc, offset, site};
  e.arrive(lane, Collective::LdsDma, &a);
}

void hkemu_wait_vmcnt(hkemu_lane *lane, uint32_t count, const char *site) {
  VmWait op{count, site};
  lane->engine->arrive(lane, Collective::WaitVmcnt, &op);
}

} // extern "C"
