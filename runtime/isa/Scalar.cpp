//===- Scalar.cpp - SALU, program flow, scalar memory, VGPR indexing ------===//
//
// Semantics of SALU (SOP1, SOP2, SOPC, SOPK, SOPP) and scalar memory (SMEM),
// written from AMD's CDNA3 and CDNA4 ISA reference guides ("Scalar ALU
// Operations", "Scalar Memory Operations", the opcode descriptions); LLVM's
// MC layer gives the operand order. Also the VGPR indexing mode
// (s_set_gpr_idx_*), applied to VALU instructions by Run.cpp through
// gprIndexed().
//
// Operands as LLVM 22 decodes them: SOP1/SOP2/SOPC defs = {sdst}, srcs =
// {ssrc0, ssrc1}; SOPK defs = {sdst} (s_movk, s_cmovk, s_getreg, s_addk,
// s_mulk, s_call), srcs = {sdst as read} (s_cmpk, s_addk, s_mulk, s_setreg),
// imms = {simm16}; SOPP imms = {simm16}; s_movreld lists its SDST as a
// source. SMEM: see prepareSmem().
//===----------------------------------------------------------------------===//

#include "Operands.h"

#include "hk/Base/Chip.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <type_traits>
#include <vector>

using namespace hk::rt;
using namespace hk::rt::isa;

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

uint32_t simm16(const Inst &i, unsigned k = 0) {
  return uint32_t(int32_t(int16_t(i.imms[k])));
}

/// An unsigned or bitwise 64-bit source (an SGPR pair, an inline constant
/// or a zero-extended literal). The second operand of the 64-bit shifts,
/// bfe, bitcmp and bitset is 32 bits and read with srd().
uint64_t src64(const Wave &w, const Operand &o) { return srd64(w, o); }
/// A signed 64-bit source: a 32-bit literal is sign-extended (CDNA3/CDNA4
/// guides, "Literal Expansion to 64 bits"). LLVM decodes the literal of a
/// 64-bit operand zero-extended, which is right for the unsigned and
/// bitwise operations only.
uint64_t signedSrc64(const Wave &w, const Operand &o) {
  if (o.file == File::Imm && o.imm >= 0x80000000ll && o.imm <= 0xFFFFFFFFll)
    return uint64_t(int64_t(int32_t(uint32_t(o.imm))));
  return srd64(w, o);
}

//===-- SOP2 --------------------------------------------------------------===//

/// AMD: for the logic ops SCC = (D != 0).
template <typename F> void logic32(Wave &w, const Inst &i, F f) {
  uint32_t d = f(srd(w, i.srcs[0]), srd(w, i.srcs[1]));
  w.scc = d != 0;
  swr(w, i.defs[0], d);
}
template <typename F> void logic64(Wave &w, const Inst &i, F f) {
  uint64_t d = f(src64(w, i.srcs[0]), src64(w, i.srcs[1]));
  w.scc = d != 0;
  swr64(w, i.defs[0], d);
}
/// 64-bit ops whose second operand is 32 bits (shift amount, bfe field);
/// `Signed` for those whose first operand is signed.
template <bool Signed = false, typename F>
void logic64By32(Wave &w, const Inst &i, F f) {
  uint64_t a = Signed ? signedSrc64(w, i.srcs[0]) : src64(w, i.srcs[0]);
  uint64_t d = f(a, srd(w, i.srcs[1]));
  w.scc = d != 0;
  swr64(w, i.defs[0], d);
}

#define LOGIC32(NAME, EXPR)                                                    \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    logic32(w, i, [](uint32_t a, uint32_t b) -> uint32_t { return EXPR; });    \
  }
#define LOGIC64(NAME, EXPR)                                                    \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    logic64(w, i, [](uint64_t a, uint64_t b) -> uint64_t { return EXPR; });    \
  }
#define BY32(NAME, EXPR)                                                       \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    logic64By32(w, i,                                                          \
                [](uint64_t a, uint32_t b) -> uint64_t { return EXPR; });      \
  }
#define BY32_SIGNED(NAME, EXPR)                                                \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    logic64By32<true>(                                                         \
        w, i, [](uint64_t a, uint32_t b) -> uint64_t { return EXPR; });        \
  }

LOGIC32(sAndB32, a &b)
LOGIC32(sOrB32, a | b)
LOGIC32(sXorB32, a ^ b)
LOGIC32(sAndn2B32, a & ~b)
LOGIC32(sOrn2B32, a | ~b)
LOGIC32(sNandB32, ~(a &b))
LOGIC32(sNorB32, ~(a | b))
LOGIC32(sXnorB32, ~(a ^ b))
LOGIC32(sLshlB32, a << (b & 31))
LOGIC32(sLshrB32, a >> (b & 31))
LOGIC32(sAshrI32, uint32_t(int32_t(a) >> (b & 31)))
LOGIC64(sAndB64, a &b)
LOGIC64(sOrB64, a | b)
LOGIC64(sXorB64, a ^ b)
LOGIC64(sAndn2B64, a & ~b)
LOGIC64(sOrn2B64, a | ~b)
LOGIC64(sNandB64, ~(a &b))
LOGIC64(sNorB64, ~(a | b))
LOGIC64(sXnorB64, ~(a ^ b))
BY32(sLshlB64, a << (b & 63))
BY32(sLshrB64, a >> (b & 63))
BY32_SIGNED(sAshrI64, uint64_t(int64_t(a) >> (b & 63)))

/// s_bfe: the field of S0 at offset S1[4:0] (S1[5:0] for 64 bits) and
/// width S1[22:16]; the _i forms shift S0 arithmetically (S0.i >> offset)
/// and sign-extend the field from its top bit. Width 0 gives 0.
template <typename U, typename S, bool Signed> U bfe(U a, uint32_t b) {
  constexpr unsigned bits = 8 * sizeof(U);
  unsigned offset = b & (bits - 1), width = (b >> 16) & 0x7F;
  if (width == 0)
    return 0;
  U shifted = Signed ? U(S(a) >> offset) : U(a >> offset);
  if (width >= bits)
    return shifted;
  U field = shifted & ((U(1) << width) - 1);
  if (Signed && (field >> (width - 1) & 1))
    field |= ~U(0) << width;
  return field;
}
LOGIC32(sBfeU32, (bfe<uint32_t, int32_t, false>(a, b)))
LOGIC32(sBfeI32, (bfe<uint32_t, int32_t, true>(a, b)))
BY32(sBfeU64, (bfe<uint64_t, int64_t, false>(a, b)))
BY32_SIGNED(sBfeI64, (bfe<uint64_t, int64_t, true>(a, b)))

