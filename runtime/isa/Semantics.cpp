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


#include <cmath>

using namespace hk::rt;
using namespace hk::rt::isa;

namespace {

//===-- Special handlers --------------------------------------------------===//

void undecodable(Sim &sim, Wave &, const Inst &) {
  sim.fail("LLVM's disassembler cannot decode the word here");
}

void unknown(Sim &sim, Wave &, const Inst &i) {
  sim.fail("instruction " + i.name + " is not simulated");
}

void unsupportedOperand(Sim &sim, Wave &, const Inst &i) { sim.fail(i.fault); }

void requireNoOutputModifiers(Sim &sim, const Inst &i, unsigned first) {
  for (unsigned k = first; k < i.numImms; ++k)
    if (i.imms[k] != 0)
      sim.fail("clamp/omod/op_sel operand " + std::to_string(i.imms[k]) +
               " is not simulated");
}

//===-- Waits -------------------------------------------------------------===//

// The SALU, program flow and scalar memory are in Scalar.cpp; s_waitcnt
// stays here with the retirement of the counters' queues.

/// Retires the oldest entries of `queue` until at most `keep` remain.
void retire(Sim &sim, Wave &w, std::deque<Pending> &queue, size_t keep) {
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
      std::string conflict = ldsConflict(sim, w.id, d, true);
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

void sWaitcnt(Sim &sim, Wave &w, const Inst &i) {
  // gfx9 SIMM16: vmcnt [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8].
  uint32_t imm = uint32_t(i.imms[0]);
  size_t vmcnt = (imm & 0xF) | ((imm >> 14) & 3) << 4;
  size_t lgkmcnt = (imm >> 8) & 0xF;
  retire(sim, w, w.vm, vmcnt);
  retire(sim, w, w.lgkm, lgkmcnt);
}

//===-- VALU --------------------------------------------------------------===//

#define VOP_32(NAME, EXPR)                                                     \
  void NAME(Sim &sim, Wave &w, const Inst &i) {                                \
    requireNoOutputModifiers(sim, i, 0);                                       \
    forLanes(w, [&](unsigned l) {                                              \
      uint32_t a = rd(w, i.srcs[0], l);                                        \
      uint32_t b = i.numSrcs > 1 ? rd(w, i.srcs[1], l) : 0;                    \
      uint32_t c = i.numSrcs > 2 ? rd(w, i.srcs[2], l) : 0;                    \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      wr(w, i.defs[0], l, (EXPR));                                             \
    });                                                                        \
  }
VOP_32(vMovB32, a)
VOP_32(vAddU32, a + b)
VOP_32(vSubU32, a - b)
VOP_32(vSubrevU32, b - a)
VOP_32(vAndB32, a &b)
VOP_32(vOrB32, a | b)
VOP_32(vXorB32, a ^ b)
VOP_32(vLshlrevB32, b << (a & 31))
VOP_32(vLshrrevB32, b >> (a & 31))
VOP_32(vAshrrevI32, uint32_t(int32_t(b) >> (a & 31)))
VOP_32(vMulLoU32, a *b)
VOP_32(vMulHiU32, uint32_t((uint64_t(a) * b) >> 32))
VOP_32(vAdd3U32, a + b + c)
VOP_32(vLshlAddU32, (a << (b & 31)) + c)
VOP_32(vLshlOrB32, (a << (b & 31)) | c)
VOP_32(vAndOrB32, (a & b) | c)
VOP_32(vAddLshlU32, (a + b) << (c & 31))
VOP_32(vBfeU32, (c & 31) == 0 ? 0 : (a >> (b & 31)) & ((1u << (c & 31)) - 1))
VOP_32(vPermB32, hk::rt::isa::permB32(a, b, c))
VOP_32(vBfiB32, (a & b) | (~a & c))
VOP_32(vOr3B32, a | b | c)
// v_alignbit_b32: D = ({S0, S1} >> S2[4:0])[31:0] (S0 the high dword).
// v_mad_u32_u24: D = S0[23:0] * S1[23:0] + S2 (low 32 bits).
VOP_32(vMadU32U24, (a & 0xFFFFFF) * (b & 0xFFFFFF) + c)
VOP_32(vMulU32U24, (a & 0xFFFFFF) * (b & 0xFFFFFF))
// v_xad_u32: D = (S0 ^ S1) + S2.
VOP_32(vXadU32, (a ^ b) + c)
VOP_32(vAlignbitB32, uint32_t((uint64_t(a) << 32 | b) >> (c & 31)))
// 16-bit shifts: on GFX9 (CDNA3, CDNA4) they zero bits 31:16 of the
// destination (LLVM's GCNSubtarget::zeroesHigh16BitsOfDest, which records the
// hardware's behaviour); the shift amount is bits 3:0 of src0.
VOP_32(vLshlrevB16, uint32_t(uint16_t(b << (a & 15))))
VOP_32(vLshrrevB16, uint32_t(uint16_t(b) >> (a & 15)))
VOP_32(vAccvgprMov, a)

void vBitop3B32(Sim &, Wave &w, const Inst &i) {
  uint8_t table = uint8_t(i.imms[0]);
  forLanes(w, [&](unsigned l) {
    wr(w, i.defs[0], l,
       bitop3(rd(w, i.srcs[0], l), rd(w, i.srcs[1], l), rd(w, i.srcs[2], l),
              table));
  });
}

/// v_bitop3_b16 (gfx950): bits 15:0 of D from the truth table as for
/// v_bitop3_b32; imms = {table, op_sel}, and only op_sel 0 (low halves in,
/// low half out) is simulated. Bits 31:16 of D are kept: LLVM relies on
/// neither their zeroing nor their keeping after this instruction
/// (GCNSubtarget::zeroesHigh16BitsOfDest does not list it), so code it
/// compiles reads only the low half.
void vBitop3B16(Sim &sim, Wave &w, const Inst &i) {
  if (i.numImms > 1 && i.imms[1] != 0)
    sim.fail("v_bitop3_b16 with op_sel " + std::to_string(i.imms[1]) +
             " is not simulated");
  uint8_t table = uint8_t(i.imms[0]);
  forLanes(w, [&](unsigned l) {
    uint32_t low = bitop3(rd(w, i.srcs[0], l), rd(w, i.srcs[1], l),
                          rd(w, i.srcs[2], l), table) &
                   0xFFFF;
    uint32_t old = rd(w, i.defs[0], l);
    wr(w, i.defs[0], l, (old & 0xFFFF0000u) | low);
  });
}

/// The operand an SDWA source select (SDWA_SEL) picks from `x`: byte 0-3
/// (0-3), word 0-1 (4-5) or the dword (6), zero- or, with `sext`,
/// sign-extended to 32 bits (CDNA3 ISA, "SDWA").
uint32_t sdwaSelect(uint32_t x, int64_t sel, bool sext) {
  unsigned offset = sel <= 3   ? 8 * unsigned(sel)
                    : sel <= 5 ? 16 * unsigned(sel - 4)
                               : 0;
  unsigned width = sel <= 3 ? 8 : sel <= 5 ? 16 : 32;
  if (width == 32)
    return x;
  uint32_t v = (x >> offset) & ((1u << width) - 1);
  if (sext && (v >> (width - 1)) & 1)
    v |= ~((1u << width) - 1);
  return v;
}

/// A VOP2 instruction in SDWA form: S0 and S1 selected by src0_sel and
/// src1_sel (their SEXT modifier sign-extends), D = op(lane, S0, S1)
/// written to the part dst_sel names, the rest of D zero (dst_unused
/// UNUSED_PAD) or kept (UNUSED_PRESERVE). imms = {clamp, dst_sel,
/// dst_unused, src0_sel, src1_sel}.
template <typename Op>
void vop2Sdwa(Sim &sim, Wave &w, const Inst &i, const char *name, Op op) {
  if (i.numImms != 5 || i.imms[0] != 0)
    sim.fail(std::string(name) +
             " with clamp or an unexpected operand list is not simulated");
  int64_t dstSel = i.imms[1], dstUnused = i.imms[2];
  if (dstSel < 0 || dstSel > 6 || i.imms[3] < 0 || i.imms[3] > 6 ||
      i.imms[4] < 0 || i.imms[4] > 6 || (dstUnused != 0 && dstUnused != 2))
    sim.fail("SDWA select or dst_unused " + std::to_string(dstUnused) +
             " is not simulated");
  const uint32_t kSext = 8; // SISrcMods::SEXT
  unsigned offset = dstSel <= 3   ? 8 * unsigned(dstSel)
                    : dstSel <= 5 ? 16 * unsigned(dstSel - 4)
                                  : 0;
  unsigned width = dstSel <= 3 ? 8 : dstSel <= 5 ? 16 : 32;
  uint32_t field = width == 32 ? ~0u : ((1u << width) - 1) << offset;
  forLanes(w, [&](unsigned l) {
    uint32_t a =
        sdwaSelect(rd(w, i.srcs[0], l), i.imms[3], i.srcs[0].mods & kSext);
    uint32_t b =
        sdwaSelect(rd(w, i.srcs[1], l), i.imms[4], i.srcs[1].mods & kSext);
    uint32_t placed = (op(l, a, b) << offset) & field;
    uint32_t rest = dstUnused == 2 ? rd(w, i.defs[0], l) & ~field : 0;
    wr(w, i.defs[0], l, placed | rest);
  });
}

/// v_or_b32_sdwa: D = S0 | S1.
void vOrB32Sdwa(Sim &sim, Wave &w, const Inst &i) {
  vop2Sdwa(sim, w, i, "v_or_b32_sdwa",
           [](unsigned, uint32_t a, uint32_t b) { return a | b; });
}

/// v_cndmask_b32_sdwa: D = VCC[lane] ? S1 : S0 (VCC implicit in this form).
void vCndmaskB32Sdwa(Sim &sim, Wave &w, const Inst &i) {
  uint64_t vcc = w.vcc();
  vop2Sdwa(sim, w, i, "v_cndmask_b32_sdwa",
           [vcc](unsigned l, uint32_t a, uint32_t b) {
             return (vcc >> l & 1) ? b : a;
           });
}

/// v_mbcnt_lo/hi_u32_b32: D = popcount(S0 & mask) + S1, the mask the
/// lanes below this one, bits 31:0 of it (lo) or bits 63:32 (hi); with
/// S0 = -1 the pair counts the lane's index.
template <bool High> void vMbcnt(Sim &sim, Wave &w, const Inst &i) {
  requireNoOutputModifiers(sim, i, 0);
  forLanes(w, [&](unsigned l) {
    uint64_t below = (uint64_t(1) << l) - 1;
    uint32_t mask = High ? uint32_t(below >> 32) : uint32_t(below);
    uint32_t count = uint32_t(__builtin_popcount(rd(w, i.srcs[0], l) & mask));
    wr(w, i.defs[0], l, count + rd(w, i.srcs[1], l));
  });
}

void vMovB64(Sim &, Wave &w, const Inst &i) {
  forLanes(w,
           [&](unsigned l) { wr64(w, i.defs[0], l, rd64(w, i.srcs[0], l)); });
}
void vLshlrevB64(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    wr64(w, i.defs[0], l, rd64(w, i.srcs[1], l) << (rd(w, i.srcs[0], l) & 63));
  });
}
void vLshrrevB64(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    wr64(w, i.defs[0], l, rd64(w, i.srcs[1], l) >> (rd(w, i.srcs[0], l) & 63));
  });
}
/// v_lshl_add_u64: D = (S0 << S1[2:0]) + S2 (CDNA3 ISA; shifts 0-4 valid).
void vLshlAddU64(Sim &sim, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    uint32_t shift = rd(w, i.srcs[1], l);
    if (shift > 4)
      sim.fail("v_lshl_add_u64 with shift " + std::to_string(shift) +
               " (the ISA defines 0 to 4)");
    wr64(w, i.defs[0], l,
         (rd64(w, i.srcs[0], l) << shift) + rd64(w, i.srcs[2], l));
  });
}
/// v_mad_u64_u32: {carry, D} = S0.u32 * S1.u32 + S2.u64.
void vMadU64U32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOutputModifiers(sim, i, 0);
  uint64_t carry = 0;
  forLanes(w, [&](unsigned l) {
    unsigned __int128 r = (unsigned __int128)(uint64_t(rd(w, i.srcs[0], l)) *
                                              rd(w, i.srcs[1], l)) +
                          rd64(w, i.srcs[2], l);
    wr64(w, i.defs[0], l, uint64_t(r));
    if (r >> 64)
      carry |= uint64_t(1) << l;
  });
  swr64(w, i.defs[1], carry);
}

