//===- Memory.cpp - LDS, buffer, global, flat and scratch memory ----------===//
//
// Semantics of LDS (DS), buffer (MUBUF, non-format), global, flat and
// scratch memory, written from AMD's CDNA3 and CDNA4 ISA reference guides
// (chapters "Vector Memory Operations", "Flat Memory Instructions" and
// "Data Share Operations", and the opcode descriptions). Operands come as
// the decoder sorts them (Decoder.cpp); each opcode is prepared once at
// decode time by prepareMemory(), which records its shape in Inst::aux.
//
// Timing: an instruction reads its sources, and stores and atomics change
// memory, when it is issued; loaded values and the pre-op values atomics
// return reach their registers when an s_waitcnt retires the operation
// (Run.cpp, retire() in Semantics.cpp). DS instructions count in lgkmcnt,
// buffer, global and scratch ones in vmcnt, flat ones in both.
//===----------------------------------------------------------------------===//

#include "Operands.h"

#include "../core/TransposeRead.h"

#include "hk/Base/Formats.h"

#include <cmath>

using namespace hk::rt;
using namespace hk::rt::isa;
namespace fmt = hk::fmt;

namespace {

//===-- Decode-time shape -------------------------------------------------===//

/// Inst::aux[1] flags of a memory instruction.
enum : uint32_t {
  kSext = 1u << 0,   ///< 8- and 16-bit loads sign-extend
  kD16 = 1u << 1,    ///< 16-bit result into bits 15:0, 31:16 kept
  kD16Hi = 1u << 2,  ///< 16-bit result into bits 31:16 (loads) or bits
                     ///< 31:16 of the data stored (stores)
  kReturn = 1u << 3, ///< an atomic returning the pre-op value
  kToLds = 1u << 4,  ///< a load into LDS (LDS DMA)
  kOffen = 1u << 5,  ///< MUBUF: VADDR supplies an offset
  kIdxen = 1u << 6,  ///< MUBUF: VADDR supplies an index
  kStore = 1u << 7,  ///< a store
  kAtomic = 1u << 8, ///< an atomic read-modify-write
};

/// Atomic operations (Inst::aux[2] of an atomic).
enum class Op : uint32_t {
  Swap,
  CmpSwap,  ///< new = old == cmp ? src : old (integer compare)
  CmpSwapF, ///< DS_CMPST_F32/F64: the float compare of the ISA's rules
  Add,
  Sub,
  Rsub,
  Smin,
  Umin,
  Smax,
  Umax,
  And,
  Or,
  Xor,
  Inc,
  Dec,
  Mskor,
  Wrap,
  AddF32,
  MinF32,
  MaxF32,
  AddF64,
  MinF64,
  MaxF64,
  PkAddF16,
  PkAddBF16,
};

/// Bytes per lane from a memory opcode's name.
unsigned accessBytes(const std::string &n) {
  struct {
    const char *suffix;
    unsigned bytes;
  } const sizes[] = {
      {"DWORDX4", 16}, {"DWORDX3", 12}, {"DWORDX2", 8}, {"DWORD", 4},
      {"B128", 16},    {"B96", 12},     {"B64", 8},     {"B32", 4},
      {"B16", 2},      {"B8", 1},       {"SHORT", 2},   {"BYTE", 1},
      {"U16", 2},      {"I16", 2},      {"U8", 1},      {"I8", 1}};
  for (const auto &s : sizes)
    if (n.find(s.suffix) != std::string::npos)
      return s.bytes;
  return 0;
}

bool has(const std::string &n, const char *part) {
  return n.find(part) != std::string::npos;
}

/// The atomic operation an opcode names, or false if it names none. DS
/// names carry a type suffix (_U32, _I64, _F32, ...); buffer, global and
/// flat names a signedness prefix (SMIN, UMAX) and _X2 for 64 bits.
bool atomicOp(std::string n, Op &op, unsigned &bytes) {
  // _RTN and _SADDR name the form, not the operation ("SADDR" holds "ADD").
  for (const char *form : {"_RTN", "_SADDR"}) {
    size_t at = n.find(form);
    if (at != std::string::npos)
      n.erase(at, strlen(form));
  }
  bool wide = has(n, "_X2") || has(n, "64");
  struct {
    const char *name;
    Op op;
  } const ops[] = {
      {"PK_ADD_BF16", Op::PkAddBF16},
      {"PK_ADD_F16", Op::PkAddF16},
      {"ADD_F64", Op::AddF64},
      {"MIN_F64", Op::MinF64},
      {"MAX_F64", Op::MaxF64},
      {"ADD_F32", Op::AddF32},
      {"MIN_F32", Op::MinF32},
      {"MAX_F32", Op::MaxF32},
      {"CMPST_F", Op::CmpSwapF},
      {"CMPST_", Op::CmpSwap},
      {"CMPSWAP", Op::CmpSwap},
      {"WRXCHG", Op::Swap},
      {"SWAP", Op::Swap},
      {"MSKOR", Op::Mskor},
      {"WRAP", Op::Wrap},
      {"RSUB", Op::Rsub},
      {"SUB", Op::Sub},
      {"ADD", Op::Add},
      {"SMIN", Op::Smin},
      {"UMIN", Op::Umin},
      {"SMAX", Op::Smax},
      {"UMAX", Op::Umax},
      {"MIN_I", Op::Smin},
      {"MIN_U", Op::Umin},
      {"MAX_I", Op::Smax},
      {"MAX_U", Op::Umax},
      {"AND", Op::And},
      {"XOR", Op::Xor},
      {"OR", Op::Or},
      {"INC", Op::Inc},
      {"DEC", Op::Dec},
  };
  for (const auto &o : ops)
    if (has(n, o.name)) {
      op = o.op;
      bytes = (o.op == Op::PkAddF16 || o.op == Op::PkAddBF16) ? 4
              : wide                                          ? 8
                                                              : 4;
      return true;
    }
  return false;
}

//===-- LDS checks --------------------------------------------------------===//

void checkLds(Sim &sim, uint64_t address, unsigned bytes, unsigned lane) {
  // Overflow-safe: address + bytes is never formed.
  if (address > sim.lds.size() || bytes > sim.lds.size() - address)
    sim.fail("LDS access of " + std::to_string(bytes) + " bytes at " +
             std::to_string(address) + " (lane " + std::to_string(lane) +
             ") is outside the workgroup's " + std::to_string(sim.lds.size()) +
             " bytes of LDS");
}

} // namespace

/// Race detection between the waves of a workgroup, synchronized only by
/// s_barrier: within one barrier interval, a dword written by one wave may
/// not be read or written by another, nor written after another wave read
/// it. Returns the conflict, or "".
std::string hk::rt::isa::ldsConflict(Sim &sim, unsigned wave, uint64_t dword,
                                     bool write) {
  if (ldsAccessAllowed(sim, wave, dword, write))
    return "";
  auto other = [&](const char *what, unsigned w) {
    return std::string(what) + " wave " + std::to_string(w) +
           " with no barrier in between";
  };
  if (sim.ldsWriteEpoch[dword] == sim.epoch && sim.ldsWriter[dword] != wave)
    return other("written by", sim.ldsWriter[dword]);
  uint64_t readers = sim.ldsReaders[dword] & ~(uint64_t(1) << wave);
  return other("read by", unsigned(__builtin_ctzll(readers)));
}