/// Arithmetic: SCC is the carry (unsigned) or the overflow (signed).
void sAddU32(Sim &, Wave &w, const Inst &i) {
  uint64_t s = uint64_t(srd(w, i.srcs[0])) + srd(w, i.srcs[1]);
  w.scc = s >> 32;
  swr(w, i.defs[0], uint32_t(s));
}
void sAddcU32(Sim &, Wave &w, const Inst &i) {
  uint64_t s = uint64_t(srd(w, i.srcs[0])) + srd(w, i.srcs[1]) + w.scc;
  w.scc = s >> 32;
  swr(w, i.defs[0], uint32_t(s));
}
void sSubU32(Sim &, Wave &w, const Inst &i) {
  uint32_t a = srd(w, i.srcs[0]), b = srd(w, i.srcs[1]);
  w.scc = b > a;
  swr(w, i.defs[0], a - b);
}
void sSubbU32(Sim &, Wave &w, const Inst &i) {
  uint32_t a = srd(w, i.srcs[0]), b = srd(w, i.srcs[1]);
  uint32_t d = a - b - w.scc;
  w.scc = uint64_t(b) + w.scc > a;
  swr(w, i.defs[0], d);
}
/// Signed overflow of a + b (or a - b): the operands' signs agree (differ)
/// and the result's sign is not theirs.
bool addOverflows(uint32_t a, uint32_t b, uint32_t d) {
  return ((a ^ d) & (b ^ d)) >> 31;
}
void sAddI32(Sim &, Wave &w, const Inst &i) {
  uint32_t a = srd(w, i.srcs[0]), b = srd(w, i.srcs[1]), d = a + b;
  w.scc = addOverflows(a, b, d);
  swr(w, i.defs[0], d);
}
void sSubI32(Sim &, Wave &w, const Inst &i) {
  uint32_t a = srd(w, i.srcs[0]), b = srd(w, i.srcs[1]), d = a - b;
  w.scc = ((a ^ b) & (a ^ d)) >> 31;
  swr(w, i.defs[0], d);
}
/// s_mul_i32, s_mul_hi_*: SCC unchanged.
void sMulI32(Sim &, Wave &w, const Inst &i) {
  swr(w, i.defs[0], srd(w, i.srcs[0]) * srd(w, i.srcs[1]));
}
void sMulHiU32(Sim &, Wave &w, const Inst &i) {
  uint64_t p = uint64_t(srd(w, i.srcs[0])) * srd(w, i.srcs[1]);
  swr(w, i.defs[0], uint32_t(p >> 32));
}
void sMulHiI32(Sim &, Wave &w, const Inst &i) {
  int64_t p = int64_t(int32_t(srd(w, i.srcs[0]))) * int32_t(srd(w, i.srcs[1]));
  swr(w, i.defs[0], uint32_t(uint64_t(p) >> 32));
}
/// s_min/s_max: SCC = 1 when S0 is chosen (S0 < S1, S0 > S1).
template <typename T, bool Max> void sMinMax(Sim &, Wave &w, const Inst &i) {
  uint32_t a = srd(w, i.srcs[0]), b = srd(w, i.srcs[1]);
  bool first = Max ? T(a) > T(b) : T(a) < T(b);
  w.scc = first;
  swr(w, i.defs[0], first ? a : b);
}
/// s_absdiff_i32: D = |S0 - S1| (wrapping), SCC = (D != 0).
void sAbsdiffI32(Sim &, Wave &w, const Inst &i) {
  uint32_t d = srd(w, i.srcs[0]) - srd(w, i.srcs[1]);
  if (int32_t(d) < 0)
    d = 0u - d;
  w.scc = d != 0;
  swr(w, i.defs[0], d);
}
/// s_lshl<N>_add_u32: D = (S0 << N) + S1, SCC = the carry out of bit 31.
template <unsigned N> void sLshlAdd(Sim &, Wave &w, const Inst &i) {
  uint64_t s = (uint64_t(srd(w, i.srcs[0])) << N) + srd(w, i.srcs[1]);
  w.scc = s >> 32;
  swr(w, i.defs[0], uint32_t(s));
}
/// s_cselect: D = SCC ? S0 : S1.
void sCselectB32(Sim &, Wave &w, const Inst &i) {
  swr(w, i.defs[0], w.scc ? srd(w, i.srcs[0]) : srd(w, i.srcs[1]));
}
void sCselectB64(Sim &, Wave &w, const Inst &i) {
  swr64(w, i.defs[0], w.scc ? src64(w, i.srcs[0]) : src64(w, i.srcs[1]));
}
/// s_bfm: D = ((1 << S0[4:0]) - 1) << S1[4:0] ([5:0] for 64 bits).
void sBfmB32(Sim &, Wave &w, const Inst &i) {
  uint32_t width = srd(w, i.srcs[0]) & 31, offset = srd(w, i.srcs[1]) & 31;
  swr(w, i.defs[0], ((1u << width) - 1) << offset);
}
void sBfmB64(Sim &, Wave &w, const Inst &i) {
  uint32_t width = srd(w, i.srcs[0]) & 63, offset = srd(w, i.srcs[1]) & 63;
  swr64(w, i.defs[0], ((uint64_t(1) << width) - 1) << offset);
}
/// s_pack_{ll,lh,hh}_b32_b16: D = {S1 half, S0 half}, low (l) or high (h).
template <unsigned Shift0, unsigned Shift1>
void sPack(Sim &, Wave &w, const Inst &i) {
  uint32_t lo = (srd(w, i.srcs[0]) >> Shift0) & 0xFFFF;
  uint32_t hi = (srd(w, i.srcs[1]) >> Shift1) & 0xFFFF;
  swr(w, i.defs[0], lo | hi << 16);
}

//===-- SOP1 --------------------------------------------------------------===//

void sMovB32(Sim &, Wave &w, const Inst &i) {
  swr(w, i.defs[0], srd(w, i.srcs[0]));
}
void sMovB64(Sim &, Wave &w, const Inst &i) {
  swr64(w, i.defs[0], src64(w, i.srcs[0]));
}
/// s_cmov: D = S0 if SCC, else D unchanged.
void sCmovB32(Sim &, Wave &w, const Inst &i) {
  if (w.scc)
    swr(w, i.defs[0], srd(w, i.srcs[0]));
}
void sCmovB64(Sim &, Wave &w, const Inst &i) {
  if (w.scc)
    swr64(w, i.defs[0], src64(w, i.srcs[0]));
}
template <typename F> void unary32(Wave &w, const Inst &i, F f, bool scc) {
  uint32_t d = f(srd(w, i.srcs[0]));
  if (scc)
    w.scc = d != 0;
  swr(w, i.defs[0], d);
}
template <typename F> void unary64(Wave &w, const Inst &i, F f, bool scc) {
  uint64_t d = f(src64(w, i.srcs[0]));
  if (scc)
    w.scc = d != 0;
  swr64(w, i.defs[0], d);
}
/// A 64-bit source, a 32-bit result.
template <typename F> void count64(Wave &w, const Inst &i, F f, bool scc) {
  uint32_t d = f(src64(w, i.srcs[0]));
  if (scc)
    w.scc = d != 0;
  swr(w, i.defs[0], d);
}
#define UNARY(NAME, KIND, T, EXPR, SCC)                                        \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    KIND(w, i, [](T a) { return EXPR; }, SCC);                                 \
  }

/// s_wqm: each group of four bits becomes all ones if any is set.
template <typename U> U wholeQuads(U a) {
  U d = 0;
  for (unsigned q = 0; q < 8 * sizeof(U); q += 4)
    if ((a >> q) & 0xF)
      d |= U(0xF) << q;
  return d;
}
/// s_quadmask: bit q of D is set if any bit of group q of S0 is.
template <typename U> U quadMask(U a) {
  U d = 0;
  for (unsigned q = 0; q < 8 * sizeof(U) / 4; ++q)
    if ((a >> (4 * q)) & 0xF)
      d |= U(1) << q;
  return d;
}
/// s_bitreplicate_b64_b32: bits 2k and 2k+1 of D are bit k of S0.
uint64_t bitReplicate(uint32_t a) {
  uint64_t d = 0;
  for (unsigned k = 0; k < 32; ++k)
    if ((a >> k) & 1)
      d |= uint64_t(3) << (2 * k);
  return d;
}
/// s_ff1 (s_ff0 on ~S0): the index of the lowest set bit, -1 if none.
template <typename U> uint32_t findFirstOne(U a) {
  return a ? uint32_t(__builtin_ctzll(uint64_t(a))) : ~0u;
}
/// s_flbit_i32_b*: the number of zeros above the highest set bit, -1 if
/// S0 is 0.
template <typename U> uint32_t findLastBit(U a) {
  constexpr unsigned bits = 8 * sizeof(U);
  return a ? uint32_t(__builtin_clzll(uint64_t(a)) - (64 - bits)) : ~0u;
}
/// s_flbit_i32 / s_flbit_i32_i64: the number of bits below the sign bit
/// that equal it before the first that differs, i.e. findLastBit of S0 or
/// of ~S0 for a negative S0; -1 if every bit equals the sign bit.
template <typename U, typename S> uint32_t findLastSignBit(U a) {
  return findLastBit<U>(S(a) < 0 ? U(~a) : a);
}

UNARY(sNotB32, unary32, uint32_t, ~a, true)
UNARY(sNotB64, unary64, uint64_t, ~a, true)
UNARY(sWqmB32, unary32, uint32_t, wholeQuads(a), true)
UNARY(sWqmB64, unary64, uint64_t, wholeQuads(a), true)
UNARY(sQuadmaskB32, unary32, uint32_t, quadMask(a), true)
UNARY(sQuadmaskB64, unary64, uint64_t, quadMask(a), true)
UNARY(sBrevB32, unary32, uint32_t, __builtin_bitreverse32(a), false)
UNARY(sBrevB64, unary64, uint64_t, __builtin_bitreverse64(a), false)
UNARY(sBcnt0B32, unary32, uint32_t, uint32_t(__builtin_popcount(~a)), true)
UNARY(sBcnt1B32, unary32, uint32_t, uint32_t(__builtin_popcount(a)), true)
UNARY(sBcnt0B64, count64, uint64_t, uint32_t(__builtin_popcountll(~a)), true)
UNARY(sBcnt1B64, count64, uint64_t, uint32_t(__builtin_popcountll(a)), true)
UNARY(sFf0B32, unary32, uint32_t, findFirstOne<uint32_t>(~a), false)
UNARY(sFf1B32, unary32, uint32_t, findFirstOne<uint32_t>(a), false)
UNARY(sFf0B64, count64, uint64_t, findFirstOne<uint64_t>(~a), false)
UNARY(sFf1B64, count64, uint64_t, findFirstOne<uint64_t>(a), false)
UNARY(sFlbitB32, unary32, uint32_t, findLastBit<uint32_t>(a), false)
UNARY(sFlbitB64, count64, uint64_t, findLastBit<uint64_t>(a), false)
UNARY(sFlbitI32, unary32, uint32_t, (findLastSignBit<uint32_t, int32_t>(a)),
      false)
void sFlbitI64(Sim &, Wave &w, const Inst &i) {
  uint64_t a = signedSrc64(w, i.srcs[0]);
  swr(w, i.defs[0], findLastSignBit<uint64_t, int64_t>(a));
}
UNARY(sSextI8, unary32, uint32_t, uint32_t(int32_t(int8_t(a))), false)
UNARY(sSextI16, unary32, uint32_t, uint32_t(int32_t(int16_t(a))), false)
UNARY(sAbsI32, unary32, uint32_t, int32_t(a) < 0 ? 0u - a : a, true)