/// The carry-out mask goes to defs[1] (VOP3b) or VCC (VOP2).
inline void writeCarry(Wave &w, const Inst &i, uint64_t m) {
  if (i.numDefs > 1)
    swr64(w, i.defs[1], m);
  else
    w.setVcc(m);
}
/// The carry-in mask comes from srcs[2] (VOP3b) or VCC (VOP2).
inline uint64_t carryIn(const Wave &w, const Inst &i) {
  return i.numSrcs > 2 ? mask(w, i.srcs[2]) : w.vcc();
}

#define VOP_CARRY(NAME, RESULT, CARRY, USES_CIN)                               \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    uint64_t cin = USES_CIN ? carryIn(w, i) : 0, out = 0;                      \
    forLanes(w, [&](unsigned l) {                                              \
      uint64_t a = rd(w, i.srcs[0], l), b = rd(w, i.srcs[1], l);               \
      uint64_t c = (cin >> l) & 1;                                             \
      (void)c;                                                                 \
      wr(w, i.defs[0], l, uint32_t(RESULT));                                   \
      if (CARRY)                                                               \
        out |= uint64_t(1) << l;                                               \
    });                                                                        \
    writeCarry(w, i, out);                                                     \
  }
VOP_CARRY(vAddCoU32, a + b, a + b > 0xFFFFFFFFu, false)
VOP_CARRY(vAddcCoU32, a + b + c, a + b + c > 0xFFFFFFFFu, true)
VOP_CARRY(vSubCoU32, a - b, b > a, false)
VOP_CARRY(vSubrevCoU32, b - a, a > b, false)
VOP_CARRY(vSubbCoU32, a - b - c, b + c > a, true)
VOP_CARRY(vSubbrevCoU32, b - a - c, a + c > b, true)