namespace {

void checkLdsRace(Sim &sim, const Wave &w, uint64_t address, unsigned bytes,
                  unsigned lane, bool write) {
  if (!sim.raceChecks)
    return;
  for (uint64_t d = address / 4; d < (address + bytes + 3) / 4; ++d) {
    if (ldsAccessAllowed(sim, w.id, d, write))
      continue;
    std::string conflict = ldsConflict(sim, w.id, d, write);
    if (!conflict.empty())
      sim.fail("LDS race: lane " + std::to_string(lane) + " " +
               (write ? "writes" : "reads") + " bytes " +
               std::to_string(address) + " to " +
               std::to_string(address + bytes - 1) + ", " + conflict);
  }
}

/// Which wave issued the outstanding LDS DMA into `dword`, and where.
std::string ldsDmaIssuer(const Sim &sim, uint32_t dword) {
  for (const Wave &other : *sim.waves)
    for (const Pending &p : other.vm)
      for (uint32_t d : p.ldsDwords)
        if (d == dword) {
          char pc[32];
          snprintf(pc, sizeof pc, "%llx", (unsigned long long)p.pc);
          return "wave " + std::to_string(other.id) + ", its load at pc 0x" +
                 pc + ",";
        }
  return "its wave";
}

/// An LDS access by a ds_* instruction must not touch a dword that an LDS
/// DMA (buffer or global load to LDS) has not yet delivered: the issuing
/// wave has not waited for it (vmcnt).
void checkLdsDelivered(Sim &sim, uint64_t address, unsigned bytes,
                       unsigned lane, bool write) {
  if (!sim.ldsPendingCount)
    return;
  for (uint64_t d = address / 4; d < (address + bytes + 3) / 4; ++d)
    if (sim.ldsPending[d])
      sim.fail("LDS bytes " + std::to_string(address) + " to " +
               std::to_string(address + bytes - 1) + " (lane " +
               std::to_string(lane) + ") " + (write ? "written" : "read") +
               " while an LDS DMA into them is outstanding (" +
               ldsDmaIssuer(sim, uint32_t(d)) +
               " has not waited for it with vmcnt)");
}

/// The checks of every LDS access by lane `lane`: inside the workgroup's
/// LDS, not into a DMA still outstanding, no race with another wave. An
/// atomic is checked as a write (it is a read and a write).
uint8_t *ldsAt(Sim &sim, const Wave &w, uint64_t address, unsigned bytes,
               unsigned lane, bool write) {
  checkLds(sim, address, bytes, lane);
  checkLdsDelivered(sim, address, bytes, lane, write);
  checkLdsRace(sim, w, address, bytes, lane, write);
  if (sim.observer)
    sim.observer->lds(lane, address, bytes, write);
  return sim.lds.data() + address;
}

//===-- Register results --------------------------------------------------===//

/// Makes `d`'s VGPRs wait for `p`: they are written when the wait that
/// covers `p` retires it, and reading them before is a fault.
void markPending(Wave &w, Pending &p, const Operand &d) {
  for (unsigned k = 0; k < d.width; ++k) {
    p.vregs.push_back(uint16_t(d.reg + k));
    ++w.pendingV[d.reg + k];
    ++w.pendingRegs;
  }
}

/// The value `*at` (a VGPR of one lane) will hold once the operations
/// outstanding into it complete: the last write of it queued on its
/// counter, else its current value. A 16-bit (D16) load merges its half
/// into this value, so that two D16 loads into the two halves of a
/// register without a wait between them (which the ISA allows: loads of
/// one counter return in order) give both halves.
uint32_t settledValue(Sim &sim, const Wave &w, uint32_t *at, uint16_t reg) {
  if (!w.pendingV[reg])
    return *at;
  const uint32_t *found[2] = {nullptr, nullptr};
  const std::deque<Pending> *queues[2] = {&w.vm, &w.lgkm};
  for (unsigned q = 0; q < 2; ++q)
    for (const Pending &e : *queues[q]) {
      const Pending &p = e.joint ? *e.joint : e;
      for (const auto &[ptr, value] : p.writes)
        if (ptr == at)
          found[q] = &value;
    }
  if (found[0] && found[1] && found[0] != found[1])
    sim.fail("a 16-bit load into v" + std::to_string(reg) +
             ", which loads on both vmcnt and lgkmcnt are still filling, "
             "is not simulated");
  return found[0] ? *found[0] : found[1] ? *found[1] : *at;
}

/// Lane l's loaded bytes `raw` (bytes per lane from aux[0]) as the register
/// values of `d`, queued in `p`: dwords as they are, an 8- or 16-bit value
/// zero- or sign-extended to 32 bits, or with D16 to 16 bits and merged
/// into the low or high half of the register (CDNA3 ISA, "16-bit Memory
/// Operations": D16 loads write bits 15:0, D16_HI bits 31:16, and the other
/// half is kept).
void deliver(Sim &sim, Wave &w, const Inst &i, const Operand &d, unsigned l,
             const uint8_t *raw, Pending &p) {
  unsigned bytes = i.aux[0];
  uint32_t flags = i.aux[1];
  // Room for every lane's dwords at the first lane, not a reallocation
  // every few lanes.
  if (p.writes.empty())
    p.writes.reserve(size_t(kLanes) * (bytes >= 4 ? bytes / 4 : 1));
  if (bytes >= 4) {
    for (unsigned k = 0; k < bytes / 4; ++k) {
      uint32_t value;
      memcpy(&value, raw + 4 * k, 4);
      p.writes.emplace_back(&w.v[(d.reg + k) * kLanes + l], value);
    }
    return;
  }
  uint32_t value = 0;
  memcpy(&value, raw, bytes);
  if ((flags & kSext) && bytes == 1)
    value = uint32_t(int32_t(int8_t(value)));
  if ((flags & kSext) && bytes == 2)
    value = uint32_t(int32_t(int16_t(value)));
  uint32_t *at = &w.v[d.reg * kLanes + l];
  if (flags & (kD16 | kD16Hi)) {
    uint32_t old = settledValue(sim, w, at, d.reg);
    value &= 0xFFFF;
    value = (flags & kD16Hi) ? (old & 0xFFFF) | value << 16
                             : (old & 0xFFFF0000) | value;
  }
  p.writes.emplace_back(at, value);
}

/// Lane l's store data (aux[0] bytes) as bytes: dwords, or the low 8 or 16
/// bits of the data register (bits 31:16 onwards for _D16_HI).
void storeData(const Wave &w, const Inst &i, const Operand &data, unsigned l,
               uint8_t *out) {
  unsigned bytes = i.aux[0];
  if (bytes >= 4) {
    // Whole dwords: a fixed-size copy the compiler inlines.
    for (unsigned k = 0; k < bytes / 4; ++k) {
      uint32_t value = rd(w, data, l, k);
      memcpy(out + 4 * k, &value, 4);
    }
    return;
  }
  uint32_t value = rd(w, data, l);
  if (i.aux[1] & kD16Hi)
    value >>= 16;
  memcpy(out, &value, bytes);
}

/// Queues `p` on the counter of `counter` ("vm", "lgkm" or both for flat).
enum class Counter { Vm, Lgkm, Both };
void issue(Wave &w, Pending &&p, Counter c) {
  if (c == Counter::Vm) {
    w.vm.push_back(std::move(p));
  } else if (c == Counter::Lgkm) {
    w.lgkm.push_back(std::move(p));
  } else {
    auto shared = std::make_shared<Pending>(std::move(p));
    Pending vm, lgkm;
    vm.joint = shared;
    lgkm.joint = std::move(shared);
    w.vm.push_back(std::move(vm));
    w.lgkm.push_back(std::move(lgkm));
  }
}

//===-- Atomic arithmetic -------------------------------------------------===//

template <typename T> T bitsAs(uint64_t b) {
  T t;
  memcpy(&t, &b, sizeof(T));
  return t;
}
template <typename T> uint64_t asBits64(T t) {
  uint64_t b = 0;
  memcpy(&b, &t, sizeof(T));
  return b;
}

/// A denormal input flushed to a zero of its sign (CDNA3 ISA, "Denormal
/// Handling"), when `flush`.
template <typename T> T flushDenorm(T x, bool flush) {
  return flush && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x)
                                                     : x;
}

/// The float MIN/MAX selection of the CDNA3 ISA ("NaN Handling"): a
/// signaling NaN in src0, then src1, gives that NaN made quiet; otherwise
/// the smaller (larger) value, a quiet NaN ordered above +inf for MIN and
/// below -inf for MAX, -0 below +0. Denormals compare flushed when
/// `flush`; the value kept is the unflushed input.
template <typename T> T minMax(T src0, T src1, bool max, bool flush) {
  auto signaling = [](T x) {
    uint64_t b = asBits64(x);
    uint64_t quiet = sizeof(T) == 4 ? uint64_t(1) << 22 : uint64_t(1) << 51;
    return std::isnan(x) && !(b & quiet);
  };
  if (signaling(src0) || signaling(src1)) {
    T n = signaling(src0) ? src0 : src1;
    uint64_t quiet = sizeof(T) == 4 ? uint64_t(1) << 22 : uint64_t(1) << 51;
    return bitsAs<T>(asBits64(n) | quiet);
  }
  if (std::isnan(src0))
    return src1;
  if (std::isnan(src1))
    return src0;
  T a = flushDenorm(src0, flush), b = flushDenorm(src1, flush);
  if (a == b) // -0 is below +0
    return (std::signbit(a) != std::signbit(b)) == max
               ? (std::signbit(a) ? src1 : src0)
               : (std::signbit(a) ? src0 : src1);
  return (a < b) != max ? src0 : src1;
}

/// IEEE binary16 / bfloat16 to float and back (round to nearest even, the
/// rounding of every float atomic add, CDNA3 ISA "Rounding of Float
/// Atomics"; hk/Base/Formats.h). A NaN result is quiet.
float halfToFloat(uint16_t h, bool bf16) {
  return bf16 ? fmt::decodeBF16(h) : fmt::decodeF16(h);
}
uint16_t floatToHalf(float f, bool bf16) {
  return bf16 ? fmt::encodeBF16(f) : fmt::encodeF16(f);
}

/// Float-add of an atomic: NaN inputs give the first input's NaN made
/// quiet (CDNA3 ISA, "Float Add rules"); -0 + +0 is +0.
template <typename T> T atomicFloatAdd(T mem, T data) {
  if (std::isnan(mem) || std::isnan(data)) {
    T n = std::isnan(mem) ? mem : data;
    uint64_t quiet = sizeof(T) == 4 ? uint64_t(1) << 22 : uint64_t(1) << 51;
    return bitsAs<T>(asBits64(n) | quiet);
  }
  return mem + data;
}