void sBitreplicate(Sim &, Wave &w, const Inst &i) {
  swr64(w, i.defs[0], bitReplicate(srd(w, i.srcs[0])));
}
/// s_bitset0/1: D[S0[4:0]] (D[S0[5:0]] for 64 bits) = 0 / 1; the rest of
/// D is kept (the destination is also read).
template <bool One> void sBitsetB32(Sim &, Wave &w, const Inst &i) {
  uint32_t d = srd(w, i.defs[0]), bit = 1u << (srd(w, i.srcs[0]) & 31);
  swr(w, i.defs[0], One ? d | bit : d & ~bit);
}
template <bool One> void sBitsetB64(Sim &, Wave &w, const Inst &i) {
  uint64_t d = srd64(w, i.defs[0]);
  uint64_t bit = uint64_t(1) << (srd(w, i.srcs[0]) & 63);
  swr64(w, i.defs[0], One ? d | bit : d & ~bit);
}

/// The saveexec and wrexec forms. saveexec: D = EXEC (before), EXEC =
/// op(S0, EXEC); wrexec: EXEC = op(S0, EXEC), D = EXEC (after). Both set
/// SCC = (EXEC != 0).
template <bool Wr, typename F> void execOp(Wave &w, const Inst &i, F f) {
  uint64_t s0 = src64(w, i.srcs[0]), e = w.exec();
  uint64_t n = f(s0, e);
  w.setExec(n);
  w.scc = n != 0;
  swr64(w, i.defs[0], Wr ? n : e);
}
#define EXECOP(NAME, WR, EXPR)                                                 \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    execOp<WR>(w, i, [](uint64_t s, uint64_t e) -> uint64_t { return EXPR; }); \
  }
EXECOP(sAndSaveexec, false, s &e)
EXECOP(sOrSaveexec, false, s | e)
EXECOP(sXorSaveexec, false, s ^ e)
EXECOP(sAndn2Saveexec, false, s & ~e)
EXECOP(sOrn2Saveexec, false, s | ~e)
EXECOP(sNandSaveexec, false, ~(s &e))
EXECOP(sNorSaveexec, false, ~(s | e))
EXECOP(sXnorSaveexec, false, ~(s ^ e))
EXECOP(sAndn1Saveexec, false, ~s &e)
EXECOP(sOrn1Saveexec, false, ~s | e)
EXECOP(sAndn1Wrexec, true, ~s &e)
EXECOP(sAndn2Wrexec, true, s & ~e)

/// s_movrels: D = SGPR[S0 + M0]; s_movreld: SGPR[D + M0] = S0. The
/// register reached must be one of s0..s101 (a tuple entirely), and M0
/// even for the 64-bit forms.
uint16_t relativeSgpr(Sim &sim, const Wave &w, const Operand &o) {
  uint64_t reg = uint64_t(o.reg) + w.s[kM0];
  if (o.width == 2 && (w.s[kM0] & 1))
    sim.fail("an odd M0 (" + std::to_string(w.s[kM0]) +
             ") for a 64-bit M0-relative move, which the guides forbid");
  if (o.file != File::S || o.reg + o.width > 102 || reg + o.width > 102)
    sim.fail("M0-relative SGPR s" + std::to_string(reg) +
             " outside s0..s101 is not simulated");
  return uint16_t(reg);
}
void sMovrels(Sim &sim, Wave &w, const Inst &i) {
  uint16_t from = relativeSgpr(sim, w, i.srcs[0]);
  for (unsigned k = 0; k < i.defs[0].width; ++k)
    swr(w, Operand{File::S, 1, uint16_t(i.defs[0].reg + k)}, w.s[from + k]);
}
/// LLVM lists s_movreld's SDST as a source (it names the base, not the
/// register written): srcs = {sdst, ssrc0}.
void sMovreld(Sim &sim, Wave &w, const Inst &i) {
  const Operand &base = i.numDefs ? i.defs[0] : i.srcs[0];
  const Operand &data = i.numDefs ? i.srcs[0] : i.srcs[1];
  uint16_t to = relativeSgpr(sim, w, base);
  for (unsigned k = 0; k < base.width; ++k)
    w.s[to + k] = rd(w, data, 0, k);
}

//===-- SOPC --------------------------------------------------------------===//

template <typename T, typename F> void compare(Wave &w, const Inst &i, F f) {
  w.scc = f(T(srd(w, i.srcs[0])), T(srd(w, i.srcs[1])));
}
#define SCMP(NAME, T, OP)                                                      \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    compare<T>(w, i, [](T a, T b) { return a OP b; });                         \
  }
SCMP(sCmpEqI32, int32_t, ==)
SCMP(sCmpLgI32, int32_t, !=)
SCMP(sCmpGtI32, int32_t, >)
SCMP(sCmpGeI32, int32_t, >=)
SCMP(sCmpLtI32, int32_t, <)
SCMP(sCmpLeI32, int32_t, <=)
SCMP(sCmpEqU32, uint32_t, ==)
SCMP(sCmpLgU32, uint32_t, !=)
SCMP(sCmpGtU32, uint32_t, >)
SCMP(sCmpGeU32, uint32_t, >=)
SCMP(sCmpLtU32, uint32_t, <)
SCMP(sCmpLeU32, uint32_t, <=)
void sCmpEqU64(Sim &, Wave &w, const Inst &i) {
  w.scc = src64(w, i.srcs[0]) == src64(w, i.srcs[1]);
}
void sCmpLgU64(Sim &, Wave &w, const Inst &i) {
  w.scc = src64(w, i.srcs[0]) != src64(w, i.srcs[1]);
}
/// s_bitcmp0/1: SCC = (S0[S1] == 0 / 1), S1[4:0] (S1[5:0] for 64 bits).
template <bool One> void sBitcmpB32(Sim &, Wave &w, const Inst &i) {
  bool bit = (srd(w, i.srcs[0]) >> (srd(w, i.srcs[1]) & 31)) & 1;
  w.scc = bit == One;
}
template <bool One> void sBitcmpB64(Sim &, Wave &w, const Inst &i) {
  bool bit = (src64(w, i.srcs[0]) >> (srd(w, i.srcs[1]) & 63)) & 1;
  w.scc = bit == One;
}
/// s_setvskip: VSKIP = S0[S1[4:0]]; while set, the hardware skips vector
/// instructions. Setting it is not simulated; clearing it (it starts
/// clear) changes nothing.
void sSetvskip(Sim &sim, Wave &w, const Inst &i) {
  if ((srd(w, i.srcs[0]) >> (srd(w, i.srcs[1]) & 31)) & 1)
    sim.fail("s_setvskip turning on vector skip mode is not simulated");
}

//===-- SOPK --------------------------------------------------------------===//

void sMovkI32(Sim &, Wave &w, const Inst &i) { swr(w, i.defs[0], simm16(i)); }
void sCmovkI32(Sim &, Wave &w, const Inst &i) {
  if (w.scc)
    swr(w, i.defs[0], simm16(i));
}
/// s_cmpk_*_i32 compare with the sign-extended SIMM16, _u32 with the
/// zero-extended one.
template <typename T, typename F> void compareK(Wave &w, const Inst &i, F f) {
  uint32_t k =
      std::is_signed<T>::value ? simm16(i) : uint32_t(i.imms[0]) & 0xFFFF;
  w.scc = f(T(srd(w, i.srcs[0])), T(k));
}
#define SCMPK(NAME, T, OP)                                                     \
  void NAME(Sim &, Wave &w, const Inst &i) {                                   \
    compareK<T>(w, i, [](T a, T b) { return a OP b; });                        \
  }
SCMPK(sCmpkEqI32, int32_t, ==)
SCMPK(sCmpkLgI32, int32_t, !=)
SCMPK(sCmpkGtI32, int32_t, >)
SCMPK(sCmpkGeI32, int32_t, >=)
SCMPK(sCmpkLtI32, int32_t, <)
SCMPK(sCmpkLeI32, int32_t, <=)
SCMPK(sCmpkEqU32, uint32_t, ==)
SCMPK(sCmpkLgU32, uint32_t, !=)
SCMPK(sCmpkGtU32, uint32_t, >)
SCMPK(sCmpkGeU32, uint32_t, >=)
SCMPK(sCmpkLtU32, uint32_t, <)
SCMPK(sCmpkLeU32, uint32_t, <=)
/// s_addk_i32: D = D + SIMM16 (sign-extended), SCC = signed overflow.
void sAddkI32(Sim &, Wave &w, const Inst &i) {
  uint32_t a = srd(w, i.defs[0]), b = simm16(i), d = a + b;
  w.scc = addOverflows(a, b, d);
  swr(w, i.defs[0], d);
}
/// s_mulk_i32: D = D * SIMM16 (sign-extended); SCC unchanged.
void sMulkI32(Sim &, Wave &w, const Inst &i) {
  swr(w, i.defs[0], srd(w, i.defs[0]) * simm16(i));
}

//===-- Hardware registers (s_getreg, s_setreg) ---------------------------===//

/// SIMM16 of s_getreg/s_setreg: register id [5:0], offset [10:6], size - 1
/// [15:11].
struct HwregField {
  unsigned id, offset, size;
  uint32_t mask() const {
    return uint32_t((uint64_t(1) << size) - 1) << offset;
  }
};
HwregField hwregField(int64_t imm) {
  return {unsigned(imm & 0x3F), unsigned(imm >> 6 & 0x1F),
          unsigned(imm >> 11 & 0x1F) + 1};
}