void vCndmaskB32(Sim &sim, Wave &w, const Inst &i) {
  if (i.srcs[0].mods || i.srcs[1].mods)
    sim.fail("v_cndmask_b32 with input modifiers is not simulated");
  uint64_t m = i.numSrcs > 2 ? mask(w, i.srcs[2]) : w.vcc();
  forLanes(w, [&](unsigned l) {
    wr(w, i.defs[0], l,
       (m >> l) & 1 ? rd(w, i.srcs[1], l) : rd(w, i.srcs[0], l));
  });
}

void vReadfirstlaneB32(Sim &, Wave &w, const Inst &i) {
  uint64_t e = w.exec();
  unsigned l = e ? unsigned(__builtin_ctzll(e)) : 0;
  swr(w, i.defs[0], rd(w, i.srcs[0], l));
}
void vReadlaneB32(Sim &, Wave &w, const Inst &i) {
  swr(w, i.defs[0], rd(w, i.srcs[0], srd(w, i.srcs[1]) & 63));
}
void vWritelaneB32(Sim &, Wave &w, const Inst &i) {
  wr(w, i.defs[0], srd(w, i.srcs[1]) & 63, srd(w, i.srcs[0]));
}

//===-- Compares ----------------------------------------------------------===//

template <typename F> void compare(Wave &w, const Inst &i, F cond) {
  uint64_t m = 0;
  forLanes(w, [&](unsigned l) {
    if (cond(l))
      m |= uint64_t(1) << l;
  });
  if (i.numDefs)
    swr64(w, i.defs[0], m);
  else
    w.setVcc(m);
}

