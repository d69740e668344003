//===- Semantics.cpp - what each simulated instruction does ---------------===//
//
// One function per opcode (or family), written from AMD's CDNA3 and CDNA4
// ISA reference guides; operands come sorted by the decoder (defs, srcs with
// their input modifiers, other immediates). Vector instructions act on the
// lanes of EXEC; a VOPC compare writes 0 for the lanes outside it. Memory
// instructions read their sources at issue and leave their results in a
// Pending entry of the wave's vmcnt or lgkmcnt queue; s_waitcnt retires
// entries in issue order (Run.cpp).
//===----------------------------------------------------------------------===//

#include "Operands.h"

#include "hk/Base/Formats.h"

#include <cmath>

using namespace hk::rt;
using namespace hk::rt::isa;
namespace fmt = hk::fmt;

namespace {

//===-- Special handlers --------------------------------------------------===//

void undecodable(Sim &sim, Wave &, const Inst &) {
  sim.fail("LLVM's disassembler cannot decode the word here");
}

void unknown(Sim &sim, Wave &, const Inst &i) {
  sim.fail("instruction " + i.name + " is not simulated");
}

void unsupportedOperand(Sim &sim, Wave &, const Inst &i) { sim.fail(i.fault); }

//===-- Waits -------------------------------------------------------------===//

// The SALU, program flow and scalar memory are in Scalar.cpp; s_waitcnt
// stays here with the retirement of the counters' queues.

} // namespace

void hk::rt::isa::retire(Sim &sim, Wave &w, std::deque<Pending> &queue,
                         size_t keep) {
  while (queue.size() > keep) {
    if (queue.front().joint && queue.front().joint.use_count() > 1) {
      queue.pop_front(); // the other counter has yet to retire it
      continue;
    }
    Pending &p = queue.front().joint ? *queue.front().joint : queue.front();
    for (auto &[ptr, value] : p.writes)
      *ptr = value;
    for (uint32_t d : p.ldsDwords) {
      --sim.ldsPending[d];
      --sim.ldsPendingCount;
      std::string conflict =
          sim.raceChecks ? ldsConflict(sim, w.id, d, true) : "";
      if (!conflict.empty())
        sim.fail("LDS race: an LDS DMA of this wave lands in bytes " +
                 std::to_string(4 * d) + " to " + std::to_string(4 * d + 3) +
                 ", " + conflict);
    }
    for (uint16_t r : p.vregs) {
      --w.pendingV[r];
      --w.pendingRegs;
    }
    for (uint16_t r : p.sregs) {
      --w.pendingS[r];
      --w.pendingRegs;
    }
    queue.pop_front();
  }
}

namespace {

void sWaitcnt(Sim &sim, Wave &w, const Inst &i) {
  // gfx9 SIMM16: vmcnt [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8].
  uint32_t imm = uint32_t(i.imms[0]);
  size_t vmcnt = (imm & 0xF) | ((imm >> 14) & 3) << 4;
  size_t lgkmcnt = (imm >> 8) & 0xF;
  retire(sim, w, w.vm, vmcnt);
  retire(sim, w, w.lgkm, lgkmcnt);
}

//===-- The table ---------------------------------------------------------===//

Semantics buildTable() {
  Semantics t;
  t.undecodable = undecodable;
  t.unknown = unknown;
  t.unsupportedOperand = unsupportedOperand;
  auto &h = t.handlers;
  // SALU, program flow and scalar memory: registerScalar (Scalar.cpp).
  h["S_WAITCNT"] = sWaitcnt;
  // VALU: registerVector (Vector.cpp).
  registerScalar(t);
  registerVector(t);
  registerConvert(t);
  registerMemory(t);
  registerMatrix(t);
  return t;
}

} // namespace

Handler Semantics::lookup(const std::string &base) const {
  auto it = handlers.find(base);
  if (it != handlers.end())
    return it->second;
  return nullptr;
}

std::string Semantics::prepare(const std::string &base, Inst &inst) const {
  for (unsigned k = 0; k < inst.numSrcs; ++k)
    if ((inst.srcs[k].mods & kApertureOperand) && base != "S_MOV_B64")
      return "src_shared_base outside s_mov_b64 (a 32-bit read) is not "
             "simulated";
  auto own = preparers.find(base);
  if (own != preparers.end())
    return own->second(base, inst);
  inst.memory = base.rfind("DS_", 0) == 0 || base.rfind("BUFFER_", 0) == 0 ||
                base.rfind("S_LOAD_", 0) == 0 ||
                base.rfind("GLOBAL_", 0) == 0 || base.rfind("SCRATCH_", 0) == 0;
  return "";
}

const Semantics &hk::rt::isa::semanticsTable() {
  static const Semantics table = buildTable();
  return table;
}

//===-- Bit-level definitions ---------------------------------------------===//

/// v_perm_b32: byte k of D is chosen by selector byte k from the 8 bytes of
/// {S0, S1} (S1 the low dword): 0-7 a byte, 8-11 the sign of bytes 1, 3, 5,
/// 7 replicated, 12 gives 0x00 and 13-255 give 0xFF.
uint32_t hk::rt::isa::permB32(uint32_t s0, uint32_t s1, uint32_t selector) {
  uint64_t in = uint64_t(s0) << 32 | s1;
  uint32_t d = 0;
  for (unsigned k = 0; k < 4; ++k) {
    uint32_t sel = (selector >> (8 * k)) & 0xFF, byte;
    if (sel < 8)
      byte = (in >> (8 * sel)) & 0xFF;
    else if (sel < 12)
      byte = (in >> (16 * (sel - 8) + 15)) & 1 ? 0xFF : 0x00;
    else if (sel == 12)
      byte = 0x00;
    else
      byte = 0xFF;
    d |= byte << (8 * k);
  }
  return d;
}

/// Round to nearest even; a NaN stays a (quiet) NaN.
uint16_t hk::rt::isa::f32ToBF16(float f) { return fmt::encodeBF16(f); }

/// v_bitop3_b32 (CDNA4): bit j of D is bit {S0[j], S1[j], S2[j]} (S0 the
/// most significant) of the truth table.
uint32_t hk::rt::isa::bitop3(uint32_t a, uint32_t b, uint32_t c,
                             uint8_t table) {
  uint32_t d = 0;
  for (unsigned k = 0; k < 8; ++k) {
    if (!((table >> k) & 1))
      continue;
    uint32_t ma = (k & 4) ? a : ~a, mb = (k & 2) ? b : ~b,
             mc = (k & 1) ? c : ~c;
    d |= ma & mb & mc;
  }
  return d;
}