constexpr unsigned kHwMode = 1, kHwHwId = 4, kHwGprAlloc = 5, kHwLdsAlloc = 6,
                   kHwIbSts = 7, kHwXccId = 20;
/// MODE bits the simulator keeps: FP_ROUND [3:0], FP_DENORM [7:4],
/// DX10_CLAMP [8], IEEE [9], GPR_IDX_EN [27]. The others (exception
/// enables, VSKIP, the fork/join stack pointer, ...) must stay 0.
constexpr uint32_t kModeKept = 0x3FF | kModeGprIdxEn;

/// GPR_ALLOC (CDNA3/CDNA4 guides, "GPR_ALLOC"): VGPR_SIZE [11:6] in units
/// of 4 VGPRs minus one, ACCV_OFF [17:12] the first AGPR in units of 4,
/// SGPR_SIZE [27:24] in units of 16 SGPRs minus one, bases 0. The sizes are
/// those the kernel descriptor requests: COMPUTE_PGM_RSRC1 [5:0] counts
/// VGPRs and AGPRs in blocks of 8 (gfx90a and later), [9:6] is twice the
/// number of 16-SGPR blocks minus one on GFX9, COMPUTE_PGM_RSRC3 [5:0] is
/// the AGPR offset / 4 - 1 (AMDGPUUsage).
uint32_t gprAlloc(Sim &sim) {
  uint32_t vgprs = 8 * ((sim.kd.rsrc1 & 0x3F) + 1);
  if (vgprs / 4 - 1 > 0x3F)
    sim.fail("GPR_ALLOC of a wave with " + std::to_string(vgprs) +
             " VGPRs and AGPRs (more than its 6-bit VGPR_SIZE holds) is not "
             "simulated");
  uint32_t accvOff = (sim.kd.rsrc3 & 0x3F) + 1;
  uint32_t sgprSize = (sim.kd.rsrc1 >> 6 & 0xF) / 2;
  return (vgprs / 4 - 1) << 6 | accvOff << 12 | sgprSize << 24;
}
/// LDS_ALLOC: LDS_SIZE [20:12] ([21:12] on CDNA4) in units of 64 dwords,
/// the workgroup's LDS rounded up to the chip's allocation blocks (512 bytes
/// on CDNA3, 1280 on CDNA4, "LDS Allocation and Clamping"); base 0. The
/// field is as wide as the chip's whole LDS in those units needs.
uint32_t ldsAlloc(Sim &sim) {
  const hk::ChipInfo &chip = *hk::lookupChip(sim.code.chip);
  uint64_t block = uint64_t(chip.ldsAllocBytes);
  uint64_t bytes = (sim.lds.size() + block - 1) / block * block;
  uint32_t mask = uint32_t(llvm::PowerOf2Ceil(chip.ldsBytes / 256 + 1) - 1);
  return uint32_t(bytes / 256 & mask) << 12;
}
/// IB_STS: VM_CNT [3:0] with bits 5:4 in [23:22], LGKM_CNT [11:8];
/// EXP_CNT 0. A scalar fetch of two or more dwords counts 2 in LGKM_CNT,
/// anything else 1 ("Dependency Checking" of scalar memory).
uint32_t ibSts(const Wave &w) {
  uint32_t vm = uint32_t(std::min<size_t>(w.vm.size(), 63)), lgkm = 0;
  for (const Pending &p : w.lgkm)
    lgkm += p.sregs.size() >= 2 ? 2 : 1;
  lgkm = std::min(lgkm, 15u);
  return (vm & 0xF) | lgkm << 8 | (vm >> 4) << 22;
}

/// The value of a hardware register a compute kernel may read, as this
/// simulator's launch defines it (docs/isa-simulator.md).
uint32_t hwregValue(Sim &sim, const Wave &w, unsigned id) {
  switch (id) {
  case kHwMode:
    return w.mode;
  case kHwHwId:
    // WAVE_ID [3:0], SIMD_ID [5:4]: wave k of the workgroup is wave slot
    // k / 4 of SIMD k % 4 of one compute unit; CU, SH, SE, TG, VM, queue,
    // state and ME ids are 0.
    return (w.id / 4 & 0xF) | (w.id % 4) << 4;
  case kHwGprAlloc:
    return gprAlloc(sim);
  case kHwLdsAlloc:
    return ldsAlloc(sim);
  case kHwIbSts:
    return ibSts(w);
  case kHwXccId:
    return 0; // XCC_ID [3:0]: the one accelerator complex simulated
  }
  sim.fail("reading hardware register " + std::to_string(id) +
           " is not simulated");
}
void sGetregB32(Sim &sim, Wave &w, const Inst &i) {
  HwregField f = hwregField(i.imms[0]);
  uint32_t v = hwregValue(sim, w, f.id);
  swr(w, i.defs[0], (v & f.mask()) >> f.offset);
}
void setreg(Sim &sim, Wave &w, int64_t hwreg, uint32_t value) {
  HwregField f = hwregField(hwreg);
  if (f.id != kHwMode)
    sim.fail("writing hardware register " + std::to_string(f.id) +
             " is not simulated (only MODE is)");
  uint32_t mode = (w.mode & ~f.mask()) | ((value << f.offset) & f.mask());
  if (mode & ~kModeKept)
    sim.fail("MODE bits " + hex(mode & ~kModeKept) +
             " (exceptions, VSKIP or the fork/join stack) are not simulated");
  w.mode = mode;
}
/// s_setreg_b32: srcs = {S0}, imms = {hwreg}.
void sSetregB32(Sim &sim, Wave &w, const Inst &i) {
  setreg(sim, w, i.imms[0], srd(w, i.srcs[0]));
}
/// s_setreg_imm32_b32: imms = {imm32, hwreg}.
void sSetregImm32B32(Sim &sim, Wave &w, const Inst &i) {
  if (i.numSrcs == 1)
    setreg(sim, w, i.imms[0], srd(w, i.srcs[0]));
  else
    setreg(sim, w, i.imms[1], uint32_t(i.imms[0]));
}

//===-- Program flow ------------------------------------------------------===//

/// Continues at `target`, which must start an instruction of .text.
void goTo(Sim &sim, Wave &w, uint64_t target) {
  int32_t index = sim.code.indexOf(target);
  if (index < 0)
    sim.fail("branch to " + hex(target) + ", where no instruction starts");
  w.index = index;
}
/// SOPP branches: PC = PC + 4 + SIMM16 * 4.
uint64_t branchTarget(const Inst &i) {
  return i.pc + 4 + uint64_t(int64_t(int16_t(i.imms[0]))) * 4;
}
void sBranch(Sim &sim, Wave &w, const Inst &i) {
  goTo(sim, w, branchTarget(i));
}
#define CBRANCH(NAME, COND)                                                    \
  void NAME(Sim &sim, Wave &w, const Inst &i) {                                \
    if (COND)                                                                  \
      goTo(sim, w, branchTarget(i));                                           \
  }
CBRANCH(sCbranchScc0, !w.scc)
CBRANCH(sCbranchScc1, w.scc)
CBRANCH(sCbranchVccz, w.vcc() == 0)
CBRANCH(sCbranchVccnz, w.vcc() != 0)
CBRANCH(sCbranchExecz, w.exec() == 0)
CBRANCH(sCbranchExecnz, w.exec() != 0)
/// s_cbranch_cdbgsys/cdbguser and their and/or forms branch on the
/// conditional debug bits of STATUS, which only a debugger sets: with none
/// attached they are clear and the branch is never taken.
void sCbranchCdbg(Sim &, Wave &, const Inst &) {}

/// s_getpc_b64: D = the address of the next instruction.
void sGetpcB64(Sim &, Wave &w, const Inst &i) {
  swr64(w, i.defs[0], i.pc + i.size);
}
void sSetpcB64(Sim &sim, Wave &w, const Inst &i) {
  goTo(sim, w, src64(w, i.srcs[0]));
}
/// s_swappc_b64: D = the address of the next instruction, PC = S0.
void sSwappcB64(Sim &sim, Wave &w, const Inst &i) {
  uint64_t target = src64(w, i.srcs[0]);
  swr64(w, i.defs[0], i.pc + i.size);
  goTo(sim, w, target);
}
/// s_call_b64: D = the address of the next instruction, PC = PC + 4 +
/// SIMM16 * 4.
void sCallB64(Sim &sim, Wave &w, const Inst &i) {
  swr64(w, i.defs[0], i.pc + i.size);
  goTo(sim, w, i.pc + 4 + uint64_t(int64_t(int16_t(i.imms[0]))) * 4);
}