#define VCMP(NAME, READ, T, OP)                                                \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    compare(w, i, [&](unsigned l) {                                            \
      return T(READ(w, i.srcs[0], l)) OP T(READ(w, i.srcs[1], l));             \
    });                                                                        \
  }
#define VCMP_ALL(SUFFIX, READ, T)                                              \
  VCMP(vCmpEq##SUFFIX, READ, T, ==)                                            \
  VCMP(vCmpNe##SUFFIX, READ, T, !=)                                            \
  VCMP(vCmpLt##SUFFIX, READ, T, <)                                             \
  VCMP(vCmpLe##SUFFIX, READ, T, <=)                                            \
  VCMP(vCmpGt##SUFFIX, READ, T, >)                                             \
  VCMP(vCmpGe##SUFFIX, READ, T, >=)
VCMP_ALL(U32, rd, uint32_t)
VCMP_ALL(I32, rd, int32_t)

/// 32-bit integer compares in SDWA form (VOPC): S0 and S1 selected by
/// src0_sel and src1_sel (sdwaSelect; SEXT sign-extends), then compared;
/// the mask goes to VCC or the SGPR pair named. imms end with {src0_sel,
/// src1_sel}, after a clamp that must be 0 when present.
template <typename T, typename Op>
void vCmpSdwa(Sim &sim, Wave &w, const Inst &i, Op op) {
  const uint32_t kSext = 8; // SISrcMods::SEXT
  if (i.numImms < 2 || i.numImms > 3 || (i.numImms == 3 && i.imms[0] != 0))
    sim.fail("an SDWA compare with clamp or an unexpected operand list is "
             "not simulated");
  int64_t sel0 = i.imms[i.numImms - 2], sel1 = i.imms[i.numImms - 1];
  if (sel0 < 0 || sel0 > 6 || sel1 < 0 || sel1 > 6)
    sim.fail("SDWA select is not simulated");
  compare(w, i, [&](unsigned l) {
    return op(T(sdwaSelect(rd(w, i.srcs[0], l), sel0, i.srcs[0].mods & kSext)),
              T(sdwaSelect(rd(w, i.srcs[1], l), sel1, i.srcs[1].mods & kSext)));
  });
}
#define VCMP_SDWA(NAME, T, OP)                                                 \
  void NAME(Sim &sim, Wave &w, const Inst &i) {                                \
    vCmpSdwa<T>(sim, w, i, [](T a, T b) { return a OP b; });                   \
  }
#define VCMP_SDWA_ALL(SUFFIX, T)                                               \
  VCMP_SDWA(vCmpEq##SUFFIX##Sdwa, T, ==)                                       \
  VCMP_SDWA(vCmpNe##SUFFIX##Sdwa, T, !=)                                       \
  VCMP_SDWA(vCmpLt##SUFFIX##Sdwa, T, <)                                        \
  VCMP_SDWA(vCmpLe##SUFFIX##Sdwa, T, <=)                                       \
  VCMP_SDWA(vCmpGt##SUFFIX##Sdwa, T, >)                                        \
  VCMP_SDWA(vCmpGe##SUFFIX##Sdwa, T, >=)
VCMP_SDWA_ALL(U32, uint32_t)
VCMP_SDWA_ALL(I32, int32_t)
#undef VCMP_SDWA_ALL
#undef VCMP_SDWA
VCMP_ALL(U64, rd64, uint64_t)
VCMP_ALL(I64, rd64, int64_t)
// Ordered float compares are false when either side is NaN, as C's are.
VCMP(vCmpEqF32, rdf, float, ==)
VCMP(vCmpLtF32, rdf, float, <)
VCMP(vCmpLeF32, rdf, float, <=)
VCMP(vCmpGtF32, rdf, float, >)
VCMP(vCmpGeF32, rdf, float, >=)
void vCmpLgF32(Sim &, Wave &w, const Inst &i) {
  compare(w, i, [&](unsigned l) {
    float a = rdf(w, i.srcs[0], l), b = rdf(w, i.srcs[1], l);
    return a < b || a > b;
  });
}
void vCmpUF32(Sim &, Wave &w, const Inst &i) {
  compare(w, i, [&](unsigned l) {
    return std::isnan(rdf(w, i.srcs[0], l)) || std::isnan(rdf(w, i.srcs[1], l));
  });
}
void vCmpOF32(Sim &, Wave &w, const Inst &i) {
  compare(w, i, [&](unsigned l) {
    return !std::isnan(rdf(w, i.srcs[0], l)) &&
           !std::isnan(rdf(w, i.srcs[1], l));
  });
}
void vCmpNeqF32(Sim &, Wave &w, const Inst &i) {
  compare(w, i, [&](unsigned l) {
    return !(rdf(w, i.srcs[0], l) == rdf(w, i.srcs[1], l));
  });
}

//===-- Floating point ----------------------------------------------------===//

/// Whether a float VOP instruction has the clamp output modifier set. In
/// the VOP3 (_e64) forms its first immediate operand is clamp and the
/// second omod (LLVM's operand order); omod, or anything else set, is not
/// simulated. The printed form says clamp too, which is checked, so that an
/// opcode with another first immediate is refused rather than misread.
bool outputClamp(Sim &sim, const Inst &i) {
  requireNoOutputModifiers(sim, i, 1);
  if (i.numImms == 0 || i.imms[0] == 0)
    return false;
  if (i.text.find(" clamp") == std::string::npos)
    sim.fail("immediate operand " + std::to_string(i.imms[0]) +
             " is not simulated");
  return true;
}

/// The clamp output modifier: the result limited to [0, 1]; a NaN becomes
/// 0 when the kernel descriptor enables DX10_CLAMP (COMPUTE_PGM_RSRC1 bit
/// 21, which LLVM sets on gfx9) and stays NaN otherwise.
float clampUnit(const Sim &sim, float x) {
  if (std::isnan(x))
    return (sim.kd.rsrc1 >> 21 & 1) ? 0.0f : x;
  return std::fmin(std::fmax(x, 0.0f), 1.0f);
}

#define VOP_F32(NAME, EXPR)                                                    \
  void NAME(Sim &sim, Wave &w, const Inst &i) {                                \
    bool clamp = outputClamp(sim, i);                                          \
    forLanes(w, [&](unsigned l) {                                              \
      float a = rdf(w, i.srcs[0], l);                                          \
      float b = i.numSrcs > 1 ? rdf(w, i.srcs[1], l) : 0.0f;                   \
      float c = i.numSrcs > 2 ? rdf(w, i.srcs[2], l) : 0.0f;                   \
      (void)b;                                                                 \
      (void)c;                                                                 \
      float r = (EXPR);                                                        \
      wr(w, i.defs[0], l, asBits(clamp ? clampUnit(sim, r) : r));              \
    });                                                                        \
  }
VOP_F32(vMulF32, a *b)
VOP_F32(vAddF32, a + b)
VOP_F32(vSubF32, a - b)
VOP_F32(vSubrevF32, b - a)
VOP_F32(vFmaF32, std::fma(a, b, c))
VOP_F32(vMaxF32, std::fmax(a, b))
VOP_F32(vMinF32, std::fmin(a, b))
VOP_F32(vMax3F32, std::fmax(std::fmax(a, b), c))
VOP_F32(vMin3F32, std::fmin(std::fmin(a, b), c))
VOP_F32(vTruncF32, std::trunc(a))
VOP_F32(vFloorF32, std::floor(a))
// The hardware's reciprocal is accurate to 1 ULP; this is the correctly
// rounded one, which lies within that bound.
VOP_F32(vRcpF32, 1.0f / a)
// v_exp_f32, v_log_f32 and v_sqrt_f32 are accurate to 1 ULP on the
// hardware; these are the correctly rounded values, within that bound.
VOP_F32(vExpF32, std::exp2(a))
VOP_F32(vLogF32, std::log2(a))
VOP_F32(vSqrtF32, std::sqrt(a))
// v_ldexp_f32: D = S0 * 2^S1, S1 a signed integer (its bits, b read as
// float here, reinterpreted); exact unless the result leaves f32's range.
VOP_F32(vLdexpF32, std::ldexp(a, int32_t(asBits(b))))

/// v_cmp_class_f32: whether S0 is in one of the classes of the mask S1:
/// bit 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0,
/// 6 +0, 7 +denormal, 8 +normal, 9 +inf.
unsigned floatClass(float f) {
  uint32_t b = asBits(f);
  bool neg = b >> 31;
  switch (std::fpclassify(f)) {
  case FP_NAN:
    return (b >> 22) & 1 ? 1 : 0;
  case FP_INFINITE:
    return neg ? 2 : 9;
  case FP_NORMAL:
    return neg ? 3 : 8;
  case FP_SUBNORMAL:
    return neg ? 4 : 7;
  default:
    return neg ? 5 : 6;
  }
}
void vCmpClassF32(Sim &, Wave &w, const Inst &i) {
  compare(w, i, [&](unsigned l) {
    return (rd(w, i.srcs[1], l) >> floatClass(rdf(w, i.srcs[0], l))) & 1;
  });
}

int exponentField(float f) { return int((asBits(f) >> 23) & 0xFF); }

/// v_div_scale_f32 D, VCC, S0, S1 (denominator), S2 (numerator): the first
/// step of IEEE division. Scales both operands together by 2^64 when the
/// numerator is tiny or the denominator denormal, by 2^-64 when the
/// denominator's reciprocal would be denormal. The cases that scale only one
/// of them and set VCC for v_div_fmas_f32 (quotients near the range's ends)
/// are faults: not simulated.
void vDivScaleF32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOutputModifiers(sim, i, 0);
  forLanes(w, [&](unsigned l) {
    float s0 = rdf(w, i.srcs[0], l), s1 = rdf(w, i.srcs[1], l),
          s2 = rdf(w, i.srcs[2], l);
    float d = s0;
    if (std::isnan(s1) || std::isnan(s2) || std::isinf(s1) || std::isinf(s2)) {
      d = s0;
    } else if (s2 == 0.0f || s1 == 0.0f) {
      d = NAN;
    } else if (exponentField(s2) - exponentField(s1) >= 96 ||
               (std::fpclassify(s1) != FP_SUBNORMAL &&
                std::fpclassify(s2 / s1) == FP_SUBNORMAL)) {
      sim.fail("v_div_scale_f32 of a quotient near the end of the f32 range "
               "(one-sided scaling through VCC) is not simulated");
    } else if (std::fpclassify(s1) == FP_SUBNORMAL) {
      d = std::ldexp(s0, 64);
    } else if (std::fpclassify(1.0f / s1) == FP_SUBNORMAL) {
      d = std::ldexp(s0, -64);
    } else if (exponentField(s2) <= 23) {
      d = std::ldexp(s0, 64);
    }
    wr(w, i.defs[0], l, asBits(d));
  });
  swr64(w, i.defs[1], 0);
}
/// v_div_fmas_f32: fma(S0, S1, S2), scaled back when VCC says a
/// v_div_scale_f32 scaled one side only (never, as simulated).
void vDivFmasF32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOutputModifiers(sim, i, 0);
  if (w.vcc() & w.exec())
    sim.fail("v_div_fmas_f32 with VCC set (one-sided division scaling) is "
             "not simulated");
  forLanes(w, [&](unsigned l) {
    wr(w, i.defs[0], l,
       asBits(std::fma(rdf(w, i.srcs[0], l), rdf(w, i.srcs[1], l),
                       rdf(w, i.srcs[2], l))));
  });
}
/// v_div_fixup_f32 D, S0 (quotient), S1 (denominator), S2 (numerator): the
/// special cases of IEEE division (NaN, infinities, zeros) give their IEEE
/// results; otherwise |S0| with the sign of S2 / S1.
void vDivFixupF32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOutputModifiers(sim, i, 0);
  forLanes(w, [&](unsigned l) {
    float s0 = rdf(w, i.srcs[0], l), s1 = rdf(w, i.srcs[1], l),
          s2 = rdf(w, i.srcs[2], l);
    float d;
    if (std::isnan(s1) || std::isnan(s2) || std::isinf(s1) || std::isinf(s2) ||
        s1 == 0.0f || s2 == 0.0f)
      d = s2 / s1;
    else
      d = std::copysign(std::fabs(s0),
                        std::signbit(s1) != std::signbit(s2) ? -1.0f : 1.0f);
    wr(w, i.defs[0], l, asBits(d));
  });
}

/// v_fmac_f32: D = S0 * S1 + D.
void vFmacF32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOutputModifiers(sim, i, 0);
  forLanes(w, [&](unsigned l) {
    float d = asFloat(rd(w, i.defs[0], l));
    wr(w, i.defs[0], l,
       asBits(std::fma(rdf(w, i.srcs[0], l), rdf(w, i.srcs[1], l), d)));
  });
}
/// v_fmamk_f32: D = S0 * K + S1, K the literal.
void vFmamkF32(Sim &, Wave &w, const Inst &i) {
  float k = asFloat(uint32_t(i.imms[0]));
  forLanes(w, [&](unsigned l) {
    wr(w, i.defs[0], l,
       asBits(std::fma(rdf(w, i.srcs[0], l), k, rdf(w, i.srcs[1], l))));
  });
}
/// v_fmaak_f32: D = S0 * S1 + K.
void vFmaakF32(Sim &, Wave &w, const Inst &i) {
  float k = asFloat(uint32_t(i.imms[0]));
  forLanes(w, [&](unsigned l) {
    wr(w, i.defs[0], l,
       asBits(std::fma(rdf(w, i.srcs[0], l), rdf(w, i.srcs[1], l), k)));
  });
}

//===-- Cross-lane --------------------------------------------------------===//

/// v_permlane16_swap_b32 / v_permlane32_swap_b32 (CDNA4): for each pair of
/// rows (16 lanes) or halves (32 lanes), the odd row of VDST swaps with the
/// even row of VSRC. defs = {vdst, vsrc}, srcs = {vdst, vsrc} (tied).
template <unsigned Width> void permlaneSwap(Sim &sim, Wave &w, const Inst &i) {
  if (w.exec() != ~uint64_t(0))
    sim.fail("permlane swap with lanes off in EXEC is not simulated");
  const Operand &d = i.defs[0], &s = i.defs[1];
  for (unsigned l = 0; l < kLanes; ++l) {
    if ((l / Width) % 2 == 0)
      continue;
    unsigned partner = l - Width;
    uint32_t &a = w.v[d.reg * kLanes + l];
    uint32_t &b = w.v[s.reg * kLanes + partner];
    std::swap(a, b);
  }
}
void vPermlane16Swap(Sim &sim, Wave &w, const Inst &i) {
  permlaneSwap<16>(sim, w, i);
}
void vPermlane32Swap(Sim &sim, Wave &w, const Inst &i) {
  permlaneSwap<32>(sim, w, i);
}

/// The lane a DPP16 control (dpp_ctrl, as encoded) reads for lane `lane`,
/// or -1 if it reads outside its row or the wave; for controls not
/// simulated, -2. From the DPP section of AMD's CDNA3/CDNA4 ISA guides:
/// quad_perm 0x00-0xff, row_shl 0x101-0x10f, row_shr 0x111-0x11f, row_ror
/// 0x121-0x12f, wave_shl 0x130, wave_rol 0x134, wave_shr 0x138, wave_ror
/// 0x13c, row_mirror 0x140, row_half_mirror 0x141, row_bcast15 0x142,
/// row_bcast31 0x143.
int dppSourceLane(uint32_t ctrl, unsigned lane) {
  int row = int(lane & ~15u), inRow = int(lane & 15);
  if (ctrl <= 0xff)
    return int(lane & ~3u) + int((ctrl >> (2 * (lane & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10f) {
    int src = inRow + int(ctrl & 15);
    return src < 16 ? row + src : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) {
    int src = inRow - int(ctrl & 15);
    return src >= 0 ? row + src : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f)
    return row + ((inRow - int(ctrl & 15)) & 15);
  switch (ctrl) {
  case 0x130:
    return lane + 1 < kLanes ? int(lane) + 1 : -1;
  case 0x134:
    return int((lane + 1) % kLanes);
  case 0x138:
    return lane > 0 ? int(lane) - 1 : -1;
  case 0x13c:
    return int((lane + kLanes - 1) % kLanes);
  case 0x140:
    return row + 15 - inRow;
  case 0x141:
    return int(lane & ~7u) + 7 - int(lane & 7);
  case 0x142:
    // Lane 15 of each row feeds the next row; row 0 reads nothing.
    return row == 0 ? -1 : row - 1;
  case 0x143:
    return lane < 32 ? -1 : 31;
  default:
    return -2;
  }
}

/// v_mov_b32 with a DPP16 source: operands {vdst} {old (tied to vdst), src0}
/// {dpp_ctrl, row_mask, bank_mask, bound_ctrl}. A lane is written only if
/// it is in EXEC and its row and bank are enabled; one whose source lane is
/// outside the row or wave, or off in EXEC, gets 0 if bound_ctrl is set and
/// keeps its old value otherwise.
void vMovB32Dpp(Sim &sim, Wave &w, const Inst &i) {
  if (i.numSrcs != 2 || i.numImms != 4)
    sim.fail("DPP operands not as expected");
  uint32_t ctrl = uint32_t(i.imms[0]), rowMask = uint32_t(i.imms[1]),
           bankMask = uint32_t(i.imms[2]);
  bool boundZero = i.imms[3] != 0;
  if (i.srcs[1].mods != 0)
    sim.fail("DPP source modifiers are not simulated");
  uint32_t src[kLanes];
  for (unsigned l = 0; l < kLanes; ++l)
    src[l] = rd(w, i.srcs[1], l);
  uint64_t exec = w.exec();
  forLanes(w, [&](unsigned l) {
    if (!(rowMask >> (l / 16) & 1) || !(bankMask >> ((l & 15) / 4) & 1))
      return;
    int from = dppSourceLane(ctrl, l);
    if (from == -2)
      sim.fail("DPP control " + std::to_string(ctrl) + " is not simulated");
    bool valid = from >= 0 && (exec >> from & 1);
    if (valid)
      wr(w, i.defs[0], l, src[from]);
    else if (boundZero)
      wr(w, i.defs[0], l, 0);
    else
      wr(w, i.defs[0], l, rd(w, i.srcs[0], l));
  });
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
  // VALU, in their VOP1/VOP2/VOPC (e32) and VOP3 (e64) encodings.
  auto both = [&](const std::string &n, Handler f) {
    h[n + "_e32"] = f;
    h[n + "_e64"] = f;
  };
  both("V_MOV_B32", vMovB32);
  both("V_MOV_B64", vMovB64);
  both("V_ADD_U32", vAddU32);
  both("V_SUB_U32", vSubU32);
  both("V_SUBREV_U32", vSubrevU32);
  both("V_AND_B32", vAndB32);
  both("V_OR_B32", vOrB32);
  both("V_XOR_B32", vXorB32);
  both("V_LSHLREV_B32", vLshlrevB32);
  both("V_LSHRREV_B32", vLshrrevB32);
  both("V_ASHRREV_I32", vAshrrevI32);
  both("V_ADD_CO_U32", vAddCoU32);
  both("V_ADDC_CO_U32", vAddcCoU32);
  both("V_SUB_CO_U32", vSubCoU32);
  both("V_SUBREV_CO_U32", vSubrevCoU32);
  both("V_SUBB_CO_U32", vSubbCoU32);
  both("V_SUBBREV_CO_U32", vSubbrevCoU32);
  both("V_CNDMASK_B32", vCndmaskB32);
  both("V_MUL_F32", vMulF32);
  both("V_ADD_F32", vAddF32);
  both("V_SUB_F32", vSubF32);
  both("V_SUBREV_F32", vSubrevF32);
  both("V_MAX_F32", vMaxF32);
  both("V_MIN_F32", vMinF32);
  both("V_TRUNC_F32", vTruncF32);
  both("V_FLOOR_F32", vFloorF32);
  both("V_RCP_F32", vRcpF32);
  both("V_RCP_IFLAG_F32", vRcpF32);
  both("V_FMAC_F32", vFmacF32);
  h["V_FMAMK_F32"] = vFmamkF32;
  h["V_FMAAK_F32"] = vFmaakF32;
  h["V_FMA_F32"] = vFmaF32;
  h["V_MAX3_F32"] = vMax3F32;
  h["V_MIN3_F32"] = vMin3F32;
  h["V_MUL_LO_U32"] = vMulLoU32;
  h["V_MUL_HI_U32"] = vMulHiU32;
  h["V_ADD3_U32"] = vAdd3U32;
  h["V_LSHL_ADD_U32"] = vLshlAddU32;
  h["V_LSHL_OR_B32"] = vLshlOrB32;
  h["V_AND_OR_B32"] = vAndOrB32;
  h["V_ADD_LSHL_U32"] = vAddLshlU32;
  h["V_BFE_U32"] = vBfeU32;
  h["V_PERM_B32"] = vPermB32;
  h["V_BFI_B32"] = vBfiB32;
  h["V_OR3_B32"] = vOr3B32;
  // The _opsel form (gfx950) with op_sel all 0 is the same instruction;
  // VOP_32 faults on a nonzero op_sel operand.
  h["V_XAD_U32"] = vXadU32;
  h["V_MAD_U32_U24"] = vMadU32U24;
  both("V_MUL_U32_U24", vMulU32U24);
  h["V_MBCNT_LO_U32_B32_e64"] = vMbcnt<false>;
  h["V_MBCNT_HI_U32_B32_e64"] = vMbcnt<true>;
  both("V_LDEXP_F32", vLdexpF32);
  h["V_ALIGNBIT_B32"] = vAlignbitB32;
  h["V_ALIGNBIT_B32_opsel"] = vAlignbitB32;
  both("V_LSHLREV_B16", vLshlrevB16);
  both("V_LSHRREV_B16", vLshrrevB16);
  h["V_MOV_B32_dpp"] = vMovB32Dpp;
  h["V_BITOP3_B32"] = vBitop3B32;
  h["V_BITOP3_B16"] = vBitop3B16;
  h["V_OR_B32_sdwa"] = vOrB32Sdwa;
  h["V_CNDMASK_B32_sdwa"] = vCndmaskB32Sdwa;
  h["V_LSHLREV_B64"] = vLshlrevB64;
  h["V_LSHRREV_B64"] = vLshrrevB64;
  h["V_LSHL_ADD_U64"] = vLshlAddU64;
  h["V_MAD_U64_U32"] = vMadU64U32;
  h["V_READFIRSTLANE_B32"] = vReadfirstlaneB32;
  h["V_READLANE_B32"] = vReadlaneB32;
  h["V_WRITELANE_B32"] = vWritelaneB32;
  h["V_ACCVGPR_READ_B32"] = vAccvgprMov;
  h["V_ACCVGPR_WRITE_B32"] = vAccvgprMov;
  h["V_ACCVGPR_MOV_B32"] = vAccvgprMov;
  h["V_PERMLANE16_SWAP_B32_e32"] = vPermlane16Swap;
  h["V_PERMLANE32_SWAP_B32_e32"] = vPermlane32Swap;
  // The VOP3 forms add bound_ctrl and fi, which only decide what a lane
  // reads from a lane that is off; permlaneSwap requires every lane on.
  h["V_PERMLANE16_SWAP_B32_e64"] = vPermlane16Swap;
  h["V_PERMLANE32_SWAP_B32_e64"] = vPermlane32Swap;
#define CMPS(SUFFIX)                                                           \
  both("V_CMP_EQ_" #SUFFIX, vCmpEq##SUFFIX);                                   \
  both("V_CMP_NE_" #SUFFIX, vCmpNe##SUFFIX);                                   \
  both("V_CMP_LT_" #SUFFIX, vCmpLt##SUFFIX);                                   \
  both("V_CMP_LE_" #SUFFIX, vCmpLe##SUFFIX);                                   \
  both("V_CMP_GT_" #SUFFIX, vCmpGt##SUFFIX);                                   \
  both("V_CMP_GE_" #SUFFIX, vCmpGe##SUFFIX);
  CMPS(U32)
  CMPS(I32)
  CMPS(U64)
  CMPS(I64)
#undef CMPS
#define CMPS_SDWA(SUFFIX)                                                      \
  h["V_CMP_EQ_" #SUFFIX "_sdwa"] = vCmpEq##SUFFIX##Sdwa;                       \
  h["V_CMP_NE_" #SUFFIX "_sdwa"] = vCmpNe##SUFFIX##Sdwa;                       \
  h["V_CMP_LT_" #SUFFIX "_sdwa"] = vCmpLt##SUFFIX##Sdwa;                       \
  h["V_CMP_LE_" #SUFFIX "_sdwa"] = vCmpLe##SUFFIX##Sdwa;                       \
  h["V_CMP_GT_" #SUFFIX "_sdwa"] = vCmpGt##SUFFIX##Sdwa;                       \
  h["V_CMP_GE_" #SUFFIX "_sdwa"] = vCmpGe##SUFFIX##Sdwa;
  CMPS_SDWA(U32)
  CMPS_SDWA(I32)
#undef CMPS_SDWA
  both("V_CMP_EQ_F32", vCmpEqF32);
  both("V_CMP_LT_F32", vCmpLtF32);
  both("V_CMP_LE_F32", vCmpLeF32);
  both("V_CMP_GT_F32", vCmpGtF32);
  both("V_CMP_GE_F32", vCmpGeF32);
  both("V_CMP_LG_F32", vCmpLgF32);
  both("V_CMP_U_F32", vCmpUF32);
  both("V_CMP_O_F32", vCmpOF32);
  both("V_CMP_NEQ_F32", vCmpNeqF32);
  both("V_EXP_F32", vExpF32);
  both("V_LOG_F32", vLogF32);
  both("V_SQRT_F32", vSqrtF32);
  both("V_CMP_CLASS_F32", vCmpClassF32);
  h["V_DIV_SCALE_F32"] = vDivScaleF32;
  h["V_DIV_FMAS_F32"] = vDivFmasF32;
  h["V_DIV_FIXUP_F32"] = vDivFixupF32;
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
uint16_t hk::rt::isa::f32ToBF16(float f) {
  uint32_t w = asBits(f);
  if ((w & 0x7FFFFFFF) > 0x7F800000)
    return uint16_t((w >> 16) | 0x40);
  return uint16_t((w + 0x7FFF + ((w >> 16) & 1)) >> 16);
}

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