/// Denormal handling of a float atomic (CDNA3 ISA, Table "Denorm Handling
/// Rules for Memory Ops"): in LDS the MODE register decides (FP_DENORM:
/// single precision bits 5:4, double and half bits 7:6; bit 0 of each
/// allows input denormals, bit 1 output ones); in the L2 cache ADD_F32
/// flushes its inputs and the others pass denormals through.
struct Denorms {
  bool flushIn32, flushOut32, flushIn64, flushIn16, flushOut16;
};
Denorms denorms(const Wave &w, bool lds) {
  if (!lds)
    return {true, false, false, false, false};
  uint32_t single = (w.mode >> 4) & 3, dbl = (w.mode >> 6) & 3;
  return {!(single & 1), !(single & 2), !(dbl & 1), !(dbl & 1), !(dbl & 2)};
}

/// One 16-bit lane of PK_ADD_F16 / PK_ADD_BF16, with the denormal flushes
/// `dn` asks for. The float sum of two 16-bit values is exact, or else the
/// smaller one is far below half an ulp of the larger's 16-bit format and
/// both round to the larger: rounding the float sum to 16 bits is the
/// correctly rounded add.
uint16_t halfAdd(uint16_t m, uint16_t d, bool bf16, const Denorms &dn) {
  const uint16_t exponent = bf16 ? 0x7F80 : 0x7C00;
  float a = halfToFloat(m, bf16), b = halfToFloat(d, bf16);
  if (dn.flushIn16) {
    if ((m & exponent) == 0)
      a = std::copysign(0.0f, a);
    if ((d & exponent) == 0)
      b = std::copysign(0.0f, b);
  }
  uint16_t r = floatToHalf(atomicFloatAdd(a, b), bf16);
  if (dn.flushOut16 && (r & exponent) == 0)
    r &= 0x8000;
  return r;
}

/// The new memory value of an atomic, from the old one. `src` is DATA (the
/// value stored by the compare-swaps: DATA2 of DS_CMPST, DATA[0] of
/// CMPSWAP); `extra` is the compare value of the compare-swaps, and DATA2
/// of DS_MSKOR and DS_WRAP. Integer semantics of the CDNA3 ISA's opcode
/// descriptions: INC: old >= src ? 0 : old + 1; DEC: old == 0 || old >
/// src ? src : old - 1; MSKOR: (old & ~src) | extra; WRAP: old >= src ?
/// old - src : old + extra.
uint64_t atomicResult(Op op, unsigned bytes, uint64_t old, uint64_t src,
                      uint64_t extra, const Denorms &dn) {
  bool wide = bytes == 8;
  int64_t so = wide ? int64_t(old) : int64_t(int32_t(old));
  int64_t ss = wide ? int64_t(src) : int64_t(int32_t(src));
  switch (op) {
  case Op::Swap:
    return src;
  case Op::CmpSwap:
    return old == extra ? src : old;
  case Op::CmpSwapF: {
    bool equal, flush = wide ? dn.flushIn64 : dn.flushIn32;
    uint64_t store = src;
    if (wide) {
      double o = flushDenorm(bitsAs<double>(old), flush),
             c = flushDenorm(bitsAs<double>(extra), flush);
      equal = o == c; // false when either is a NaN; +0 == -0
      store = asBits64(flushDenorm(bitsAs<double>(src), flush));
    } else {
      float o = flushDenorm(bitsAs<float>(old), flush),
            c = flushDenorm(bitsAs<float>(extra), flush);
      equal = o == c;
      store = asBits64(flushDenorm(bitsAs<float>(src), flush));
    }
    return equal ? store : old;
  }
  case Op::Add:
    return old + src;
  case Op::Sub:
    return old - src;
  case Op::Rsub:
    return src - old;
  case Op::Smin:
    return uint64_t(so < ss ? so : ss);
  case Op::Umin:
    return old < src ? old : src;
  case Op::Smax:
    return uint64_t(so > ss ? so : ss);
  case Op::Umax:
    return old > src ? old : src;
  case Op::And:
    return old & src;
  case Op::Or:
    return old | src;
  case Op::Xor:
    return old ^ src;
  case Op::Inc:
    return old >= src ? 0 : old + 1;
  case Op::Dec:
    return (old == 0 || old > src) ? src : old - 1;
  case Op::Mskor:
    return (old & ~src) | extra;
  case Op::Wrap:
    return old >= src ? old - src : old + extra;
  case Op::AddF32: {
    float a = flushDenorm(bitsAs<float>(old), dn.flushIn32),
          b = flushDenorm(bitsAs<float>(src), dn.flushIn32);
    return asBits64(flushDenorm(atomicFloatAdd(a, b), dn.flushOut32));
  }
  case Op::MinF32:
  case Op::MaxF32:
    return asBits64(minMax(bitsAs<float>(src), bitsAs<float>(old),
                           op == Op::MaxF32, dn.flushIn32));
  case Op::AddF64:
    return asBits64(atomicFloatAdd(bitsAs<double>(old), bitsAs<double>(src)));
  case Op::MinF64:
  case Op::MaxF64:
    return asBits64(minMax(bitsAs<double>(src), bitsAs<double>(old),
                           op == Op::MaxF64, dn.flushIn64));
  case Op::PkAddF16:
  case Op::PkAddBF16: {
    bool bf = op == Op::PkAddBF16;
    uint32_t lo = halfAdd(uint16_t(old), uint16_t(src), bf, dn);
    uint32_t hi = halfAdd(uint16_t(old >> 16), uint16_t(src >> 16), bf, dn);
    return lo | hi << 16;
  }
  }
  return old;
}

/// Applies an atomic of `bytes` at `at` and returns the pre-op value.
uint64_t atomicAt(uint8_t *at, Op op, unsigned bytes, uint64_t src,
                  uint64_t extra, const Denorms &dn) {
  uint64_t old = 0;
  memcpy(&old, at, bytes);
  uint64_t result = atomicResult(op, bytes, old, src, extra, dn);
  memcpy(at, &result, bytes);
  return old;
}

/// Queues an atomic's returned pre-op value of lane l into `d`.
void deliverOld(Wave &w, const Operand &d, unsigned l, uint64_t old,
                unsigned bytes, Pending &p) {
  p.writes.emplace_back(&w.v[d.reg * kLanes + l], uint32_t(old));
  if (bytes == 8)
    p.writes.emplace_back(&w.v[(d.reg + 1) * kLanes + l], uint32_t(old >> 32));
}

//===-- LDS ---------------------------------------------------------------===//