void sNop(Sim &, Wave &, const Inst &) {}
void sEndpgm(Sim &, Wave &w, const Inst &) { w.ended = true; }
void sBarrier(Sim &, Wave &w, const Inst &) { w.atBarrier = true; }
void sTrap(Sim &sim, Wave &, const Inst &i) {
  sim.fail("the kernel trapped (s_trap " + std::to_string(i.imms[0] & 0xFF) +
           ")");
}
/// s_sethalt: SIMM16[0] set halts the wave until the host resumes it.
void sSethalt(Sim &sim, Wave &, const Inst &i) {
  if (i.imms[0] & 1)
    sim.fail("the wave halted itself (s_sethalt 1)");
}
/// s_sendmsg/s_sendmsghalt: messages to the SPI (interrupts, GS, wave
/// save and halt requests, doorbell queries); a compute kernel compiled
/// by LLVM sends none, and none is simulated.
void sSendmsg(Sim &sim, Wave &, const Inst &i) {
  static const char *const names[16] = {"0",
                                        "MSG_INTERRUPT",
                                        "MSG_GS",
                                        "MSG_GS_DONE",
                                        "MSG_SAVEWAVE",
                                        "MSG_STALL_WAVE_GEN",
                                        "MSG_HALT_WAVES",
                                        "MSG_ORDERED_PS_DONE",
                                        "MSG_EARLY_PRIM_DEALLOC",
                                        "MSG_GS_ALLOC_REQ",
                                        "MSG_GET_DOORBELL",
                                        "MSG_GET_DDID",
                                        "12",
                                        "13",
                                        "14",
                                        "MSG_SYSMSG"};
  sim.fail("message " + std::string(names[i.imms[0] & 0xF]) +
           " is not simulated");
}

//===-- Waits -------------------------------------------------------------===//

/// The s_waitcnt of Semantics.cpp, which retires the counters' oldest
/// operations; set when the table is built (registerScalar).
Handler retireWaits = nullptr;

/// Which lgkmcnt operations a wait for at most `keep` outstanding
/// guarantees complete when scalar memory is among them. Scalar memory may
/// return out of order with the rest ("Dependency Checking": LGKM_CNT
/// counts a one-dword fetch 1, a longer one 2), LDS (and flat) operations
/// return in order: a scalar operation is surely complete only if its
/// count alone exceeds `keep`, another only if more than `keep` of its kind
/// were issued after it or with it.
std::vector<bool> surelyComplete(const std::deque<Pending> &queue,
                                 size_t keep) {
  std::vector<bool> done(queue.size());
  size_t inOrderAfter = 0;
  for (size_t k = queue.size(); k-- > 0;) {
    const Pending &p = queue[k];
    if (p.scalar) {
      done[k] = (p.sregs.size() >= 2 ? 2u : 1u) > keep;
    } else {
      done[k] = inOrderAfter >= keep;
      ++inOrderAfter;
    }
  }
  return done;
}

/// s_waitcnt with scalar memory outstanding and a nonzero lgkmcnt: only the
/// operations the wait surely covers complete; the others stay
/// outstanding (a read of their registers is then the missing-wait fault).
/// They are moved behind the completed ones, and the retirement of
/// Semantics.cpp keeps exactly them.
void sWaitcnt(Sim &sim, Wave &w, const Inst &i) {
  uint32_t imm = uint32_t(i.imms[0]), keep = (imm >> 8) & 0xF;
  bool scalar = false;
  for (const Pending &p : w.lgkm)
    scalar |= p.scalar;
  // lgkmcnt(15), the field's largest value, waits for nothing: the
  // counter never holds more.
  if (keep == 0 || keep == 15 || !scalar)
    return retireWaits(sim, w, i);
  std::vector<bool> done = surelyComplete(w.lgkm, keep);
  std::deque<Pending> first, last;
  for (size_t k = 0; k < w.lgkm.size(); ++k)
    (done[k] ? first : last).push_back(std::move(w.lgkm[k]));
  w.lgkm = std::move(first);
  for (Pending &p : last)
    w.lgkm.push_back(std::move(p));
  // The counter holds at most 15: beyond that the oldest go regardless.
  Inst wait = i;
  uint32_t left = uint32_t(std::min<size_t>(last.size(), 15));
  wait.imms[0] = (imm & ~0xF00u) | left << 8;
  retireWaits(sim, w, wait);
}

//===-- VGPR indexing (s_set_gpr_idx_*) ----------------------------------===//

/// s_set_gpr_idx_on: MODE.GPR_IDX_EN = 1, M0[7:0] = S0[7:0] (the index),
/// M0[15:12] = SIMM4 (which of src0, src1, src2, dst it offsets).
void sSetGprIdxOn(Sim &, Wave &w, const Inst &i) {
  uint32_t m0 = w.s[kM0] & ~0xF0FFu;
  w.s[kM0] = m0 | (srd(w, i.srcs[0]) & 0xFF) | uint32_t(i.imms[0] & 0xF) << 12;
  w.mode |= kModeGprIdxEn;
}
void sSetGprIdxOff(Sim &, Wave &w, const Inst &) { w.mode &= ~kModeGprIdxEn; }
/// s_set_gpr_idx_idx: M0[7:0] = S0[7:0].
void sSetGprIdxIdx(Sim &, Wave &w, const Inst &i) {
  w.s[kM0] = (w.s[kM0] & ~0xFFu) | (srd(w, i.srcs[0]) & 0xFF);
}
/// s_set_gpr_idx_mode: M0[15:12] = SIMM4.
void sSetGprIdxMode(Sim &, Wave &w, const Inst &i) {
  w.s[kM0] = (w.s[kM0] & ~0xF000u) | uint32_t(i.imms[0] & 0xF) << 12;
}

//===-- Scalar memory -----------------------------------------------------===//

/// Decode-time facts of an SMEM instruction (Inst::aux): aux[0] data
/// dwords, aux[1] the operand form (bit 0: an SGPR offset, bit 1: an
/// immediate offset), aux[2] the index of the base operand in srcs (1 when
/// the data is a source: stores and atomics), aux[3] the atomic operation.
enum SmemForm : uint32_t { kSgprOffset = 1, kImmOffset = 2 };
enum AtomicOp : uint32_t {
  kSwap = 1,
  kCmpswap,
  kAdd,
  kSub,
  kSmin,
  kUmin,
  kSmax,
  kUmax,
  kAnd,
  kOr,
  kXor,
  kInc,
  kDec
};

uint32_t atomicOpOf(const std::string &base) {
  static const char *const names[] = {"SWAP", "CMPSWAP", "ADD",  "SUB", "SMIN",
                                      "UMIN", "SMAX",    "UMAX", "AND", "OR",
                                      "XOR",  "INC",     "DEC"};
  size_t at = base.find("ATOMIC_") + 7;
  std::string op = base.substr(at, base.find('_', at) - at);
  for (uint32_t k = 0; k < 13; ++k)
    if (op == names[k])
      return k + 1;
  return 0;
}

std::string prepareSmem(const std::string &base, Inst &inst) {
  inst.memory = true;
  bool sgpr = base.find("_SGPR") != std::string::npos;
  bool imm = base.find("_IMM") != std::string::npos;
  inst.aux[1] = (sgpr ? kSgprOffset : 0) | (imm ? kImmOffset : 0);
  bool atomic = base.find("ATOMIC_") != std::string::npos;
  bool store = base.find("STORE_") != std::string::npos;
  inst.aux[2] = atomic || store ? 1 : 0;
  const Operand &data = inst.aux[2] ? inst.srcs[0] : inst.defs[0];
  inst.aux[0] = data.width;
  if (atomic) {
    inst.aux[3] = atomicOpOf(base);
    if (!inst.aux[3])
      return "scalar atomic " + base + " is not simulated";
    if (inst.aux[3] == kCmpswap)
      inst.aux[0] = data.width / 2; // {src, cmp}
  }
  if (inst.numSrcs < inst.aux[2] + 1 + (sgpr ? 1 : 0))
    return "scalar memory instruction without its address operands";
  return "";
}

/// s_memtime/s_memrealtime complete in order with the other SMEM
/// operations, like a load.
std::string prepareCounter(const std::string &, Inst &inst) {
  inst.memory = true;
  return "";
}

/// The byte offset of an SMEM access: the SGPR offset (unsigned 32 bits)
/// plus the immediate (21-bit signed on GFX9: a negative one subtracts).
int64_t smemOffset(const Wave &w, const Inst &i) {
  unsigned b = i.aux[2];
  int64_t offset = 0;
  if (i.aux[1] & kSgprOffset)
    offset += srd(w, i.srcs[b + 1]);
  if (i.aux[1] & kImmOffset)
    offset += i.imms[0];
  return offset;
}

/// Checks [address, address + bytes) against the device's memory without
/// wrapping around the top of the address space.
void checkSmem(Sim &sim, uint64_t address, uint64_t bytes, bool store) {
  if (address > UINT64_MAX - bytes)
    sim.fail(std::string(store ? "store to " : "load from ") + hex(address) +
             " wraps around the address space");
  sim.checkMemory(address, bytes, store);
}

/// Queues the loaded dwords of `dst` for the lgkmcnt wait that covers them.
void queueScalarLoad(Wave &w, const Inst &i, const Operand &dst,
                     const std::vector<uint32_t> &values) {
  Pending p;
  p.pc = i.pc;
  p.scalar = true;
  for (unsigned d = 0; d < values.size(); ++d) {
    uint16_t reg = uint16_t(dst.reg + d);
    if (dst.reg == kNull)
      break;
    p.writes.emplace_back(&w.s[reg], values[d]);
    p.sregs.push_back(reg);
    ++w.pendingS[reg];
    ++w.pendingRegs;
  }
  w.lgkm.push_back(std::move(p));
}
/// Counts an operation that returns nothing (a store, an atomic without
/// glc, a cache write-back) in lgkmcnt until a wait covers it.
void queueScalarDone(Wave &w, const Inst &i) {
  Pending p;
  p.pc = i.pc;
  p.scalar = true;
  w.lgkm.push_back(std::move(p));
}

