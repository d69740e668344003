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
};
struct Swap {
  uint32_t rows;
  uint32_t *vdst, *vsrc;
};
struct LdsAccess {
  uint32_t addr, bytes;
  void *data;
  int32_t active;
  hkemu_buffer rsrc; // LDS DMA: the global source
  uint32_t offset;
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
  uint32_t any = 0;
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    values[l] = ops[l]->value;
    any |= values[l] != 0;
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
      op.result = any;
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

static void ldsBounds(Engine &e, Wave &w, uint32_t lane, const LdsAccess &a,
                      const char *verb) {
  if (uint64_t(a.addr) + a.bytes > e.lds.size())
    e.failAt(w.id, "out-of-range LDS access: " + laneText(lane) + " " + verb +
                       " " + std::to_string(a.bytes) + " bytes at address " +
                       std::to_string(a.addr) + ", the workgroup has " +
                       std::to_string(e.lds.size()) + " bytes of LDS");
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

static void executeLds(Engine &e, Wave &w, Collective kind) {
  for (uint32_t l = 0; l < kWaveLanes && !e.failed; ++l) {
    const auto &a = *static_cast<const LdsAccess *>(w.lanes[l].operands);
    if (!a.active)
      continue;
    if (kind == Collective::LdsStore) {
      ldsBounds(e, w, l, a, "writes");
      if (!e.failed)
        ldsWrite(e, w, a.addr, a.data, a.bytes);
      continue;
    }
    if (kind == Collective::LdsDma) {
      uint32_t base0 =
          static_cast<const LdsAccess *>(w.lanes[0].operands)->addr;
      if (a.addr != base0) {
        e.failAt(w.id, "LDS DMA base differs across lanes (it is M0): lane 0 "
                       "has " +
                           std::to_string(base0) + ", " + laneText(l) +
                           " has " + std::to_string(a.addr));
        return;
      }
      LdsAccess at = a;
      at.addr = a.addr + l * a.bytes;
      ldsBounds(e, w, l, at, "writes (LDS DMA)");
      if (e.failed)
        return;
      uint8_t tmp[16];
      bufferRead(a.rsrc, a.offset, a.bytes, tmp);
      ldsWrite(e, w, at.addr, tmp, a.bytes);
      continue;
    }
    ldsBounds(e, w, l, a, "reads");
    if (e.failed)
      return;
    for (uint32_t i = a.addr; i < a.addr + a.bytes; ++i) {
      uint8_t writer = e.ldsWriter[i];
      if (writer && writer != w.id + 1 && e.ldsEpoch[i] == e.epoch) {
        e.failAt(w.id, "LDS race: " + laneText(l) + " reads address " +
                           std::to_string(i) + ", written by wave " +
                           std::to_string(writer - 1) +
                           " with no barrier in between");
        return;
      }
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
  bufferRead(rsrc, offset, bytes, dst);
}

void hkemu_buffer_store(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                        uint32_t bytes, const void *src) {
  checkAccessSize(lane, bytes, "buffer store");
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
  if (uint64_t(offset) + 4 > rsrc.num_records)
    return;
  // Lanes run one at a time: a plain read-modify-write is atomic here.
  float *p = reinterpret_cast<float *>(
      static_cast<char *>(const_cast<void *>(rsrc.base)) + offset);
  *p += value;
}

void hkemu_lds_load(hkemu_lane *lane, uint32_t addr, uint32_t bytes, void *dst,
                    int32_t active) {
  checkAccessSize(lane, bytes, "LDS load");
  LdsAccess a{addr, bytes, dst, active, {}, 0};
  lane->engine->arrive(lane, Collective::LdsLoad, &a);
}

void hkemu_lds_store(hkemu_lane *lane, uint32_t addr, uint32_t bytes,
                     const void *src, int32_t active) {
  checkAccessSize(lane, bytes, "LDS store");
  // Copy the data: the store executes when the whole wave has arrived.
  uint8_t copy[16];
  memcpy(copy, src, bytes);
  LdsAccess a{addr, bytes, copy, active, {}, 0};
  lane->engine->arrive(lane, Collective::LdsStore, &a);
}

void hkemu_lds_dma(hkemu_lane *lane, hkemu_buffer rsrc, uint32_t offset,
                   uint32_t ldsBase, uint32_t bytesPerLane, int32_t active) {
  Engine &e = *lane->engine;
  bool wide = bytesPerLane == 12 || bytesPerLane == 16;
  if (!(bytesPerLane == 1 || bytesPerLane == 2 || bytesPerLane == 4 ||
        (wide && bytesPerLane <= uint32_t(e.chip->ldsDmaBytes))))
    e.fail(lane, "LDS DMA of " + std::to_string(bytesPerLane) +
                     " bytes per lane is not available on " + e.chip->name);
  LdsAccess a{ldsBase, bytesPerLane, nullptr, active, rsrc, offset};
  e.arrive(lane, Collective::LdsDma, &a);
}

} // extern "C"