/// ds_read_* (all sizes, sign-extending, D16 and D16_HI): defs = {vdst},
/// srcs = {addr}, imms = {offset, gds}; lane l reads at ADDR + OFFSET.
void dsRead(Sim &sim, Wave &w, const Inst &i) {
  unsigned bytes = i.aux[0];
  uint64_t offset = uint64_t(uint16_t(i.imms[0]));
  Pending p;
  forLanes(w, [&](unsigned l) {
    uint64_t address = uint64_t(rd(w, i.srcs[0], l)) + offset;
    deliver(sim, w, i, i.defs[0], l, ldsAt(sim, w, address, bytes, l, false),
            p);
  });
  markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_read_addtid_b32: lane l reads the dword at OFFSET + M0[15:0] + l * 4
/// (CDNA3 ISA, DS_READ_ADDTID_B32). defs = {vdst}, imms = {offset, gds}.
void dsReadAddtid(Sim &sim, Wave &w, const Inst &i) {
  uint64_t base = uint64_t(uint16_t(i.imms[0])) + (w.s[kM0] & 0xFFFF);
  Pending p;
  forLanes(w, [&](unsigned l) {
    deliver(sim, w, i, i.defs[0], l, ldsAt(sim, w, base + 4 * l, 4, l, false),
            p);
  });
  markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_write_addtid_b32: lane l writes DATA at OFFSET + M0[15:0] + l * 4.
/// srcs = {data}, imms = {offset, gds}.
void dsWriteAddtid(Sim &sim, Wave &w, const Inst &i) {
  uint64_t base = uint64_t(uint16_t(i.imms[0])) + (w.s[kM0] & 0xFFFF);
  forLanes(w, [&](unsigned l) {
    storeData(w, i, i.srcs[0], l, ldsAt(sim, w, base + 4 * l, 4, l, true));
  });
  issue(w, Pending(), Counter::Lgkm);
}

/// ds_read2_b32/b64 and ds_read2st64_b32/b64: defs = {vdst}, srcs = {addr},
/// imms = {offset0, offset1, gds}; aux[0] the bytes of each of the two
/// values, aux[2] the unit of the offsets in values (1, or 64 for _ST64).
/// Value k comes from addr + offset_k * bytes * unit into the k-th half of
/// vdst (CDNA3 ISA, DS_READ2ST64_B64: DS[ADDR + OFFSET0 * 8 * 64] and
/// DS[ADDR + OFFSET1 * 8 * 64]).
void dsRead2(Sim &sim, Wave &w, const Inst &i) {
  unsigned bytes = i.aux[0];
  Pending p;
  const Operand &d = i.defs[0];
  forLanes(w, [&](unsigned l) {
    for (unsigned k = 0; k < 2; ++k) {
      uint64_t address = uint64_t(rd(w, i.srcs[0], l)) +
                         uint64_t(uint8_t(i.imms[k])) * bytes * i.aux[2];
      const uint8_t *at = ldsAt(sim, w, address, bytes, l, false);
      for (unsigned j = 0; j < bytes / 4; ++j) {
        uint32_t value;
        memcpy(&value, at + 4 * j, 4);
        p.writes.emplace_back(&w.v[(d.reg + k * bytes / 4 + j) * kLanes + l],
                              value);
      }
    }
  });
  markPending(w, p, d);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_read_b64_tr_b16 (gfx950): each lane reads 8 bytes like ds_read_b64,
/// then the lanes of each group of 16 exchange 16-bit elements
/// (runtime/core/TransposeRead.h). Operands as for dsRead. A lane whose
/// result needs the read of a lane that is off is a fault.
void dsReadTrB16(Sim &sim, Wave &w, const Inst &i) {
  uint64_t offset = uint64_t(uint16_t(i.imms[0]));
  const Operand &d = i.defs[0];
  uint16_t read[kLanes][4] = {};
  const uint64_t exec = w.exec();
  forLanes(w, [&](unsigned l) {
    uint64_t address = uint64_t(rd(w, i.srcs[0], l)) + offset;
    memcpy(read[l], ldsAt(sim, w, address, 8, l, false), 8);
  });
  Pending p;
  forLanes(w, [&](unsigned l) {
    uint16_t out[4];
    for (unsigned k = 0; k < 4; ++k) {
      unsigned from = hk::rt::trB16SourceLane(l, k);
      if (!(exec >> from & 1))
        sim.fail("ds_read_b64_tr_b16: lane " + std::to_string(l) +
                 " needs the read of lane " + std::to_string(from) +
                 ", which is off");
      out[k] = read[from][hk::rt::trB16SourceElement(l)];
    }
    for (unsigned k = 0; k < 2; ++k)
      p.writes.emplace_back(&w.v[(d.reg + k) * kLanes + l],
                            uint32_t(out[2 * k]) | uint32_t(out[2 * k + 1])
                                                       << 16);
  });
  markPending(w, p, d);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_write_* (all sizes, D16_HI): srcs = {addr, data}, imms = {offset,
/// gds}. The write is done at issue; the counter counts it until a wait.
void dsWrite(Sim &sim, Wave &w, const Inst &i) {
  uint64_t offset = uint64_t(uint16_t(i.imms[0]));
  forLanes(w, [&](unsigned l) {
    uint64_t address = uint64_t(rd(w, i.srcs[0], l)) + offset;
    storeData(w, i, i.srcs[1], l, ldsAt(sim, w, address, i.aux[0], l, true));
  });
  issue(w, Pending(), Counter::Lgkm);
}

/// ds_write2_b32/b64 and ds_write2st64_b32/b64: srcs = {addr, data0,
/// data1}, imms = {offset0, offset1, gds}; DATA_k goes to ADDR + OFFSET_k *
/// bytes * unit (CDNA3 ISA, DS_WRITE2ST64_B64). With both offsets equal
/// only one write happens, of DATA0 (CDNA4 ISA, "LDS Access": "Specify
/// only one address by setting both offsets to the same value").
void dsWrite2(Sim &sim, Wave &w, const Inst &i) {
  unsigned bytes = i.aux[0];
  unsigned writes = uint8_t(i.imms[0]) == uint8_t(i.imms[1]) ? 1 : 2;
  forLanes(w, [&](unsigned l) {
    for (unsigned k = 0; k < writes; ++k) {
      uint64_t address = uint64_t(rd(w, i.srcs[0], l)) +
                         uint64_t(uint8_t(i.imms[k])) * bytes * i.aux[2];
      uint8_t *at = ldsAt(sim, w, address, bytes, l, true);
      for (unsigned j = 0; j < bytes / 4; ++j) {
        uint32_t value = rd(w, i.srcs[1 + k], l, j);
        memcpy(at + 4 * j, &value, 4);
      }
    }
  });
  issue(w, Pending(), Counter::Lgkm);
}

/// DS atomics, with (_RTN) and without return: defs = {vdst} when they
/// return, srcs = {addr, data0[, data1]}, imms = {offset, gds}. Lanes
/// apply in lane order at ADDR + OFFSET. The compare-stores take the
/// compare value from DATA and the value stored from DATA2
/// (DS_CMPST_B32: MEM = MEM == DATA ? DATA2 : MEM); MSKOR: MEM = (MEM &
/// ~DATA) | DATA2; WRAP: MEM = MEM >= DATA ? MEM - DATA : MEM + DATA2.
void dsAtomic(Sim &sim, Wave &w, const Inst &i) {
  Op op = Op(i.aux[2]);
  unsigned bytes = i.aux[0];
  bool ret = i.aux[1] & kReturn;
  bool two = i.numSrcs > 2;
  uint64_t offset = uint64_t(uint16_t(i.imms[0]));
  Denorms dn = denorms(w, true);
  Pending p;
  forLanes(w, [&](unsigned l) {
    uint64_t data = bytes == 8 ? rd64(w, i.srcs[1], l) : rd(w, i.srcs[1], l);
    uint64_t data2 = !two         ? 0
                     : bytes == 8 ? rd64(w, i.srcs[2], l)
                                  : rd(w, i.srcs[2], l);
    uint64_t src = data, extra = data2;
    if (op == Op::CmpSwap || op == Op::CmpSwapF)
      std::swap(src, extra);
    uint64_t address = uint64_t(rd(w, i.srcs[0], l)) + offset;
    uint64_t old = atomicAt(ldsAt(sim, w, address, bytes, l, true), op, bytes,
                            src, extra, dn);
    if (ret)
      deliverOld(w, i.defs[0], l, old, bytes, p);
  });
  if (ret)
    markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_wrxchg2_rtn_b32/b64 and ds_wrxchg2st64_rtn_b32/b64: DATA goes to
/// ADDR + OFFSET0 * bytes * unit and DATA2 to ADDR + OFFSET1 * bytes *
/// unit; vdst receives the two old values. defs = {vdst}, srcs = {addr,
/// data0, data1}, imms = {offset0, offset1, gds}.
void dsWrxchg2(Sim &sim, Wave &w, const Inst &i) {
  if (uint8_t(i.imms[0]) == uint8_t(i.imms[1]))
    sim.fail("ds_wrxchg2 with both offsets equal (one exchange) is not "
             "simulated");
  unsigned bytes = i.aux[0];
  Pending p;
  const Operand &d = i.defs[0];
  forLanes(w, [&](unsigned l) {
    for (unsigned k = 0; k < 2; ++k) {
      uint64_t address = uint64_t(rd(w, i.srcs[0], l)) +
                         uint64_t(uint8_t(i.imms[k])) * bytes * i.aux[2];
      uint8_t *at = ldsAt(sim, w, address, bytes, l, true);
      for (unsigned j = 0; j < bytes / 4; ++j) {
        uint32_t old;
        memcpy(&old, at + 4 * j, 4);
        uint32_t value = rd(w, i.srcs[1 + k], l, j);
        memcpy(at + 4 * j, &value, 4);
        p.writes.emplace_back(&w.v[(d.reg + k * bytes / 4 + j) * kLanes + l],
                              old);
      }
    }
  });
  markPending(w, p, d);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_condxchg32_rtn_b64 (CDNA3 ISA, DS_CONDXCHG32_RTN_B64): for each of
/// the two dwords at ADDR + OFFSET, the old value is returned, and when
/// bit 31 of its half of DATA is set the dword becomes that half with bit
/// 31 cleared. defs = {vdst}, srcs = {addr, data}, imms = {offset, gds}.
void dsCondxchg32(Sim &sim, Wave &w, const Inst &i) {
  uint64_t offset = uint64_t(uint16_t(i.imms[0]));
  Pending p;
  const Operand &d = i.defs[0];
  forLanes(w, [&](unsigned l) {
    uint64_t address = uint64_t(rd(w, i.srcs[0], l)) + offset;
    uint8_t *at = ldsAt(sim, w, address, 8, l, true);
    for (unsigned k = 0; k < 2; ++k) {
      uint32_t old, data = rd(w, i.srcs[1], l, k);
      memcpy(&old, at + 4 * k, 4);
      if (data >> 31) {
        data &= 0x7FFFFFFF;
        memcpy(at + 4 * k, &data, 4);
      }
      p.writes.emplace_back(&w.v[(d.reg + k) * kLanes + l], old);
    }
  });
  markPending(w, p, d);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_append / ds_consume: the dword at M0 + OFFSET (LDS) counts entries:
/// it grows (append) or shrinks (consume) by the number of lanes in EXEC,
/// and every lane receives its value before the operation. defs = {vdst},
/// imms = {offset, gds}.
template <bool Append> void dsAppendConsume(Sim &sim, Wave &w, const Inst &i) {
  uint64_t address = uint64_t(w.s[kM0]) + uint64_t(uint16_t(i.imms[0]));
  uint32_t count = uint32_t(__builtin_popcountll(w.exec()));
  Pending p;
  if (count) {
    unsigned first = unsigned(__builtin_ctzll(w.exec()));
    uint8_t *at = ldsAt(sim, w, address, 4, first, true);
    uint32_t old;
    memcpy(&old, at, 4);
    uint32_t value = Append ? old + count : old - count;
    memcpy(at, &value, 4);
    forLanes(w, [&](unsigned l) {
      p.writes.emplace_back(&w.v[i.defs[0].reg * kLanes + l], old);
    });
  }
  markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_swizzle_b32 (offset bit 15 clear: bit-mask mode): lane l of each
/// group of 32 reads lane ((l & and) | or) ^ xor of its group, the masks
/// being offset[4:0], [9:5] and [14:10]. The quad-permute mode is not
/// simulated.
void dsSwizzleB32(Sim &sim, Wave &w, const Inst &i) {
  uint32_t offset = uint32_t(i.imms[0]);
  if (offset & 0x8000)
    sim.fail("ds_swizzle_b32 in quad-permute mode is not simulated");
  uint32_t andMask = offset & 0x1F, orMask = (offset >> 5) & 0x1F,
           xorMask = (offset >> 10) & 0x1F;
  uint64_t exec = w.exec();
  Pending p;
  const Operand &d = i.defs[0];
  forLanes(w, [&](unsigned l) {
    unsigned src = (l & 32) | (((l & andMask) | orMask) ^ xorMask);
    uint32_t value = (exec >> src) & 1 ? rd(w, i.srcs[0], src) : 0;
    p.writes.emplace_back(&w.v[d.reg * kLanes + l], value);
  });
  markPending(w, p, d);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_bpermute_b32: lane l reads DATA of lane ((ADDR[l] + offset) / 4) %
/// 64; a lane outside EXEC gives 0. srcs = {addr, data}, imms = {offset}.
void dsBpermuteB32(Sim &, Wave &w, const Inst &i) {
  uint32_t offset = uint32_t(i.imms[0]);
  uint64_t exec = w.exec();
  Pending p;
  const Operand &d = i.defs[0];
  forLanes(w, [&](unsigned l) {
    unsigned src = ((rd(w, i.srcs[0], l) + offset) / 4) % kLanes;
    uint32_t value = (exec >> src) & 1 ? rd(w, i.srcs[1], src) : 0;
    p.writes.emplace_back(&w.v[d.reg * kLanes + l], value);
  });
  markPending(w, p, d);
  issue(w, std::move(p), Counter::Lgkm);
}

/// ds_permute_b32 (CDNA3 ISA, DS_PERMUTE_B32): each lane in EXEC sends
/// DATA to lane ((ADDR + offset) / 4) % 64, in lane order (the last
/// sender wins); lanes in EXEC that receive nothing get 0.
void dsPermuteB32(Sim &, Wave &w, const Inst &i) {
  uint32_t offset = uint32_t(i.imms[0]);
  uint32_t out[kLanes] = {};
  forLanes(w, [&](unsigned l) {
    out[((rd(w, i.srcs[0], l) + offset) / 4) % kLanes] = rd(w, i.srcs[1], l);
  });
  Pending p;
  const Operand &d = i.defs[0];
  forLanes(w, [&](unsigned l) {
    p.writes.emplace_back(&w.v[d.reg * kLanes + l], out[l]);
  });
  markPending(w, p, d);
  issue(w, std::move(p), Counter::Lgkm);
}

void dsNop(Sim &, Wave &w, const Inst &) { issue(w, Pending(), Counter::Lgkm); }

//===-- Buffer memory -----------------------------------------------------===//

struct BufferResource {
  uint64_t base;
  uint32_t stride, numRecords;
};

BufferResource bufferResource(Sim &sim, const Wave &w, const Operand &o) {
  uint32_t d0 = srd(w, o), d1 = rd(w, o, 0, 1), d2 = rd(w, o, 0, 2),
           d3 = rd(w, o, 0, 3);
  BufferResource r{d0 | uint64_t(d1 & 0xFFFF) << 32, (d1 >> 16) & 0x3FFF, d2};
  // L1 cache swizzling (word1 bit 30, CACHE_SWIZZLE): the stride field and
  // bit 31 then describe how the L1 cache banks are hashed, which changes
  // no address (MLIR's amdgpu.fat_raw_buffer_cast cacheSwizzleStride
  // documents this; HipKittens' make_srsrc sets stride | 0x4000 | 0x8000
  // for raw OFFEN loads whose results are correct on gfx950). The buffer
  // stays raw.
  if (d1 >> 30 & 1)
    r.stride = 0;
  else if (d1 >> 31)
    sim.fail("buffer resource with a stride or swizzling: SWIZZLE_ENABLE "
             "(swizzled buffers are not simulated)");
  if (d3 >> 23 & 1)
    sim.fail("buffer resource with ADD_TID_ENABLE (swizzled or private "
             "buffers are not simulated)");
  return r;
}

/// One lane's buffer address: the byte offset the range check sees and
/// the address of byte 0, from the CDNA3 ISA's "Buffer Addressing".
struct BufferLane {
  uint64_t offset;  ///< inst_offset + VGPR offset (+ index * stride)
  uint64_t address; ///< base + SGPR offset + offset
  bool structured;  ///< IDXEN with a stride: checked by index
  bool indexInRange;
};

/// Buffer operands: loads defs = {vdata}, srcs = {vaddr?, srsrc, soffset};
/// stores and atomics srcs = {vdata, vaddr?, srsrc, soffset} (an atomic
/// that returns has vdata as def and tied source); imms = {offset, cpol,
/// swz}. VADDR is the offset (OFFEN), the index (IDXEN) or both, index
/// first (BOTHEN).
struct BufferOperands {
  const Operand *vaddr = nullptr;
  const Operand *rsrc, *soffset;
};
BufferOperands bufferOperands(const Inst &i) {
  unsigned first = i.aux[1] & (kStore | kAtomic) ? 1 : 0;
  BufferOperands b;
  if (i.aux[1] & (kOffen | kIdxen))
    b.vaddr = &i.srcs[first++];
  b.rsrc = &i.srcs[first];
  b.soffset = &i.srcs[first + 1];
  return b;
}

/// Address of lane l (CDNA3 ISA, "Buffer Addressing", "Range Checking"):
/// offset = (OFFEN ? VGPR offset : 0) + inst_offset; with IDXEN the index
/// times the stride is added; the address is base + SGPR offset + that.
/// A raw buffer (no index) is range-checked on the offset alone, the SGPR
/// offset not being part of it ("Out of Range if: (InstOffset + (OffEN ?
/// vgpr_offset : 0)) >= NumRecords"); a structured one (IDXEN, stride not
/// 0) on the index ("Index(vgpr) >= NumRecords").
BufferLane bufferLane(Sim &sim, const Wave &w, const Inst &i,
                      const BufferOperands &b, const BufferResource &r,
                      uint64_t soffset, unsigned l) {
  bool offen = i.aux[1] & kOffen, idxen = i.aux[1] & kIdxen;
  uint64_t index = idxen ? rd(w, *b.vaddr, l) : 0;
  uint64_t voffset = offen ? rd(w, *b.vaddr, l, idxen ? 1 : 0) : 0;
  if (idxen && r.stride == 0)
    sim.fail("an IDXEN buffer access with stride 0 (neither a raw nor a "
             "structured buffer) is not simulated");
  if (!idxen && r.stride != 0)
    sim.fail("buffer resource with a stride or swizzling, accessed without "
             "IDXEN: a raw access through a strided resource is not "
             "simulated");
  BufferLane lane;
  lane.offset = voffset + uint64_t(uint32_t(i.imms[0])) + index * r.stride;
  lane.address = r.base + soffset + lane.offset;
  lane.structured = idxen;
  lane.indexInRange = index < r.numRecords;
  return lane;
}

/// Whether `bytes` at `at` bytes past the lane's offset are in range: for
/// a raw buffer all of them below num_records, for a structured one the
/// index below num_records.
bool bufferInRange(const BufferLane &lane, const BufferResource &r, uint64_t at,
                   unsigned bytes) {
  if (lane.structured)
    return lane.indexInRange;
  uint64_t offset = lane.offset + at;
  return offset <= r.numRecords && bytes <= r.numRecords - offset;
}

/// LDS DMA destination of lane l: M0[17:0] + inst_offset + l * size, the
/// size 4 for a dword or less and 16 for three or four dwords (CDNA3 ISA,
/// "Memory Buffer Load to LDS": LDS_ADDR = LDSbase + M0 + inst_offset +
/// TIDinWave * 4, or * 16; LLVM's load-to-LDS intrinsics apply the
/// instruction offset to both addresses).
uint64_t ldsDmaAddress(const Wave &w, const Inst &i, unsigned l) {
  unsigned stride = i.aux[0] > 4 ? 16 : 4;
  return uint64_t(w.s[kM0] & 0x3FFFF) + uint64_t(i.imms[0]) +
         uint64_t(l) * stride;
}

/// Queues lane l's LDS DMA data (aux[0] bytes) for `p`, as whole dwords: an
/// 8- or 16-bit load writes the dword of its value zero- (UBYTE, USHORT) or
/// sign-extended (SBYTE, SSHORT), the data format its opcode implies
/// (CDNA3 ISA, "Buffer Instructions": "buffer_load_ubyte sets the
/// data-format to 8 and number-format to uint"), at the lane's dword.
void queueLdsDma(Sim &sim, const Wave &w, const Inst &i, unsigned l,
                 const uint8_t *data, Pending &p) {
  uint64_t at = ldsDmaAddress(w, i, l);
  unsigned bytes = i.aux[0];
  checkLds(sim, at, bytes < 4 ? 4 : bytes, l);
  for (unsigned k = 0; k < (bytes + 3) / 4; ++k) {
    uint32_t value = 0;
    memcpy(&value, data + 4 * k, bytes < 4 ? bytes : 4);
    if ((i.aux[1] & kSext) && bytes == 1)
      value = uint32_t(int32_t(int8_t(value)));
    if ((i.aux[1] & kSext) && bytes == 2)
      value = uint32_t(int32_t(int16_t(value)));
    uint64_t byte = at + 4 * k;
    p.writes.emplace_back(reinterpret_cast<uint32_t *>(sim.lds.data() + byte),
                          value);
    p.ldsDwords.push_back(uint32_t(byte / 4));
    ++sim.ldsPending[byte / 4];
    ++sim.ldsPendingCount;
  }
}

/// buffer_load_* (bytes to dwordx4, sign-extending, D16, D16_HI, to LDS)
/// and buffer_store_*: each dword (or the 8- or 16-bit value) is checked
/// on its own; one out of range loads 0 and is not stored. An LDS DMA
/// lane out of range writes zeros to LDS.
template <bool Store> void bufferAccess(Sim &sim, Wave &w, const Inst &i) {
  BufferOperands b = bufferOperands(i);
  BufferResource r = bufferResource(sim, w, *b.rsrc);
  uint64_t soffset = srd(w, *b.soffset);
  unsigned bytes = i.aux[0], piece = bytes < 4 ? bytes : 4;
  Pending p;
  forLanes(w, [&](unsigned l) {
    BufferLane lane = bufferLane(sim, w, i, b, r, soffset, l);
    uint8_t data[16] = {};
    if (Store)
      storeData(w, i, i.srcs[0], l, data);
    for (unsigned at = 0; at < bytes; at += piece) {
      if (!bufferInRange(lane, r, at, piece))
        continue;
      sim.checkMemory(lane.address + at, piece, Store);
      auto *mem = reinterpret_cast<uint8_t *>(lane.address + at);
      Store ? memcpy(mem, data + at, piece) : memcpy(data + at, mem, piece);
    }
    if (Store)
      return;
    if (i.aux[1] & kToLds)
      queueLdsDma(sim, w, i, l, data, p);
    else
      deliver(sim, w, i, i.defs[0], l, data, p);
  });
  p.pc = i.pc;
  if (!Store && !(i.aux[1] & kToLds))
    markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Counter::Vm);
}
void bufferLoad(Sim &sim, Wave &w, const Inst &i) {
  bufferAccess<false>(sim, w, i);
}
void bufferStore(Sim &sim, Wave &w, const Inst &i) {
  bufferAccess<true>(sim, w, i);
}

/// The data operands of a vector memory atomic: DATA (the value, or for
/// CMPSWAP the value stored in its low half and the compare value in its
/// high half: CDNA3 ISA, BUFFER_ATOMIC_CMPSWAP: src = DATA[0], cmp =
/// DATA[1]).
void atomicData(const Wave &w, const Inst &i, const Operand &data, unsigned l,
                uint64_t &src, uint64_t &cmp) {
  unsigned bytes = i.aux[0];
  src = bytes == 8 ? rd64(w, data, l) : rd(w, data, l);
  cmp = 0;
  if (Op(i.aux[2]) == Op::CmpSwap)
    cmp = bytes == 8 ? rd(w, data, l, 2) | uint64_t(rd(w, data, l, 3)) << 32
                     : rd(w, data, l, 1);
}

/// buffer_atomic_*: each lane in EXEC applies its atomic at its address
/// in lane order when it is in range as a whole (CDNA3 ISA: atomics are
/// range-checked "all or nothing"); an out-of-range lane changes nothing
/// and returns 0.
void bufferAtomic(Sim &sim, Wave &w, const Inst &i) {
  BufferOperands b = bufferOperands(i);
  BufferResource r = bufferResource(sim, w, *b.rsrc);
  uint64_t soffset = srd(w, *b.soffset);
  unsigned bytes = i.aux[0];
  bool ret = i.aux[1] & kReturn;
  Denorms dn = denorms(w, false);
  Pending p;
  forLanes(w, [&](unsigned l) {
    BufferLane lane = bufferLane(sim, w, i, b, r, soffset, l);
    uint64_t src, cmp, old = 0;
    atomicData(w, i, i.srcs[0], l, src, cmp);
    if (bufferInRange(lane, r, 0, bytes)) {
      sim.checkMemory(lane.address, bytes, true);
      old = atomicAt(reinterpret_cast<uint8_t *>(lane.address), Op(i.aux[2]),
                     bytes, src, cmp, dn);
    }
    if (ret)
      deliverOld(w, i.defs[0], l, old, bytes, p);
  });
  if (ret)
    markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Counter::Vm);
}

/// buffer_wbl2 / buffer_inv: write back or invalidate caches. Memory here
/// is coherent, so they change nothing; they count in vmcnt.
void bufferCacheOp(Sim &, Wave &w, const Inst &) {
  issue(w, Pending(), Counter::Vm);
}

//===-- Global, flat and scratch memory -----------------------------------===//

/// Global and flat operands: the address VGPR(s), an SGPR base (SADDR) if
/// any, and the data. Loads: defs = {vdst}, srcs = {vaddr} or {saddr,
/// vaddr}; stores and atomics: srcs = {vaddr, vdata} or {vaddr, vdata,
/// saddr}; imms = {offset, cpol}.
struct FlatOperands {
  const Operand *vaddr = nullptr, *saddr = nullptr, *data = nullptr;
};
FlatOperands flatOperands(const Inst &i) {
  FlatOperands f;
  bool writes = i.aux[1] & (kStore | kAtomic);
  for (unsigned k = 0; k < i.numSrcs; ++k) {
    const Operand &o = i.srcs[k];
    if (o.file == File::S)
      f.saddr = &o;
    else if (!f.vaddr)
      f.vaddr = &o;
    else if (writes && !f.data)
      f.data = &o;
  }
  return f;
}

/// Lane l's 64-bit global address: VADDR (64 bits) + offset, or SADDR +
/// VADDR (32 bits, zero-extended) + offset, the offset a signed 13-bit
/// immediate (CDNA3 ISA, "Global": a negative offset subtracts).
uint64_t globalAddress(const Wave &w, const Inst &i, const FlatOperands &f,
                       unsigned l) {
  uint64_t base =
      f.saddr ? srd64(w, *f.saddr) + rd(w, *f.vaddr, l) : rd64(w, *f.vaddr, l);
  return base + uint64_t(i.imms[0]);
}

/// The LDS aperture: flat addresses whose bits 63:32 are those of
/// src_shared_base (Decoder.cpp) address LDS at their low 32 bits.
constexpr uint64_t kLdsApertureHi = (uint64_t(1) << 48) >> 32;

/// Where lane l's access of `bytes` lies: LDS for a flat address in the
/// LDS aperture (with every LDS check), else global memory (which must lie
/// in a buffer of the device). `lds` tells which.
uint8_t *resolve(Sim &sim, const Wave &w, const Inst &i, uint64_t address,
                 unsigned l, bool write, bool flat, bool &lds) {
  unsigned bytes = i.aux[0];
  lds = flat && address >> 32 == kLdsApertureHi;
  if (lds)
    return ldsAt(sim, w, uint32_t(address), bytes, l, write);
  sim.checkMemory(address, bytes, write);
  return reinterpret_cast<uint8_t *>(address);
}

/// global_* and flat_* loads and stores (every size, sign-extending, D16,
/// D16_HI), and global loads to LDS (M0 + offset + lane * size). Global
/// ones count in vmcnt; flat ones in vmcnt and lgkmcnt, and a flat load's
/// registers are written when both counters have retired it.
template <bool Store, bool Flat>
void globalAccess(Sim &sim, Wave &w, const Inst &i) {
  FlatOperands f = flatOperands(i);
  const Operand &data = Store ? *f.data : i.defs[0];
  Pending p;
  forLanes(w, [&](unsigned l) {
    bool lds;
    uint64_t address = Flat ? rd64(w, *f.vaddr, l) + uint64_t(i.imms[0])
                            : globalAddress(w, i, f, l);
    uint8_t *at = resolve(sim, w, i, address, l, Store, Flat, lds);
    if (Store)
      storeData(w, i, data, l, at);
    else if (i.aux[1] & kToLds)
      queueLdsDma(sim, w, i, l, at, p);
    else
      deliver(sim, w, i, data, l, at, p);
  });
  p.pc = i.pc;
  if (!Store && !(i.aux[1] & kToLds))
    markPending(w, p, data);
  issue(w, std::move(p), Flat ? Counter::Both : Counter::Vm);
}
void globalLoad(Sim &sim, Wave &w, const Inst &i) {
  globalAccess<false, false>(sim, w, i);
}
void globalStore(Sim &sim, Wave &w, const Inst &i) {
  globalAccess<true, false>(sim, w, i);
}
void flatLoad(Sim &sim, Wave &w, const Inst &i) {
  globalAccess<false, true>(sim, w, i);
}
void flatStore(Sim &sim, Wave &w, const Inst &i) {
  globalAccess<true, true>(sim, w, i);
}

/// global_atomic_* and flat_atomic_*: lanes apply in lane order, when
/// issued; with return (sc0) the pre-op value reaches vdst at the wait. A
/// flat atomic in the LDS aperture is an LDS atomic (LDS denormal rules).
template <bool Flat> void globalAtomic(Sim &sim, Wave &w, const Inst &i) {
  FlatOperands f = flatOperands(i);
  unsigned bytes = i.aux[0];
  bool ret = i.aux[1] & kReturn;
  Pending p;
  forLanes(w, [&](unsigned l) {
    bool lds;
    uint64_t address = Flat ? rd64(w, *f.vaddr, l) + uint64_t(i.imms[0])
                            : globalAddress(w, i, f, l);
    uint8_t *at = resolve(sim, w, i, address, l, true, Flat, lds);
    uint64_t src, cmp;
    atomicData(w, i, *f.data, l, src, cmp);
    uint64_t old = atomicAt(at, Op(i.aux[2]), bytes, src, cmp, denorms(w, lds));
    if (ret)
      deliverOld(w, i.defs[0], l, old, bytes, p);
  });
  if (ret)
    markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Flat ? Counter::Both : Counter::Vm);
}

/// scratch_* (ST: neither VADDR nor SADDR; VE or the gfx9 name: VADDR;
/// SADDR; SVS: both): lane l reads or writes its own private memory at
/// SADDR + VADDR + offset (CDNA3 ISA, Table "SVE Bit"; the offset a signed
/// 13-bit immediate), which must lie in the kernel's private segment
/// (kd.privateSegmentSize bytes per lane, the wave's offset 0). Operands:
/// loads defs = {vdst}, srcs = {vaddr?, saddr?}; stores srcs = {vdata,
/// vaddr?, saddr?}; imms = {offset, cpol}. Loads to LDS (M0 + offset +
/// lane * size) take no vdst.
template <bool Store> void scratchAccess(Sim &sim, Wave &w, const Inst &i) {
  const Operand *vaddr = nullptr, *saddr = nullptr;
  for (unsigned k = Store ? 1 : 0; k < i.numSrcs; ++k)
    (i.srcs[k].file == File::S ? saddr : vaddr) = &i.srcs[k];
  const uint64_t size = sim.kd.privateSegmentSize;
  unsigned bytes = i.aux[0];
  uint64_t base = saddr ? srd(w, *saddr) : 0;
  Pending p;
  forLanes(w, [&](unsigned l) {
    uint64_t address =
        uint32_t(base + (vaddr ? rd(w, *vaddr, l) : 0) + uint64_t(i.imms[0]));
    if (address > size || bytes > size - address)
      sim.fail("scratch access of " + std::to_string(bytes) +
               " bytes at private address " + std::to_string(address) +
               " of lane " + std::to_string(l) + ", past the " +
               std::to_string(size) + "-byte private segment");
    uint8_t *at = w.scratch.data() + size_t(l) * size + address;
    if (Store)
      storeData(w, i, i.srcs[0], l, at);
    else if (i.aux[1] & kToLds)
      queueLdsDma(sim, w, i, l, at, p);
    else
      deliver(sim, w, i, i.defs[0], l, at, p);
  });
  p.pc = i.pc;
  if (!Store && !(i.aux[1] & kToLds))
    markPending(w, p, i.defs[0]);
  issue(w, std::move(p), Counter::Vm);
}
void scratchLoad(Sim &sim, Wave &w, const Inst &i) {
  scratchAccess<false>(sim, w, i);
}
void scratchStore(Sim &sim, Wave &w, const Inst &i) {
  scratchAccess<true>(sim, w, i);
}

//===-- Preparation -------------------------------------------------------===//

/// The immediate index of a DS instruction's gds bit.
unsigned dsGdsIndex(const std::string &n) {
  return has(n, "READ2") || has(n, "WRITE2") || has(n, "WRXCHG2") ? 2 : 1;
}

std::string prepareDs(const std::string &n, Inst &inst) {
  inst.aux[0] = accessBytes(n);
  if (has(n, "READ2") || has(n, "WRITE2") || has(n, "WRXCHG2"))
    inst.aux[2] = has(n, "ST64") ? 64 : 1;
  if (has(n, "_RTN") || has(n, "WRXCHG"))
    inst.aux[1] |= kReturn;
  if (n == "DS_PERMUTE_B32" || n == "DS_BPERMUTE_B32" ||
      n == "DS_SWIZZLE_B32" || n == "DS_NOP")
    return "";
  unsigned gds = dsGdsIndex(n);
  if (inst.numImms <= gds)
    return "LDS instruction without its offset and gds operands";
  if (inst.imms[gds] != 0)
    return "GDS accesses are not simulated";
  if (has(n, "DS_READ")) {
    // A D16 load's tied destination is merged at issue (settledValue), not
    // read as a source.
    inst.numSrcs = has(n, "ADDTID") ? 0 : 1;
    if (has(n, "_I8") || has(n, "_I16"))
      inst.aux[1] |= kSext;
    if (has(n, "_D16_HI"))
      inst.aux[1] |= has(n, "WRITE") ? 0 : kD16Hi;
    else if (has(n, "_D16"))
      inst.aux[1] |= kD16;
  }
  if (has(n, "DS_WRITE_") && has(n, "_D16_HI"))
    inst.aux[1] |= kD16Hi;
  Op op;
  unsigned bytes;
  if (!has(n, "DS_READ") && !has(n, "DS_WRITE") && !has(n, "APPEND") &&
      !has(n, "CONSUME") && !has(n, "CONDXCHG") && !has(n, "WRXCHG2") &&
      atomicOp(n, op, bytes)) {
    inst.aux[0] = bytes;
    inst.aux[2] = uint32_t(op);
  }
  return "";
}

std::string prepareBuffer(const std::string &n, Inst &inst) {
  if (has(n, "_ADDR64"))
    return "ADDR64 buffer addressing is not simulated";
  if (has(n, "_OFFEN") || has(n, "_BOTHEN"))
    inst.aux[1] |= kOffen;
  if (has(n, "_IDXEN") || has(n, "_BOTHEN"))
    inst.aux[1] |= kIdxen;
  if (has(n, "_LDS_"))
    inst.aux[1] |= kToLds;
  if (inst.numImms > 2 && inst.imms[2] != 0)
    return "the swz bit of a buffer instruction is not simulated";
  return "";
}

std::string prepareFlat(const std::string &n, Inst &inst) {
  if (has(n, "_LDS_"))
    inst.aux[1] |= kToLds;
  return "";
}

/// Decode-time preparation of every memory opcode registered here:
/// aux[0] bytes per lane (of the atomic value for atomics), aux[1] the
/// flags above, aux[2] the atomic operation or the unit of ds_*2 offsets.
std::string prepareMemory(const std::string &n, Inst &inst) {
  for (unsigned k = 0; k < inst.numSrcs; ++k)
    if (inst.srcs[k].mods & kApertureOperand)
      return "src_shared_base as a memory operand is not simulated";
  inst.memory = true;
  if (n.rfind("DS_", 0) == 0)
    return prepareDs(n, inst);
  inst.aux[0] = accessBytes(n);
  if (has(n, "SBYTE") || has(n, "SSHORT"))
    inst.aux[1] |= kSext;
  if (has(n, "_D16_HI"))
    inst.aux[1] |= kD16Hi;
  else if (has(n, "_D16"))
    inst.aux[1] |= kD16;
  if (has(n, "_STORE_"))
    inst.aux[1] |= kStore;
  Op op;
  unsigned bytes;
  if (has(n, "_ATOMIC_") && atomicOp(n, op, bytes)) {
    inst.aux[1] |= kAtomic | (inst.numDefs ? kReturn : 0);
    inst.aux[0] = bytes;
    inst.aux[2] = uint32_t(op);
  }
  if (has(n, "_LOAD_") && (inst.aux[1] & (kD16 | kD16Hi))) {
    // The tied destination is merged at issue (settledValue), not read.
    unsigned keep = 0;
    for (unsigned k = 0; k < inst.numSrcs; ++k)
      if (!(inst.srcs[k].file == File::V &&
            inst.srcs[k].reg == inst.defs[0].reg))
        inst.srcs[keep++] = inst.srcs[k];
    inst.numSrcs = uint8_t(keep);
  }
  if (n.rfind("BUFFER_", 0) == 0)
    return prepareBuffer(n, inst);
  // The disassembler gives the OFFSET field as it is encoded: on GFX9 a
  // signed 13-bit byte offset for global and scratch instructions, and a
  // 12-bit unsigned one for flat ones, whose bit 12 is ignored (CDNA3 ISA,
  // Table "Flat, Global and Scratch Microcode Formats").
  if (inst.numImms == 0)
    return "vector memory instruction without its offset operand";
  if (n.rfind("FLAT_", 0) == 0)
    inst.imms[0] &= 0xFFF;
  else
    inst.imms[0] = int64_t(uint64_t(inst.imms[0]) << 51) >> 51;
  return prepareFlat(n, inst);
}

void addAll(Semantics &t, std::initializer_list<std::string> names, Handler h) {
  for (const std::string &n : names) {
    t.handlers[n] = h;
    t.preparers[n] = prepareMemory;
  }
}

void registerDs(Semantics &t) {
  addAll(t,
         {"DS_READ_B32", "DS_READ_B64", "DS_READ_B96", "DS_READ_B128",
          "DS_READ_U16", "DS_READ_I16", "DS_READ_U8", "DS_READ_I8",
          "DS_READ_U8_D16", "DS_READ_U8_D16_HI", "DS_READ_I8_D16",
          "DS_READ_I8_D16_HI", "DS_READ_U16_D16", "DS_READ_U16_D16_HI"},
         dsRead);
  addAll(t, {"DS_READ_B64_TR_B16"}, dsReadTrB16);
  addAll(t, {"DS_READ_ADDTID_B32"}, dsReadAddtid);
  addAll(t, {"DS_WRITE_ADDTID_B32"}, dsWriteAddtid);
  addAll(
      t,
      {"DS_READ2_B32", "DS_READ2_B64", "DS_READ2ST64_B32", "DS_READ2ST64_B64"},
      dsRead2);
  addAll(t,
         {"DS_WRITE_B32", "DS_WRITE_B64", "DS_WRITE_B96", "DS_WRITE_B128",
          "DS_WRITE_B16", "DS_WRITE_B8", "DS_WRITE_B16_D16_HI",
          "DS_WRITE_B8_D16_HI"},
         dsWrite);
  addAll(t,
         {"DS_WRITE2_B32", "DS_WRITE2_B64", "DS_WRITE2ST64_B32",
          "DS_WRITE2ST64_B64"},
         dsWrite2);
  addAll(t,
         {"DS_WRXCHG2_RTN_B32", "DS_WRXCHG2_RTN_B64", "DS_WRXCHG2ST64_RTN_B32",
          "DS_WRXCHG2ST64_RTN_B64"},
         dsWrxchg2);
  addAll(t, {"DS_CONDXCHG32_RTN_B64"}, dsCondxchg32);
  addAll(t, {"DS_APPEND"}, dsAppendConsume<true>);
  addAll(t, {"DS_CONSUME"}, dsAppendConsume<false>);
  addAll(t, {"DS_SWIZZLE_B32"}, dsSwizzleB32);
  addAll(t, {"DS_BPERMUTE_B32"}, dsBpermuteB32);
  addAll(t, {"DS_PERMUTE_B32"}, dsPermuteB32);
  addAll(t, {"DS_NOP"}, dsNop);
  const char *const ints32[] = {"ADD_U32",   "SUB_U32",  "RSUB_U32", "INC_U32",
                                "DEC_U32",   "MIN_I32",  "MAX_I32",  "MIN_U32",
                                "MAX_U32",   "AND_B32",  "OR_B32",   "XOR_B32",
                                "MSKOR_B32", "CMPST_B32"};
  const char *const ints64[] = {"ADD_U64",   "SUB_U64",  "RSUB_U64", "INC_U64",
                                "DEC_U64",   "MIN_I64",  "MAX_I64",  "MIN_U64",
                                "MAX_U64",   "AND_B64",  "OR_B64",   "XOR_B64",
                                "MSKOR_B64", "CMPST_B64"};
  const char *const floats[] = {
      "CMPST_F32", "MIN_F32", "MAX_F32", "ADD_F32",    "CMPST_F64",
      "MIN_F64",   "MAX_F64", "ADD_F64", "PK_ADD_F16", "PK_ADD_BF16"};
  auto atomic = [&](const std::string &op) {
    addAll(t, {"DS_" + op}, dsAtomic);
    std::string rtn = op;
    rtn.insert(rtn.rfind('_'), "_RTN");
    addAll(t, {"DS_" + rtn}, dsAtomic);
  };
  for (const char *op : ints32)
    atomic(op);
  for (const char *op : ints64)
    atomic(op);
  for (const char *op : floats)
    atomic(op);
  addAll(t, {"DS_WRXCHG_RTN_B32", "DS_WRXCHG_RTN_B64", "DS_WRAP_RTN_B32"},
         dsAtomic);
}

/// The atomics of buffer, global and flat memory, by their opcode names
/// without the segment prefix.
const char *const kVmemAtomics[] = {
    "SWAP",    "CMPSWAP", "ADD",        "SUB",        "SMIN",        "UMIN",
    "SMAX",    "UMAX",    "AND",        "OR",         "XOR",         "INC",
    "DEC",     "SWAP_X2", "CMPSWAP_X2", "ADD_X2",     "SUB_X2",      "SMIN_X2",
    "UMIN_X2", "SMAX_X2", "UMAX_X2",    "AND_X2",     "OR_X2",       "XOR_X2",
    "INC_X2",  "DEC_X2",  "ADD_F32",    "PK_ADD_F16", "PK_ADD_BF16", "ADD_F64",
    "MIN_F64", "MAX_F64"};

const char *const kLoads[] = {
    "DWORD",     "DWORDX2",      "DWORDX3",   "DWORDX4",     "UBYTE",
    "SBYTE",     "USHORT",       "SSHORT",    "UBYTE_D16",   "UBYTE_D16_HI",
    "SBYTE_D16", "SBYTE_D16_HI", "SHORT_D16", "SHORT_D16_HI"};
const char *const kStores[] = {"DWORD",   "DWORDX2",     "DWORDX3",
                               "DWORDX4", "BYTE",        "BYTE_D16_HI",
                               "SHORT",   "SHORT_D16_HI"};
const char *const kLdsLoads[] = {"DWORD", "DWORDX3", "DWORDX4", "UBYTE",
                                 "SBYTE", "USHORT",  "SSHORT"};

void registerBuffer(Semantics &t) {
  for (const char *kind : {"_OFFSET", "_OFFEN", "_IDXEN", "_BOTHEN"}) {
    std::string k = kind;
    for (const char *n : kLoads)
      addAll(t, {"BUFFER_LOAD_" + std::string(n) + k}, bufferLoad);
    for (const char *n : kLdsLoads)
      addAll(t, {"BUFFER_LOAD_" + std::string(n) + "_LDS" + k}, bufferLoad);
    for (const char *n : kStores)
      addAll(t, {"BUFFER_STORE_" + std::string(n) + k}, bufferStore);
    for (const char *n : kVmemAtomics) {
      std::string base = "BUFFER_ATOMIC_" + std::string(n) + k;
      addAll(t, {base, base + "_RTN"}, bufferAtomic);
    }
  }
  addAll(t, {"BUFFER_WBL2", "BUFFER_INV"}, bufferCacheOp);
}

void registerFlat(Semantics &t) {
  for (const char *n : kLoads) {
    std::string s = n;
    addAll(t, {"GLOBAL_LOAD_" + s, "GLOBAL_LOAD_" + s + "_SADDR"}, globalLoad);
    addAll(t, {"FLAT_LOAD_" + s}, flatLoad);
    for (const char *kind : {"", "_VE", "_ST", "_SADDR", "_SVS"})
      addAll(t, {"SCRATCH_LOAD_" + s + kind}, scratchLoad);
  }
  for (const char *n : kLdsLoads) {
    std::string s = n;
    addAll(t, {"GLOBAL_LOAD_LDS_" + s, "GLOBAL_LOAD_LDS_" + s + "_SADDR"},
           globalLoad);
    for (const char *kind : {"", "_VE", "_ST", "_SADDR", "_SVS"})
      addAll(t, {"SCRATCH_LOAD_LDS_" + s + kind}, scratchLoad);
  }
  for (const char *n : kStores) {
    std::string s = n;
    addAll(t, {"GLOBAL_STORE_" + s, "GLOBAL_STORE_" + s + "_SADDR"},
           globalStore);
    addAll(t, {"FLAT_STORE_" + s}, flatStore);
    for (const char *kind : {"", "_VE", "_ST", "_SADDR", "_SVS"})
      addAll(t, {"SCRATCH_STORE_" + s + kind}, scratchStore);
  }
  for (const char *n : kVmemAtomics) {
    std::string g = "GLOBAL_ATOMIC_" + std::string(n);
    addAll(t, {g, g + "_RTN", g + "_SADDR", g + "_SADDR_RTN"},
           globalAtomic<false>);
    std::string f = "FLAT_ATOMIC_" + std::string(n);
    addAll(t, {f, f + "_RTN"}, globalAtomic<true>);
  }
}

} // namespace

void hk::rt::isa::registerMemory(Semantics &table) {
  registerDs(table);
  registerBuffer(table);
  registerFlat(table);
}