/// s_load_dword*: dwords from SBASE + offset, the low two bits of the
/// address ignored.
void sLoad(Sim &sim, Wave &w, const Inst &i) {
  uint64_t address = src64(w, i.srcs[0]) + uint64_t(smemOffset(w, i));
  address &= ~uint64_t(3);
  unsigned dwords = i.aux[0];
  checkSmem(sim, address, 4ull * dwords, false);
  std::vector<uint32_t> values(dwords);
  memcpy(values.data(), reinterpret_cast<const void *>(address), 4 * dwords);
  queueScalarLoad(w, i, i.defs[0], values);
}
/// s_store_dword*: written at issue; counted in lgkmcnt.
void sStore(Sim &sim, Wave &w, const Inst &i) {
  uint64_t address = src64(w, i.srcs[1]) + uint64_t(smemOffset(w, i));
  address &= ~uint64_t(3);
  unsigned dwords = i.aux[0];
  checkSmem(sim, address, 4ull * dwords, true);
  for (unsigned d = 0; d < dwords; ++d) {
    uint32_t v = rd(w, i.srcs[0], 0, d);
    memcpy(reinterpret_cast<void *>(address + 4 * d), &v, 4);
  }
  queueScalarDone(w, i);
}

/// A buffer resource (V#) in 4 SGPRs: base [47:0], stride word1 [29:16],
/// num_records word2. Scalar memory computes no index * stride; the guides
/// ("Reads/Writes/Atomics using Buffer Constant") use the stride only for
/// bounds checking, in a way they leave unclear, so only raw buffers
/// (stride 0, or the L1 cache swizzle of word1 bit 30, which changes no
/// address) without ADD_TID are simulated; the bound is then num_records
/// bytes.
struct ScalarBuffer {
  uint64_t base;
  uint32_t numRecords;
};
ScalarBuffer scalarBuffer(Sim &sim, const Wave &w, const Operand &o) {
  uint32_t d1 = rd(w, o, 0, 1), d3 = rd(w, o, 0, 3);
  bool swizzled = d1 >> 30 & 1;
  if (!swizzled && (((d1 >> 16) & 0x3FFF) != 0 || (d1 >> 31)))
    sim.fail("scalar buffer access through a resource with a stride or "
             "swizzling (only raw buffers are simulated)");
  if (d3 >> 23 & 1)
    sim.fail("scalar buffer access with ADD_TID is not simulated");
  // The two low bits of the base are ignored (dword alignment).
  uint64_t base = (rd(w, o, 0, 0) | uint64_t(d1 & 0xFFFF) << 32) & ~3ull;
  return {base, rd(w, o, 0, 2)};
}

/// s_buffer_load/store: the offset (SGPR + immediate, 32 bits) into a raw
/// buffer, range checked per dword like the vector buffer loads: a dword
/// at or past num_records reads 0 and is not written.
template <bool Store> void sBufferAccess(Sim &sim, Wave &w, const Inst &i) {
  ScalarBuffer r = scalarBuffer(sim, w, i.srcs[i.aux[2]]);
  uint32_t offset = uint32_t(smemOffset(w, i)) & ~3u;
  unsigned dwords = i.aux[0];
  std::vector<uint32_t> values(dwords, 0);
  for (unsigned d = 0; d < dwords; ++d) {
    uint64_t at = uint64_t(offset) + 4 * d;
    if (at >= r.numRecords)
      continue;
    uint64_t address = r.base + at;
    checkSmem(sim, address, 4, Store);
    if (Store) {
      uint32_t v = rd(w, i.srcs[0], 0, d);
      memcpy(reinterpret_cast<void *>(address), &v, 4);
    } else {
      memcpy(&values[d], reinterpret_cast<const void *>(address), 4);
    }
  }
  if (Store)
    queueScalarDone(w, i);
  else
    queueScalarLoad(w, i, i.defs[0], values);
}
void sBufferLoad(Sim &sim, Wave &w, const Inst &i) {
  sBufferAccess<false>(sim, w, i);
}
void sBufferStore(Sim &sim, Wave &w, const Inst &i) {
  sBufferAccess<true>(sim, w, i);
}

/// The new memory value of a scalar atomic on 32 or 64 bits (`bits`).
uint64_t atomicResult(uint32_t op, uint64_t old, uint64_t data, uint64_t cmp,
                      unsigned bits) {
  uint64_t top = bits == 64 ? ~uint64_t(0) : 0xFFFFFFFFu;
  auto sx = [&](uint64_t v) {
    return bits == 64 ? int64_t(v) : int64_t(int32_t(uint32_t(v)));
  };
  switch (op) {
  case kSwap:
    return data;
  case kCmpswap:
    return old == cmp ? data : old;
  case kAdd:
    return (old + data) & top;
  case kSub:
    return (old - data) & top;
  case kSmin:
    return sx(data) < sx(old) ? data : old;
  case kUmin:
    return data < old ? data : old;
  case kSmax:
    return sx(data) > sx(old) ? data : old;
  case kUmax:
    return data > old ? data : old;
  case kAnd:
    return old & data;
  case kOr:
    return old | data;
  case kXor:
    return old ^ data;
  case kInc: // AMD: tmp >= DATA ? 0 : tmp + 1
    return old >= data ? 0 : old + 1;
  case kDec: // AMD: tmp == 0 || tmp > DATA ? DATA : tmp - 1
    return old == 0 || old > data ? data : old - 1;
  }
  return old;
}

/// s_atomic_* (SBASE + offset) and s_buffer_atomic_* (a raw buffer; out
/// of range: no access, a returned value of 0). Done at issue; with glc
/// (the _RTN forms) the value before the operation returns to the first
/// data dwords when lgkmcnt covers it. cmpswap data is {src, cmp}.
void sAtomic(Sim &sim, Wave &w, const Inst &i, bool buffer) {
  unsigned dwords = i.aux[0];
  uint64_t address;
  bool inRange = true;
  if (buffer) {
    ScalarBuffer r = scalarBuffer(sim, w, i.srcs[1]);
    uint64_t at = uint64_t(uint32_t(smemOffset(w, i)) & ~3u);
    inRange = at + 4 * dwords <= r.numRecords;
    address = r.base + at;
  } else {
    address = (src64(w, i.srcs[1]) + uint64_t(smemOffset(w, i))) & ~3ull;
  }
  uint64_t old = 0;
  if (inRange) {
    checkSmem(sim, address, 4ull * dwords, true);
    memcpy(&old, reinterpret_cast<const void *>(address), 4 * dwords);
    uint64_t data = dwords == 2 ? rd64(w, i.srcs[0], 0) : srd(w, i.srcs[0]);
    uint64_t cmp = 0;
    if (i.aux[3] == kCmpswap)
      cmp = dwords == 2 ? rd(w, i.srcs[0], 0, 2) |
                              uint64_t(rd(w, i.srcs[0], 0, 3)) << 32
                        : rd(w, i.srcs[0], 0, 1);
    uint64_t next = atomicResult(i.aux[3], old, data, cmp, 32 * dwords);
    memcpy(reinterpret_cast<void *>(address), &next, 4 * dwords);
  }
  if (i.numDefs == 0) {
    queueScalarDone(w, i);
    return;
  }
  std::vector<uint32_t> values{uint32_t(old)};
  if (dwords == 2)
    values.push_back(uint32_t(old >> 32));
  queueScalarLoad(w, i, i.defs[0], values);
}
void sAtomicGlobal(Sim &sim, Wave &w, const Inst &i) {
  sAtomic(sim, w, i, false);
}
void sAtomicBuffer(Sim &sim, Wave &w, const Inst &i) {
  sAtomic(sim, w, i, true);
}

/// s_memtime: a 64-bit shader clock, here the number of instructions the
/// wave has executed; s_memrealtime: the constant 100 MHz "REFCLK"
/// counter, here the host's monotonic clock in 10 ns ticks. Both return
/// through lgkmcnt, as the guide says.
void sMemtime(Sim &, Wave &w, const Inst &i) {
  queueScalarLoad(w, i, i.defs[0],
                  {uint32_t(w.executed), uint32_t(w.executed >> 32)});
}
void sMemrealtime(Sim &, Wave &w, const Inst &i) {
  auto now = std::chrono::steady_clock::now().time_since_epoch();
  uint64_t ticks = uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() / 10);
  queueScalarLoad(w, i, i.defs[0], {uint32_t(ticks), uint32_t(ticks >> 32)});
}
/// s_dcache_inv/wb (and _vol): the simulator has no scalar cache, so
/// nothing changes; each still counts in lgkmcnt until waited for.
void sDcache(Sim &, Wave &w, const Inst &i) { queueScalarDone(w, i); }

/// An opcode that exists for gfx942/gfx950 but that no simulated compute
/// kernel may reach; `why` in the fault.
template <const char *Why> void notSimulated(Sim &sim, Wave &, const Inst &i) {
  sim.fail(i.name + " (" + Why + ") is not simulated");
}
constexpr char kGraphics[] = "graphics only";
constexpr char kForkJoin[] = "fork/join and trap-handler return";
constexpr char kScalarScratch[] =
    "scalar access to the wave's scratch, whose layout the simulator's "
    "per-lane scratch does not model";
constexpr char kDiscard[] = "dropping dirty scalar cache lines";
constexpr char kAtc[] = "address translation cache probe";

//===-- Registration ------------------------------------------------------===//

void registerSop2(std::map<std::string, Handler> &h) {
  h["S_ADD_U32"] = sAddU32;
  h["S_SUB_U32"] = sSubU32;
  h["S_ADD_I32"] = sAddI32;
  h["S_SUB_I32"] = sSubI32;
  h["S_ADDC_U32"] = sAddcU32;
  h["S_SUBB_U32"] = sSubbU32;
  h["S_MIN_I32"] = sMinMax<int32_t, false>;
  h["S_MIN_U32"] = sMinMax<uint32_t, false>;
  h["S_MAX_I32"] = sMinMax<int32_t, true>;
  h["S_MAX_U32"] = sMinMax<uint32_t, true>;
  h["S_CSELECT_B32"] = sCselectB32;
  h["S_CSELECT_B64"] = sCselectB64;
  h["S_AND_B32"] = sAndB32;
  h["S_AND_B64"] = sAndB64;
  h["S_OR_B32"] = sOrB32;
  h["S_OR_B64"] = sOrB64;
  h["S_XOR_B32"] = sXorB32;
  h["S_XOR_B64"] = sXorB64;
  h["S_ANDN2_B32"] = sAndn2B32;
  h["S_ANDN2_B64"] = sAndn2B64;
  h["S_ORN2_B32"] = sOrn2B32;
  h["S_ORN2_B64"] = sOrn2B64;
  h["S_NAND_B32"] = sNandB32;
  h["S_NAND_B64"] = sNandB64;
  h["S_NOR_B32"] = sNorB32;
  h["S_NOR_B64"] = sNorB64;
  h["S_XNOR_B32"] = sXnorB32;
  h["S_XNOR_B64"] = sXnorB64;
  h["S_LSHL_B32"] = sLshlB32;
  h["S_LSHL_B64"] = sLshlB64;
  h["S_LSHR_B32"] = sLshrB32;
  h["S_LSHR_B64"] = sLshrB64;
  h["S_ASHR_I32"] = sAshrI32;
  h["S_ASHR_I64"] = sAshrI64;
  h["S_BFM_B32"] = sBfmB32;
  h["S_BFM_B64"] = sBfmB64;
  h["S_MUL_I32"] = sMulI32;
  h["S_BFE_U32"] = sBfeU32;
  h["S_BFE_I32"] = sBfeI32;
  h["S_BFE_U64"] = sBfeU64;
  h["S_BFE_I64"] = sBfeI64;
  h["S_ABSDIFF_I32"] = sAbsdiffI32;
  h["S_MUL_HI_U32"] = sMulHiU32;
  h["S_MUL_HI_I32"] = sMulHiI32;
  h["S_LSHL1_ADD_U32"] = sLshlAdd<1>;
  h["S_LSHL2_ADD_U32"] = sLshlAdd<2>;
  h["S_LSHL3_ADD_U32"] = sLshlAdd<3>;
  h["S_LSHL4_ADD_U32"] = sLshlAdd<4>;
  h["S_PACK_LL_B32_B16"] = sPack<0, 0>;
  h["S_PACK_LH_B32_B16"] = sPack<0, 16>;
  h["S_PACK_HH_B32_B16"] = sPack<16, 16>;
  h["S_CBRANCH_G_FORK"] = notSimulated<kForkJoin>;
  h["S_RFE_RESTORE_B64"] = notSimulated<kForkJoin>;
}

void registerSop1(std::map<std::string, Handler> &h) {
  h["S_MOV_B32"] = sMovB32;
  h["S_MOV_B64"] = sMovB64;
  h["S_CMOV_B32"] = sCmovB32;
  h["S_CMOV_B64"] = sCmovB64;
  h["S_NOT_B32"] = sNotB32;
  h["S_NOT_B64"] = sNotB64;
  h["S_WQM_B32"] = sWqmB32;
  h["S_WQM_B64"] = sWqmB64;
  h["S_BREV_B32"] = sBrevB32;
  h["S_BREV_B64"] = sBrevB64;
  h["S_BCNT0_I32_B32"] = sBcnt0B32;
  h["S_BCNT0_I32_B64"] = sBcnt0B64;
  h["S_BCNT1_I32_B32"] = sBcnt1B32;
  h["S_BCNT1_I32_B64"] = sBcnt1B64;
  h["S_FF0_I32_B32"] = sFf0B32;
  h["S_FF0_I32_B64"] = sFf0B64;
  h["S_FF1_I32_B32"] = sFf1B32;
  h["S_FF1_I32_B64"] = sFf1B64;
  h["S_FLBIT_I32_B32"] = sFlbitB32;
  h["S_FLBIT_I32_B64"] = sFlbitB64;
  h["S_FLBIT_I32"] = sFlbitI32;
  h["S_FLBIT_I32_I64"] = sFlbitI64;
  h["S_SEXT_I32_I8"] = sSextI8;
  h["S_SEXT_I32_I16"] = sSextI16;
  h["S_BITSET0_B32"] = sBitsetB32<false>;
  h["S_BITSET0_B64"] = sBitsetB64<false>;
  h["S_BITSET1_B32"] = sBitsetB32<true>;
  h["S_BITSET1_B64"] = sBitsetB64<true>;
  h["S_GETPC_B64"] = sGetpcB64;
  h["S_SETPC_B64"] = sSetpcB64;
  h["S_SWAPPC_B64"] = sSwappcB64;
  h["S_RFE_B64"] = notSimulated<kForkJoin>;
  h["S_CBRANCH_JOIN"] = notSimulated<kForkJoin>;
  h["S_AND_SAVEEXEC_B64"] = sAndSaveexec;
  h["S_OR_SAVEEXEC_B64"] = sOrSaveexec;
  h["S_XOR_SAVEEXEC_B64"] = sXorSaveexec;
  h["S_ANDN2_SAVEEXEC_B64"] = sAndn2Saveexec;
  h["S_ORN2_SAVEEXEC_B64"] = sOrn2Saveexec;
  h["S_NAND_SAVEEXEC_B64"] = sNandSaveexec;
  h["S_NOR_SAVEEXEC_B64"] = sNorSaveexec;
  h["S_XNOR_SAVEEXEC_B64"] = sXnorSaveexec;
  h["S_ANDN1_SAVEEXEC_B64"] = sAndn1Saveexec;
  h["S_ORN1_SAVEEXEC_B64"] = sOrn1Saveexec;
  h["S_ANDN1_WREXEC_B64"] = sAndn1Wrexec;
  h["S_ANDN2_WREXEC_B64"] = sAndn2Wrexec;
  h["S_QUADMASK_B32"] = sQuadmaskB32;
  h["S_QUADMASK_B64"] = sQuadmaskB64;
  h["S_MOVRELS_B32"] = sMovrels;
  h["S_MOVRELS_B64"] = sMovrels;
  h["S_MOVRELD_B32"] = sMovreld;
  h["S_MOVRELD_B64"] = sMovreld;
  h["S_ABS_I32"] = sAbsI32;
  h["S_SET_GPR_IDX_IDX"] = sSetGprIdxIdx;
  h["S_BITREPLICATE_B64_B32"] = sBitreplicate;
}

void registerSopcSopk(std::map<std::string, Handler> &h) {
  h["S_CMP_EQ_I32"] = sCmpEqI32;
  h["S_CMP_LG_I32"] = sCmpLgI32;
  h["S_CMP_GT_I32"] = sCmpGtI32;
  h["S_CMP_GE_I32"] = sCmpGeI32;
  h["S_CMP_LT_I32"] = sCmpLtI32;
  h["S_CMP_LE_I32"] = sCmpLeI32;
  h["S_CMP_EQ_U32"] = sCmpEqU32;
  h["S_CMP_LG_U32"] = sCmpLgU32;
  h["S_CMP_GT_U32"] = sCmpGtU32;
  h["S_CMP_GE_U32"] = sCmpGeU32;
  h["S_CMP_LT_U32"] = sCmpLtU32;
  h["S_CMP_LE_U32"] = sCmpLeU32;
  h["S_CMP_EQ_U64"] = sCmpEqU64;
  h["S_CMP_LG_U64"] = sCmpLgU64;
  h["S_BITCMP0_B32"] = sBitcmpB32<false>;
  h["S_BITCMP1_B32"] = sBitcmpB32<true>;
  h["S_BITCMP0_B64"] = sBitcmpB64<false>;
  h["S_BITCMP1_B64"] = sBitcmpB64<true>;
  h["S_SETVSKIP"] = sSetvskip;
  h["S_SET_GPR_IDX_ON"] = sSetGprIdxOn;
  h["S_MOVK_I32"] = sMovkI32;
  h["S_CMOVK_I32"] = sCmovkI32;
  h["S_CMPK_EQ_I32"] = sCmpkEqI32;
  h["S_CMPK_LG_I32"] = sCmpkLgI32;
  h["S_CMPK_GT_I32"] = sCmpkGtI32;
  h["S_CMPK_GE_I32"] = sCmpkGeI32;
  h["S_CMPK_LT_I32"] = sCmpkLtI32;
  h["S_CMPK_LE_I32"] = sCmpkLeI32;
  h["S_CMPK_EQ_U32"] = sCmpkEqU32;
  h["S_CMPK_LG_U32"] = sCmpkLgU32;
  h["S_CMPK_GT_U32"] = sCmpkGtU32;
  h["S_CMPK_GE_U32"] = sCmpkGeU32;
  h["S_CMPK_LT_U32"] = sCmpkLtU32;
  h["S_CMPK_LE_U32"] = sCmpkLeU32;
  h["S_ADDK_I32"] = sAddkI32;
  h["S_MULK_I32"] = sMulkI32;
  h["S_CBRANCH_I_FORK"] = notSimulated<kForkJoin>;
  h["S_GETREG_B32"] = sGetregB32;
  h["S_SETREG_B32"] = sSetregB32;
  h["S_SETREG_IMM32_B32"] = sSetregImm32B32;
  h["S_CALL_B64"] = sCallB64;
}

void registerSopp(std::map<std::string, Handler> &h) {
  h["S_NOP"] = sNop;
  h["S_ENDPGM"] = sEndpgm;
  h["S_BRANCH"] = sBranch;
  h["S_WAKEUP"] = sNop; // wakes waves in s_sleep, which never wait here
  h["S_CBRANCH_SCC0"] = sCbranchScc0;
  h["S_CBRANCH_SCC1"] = sCbranchScc1;
  h["S_CBRANCH_VCCZ"] = sCbranchVccz;
  h["S_CBRANCH_VCCNZ"] = sCbranchVccnz;
  h["S_CBRANCH_EXECZ"] = sCbranchExecz;
  h["S_CBRANCH_EXECNZ"] = sCbranchExecnz;
  h["S_BARRIER"] = sBarrier;
  h["S_SETKILL"] = notSimulated<kGraphics>;
  // S_WAITCNT: Semantics.cpp retires the counters' operations, sWaitcnt
  // (above, installed by registerScalar) checks scalar memory first; no
  // compute instruction counts in expcnt on GFX9, so its expcnt field
  // waits for nothing.
  h["S_SETHALT"] = sSethalt;
  h["S_SLEEP"] = sNop;   // a delay only: no effect on results
  h["S_SETPRIO"] = sNop; // scheduling priority: no effect on results
  h["S_SENDMSG"] = sSendmsg;
  h["S_SENDMSGHALT"] = sSendmsg;
  h["S_TRAP"] = sTrap;
  h["S_ICACHE_INV"] = sNop;   // the decoded program is the instruction cache
  h["S_INCPERFLEVEL"] = sNop; // performance counters: none simulated
  h["S_DECPERFLEVEL"] = sNop;
  h["S_TTRACEDATA"] = sNop; // thread trace: none simulated
  h["S_CBRANCH_CDBGSYS"] = sCbranchCdbg;
  h["S_CBRANCH_CDBGUSER"] = sCbranchCdbg;
  h["S_CBRANCH_CDBGSYS_OR_USER"] = sCbranchCdbg;
  h["S_CBRANCH_CDBGSYS_AND_USER"] = sCbranchCdbg;
  h["S_ENDPGM_SAVED"] = notSimulated<kGraphics>;
  h["S_SET_GPR_IDX_OFF"] = sSetGprIdxOff;
  h["S_SET_GPR_IDX_MODE"] = sSetGprIdxMode;
  h["S_ENDPGM_ORDERED_PS_DONE"] = notSimulated<kGraphics>;
}

/// The opcode names of one SMEM operation in its operand forms: an
/// immediate offset, an SGPR offset (encoded in either field: _SGPR and
/// _SGPR_alt), or both; `rtn` for the atomics that return (glc).
std::vector<std::string> smemForms(const std::string &op,
                                   const std::string &rtn = "") {
  return {op + "_IMM" + rtn, op + "_SGPR" + rtn, op + "_SGPR_IMM" + rtn,
          op + "_SGPR" + rtn + "_alt"};
}

void registerSmem(Semantics &t) {
  auto &h = t.handlers;
  auto add = [&](const std::string &op, Handler f,
                 const std::string &rtn = "") {
    for (const std::string &n : smemForms(op, rtn)) {
      h[n] = f;
      t.preparers[n] = prepareSmem;
    }
  };
  for (const char *n : {"DWORD", "DWORDX2", "DWORDX4", "DWORDX8", "DWORDX16"}) {
    add(std::string("S_LOAD_") + n, sLoad);
    add(std::string("S_BUFFER_LOAD_") + n, sBufferLoad);
  }
  for (const char *n : {"DWORD", "DWORDX2", "DWORDX4"}) {
    add(std::string("S_STORE_") + n, sStore);
    add(std::string("S_BUFFER_STORE_") + n, sBufferStore);
    add(std::string("S_SCRATCH_LOAD_") + n, notSimulated<kScalarScratch>);
    add(std::string("S_SCRATCH_STORE_") + n, notSimulated<kScalarScratch>);
  }
  for (const char *op : {"SWAP", "CMPSWAP", "ADD", "SUB", "SMIN", "UMIN",
                         "SMAX", "UMAX", "AND", "OR", "XOR", "INC", "DEC"})
    for (const char *size : {"", "_X2"})
      for (const char *rtn : {"", "_RTN"}) {
        std::string tail = std::string(op) + size;
        add("S_ATOMIC_" + tail, sAtomicGlobal, rtn);
        add("S_BUFFER_ATOMIC_" + tail, sAtomicBuffer, rtn);
      }
  h["S_MEMTIME"] = sMemtime;
  h["S_MEMREALTIME"] = sMemrealtime;
  t.preparers["S_MEMTIME"] = t.preparers["S_MEMREALTIME"] = prepareCounter;
  for (const char *n :
       {"S_DCACHE_INV", "S_DCACHE_WB", "S_DCACHE_INV_VOL", "S_DCACHE_WB_VOL"})
    h[n] = sDcache;
  for (const char *op : {"S_DCACHE_DISCARD", "S_DCACHE_DISCARD_X2"})
    for (const std::string &n : smemForms(op))
      h[n] = notSimulated<kDiscard>;
  for (const char *op : {"S_ATC_PROBE", "S_ATC_PROBE_BUFFER"})
    for (const std::string &n : smemForms(op))
      h[n] = notSimulated<kAtc>;
}

} // namespace

//===-- VGPR indexing, applied by Run.cpp ---------------------------------===//

std::unique_ptr<Inst> hk::rt::isa::gprIndexed(Sim &sim, const Wave &w,
                                              const Inst &inst) {
  if (inst.name.rfind("V_", 0) != 0) {
    // The guides speak of "vector operations"; LLVM brackets only VALU
    // instructions with s_set_gpr_idx_on/off, and what indexing does to a
    // vector memory instruction's VGPRs is not simulated.
    for (const char *p : {"DS_", "BUFFER_", "GLOBAL_", "FLAT_", "SCRATCH_"})
      if (inst.name.rfind(p, 0) == 0)
        sim.fail("a vector memory instruction under VGPR indexing "
                 "(s_set_gpr_idx_on) is not simulated");
    return nullptr;
  }
  // A DPP instruction lists its old value before src0: which operand the
  // mode bits then name is not simulated.
  if (inst.name.find("_dpp") != std::string::npos)
    sim.fail("a DPP instruction under VGPR indexing is not simulated");
  uint32_t m0 = w.s[kM0], index = m0 & 0xFF, mode = (m0 >> 12) & 0xF;
  auto copy = std::make_unique<Inst>(inst);
  auto offset = [&](Operand &o, const char *which) {
    if (o.file != File::V)
      return;
    if (o.reg >= kAgprBase)
      sim.fail(std::string("VGPR indexing of an AGPR ") + which +
               " is not simulated");
    if (o.reg + index + o.width > kAgprBase)
      sim.fail(std::string("VGPR indexing moves ") + which + " v" +
               std::to_string(o.reg) + " by " + std::to_string(index) +
               " past v255");
    o.reg = uint16_t(o.reg + index);
  };
  static const char *const srcNames[3] = {"src0", "src1", "src2"};
  for (unsigned k = 0; k < 3 && k < copy->numSrcs; ++k)
    if (mode >> k & 1)
      offset(copy->srcs[k], srcNames[k]);
  if (mode & 8)
    for (unsigned d = 0; d < copy->numDefs; ++d)
      offset(copy->defs[d], "dst");
  return copy;
}

void hk::rt::isa::registerScalar(Semantics &table) {
  auto waits = table.handlers.find("S_WAITCNT");
  if (waits != table.handlers.end() && waits->second != sWaitcnt) {
    retireWaits = waits->second;
    waits->second = sWaitcnt;
  }
  registerSop2(table.handlers);
  registerSop1(table.handlers);
  registerSopcSopk(table.handlers);
  registerSopp(table.handlers);
  registerSmem(table);
}
