//===- Convert.cpp - packed math and conversions
//---------------------------===//
//
// Semantics of packed math (VOP3P: v_pk_*, v_fma_mix*, v_dot*) and of the
// conversions between number formats (v_cvt_*), written from AMD's CDNA3
// and CDNA4 ISA reference guides; the small formats are in hk/Base/Formats.h.
//
// Operand conventions (Decoder.cpp): a VOP3P source's modifiers carry
// NEG (neg_lo) 1, NEG_HI 2, OP_SEL_0 4 and OP_SEL_1 (op_sel_hi) 8; a VOP3
// source NEG 1 and ABS 2; an SDWA source NEG 1, ABS 2 and SEXT 8. Each
// opcode here has a Preparer that checks, at decode, that every immediate
// operand and modifier it does not model is zero, so that anything else
// faults ("... is not simulated") instead of being ignored.
//===----------------------------------------------------------------------===//

#include "Operands.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Formats.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using namespace hk::rt;
using namespace hk::rt::isa;
namespace fmt = hk::fmt;

namespace {

constexpr uint32_t kNeg = 1, kNegHi = 2, kAbs = 2, kOpSel = 4, kOpSelHi = 8,
                   kSext = 8;

//===-- MODE and floating point helpers -----------------------------------===//

/// MODE.FP_DENORM (bits 7:4): per type, bit 0 keeps denormal inputs and
/// bit 1 denormal results; [5:4] f32, [7:6] f16 and f64.
bool keepsDenormIn(const Wave &w, bool f32) {
  return (w.mode >> (f32 ? 4 : 6)) & 1;
}
bool keepsDenormOut(const Wave &w, bool f32) {
  return (w.mode >> (f32 ? 5 : 7)) & 1;
}

float flushF32(float x, bool keep) {
  return !keep && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x)
                                                     : x;
}
double flushF64(double x, bool keep) {
  return !keep && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x)
                                                     : x;
}

/// An f16 input, flushed to zero when MODE flushes f16 denormal inputs.
float f16In(const Wave &w, uint32_t h) {
  h &= 0xFFFF;
  if (!keepsDenormIn(w, false) && (h & 0x7C00) == 0)
    h &= 0x8000;
  return fmt::decodeF16(uint16_t(h));
}

/// An f16 result, flushed to zero when MODE flushes f16 denormal results.
uint32_t f16Out(const Wave &w, uint16_t h) {
  if (!keepsDenormOut(w, false) && (h & 0x7C00) == 0)
    h &= 0x8000;
  return h;
}

/// MODE.FP_ROUND: [1:0] f32, [3:2] f16 and f64; only round to nearest
/// even (0) and toward zero (3) are simulated.
fmt::Round roundMode(Sim &sim, const Wave &w, bool f32) {
  unsigned r = (w.mode >> (f32 ? 0 : 2)) & 3;
  if (r == 0)
    return fmt::Round::NearestEven;
  if (r == 3)
    return fmt::Round::TowardZero;
  sim.fail("MODE rounding toward +/-infinity is not simulated");
}

/// x rounded to f32 with round to odd: exact results stay, inexact ones
/// take the neighbour with an odd last bit. Rounding that again to a
/// format of at most 22 significant bits gives the correctly rounded
/// result (f16, bf16, fp8: double rounding through round to odd).
float toOddF32(double x) {
  float f = float(x);
  if (std::isfinite(f) && double(f) != x && !(asBits(f) & 1))
    f = std::nextafter(f, double(f) < x ? INFINITY : -INFINITY);
  return f;
}

/// a * b + c in double with round to odd (products of f16 or f32 are
/// exact in double; the sum's error comes from TwoSum).
double fmaOdd(double a, double b, double c) {
  double p = a * b, s = p + c;
  if (!std::isfinite(s))
    return s;
  double bb = s - p, err = (p - (s - bb)) + (c - bb);
  uint64_t bits;
  memcpy(&bits, &s, 8);
  if (err != 0 && !(bits & 1))
    s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  return s;
}

/// The clamp output modifier: [0, 1]; NaN becomes 0 with MODE.DX10_CLAMP
/// (bit 8), as the ISA guides define clamp for float results.
float clamp01(const Wave &w, float x) {
  if (std::isnan(x))
    return (w.mode >> 8 & 1) ? 0.0f : x;
  return std::fmin(std::fmax(x, 0.0f), 1.0f);
}

/// IEEE minNum / maxNum as the VALU min and max define them: -0 < +0; a
/// quiet NaN operand loses; with MODE.IEEE (bit 9) a signaling NaN
/// operand gives that NaN, quieted.
float minMax(const Wave &w, float a, float b, bool max) {
  bool ieee = (w.mode >> 9) & 1;
  auto snan = [](float x) { return std::isnan(x) && !(asBits(x) & 0x400000); };
  if (ieee && (snan(a) || snan(b)))
    return asFloat(asBits(snan(a) ? a : b) | 0x400000);
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return (std::signbit(a) != max) ? a : b;
  return (a < b) != max ? a : b;
}

//===-- Decode-time checks ------------------------------------------------===//

/// What a Preparer accepts for an opcode: `imms` immediate operands may be
/// nonzero (the rest must be 0; a negative count accepts any), source
/// modifiers only within `mods`.
struct Accept {
  int imms = 0;
  uint32_t mods = 0;
};

std::string checkOperands(const Inst &inst, Accept a) {
  for (unsigned k = 0; k < inst.numSrcs; ++k)
    if (inst.srcs[k].mods & ~a.mods)
      return "source modifiers " + std::to_string(inst.srcs[k].mods) + " of " +
             inst.name + " are not simulated";
  for (unsigned k = a.imms < 0 ? inst.numImms : unsigned(a.imms);
       k < inst.numImms; ++k)
    if (inst.imms[k] != 0 && inst.imms[k] != -1)
      return "immediate operand " + std::to_string(inst.imms[k]) + " of " +
             inst.name + " is not simulated";
  return "";
}

/// VOP3P: every source modifier within `mods`; clamp (imms[0]) only if
/// `clamp` (the other immediates repeat op_sel, op_sel_hi, neg_lo and
/// neg_hi, which the source modifiers carry).
std::string checkVop3p(const Inst &inst, uint32_t mods, bool clamp) {
  std::string why = checkOperands(inst, {-1, mods});
  if (why.empty() && !clamp && inst.numImms > 0 && inst.imms[0] != 0)
    why = "clamp on " + inst.name + " is not simulated";
  return why;
}

/// VOP3P: which high half (or dword) a nonzero inline constant gives is not
/// simulated, so an immediate source read there (op_sel or op_sel_hi set)
/// is refused unless it is 0, which gives 0 in both.
std::string checkPackedConstants(const Inst &inst, unsigned numSrcs) {
  for (unsigned k = 0; k < numSrcs && k < inst.numSrcs; ++k)
    if (inst.srcs[k].file == File::Imm && inst.srcs[k].imm != 0 &&
        (inst.srcs[k].mods & (kOpSel | kOpSelHi)))
      return "a nonzero inline constant read in the high half of a packed "
             "operand is not simulated";
  return "";
}

//===-- VOP3P: packed 16-bit math -----------------------------------------===//

/// The 16 bits of source `o` that the low (hi = false) or high result half
/// reads: OP_SEL picks the half for the low result, OP_SEL_HI for the high
/// one.
uint32_t half(const Wave &w, const Operand &o, unsigned l, bool hi) {
  uint32_t v = rd(w, o, l);
  bool sel = (o.mods & (hi ? kOpSelHi : kOpSel)) != 0;
  return (sel ? v >> 16 : v) & 0xFFFF;
}

/// NEG (neg_lo) and NEG_HI flip the sign of the f16 the low and high
/// result halves read.
uint32_t negated(const Operand &o, bool hi, uint32_t h) {
  return (o.mods & (hi ? kNegHi : kNeg)) ? h ^ 0x8000 : h;
}

using Pk16 = uint32_t (*)(const Wave &, bool clamp, const uint32_t *x);

/// D.lo = op(sources' low-result halves), D.hi = op(high-result halves).
/// imms[0] is clamp.
template <unsigned Ops, bool Float, Pk16 Op>
void packed16(Sim &sim, Wave &w, const Inst &i) {
  bool clamp = i.numImms > 0 && i.imms[0] != 0;
  if (Float && ((w.mode >> 2) & 3) != 0)
    sim.fail("packed f16 math under a MODE rounding mode other than "
             "nearest even is not simulated");
  forLanes(w, [&](unsigned l) {
    uint32_t d = 0;
    for (unsigned hi = 0; hi < 2; ++hi) {
      uint32_t x[3];
      for (unsigned s = 0; s < Ops; ++s) {
        x[s] = half(w, i.srcs[s], l, hi);
        if (Float)
          x[s] = negated(i.srcs[s], hi, x[s]);
      }
      d |= (Op(w, clamp, x) & 0xFFFF) << (16 * hi);
    }
    wr(w, i.defs[0], l, d);
  });
}

/// An f16 result of an f16 operation computed exactly (or to odd) in
/// double, with clamp.
uint32_t f16Result(const Wave &w, bool clamp, double r) {
  float f = toOddF32(r);
  if (clamp)
    f = clamp01(w, f);
  return f16Out(w, fmt::encodeF16(f));
}

uint32_t pkAddF16(const Wave &w, bool c, const uint32_t *x) {
  return f16Result(w, c, double(f16In(w, x[0])) + f16In(w, x[1]));
}
uint32_t pkMulF16(const Wave &w, bool c, const uint32_t *x) {
  return f16Result(w, c, double(f16In(w, x[0])) * f16In(w, x[1]));
}
uint32_t pkFmaF16(const Wave &w, bool c, const uint32_t *x) {
  return f16Result(w, c,
                   fmaOdd(f16In(w, x[0]), f16In(w, x[1]), f16In(w, x[2])));
}
/// v_pk_min_f16 / v_pk_max_f16 (minMax); a signaling NaN is told apart on
/// the f16 bits (bit 9 clear), which widening to float would lose.
uint32_t pkMinMaxF16(const Wave &w, bool c, const uint32_t *x, bool max) {
  auto snan = [](uint32_t h) {
    return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) && !(h & 0x200);
  };
  uint32_t a = x[0] & 0xFFFF, b = x[1] & 0xFFFF;
  if ((w.mode >> 9 & 1) && (snan(a) || snan(b)))
    return c && (w.mode >> 8 & 1) ? 0 : ((snan(a) ? a : b) | 0x200);
  return f16Result(w, c, minMax(w, f16In(w, a), f16In(w, b), max));
}
uint32_t pkMinF16(const Wave &w, bool c, const uint32_t *x) {
  return pkMinMaxF16(w, c, x, false);
}
uint32_t pkMaxF16(const Wave &w, bool c, const uint32_t *x) {
  return pkMinMaxF16(w, c, x, true);
}

/// IEEE 754-2019 maximum / minimum of three (CDNA4 v_pk_maximum3_f16,
/// v_pk_minimum3_f16): NaN if any operand is NaN, -0 below +0.
double maximum3(double a, double b, double c, bool max) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c))
    return NAN;
  double r = a;
  for (double x : {b, c})
    if (x == r ? std::signbit(r) == max : (x > r) == max)
      r = x;
  return r;
}
uint32_t pkMaximum3F16(const Wave &w, bool c, const uint32_t *x) {
  return f16Result(
      w, c, maximum3(f16In(w, x[0]), f16In(w, x[1]), f16In(w, x[2]), true));
}
uint32_t pkMinimum3F16(const Wave &w, bool c, const uint32_t *x) {
  return f16Result(
      w, c, maximum3(f16In(w, x[0]), f16In(w, x[1]), f16In(w, x[2]), false));
}

/// Integer results, saturated to the 16-bit range with clamp.
uint32_t satU16(bool clamp, int64_t v) {
  return clamp ? uint32_t(std::clamp<int64_t>(v, 0, 0xFFFF)) : uint32_t(v);
}
uint32_t satI16(bool clamp, int64_t v) {
  return clamp ? uint32_t(std::clamp<int64_t>(v, -32768, 32767)) : uint32_t(v);
}
int64_t s16(uint32_t x) { return int16_t(uint16_t(x)); }

uint32_t pkAddU16(const Wave &, bool c, const uint32_t *x) {
  return satU16(c, int64_t(x[0]) + x[1]);
}
uint32_t pkSubU16(const Wave &, bool c, const uint32_t *x) {
  return satU16(c, int64_t(x[0]) - x[1]);
}
uint32_t pkAddI16(const Wave &, bool c, const uint32_t *x) {
  return satI16(c, s16(x[0]) + s16(x[1]));
}
uint32_t pkSubI16(const Wave &, bool c, const uint32_t *x) {
  return satI16(c, s16(x[0]) - s16(x[1]));
}
uint32_t pkMulLoU16(const Wave &, bool, const uint32_t *x) {
  return x[0] * x[1];
}
uint32_t pkMadU16(const Wave &, bool c, const uint32_t *x) {
  return satU16(c, int64_t(x[0]) * x[1] + x[2]);
}
uint32_t pkMadI16(const Wave &, bool c, const uint32_t *x) {
  return satI16(c, s16(x[0]) * s16(x[1]) + s16(x[2]));
}
uint32_t pkMinU16(const Wave &, bool, const uint32_t *x) {
  return std::min(x[0], x[1]);
}
uint32_t pkMaxU16(const Wave &, bool, const uint32_t *x) {
  return std::max(x[0], x[1]);
}
uint32_t pkMinI16(const Wave &, bool, const uint32_t *x) {
  return uint32_t(std::min(s16(x[0]), s16(x[1])));
}
uint32_t pkMaxI16(const Wave &, bool, const uint32_t *x) {
  return uint32_t(std::max(s16(x[0]), s16(x[1])));
}
// The shifts take the shift amount from S0 (its low 4 bits), the value
// from S1.
uint32_t pkLshlrevB16(const Wave &, bool, const uint32_t *x) {
  return x[1] << (x[0] & 15);
}
uint32_t pkLshrrevB16(const Wave &, bool, const uint32_t *x) {
  return x[1] >> (x[0] & 15);
}
uint32_t pkAshrrevI16(const Wave &, bool, const uint32_t *x) {
  return uint32_t(s16(x[1]) >> (x[0] & 15));
}

//===-- VOP3P: packed f32 and moves ---------------------------------------===//

/// v_pk_{add,mul,fma}_f32: each half of the 64-bit result takes dword
/// OP_SEL (low half) or OP_SEL_HI (high half) of each source; NEG and
/// NEG_HI negate them; clamp limits both results to [0, 1].
template <int Ops, typename F> void packedF32(Wave &w, const Inst &i, F f) {
  bool clamp = i.numImms > 0 && i.imms[0] != 0;
  forLanes(w, [&](unsigned l) {
    float lo[3], hi[3];
    for (int s = 0; s < Ops; ++s) {
      const Operand &o = i.srcs[s];
      lo[s] = asFloat(rd(w, o, l, (o.mods & kOpSel) ? 1 : 0));
      hi[s] = asFloat(rd(w, o, l, (o.mods & kOpSelHi) ? 1 : 0));
      if (o.mods & kNeg)
        lo[s] = -lo[s];
      if (o.mods & kNegHi)
        hi[s] = -hi[s];
    }
    float rl = f(lo), rh = f(hi);
    wr(w, i.defs[0], l, asBits(clamp ? clamp01(w, rl) : rl), 0);
    wr(w, i.defs[0], l, asBits(clamp ? clamp01(w, rh) : rh), 1);
  });
}
void vPkAddF32(Sim &, Wave &w, const Inst &i) {
  packedF32<2>(w, i, [](float *x) { return x[0] + x[1]; });
}
void vPkMulF32(Sim &, Wave &w, const Inst &i) {
  packedF32<2>(w, i, [](float *x) { return x[0] * x[1]; });
}
void vPkFmaF32(Sim &, Wave &w, const Inst &i) {
  packedF32<3>(w, i, [](float *x) { return std::fma(x[0], x[1], x[2]); });
}

/// v_pk_mov_b32: D.lo = dword OP_SEL[0] of S0, D.hi = dword OP_SEL[1] of
/// S1 (each source's OP_SEL_0 modifier bit).
void vPkMovB32(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    uint32_t lo = rd(w, i.srcs[0], l, (i.srcs[0].mods & kOpSel) ? 1 : 0);
    uint32_t hi = rd(w, i.srcs[1], l, (i.srcs[1].mods & kOpSel) ? 1 : 0);
    wr(w, i.defs[0], l, lo, 0);
    wr(w, i.defs[0], l, hi, 1);
  });
}

//===-- VOP3P: mixed precision fma ----------------------------------------===//

/// A v_fma_mix source: with OP_SEL_HI an f16 (the half OP_SEL picks),
/// otherwise the f32 dword; NEG_HI takes its absolute value, NEG negates.
double mixSource(const Wave &w, const Operand &o, unsigned l) {
  uint32_t v = rd(w, o, l);
  double x;
  if (o.mods & kOpSelHi)
    x = f16In(w, (o.mods & kOpSel) ? v >> 16 : v);
  else
    x = flushF32(asFloat(v), keepsDenormIn(w, true));
  if (o.mods & kNegHi)
    x = std::fabs(x);
  if (o.mods & kNeg)
    x = -x;
  return x;
}

/// v_fma_mix_f32: D = fma(S0, S1, S2), one rounding to f32;
/// v_fma_mixlo_f16 / v_fma_mixhi_f16: the same rounded once to f16 into
/// bits 15:0 / 31:16 of D, the other half kept. imms[0] is clamp.
template <int Result> void vFmaMix(Sim &sim, Wave &w, const Inst &i) {
  bool clamp = i.numImms > 0 && i.imms[0] != 0;
  if (w.mode & 0xF)
    sim.fail("v_fma_mix under a MODE rounding mode other than nearest even "
             "is not simulated");
  forLanes(w, [&](unsigned l) {
    double a = mixSource(w, i.srcs[0], l), b = mixSource(w, i.srcs[1], l),
           c = mixSource(w, i.srcs[2], l);
    if (Result == 0) {
      // a, b and c are f32 or f16 values: fma rounds once.
      float r = std::fma(float(a), float(b), float(c));
      r = flushF32(clamp ? clamp01(w, r) : r, keepsDenormOut(w, true));
      wr(w, i.defs[0], l, asBits(r));
      return;
    }
    uint32_t h = f16Result(w, clamp, fmaOdd(a, b, c));
    uint32_t old = rd(w, i.defs[0], l);
    wr(w, i.defs[0], l,
       Result == 1 ? (old & 0xFFFF0000) | h : (old & 0xFFFF) | h << 16);
  });
}

//===-- VOP3P and VOP2: dot products --------------------------------------===//

/// The element of `bits` wide of `v` at index k, sign-extended if Signed.
template <unsigned Bits, bool Signed> int64_t element(uint32_t v, unsigned k) {
  uint32_t e = (v >> (Bits * k)) & ((1u << Bits) - 1);
  if (Signed && (e >> (Bits - 1)) & 1)
    return int64_t(e) - (int64_t(1) << Bits);
  return e;
}

/// Integer dot products: D = sum of S0[k] * S1[k] + S2 over the 32 / Bits
/// elements, exact; with clamp the sum saturates to the 32-bit range of
/// its type, otherwise it wraps.
template <unsigned Bits, bool Signed>
uint32_t dotIntLane(const Wave &, bool clamp, uint32_t a, uint32_t b,
                    uint32_t c) {
  int64_t sum = Signed ? int64_t(int32_t(c)) : int64_t(c);
  for (unsigned k = 0; k < 32 / Bits; ++k)
    sum += element<Bits, Signed>(a, k) * element<Bits, Signed>(b, k);
  if (clamp)
    sum = Signed ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX)
                 : std::clamp<int64_t>(sum, 0, UINT32_MAX);
  return uint32_t(sum);
}

/// f32 dot products of two f16 or bf16 pairs: D = S0.lo * S1.lo + S0.hi *
/// S1.hi + S2 (f32), the products exact, rounded once to f32 from their
/// double sum; clamp limits D to [0, 1].
template <bool Bf16>
uint32_t dot2F32Lane(const Wave &w, bool clamp, uint32_t a, uint32_t b,
                     uint32_t c) {
  auto value = [&](uint32_t h) {
    return Bf16 ? double(fmt::decodeBF16(uint16_t(h))) : double(f16In(w, h));
  };
  double p0 = value(a) * value(b), p1 = value(a >> 16) * value(b >> 16);
  float r = float(p0 + p1 + flushF32(asFloat(c), keepsDenormIn(w, true)));
  return asBits(clamp ? clamp01(w, r) : r);
}

/// v_pk_fmac_f16: D.lo = fma(S0.lo, S1.lo, D.lo), D.hi likewise.
uint32_t pkFmacLane(const Wave &w, bool clamp, uint32_t a, uint32_t b,
                    uint32_t c) {
  uint32_t d = 0;
  for (unsigned s = 0; s < 32; s += 16)
    d |= f16Result(w, clamp,
                   fmaOdd(f16In(w, a >> s), f16In(w, b >> s), f16In(w, c >> s)))
         << s;
  return d;
}

using Lane3 = uint32_t (*)(const Wave &, bool, uint32_t, uint32_t, uint32_t);

void requireNearestEven(Sim &sim, const Wave &w) {
  if (w.mode & 0xF)
    sim.fail("packed and dot product math under a MODE rounding mode other "
             "than nearest even is not simulated");
}

/// D = F(S0, S1, S2), or with Acc F(S0, S1, D) (the c forms, VOP2 and their
/// VOP3 encoding); imms[0] is clamp where there is one.
template <Lane3 F, bool Acc, bool Float = true>
void laneForm(Sim &sim, Wave &w, const Inst &i) {
  if (Float)
    requireNearestEven(sim, w);
  bool clamp = i.numImms > 0 && i.imms[0] != 0;
  forLanes(w, [&](unsigned l) {
    uint32_t c = Acc ? rd(w, i.defs[0], l) : rd(w, i.srcs[2], l);
    wr(w, i.defs[0], l,
       F(w, clamp, rd(w, i.srcs[0], l), rd(w, i.srcs[1], l), c));
  });
}

/// The DPP form of a c form: S0 from the lane dpp_ctrl names (dppLane),
/// S1 and D the lane's own; srcs[First] is S0. imms = {dpp_ctrl,
/// row_mask, bank_mask, bound_ctrl}. A lane whose row or bank is off, or
/// whose source lane is invalid without bound_ctrl, keeps D.
int dppLane(uint32_t ctrl, unsigned lane);
template <Lane3 F, unsigned First, bool Float = true>
void laneDpp(Sim &sim, Wave &w, const Inst &i) {
  if (Float)
    requireNearestEven(sim, w);
  uint32_t ctrl = uint32_t(i.imms[0]), rowMask = uint32_t(i.imms[1]),
           bankMask = uint32_t(i.imms[2]);
  bool boundZero = i.imms[3] != 0;
  uint32_t from[kLanes];
  for (unsigned l = 0; l < kLanes; ++l)
    from[l] = rd(w, i.srcs[First], l);
  uint64_t exec = w.exec();
  forLanes(w, [&](unsigned l) {
    if (!(rowMask >> (l / 16) & 1) || !(bankMask >> ((l & 15) / 4) & 1))
      return;
    int src = dppLane(ctrl, l);
    bool valid = src >= 0 && (exec >> src & 1);
    if (!valid && !boundZero)
      return;
    uint32_t a = valid ? from[src] : 0;
    wr(w, i.defs[0], l,
       F(w, false, a, rd(w, i.srcs[First + 1], l), rd(w, i.defs[0], l)));
  });
}

//===-- Conversions: one source (VOP1 in its e32, e64 and SDWA forms) -----===//

/// The type of a conversion's source or result, which decides how
/// modifiers, clamp, denormal flushing and SDWA selects apply to it.
enum class Ty : uint8_t { Int, F16, F32, F64, Int16, Pk };

bool isFloat(Ty t) { return t == Ty::F16 || t == Ty::F32 || t == Ty::F64; }

using UnaryFn = uint64_t (*)(Sim &, const Wave &, uint64_t);

struct Unary {
  const char *name; ///< base name without _e32 / _e64 / _sdwa
  Ty src, dst;
  UnaryFn fn;
};

/// f32 from an integer or f64 value: exact, or rounded as MODE's f32
/// rounding mode says.
float toF32(Sim &sim, const Wave &w, double x) {
  float f = float(x);
  if (roundMode(sim, w, true) == fmt::Round::TowardZero && std::isfinite(x) &&
      std::fabs(double(f)) > std::fabs(x))
    f = std::nextafter(f, 0.0f);
  return f;
}
uint64_t f32Bits(float f) { return asBits(f); }
uint64_t f64Bits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
double asDouble(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

/// Float to integer: truncated toward zero, NaN gives 0, out-of-range
/// values saturate to the integer type's ends (the guides' cvt_*_f32).
int64_t toInt(double x, int64_t lo, int64_t hi) {
  if (std::isnan(x))
    return 0;
  x = std::trunc(x);
  return x <= double(lo) ? lo : x >= double(hi) ? hi : int64_t(x);
}

/// f16 to a normalized 16-bit integer: clamp to [-1, 1] (snorm) or [0, 1]
/// (unorm), scale by 32767 or 65535, round to nearest even; NaN gives 0.
uint64_t snorm16(double x) {
  if (std::isnan(x))
    return 0;
  return uint16_t(int16_t(std::nearbyint(std::clamp(x, -1.0, 1.0) * 32767)));
}
uint64_t unorm16(double x) {
  if (std::isnan(x))
    return 0;
  return uint16_t(std::nearbyint(std::clamp(x, 0.0, 1.0) * 65535));
}

const fmt::Format &fp8Format(const Sim &sim, bool bf8) {
  // gfx950 uses the OCP formats, gfx942 AMD's FNUZ ones (CDNA4 and CDNA3
  // ISA guides, "FP8 and BF8").
  switch (hk::lookupChip(sim.code.chip)->fp8) {
  case hk::Fp8Format::OCP:
    return bf8 ? fmt::kE5M2 : fmt::kE4M3;
  case hk::Fp8Format::FNUZ:
    return bf8 ? fmt::kE5M2Fnuz : fmt::kE4M3Fnuz;
  case hk::Fp8Format::None:
    break;
  }
  sim.fail(sim.code.chip + " has no 8-bit float formats");
}

float f16Value(const Wave &w, uint64_t a) { return f16In(w, uint32_t(a)); }
uint64_t f16From(Sim &sim, const Wave &w, float f) {
  return f16Out(w,
                uint16_t(fmt::encode(f, fmt::kF16, roundMode(sim, w, false))));
}

/// f32 / f16 and the integer types.
std::vector<Unary> integerUnaries() {
  return {
      {"V_CVT_F32_I32", Ty::Int, Ty::F32,
       [](Sim &s, const Wave &w, uint64_t a) {
         return f32Bits(toF32(s, w, double(int32_t(a))));
       }},
      {"V_CVT_F32_U32", Ty::Int, Ty::F32,
       [](Sim &s, const Wave &w, uint64_t a) {
         return f32Bits(toF32(s, w, double(uint32_t(a))));
       }},
      {"V_CVT_I32_F32", Ty::F32, Ty::Int,
       [](Sim &, const Wave &, uint64_t a) {
         return uint64_t(
             uint32_t(toInt(asFloat(uint32_t(a)), INT32_MIN, INT32_MAX)));
       }},
      {"V_CVT_U32_F32", Ty::F32, Ty::Int,
       [](Sim &, const Wave &, uint64_t a) {
         return uint64_t(toInt(asFloat(uint32_t(a)), 0, UINT32_MAX));
       }},
      // rpi: floor(S0 + 0.5); flr: floor(S0); saturated like cvt_i32_f32.
      {"V_CVT_RPI_I32_F32", Ty::F32, Ty::Int,
       [](Sim &, const Wave &, uint64_t a) {
         double x = std::floor(double(asFloat(uint32_t(a))) + 0.5);
         return uint64_t(uint32_t(toInt(x, INT32_MIN, INT32_MAX)));
       }},
      {"V_CVT_FLR_I32_F32", Ty::F32, Ty::Int,
       [](Sim &, const Wave &, uint64_t a) {
         double x = std::floor(double(asFloat(uint32_t(a))));
         return uint64_t(uint32_t(toInt(x, INT32_MIN, INT32_MAX)));
       }},
      {"V_CVT_F32_F16", Ty::F16, Ty::F32,
       [](Sim &, const Wave &w, uint64_t a) {
         return f32Bits(f16Value(w, a));
       }},
      {"V_CVT_F16_F32", Ty::F32, Ty::F16,
       [](Sim &s, const Wave &w, uint64_t a) {
         return f16From(s, w, asFloat(uint32_t(a)));
       }},
      {"V_CVT_F16_U16", Ty::Int, Ty::F16,
       [](Sim &s, const Wave &w, uint64_t a) {
         return f16From(s, w, float(uint16_t(a)));
       }},
      {"V_CVT_F16_I16", Ty::Int, Ty::F16,
       [](Sim &s, const Wave &w, uint64_t a) {
         return f16From(s, w, float(int16_t(uint16_t(a))));
       }},
      {"V_CVT_U16_F16", Ty::F16, Ty::Int16,
       [](Sim &, const Wave &w, uint64_t a) {
         return uint64_t(toInt(f16Value(w, a), 0, 0xFFFF));
       }},
      {"V_CVT_I16_F16", Ty::F16, Ty::Int16,
       [](Sim &, const Wave &w, uint64_t a) {
         return uint64_t(uint16_t(toInt(f16Value(w, a), -32768, 32767)));
       }},
      {"V_CVT_NORM_I16_F16", Ty::F16, Ty::Int16,
       [](Sim &, const Wave &w, uint64_t a) {
         return snorm16(f16Value(w, a));
       }},
      {"V_CVT_NORM_U16_F16", Ty::F16, Ty::Int16,
       [](Sim &, const Wave &w, uint64_t a) {
         return unorm16(f16Value(w, a));
       }},
  };
}

/// f64, bytes, the 4-bit offset format, bf16 and fp8 / bf8.
std::vector<Unary> otherUnaries() {
  return {
      {"V_CVT_F32_F64", Ty::F64, Ty::F32,
       [](Sim &s, const Wave &w, uint64_t a) {
         return f32Bits(toF32(s, w, asDouble(a)));
       }},
      {"V_CVT_F64_F32", Ty::F32, Ty::F64,
       [](Sim &, const Wave &, uint64_t a) {
         return f64Bits(double(asFloat(uint32_t(a))));
       }},
      {"V_CVT_F64_I32", Ty::Int, Ty::F64,
       [](Sim &, const Wave &, uint64_t a) {
         return f64Bits(double(int32_t(a)));
       }},
      {"V_CVT_F64_U32", Ty::Int, Ty::F64,
       [](Sim &, const Wave &, uint64_t a) {
         return f64Bits(double(uint32_t(a)));
       }},
      {"V_CVT_I32_F64", Ty::F64, Ty::Int,
       [](Sim &, const Wave &, uint64_t a) {
         return uint64_t(uint32_t(toInt(asDouble(a), INT32_MIN, INT32_MAX)));
       }},
      {"V_CVT_U32_F64", Ty::F64, Ty::Int,
       [](Sim &, const Wave &, uint64_t a) {
         return uint64_t(toInt(asDouble(a), 0, UINT32_MAX));
       }},
      {"V_CVT_F32_UBYTE0", Ty::Int, Ty::F32,
       [](Sim &, const Wave &, uint64_t a) {
         return f32Bits(float(a & 0xFF));
       }},
      {"V_CVT_F32_UBYTE1", Ty::Int, Ty::F32,
       [](Sim &, const Wave &, uint64_t a) {
         return f32Bits(float((a >> 8) & 0xFF));
       }},
      {"V_CVT_F32_UBYTE2", Ty::Int, Ty::F32,
       [](Sim &, const Wave &, uint64_t a) {
         return f32Bits(float((a >> 16) & 0xFF));
       }},
      {"V_CVT_F32_UBYTE3", Ty::Int, Ty::F32,
       [](Sim &, const Wave &, uint64_t a) {
         return f32Bits(float((a >> 24) & 0xFF));
       }},
      // v_cvt_off_f32_i4: S0[3:0] as a signed 4-bit integer, times 1/16.
      {"V_CVT_OFF_F32_I4", Ty::Int, Ty::F32,
       [](Sim &, const Wave &, uint64_t a) {
         int v = int(a & 0xF) - ((a & 8) ? 16 : 0);
         return f32Bits(float(v) / 16.0f);
       }},
      // CDNA4: bf16 in S0[15:0] widened to f32.
      {"V_CVT_F32_BF16", Ty::Int, Ty::F32,
       [](Sim &, const Wave &, uint64_t a) {
         return f32Bits(fmt::decodeBF16(uint16_t(a)));
       }},
      // fp8 / bf8 in S0[7:0] (SDWA: the byte src0_sel picks).
      {"V_CVT_F32_FP8", Ty::Int, Ty::F32,
       [](Sim &s, const Wave &, uint64_t a) {
         return f32Bits(fmt::decode(uint32_t(a & 0xFF), fp8Format(s, false)));
       }},
      {"V_CVT_F32_BF8", Ty::Int, Ty::F32,
       [](Sim &s, const Wave &, uint64_t a) {
         return f32Bits(fmt::decode(uint32_t(a & 0xFF), fp8Format(s, true)));
       }},
      // Two fp8 / bf8 in S0[15:0] (SDWA: the word src0_sel picks) to
      // D[0] (byte 0) and D[1] (byte 1).
      {"V_CVT_PK_F32_FP8", Ty::Int, Ty::Pk,
       [](Sim &s, const Wave &, uint64_t a) {
         const fmt::Format &f = fp8Format(s, false);
         return f32Bits(fmt::decode(uint32_t(a & 0xFF), f)) |
                f32Bits(fmt::decode(uint32_t((a >> 8) & 0xFF), f)) << 32;
       }},
      {"V_CVT_PK_F32_BF8", Ty::Int, Ty::Pk,
       [](Sim &s, const Wave &, uint64_t a) {
         const fmt::Format &f = fp8Format(s, true);
         return f32Bits(fmt::decode(uint32_t(a & 0xFF), f)) |
                f32Bits(fmt::decode(uint32_t((a >> 8) & 0xFF), f)) << 32;
       }},
  };
}

const std::vector<Unary> &unaries() {
  static const std::vector<Unary> table = [] {
    std::vector<Unary> t = integerUnaries(), more = otherUnaries();
    t.insert(t.end(), more.begin(), more.end());
    return t;
  }();
  return table;
}

enum Form : uint32_t { kE32 = 0, kE64 = 1, kSdwa = 2, kDpp = 3 };

/// A source value with its type's ABS and NEG modifiers and MODE's input
/// denormal flushing applied.
uint64_t unarySource(const Wave &w, Ty t, const Operand &o, uint64_t v) {
  switch (t) {
  case Ty::F16:
    v &= 0xFFFF;
    if (o.mods & kAbs)
      v &= 0x7FFF;
    if (o.mods & kNeg)
      v ^= 0x8000;
    return v;
  case Ty::F32: {
    float f = asFloat(uint32_t(v));
    if (o.mods & kAbs)
      f = std::fabs(f);
    if (o.mods & kNeg)
      f = -f;
    return asBits(flushF32(f, keepsDenormIn(w, true)));
  }
  case Ty::F64: {
    double d = asDouble(v);
    if (o.mods & kAbs)
      d = std::fabs(d);
    if (o.mods & kNeg)
      d = -d;
    return f64Bits(flushF64(d, keepsDenormIn(w, false)));
  }
  default:
    return v;
  }
}

/// A result with clamp ([0, 1] for float results) and MODE's output
/// denormal flushing applied.
uint64_t unaryResult(const Wave &w, Ty t, bool clamp, uint64_t r) {
  switch (t) {
  case Ty::F16:
    if (clamp)
      r = fmt::encodeF16(clamp01(w, fmt::decodeF16(uint16_t(r))));
    return f16Out(w, uint16_t(r));
  case Ty::F32: {
    float f = asFloat(uint32_t(r));
    return asBits(flushF32(clamp ? clamp01(w, f) : f, keepsDenormOut(w, true)));
  }
  case Ty::F64: {
    double d = asDouble(r);
    if (clamp)
      d = std::isnan(d) ? ((w.mode >> 8 & 1) ? 0.0 : d)
                        : std::fmin(std::fmax(d, 0.0), 1.0);
    return f64Bits(flushF64(d, keepsDenormOut(w, false)));
  }
  case Ty::Pk:
    return unaryResult(w, Ty::F32, clamp, uint32_t(r)) |
           unaryResult(w, Ty::F32, clamp, r >> 32) << 32;
  default:
    return r;
  }
}

/// SDWA select of a source: byte 0-3 (sel 0-3), word 0-1 (4-5) or the
/// dword (6), zero- or (SEXT) sign-extended.
uint32_t sdwaPick(uint32_t x, int64_t sel, bool sext) {
  if (sel >= 6)
    return x;
  unsigned width = sel <= 3 ? 8 : 16;
  unsigned offset = sel <= 3 ? 8 * unsigned(sel) : 16 * unsigned(sel - 4);
  uint32_t v = (x >> offset) & ((1u << width) - 1);
  if (sext && (v >> (width - 1)) & 1)
    v |= ~((1u << width) - 1);
  return v;
}

/// The SDWA immediates of a VOP1 conversion, by its operand list: float
/// results {clamp, omod, dst_sel, dst_unused, src0_sel}, integer results
/// {clamp, dst_sel, dst_unused, src0_sel}, 64-bit results {clamp, omod,
/// src0_sel}.
struct SdwaImms {
  int64_t clamp = 0, omod = 0, dstSel = 6, dstUnused = 0, srcSel = 6;
};
SdwaImms sdwaImms(const Inst &i) {
  SdwaImms s;
  s.clamp = i.imms[0];
  if (i.numImms == 5) {
    s.omod = i.imms[1];
    s.dstSel = i.imms[2];
    s.dstUnused = i.imms[3];
    s.srcSel = i.imms[4];
  } else if (i.numImms == 4) {
    s.dstSel = i.imms[1];
    s.dstUnused = i.imms[2];
    s.srcSel = i.imms[3];
  } else {
    s.omod = i.imms[1];
    s.srcSel = i.imms[2];
  }
  return s;
}

/// D placed as dst_sel names, the rest of the register zero
/// (UNUSED_PAD), the field's sign (UNUSED_SEXT) or kept (UNUSED_PRESERVE).
uint32_t sdwaPlace(uint32_t d, uint32_t old, int64_t sel, int64_t unused) {
  if (sel >= 6)
    return d;
  unsigned width = sel <= 3 ? 8 : 16;
  unsigned offset = sel <= 3 ? 8 * unsigned(sel) : 16 * unsigned(sel - 4);
  uint32_t field = ((1u << width) - 1) << offset;
  uint32_t placed = (d << offset) & field;
  if (unused == 2)
    return placed | (old & ~field);
  if (unused == 1 && (d >> (width - 1)) & 1)
    return placed | (~0u << (offset + width));
  return placed;
}

/// DPP16 (GFX9): the lane whose src0 lane `lane` reads under dpp_ctrl
/// `ctrl`: quad_perm (0x00-0xFF), row_shl/shr/ror 1-15 (0x101-0x12F),
/// wave_shl/rol/shr/ror by 1 (0x130, 0x134, 0x138, 0x13C), row_mirror
/// (0x140), row_half_mirror (0x141), row_bcast15/31 (0x142, 0x143); -1
/// when it reads outside its row or the wave, -2 for a control not
/// simulated.
int dppLane(uint32_t ctrl, unsigned lane) {
  int row = int(lane & ~15u), in = int(lane & 15), l = int(lane);
  if (ctrl <= 0xFF)
    return (l & ~3) + int((ctrl >> (2 * (lane & 3))) & 3);
  int n = int(ctrl & 15);
  if (ctrl >= 0x101 && ctrl <= 0x10F)
    return in + n < 16 ? l + n : -1;
  if (ctrl >= 0x111 && ctrl <= 0x11F)
    return in - n >= 0 ? l - n : -1;
  if (ctrl >= 0x121 && ctrl <= 0x12F)
    return row + ((in - n) & 15);
  switch (ctrl) {
  case 0x130:
    return l + 1 < int(kLanes) ? l + 1 : -1;
  case 0x134:
    return (l + 1) % int(kLanes);
  case 0x138:
    return l - 1;
  case 0x13C:
    return (l + int(kLanes) - 1) % int(kLanes);
  case 0x140:
    return row + 15 - in;
  case 0x141:
    return (l & ~7) + 7 - (l & 7);
  case 0x142:
    return row == 0 ? -1 : row - 1;
  case 0x143:
    return l < 32 ? -1 : 31;
  default:
    return -2;
  }
}

/// The DPP form: srcs = {old (the tied D), src0}, imms = {dpp_ctrl,
/// row_mask, bank_mask, bound_ctrl}. A lane is written only if its row
/// and bank (lanes 4k..4k+3 of a row) are enabled; a lane whose source
/// lane is outside the row or wave, or off in EXEC, converts 0 when
/// bound_ctrl is set and is left alone otherwise.
void unaryDpp(Sim &sim, Wave &w, const Inst &i, const Unary &u) {
  uint32_t ctrl = uint32_t(i.imms[0]), rowMask = uint32_t(i.imms[1]),
           bankMask = uint32_t(i.imms[2]);
  bool boundZero = i.imms[3] != 0;
  const Operand &o = i.srcs[1];
  uint64_t from[kLanes];
  for (unsigned l = 0; l < kLanes; ++l)
    from[l] = u.src == Ty::F64 ? rd64(w, o, l) : rd(w, o, l);
  uint64_t exec = w.exec();
  forLanes(w, [&](unsigned l) {
    if (!(rowMask >> (l / 16) & 1) || !(bankMask >> ((l & 15) / 4) & 1))
      return;
    int src = dppLane(ctrl, l);
    bool valid = src >= 0 && (exec >> src & 1);
    if (!valid && !boundZero)
      return;
    uint64_t a = unarySource(w, u.src, o, valid ? from[src] : 0);
    uint64_t r = unaryResult(w, u.dst, false, u.fn(sim, w, a));
    if (u.dst == Ty::F64 || u.dst == Ty::Pk)
      wr64(w, i.defs[0], l, r);
    else
      wr(w, i.defs[0], l, uint32_t(r));
  });
}

/// A one-source conversion in its e32, e64, SDWA or DPP form (aux[0] the entry
/// of unaries(), aux[1] the form).
void unary(Sim &sim, Wave &w, const Inst &i) {
  const Unary &u = unaries()[i.aux[0]];
  Form form = Form(i.aux[1]);
  if (form == kDpp)
    return unaryDpp(sim, w, i, u);
  SdwaImms sd;
  if (form == kSdwa)
    sd = sdwaImms(i);
  bool clamp = form == kSdwa ? sd.clamp != 0 : form == kE64 && i.imms[0] != 0;
  forLanes(w, [&](unsigned l) {
    const Operand &o = i.srcs[0];
    uint64_t a = u.src == Ty::F64 ? rd64(w, o, l) : rd(w, o, l);
    if (form == kSdwa)
      a = sdwaPick(uint32_t(a), sd.srcSel, (o.mods & kSext) && !isFloat(u.src));
    a = unarySource(w, u.src, o, a);
    uint64_t r = unaryResult(w, u.dst, clamp, u.fn(sim, w, a));
    if (u.dst == Ty::F64 || u.dst == Ty::Pk) {
      wr64(w, i.defs[0], l, r);
      return;
    }
    // 16-bit results of the e32 and e64 forms zero bits 31:16 (GFX9).
    uint32_t d = uint32_t(r);
    if (form == kSdwa)
      d = sdwaPlace(d, rd(w, i.defs[0], l), sd.dstSel, sd.dstUnused);
    wr(w, i.defs[0], l, d);
  });
}

/// Finds the conversion and checks what its form sets: e64 source
/// modifiers only on float sources, clamp only on float results, no omod;
/// SDWA selects in range.
std::string prepareUnary(const std::string &base, Inst &inst) {
  std::string name = base;
  Form form;
  auto strip = [&](const char *suffix) {
    size_t n = strlen(suffix);
    if (name.size() > n && name.compare(name.size() - n, n, suffix) == 0) {
      name.resize(name.size() - n);
      return true;
    }
    return false;
  };
  if (strip("_e32"))
    form = kE32;
  else if (strip("_e64"))
    form = kE64;
  else if (strip("_sdwa"))
    form = kSdwa;
  else if (strip("_dpp"))
    form = kDpp;
  else
    return base + " is not simulated";
  const auto &table = unaries();
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const Unary &u) { return name == u.name; });
  if (it == table.end())
    return base + " is not simulated";
  inst.aux[0] = uint32_t(it - table.begin());
  inst.aux[1] = form;
  bool floatDst = isFloat(it->dst) || it->dst == Ty::Pk;
  uint32_t mods = isFloat(it->src) ? kNeg | kAbs : form == kSdwa ? kSext : 0;
  if (form == kDpp) {
    if (inst.numSrcs != 2 || (inst.srcs[1].mods & ~(mods & (kNeg | kAbs))) ||
        inst.numImms != 4 || dppLane(uint32_t(inst.imms[0]), 0) == -2)
      return "DPP operands of " + base + " are not simulated";
    return "";
  }
  if (inst.numSrcs < 1 || (inst.srcs[0].mods & ~mods))
    return "source modifiers of " + base + " are not simulated";
  if (form == kE32)
    return "";
  if (form == kE64) {
    if (inst.numImms < 1 || inst.numImms > 2 ||
        (inst.numImms == 2 && inst.imms[1] != 0) ||
        (inst.imms[0] != 0 && !floatDst))
      return "clamp/omod of " + base + " are not simulated";
    return "";
  }
  if (inst.numImms < 3)
    return "SDWA operands of " + base + " are not simulated";
  SdwaImms s = sdwaImms(inst);
  if (s.omod != 0 || (s.clamp != 0 && !floatDst) || s.srcSel < 0 ||
      s.srcSel > 6 || s.dstSel < 0 || s.dstSel > 6 || s.dstUnused < 0 ||
      s.dstUnused > 2)
    return "SDWA operands of " + base + " are not simulated";
  return "";
}

void registerUnary(Semantics &table) {
  for (const Unary &u : unaries())
    for (const char *form : {"_e32", "_e64", "_sdwa", "_dpp"}) {
      std::string n = std::string(u.name) + form;
      table.handlers[n] = unary;
      table.preparers[n] = prepareUnary;
    }
}

//===-- Conversions: two and three sources (VOP3 only) --------------------===//

/// An f32 source with its NEG and ABS modifiers and MODE's input flushing.
float f32Src(const Wave &w, const Operand &o, unsigned l) {
  return flushF32(rdf(w, o, l), keepsDenormIn(w, true));
}

/// The destination select of the fp8 and sr conversions, which LLVM
/// carries in the source modifiers: OPSEL[3] (the word of D for the packed
/// and 16-bit ones, the high bit of the byte for sr fp8) is S0's OP_SEL_1
/// bit, OPSEL[2] (the low bit of the sr fp8 byte) the tied D's OP_SEL_0.
unsigned wordSel(const Inst &i) { return (i.srcs[0].mods & kOpSelHi) ? 1 : 0; }
unsigned byteSel(const Inst &i) {
  return wordSel(i) * 2 + ((i.srcs[2].mods & kOpSel) ? 1 : 0);
}

/// MODE.FP16_OVFL (bit 23) would make the 8- and 16-bit float conversions
/// saturate; the simulated ones overflow to inf or NaN, as with it clear.
void requireNoOverflowClamp(Sim &sim, const Wave &w) {
  if ((w.mode >> 23) & 1)
    sim.fail("conversions under MODE.FP16_OVFL are not simulated");
}

/// v_cvt_pkrtz_f16_f32 (toward zero), v_cvt_pk_f16_f32 (CDNA4, MODE's
/// rounding) and v_cvt_pk_bf16_f32 (CDNA4, nearest even): D = {S1, S0}
/// converted; clamp limits both to [0, 1] first.
template <int Kind> void vCvtPk16F32(Sim &sim, Wave &w, const Inst &i) {
  bool clamp = i.numImms > 0 && i.imms[0] != 0;
  fmt::Round r = Kind == 0   ? fmt::Round::TowardZero
                 : Kind == 1 ? roundMode(sim, w, false)
                             : fmt::Round::NearestEven;
  forLanes(w, [&](unsigned l) {
    uint32_t d = 0;
    for (unsigned s = 0; s < 2; ++s) {
      float x = f32Src(w, i.srcs[s], l);
      if (clamp)
        x = clamp01(w, x);
      uint32_t h =
          Kind == 2 ? fmt::encodeBF16(x, r) : f16Out(w, fmt::encodeF16(x, r));
      d |= h << (16 * s);
    }
    wr(w, i.defs[0], l, d);
  });
}

/// v_cvt_pknorm_{i16,u16}_{f32,f16}: D = {norm(S1), norm(S0)}; the f16
/// forms read the half of each source its OP_SEL picks.
template <bool Signed, bool F16>
void vCvtPknorm(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    uint32_t d = 0;
    for (unsigned s = 0; s < 2; ++s) {
      const Operand &o = i.srcs[s];
      double x;
      if (F16) {
        uint32_t v = rd(w, o, l);
        v = unarySource(w, Ty::F16, o, (o.mods & kOpSel) ? v >> 16 : v);
        x = f16In(w, uint32_t(v));
      } else {
        x = f32Src(w, o, l);
      }
      d |= uint32_t(Signed ? snorm16(x) : unorm16(x)) << (16 * s);
    }
    wr(w, i.defs[0], l, d);
  });
}

/// v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32: D = {sat16(S1), sat16(S0)}.
template <bool Signed> void vCvtPkInt16(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    uint32_t d = 0;
    for (unsigned s = 0; s < 2; ++s) {
      uint32_t v = rd(w, i.srcs[s], l);
      uint32_t h =
          Signed ? uint16_t(std::clamp<int32_t>(int32_t(v), -32768, 32767))
                 : std::min<uint32_t>(v, 0xFFFF);
      d |= h << (16 * s);
    }
    wr(w, i.defs[0], l, d);
  });
}

/// f32 to an unsigned byte: rounded to nearest even and saturated to
/// [0, 255]; NaN gives 0.
uint32_t toU8(float x) {
  if (std::isnan(x))
    return 0;
  return uint32_t(std::clamp(std::nearbyint(double(x)), 0.0, 255.0));
}

/// v_cvt_pk_u8_f32: byte S1[1:0] of S2 replaced by u8(S0), D = the result;
/// v_cvt_pkaccum_u8_f32: the same byte of D itself replaced.
template <bool Accum> void vCvtPkU8F32(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    unsigned shift = 8 * (rd(w, i.srcs[1], l) & 3);
    uint32_t old = Accum ? rd(w, i.defs[0], l) : rd(w, i.srcs[2], l);
    uint32_t byte = toU8(f32Src(w, i.srcs[0], l));
    wr(w, i.defs[0], l, (old & ~(0xFFu << shift)) | byte << shift);
  });
}

/// v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32: {fp8(S1), fp8(S0)} rounded to
/// nearest even into word OPSEL of D, the other word kept.
template <bool Bf8> void vCvtPkFp8F32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOverflowClamp(sim, w);
  const fmt::Format &f = fp8Format(sim, Bf8);
  unsigned shift = wordSel(i) * 16;
  forLanes(w, [&](unsigned l) {
    uint32_t v = fmt::encode(f32Src(w, i.srcs[0], l), f) |
                 fmt::encode(f32Src(w, i.srcs[1], l), f) << 8;
    uint32_t old = rd(w, i.defs[0], l);
    wr(w, i.defs[0], l, (old & ~(0xFFFFu << shift)) | v << shift);
  });
}

/// v_cvt_sr_fp8_f32 / v_cvt_sr_bf8_f32: fp8(S0) with stochastic rounding
/// by the random bits S1 (fmt::encode) into byte OPSEL[3:2] of D, the
/// other bytes kept.
template <bool Bf8> void vCvtSrFp8F32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOverflowClamp(sim, w);
  const fmt::Format &f = fp8Format(sim, Bf8);
  unsigned shift = byteSel(i) * 8;
  forLanes(w, [&](unsigned l) {
    uint32_t v = fmt::encode(f32Src(w, i.srcs[0], l), f, fmt::Round::Stochastic,
                             rd(w, i.srcs[1], l));
    uint32_t old = rd(w, i.defs[0], l);
    wr(w, i.defs[0], l, (old & ~(0xFFu << shift)) | v << shift);
  });
}

/// v_cvt_sr_f16_f32 / v_cvt_sr_bf16_f32 (CDNA4): S0 with stochastic
/// rounding by S1 into word OPSEL of D, the other word kept.
template <bool Bf16> void vCvtSr16F32(Sim &sim, Wave &w, const Inst &i) {
  requireNoOverflowClamp(sim, w);
  unsigned shift = wordSel(i) * 16;
  forLanes(w, [&](unsigned l) {
    float x = f32Src(w, i.srcs[0], l);
    uint32_t rng = rd(w, i.srcs[1], l);
    uint32_t v =
        Bf16 ? fmt::encodeBF16(x, fmt::Round::Stochastic, rng)
             : f16Out(w, fmt::encodeF16(x, fmt::Round::Stochastic, rng));
    uint32_t old = rd(w, i.defs[0], l);
    wr(w, i.defs[0], l, (old & ~(0xFFFFu << shift)) | v << shift);
  });
}

void registerBinary(Semantics &table) {
  auto &h = table.handlers;
  auto &p = table.preparers;
  // {clamp, omod}: clamp modeled, omod must be 0; f32 sources NEG / ABS.
  auto clampF32 = [](const std::string &, Inst &inst) {
    return checkOperands(inst, {1, kNeg | kAbs});
  };
  auto plainF32 = [](const std::string &, Inst &inst) {
    return checkOperands(inst, {0, kNeg | kAbs});
  };
  auto plain = [](const std::string &, Inst &inst) {
    return checkOperands(inst, {0, 0});
  };
  // The f16 pknorm forms: op_sel picks source halves (modifiers); a
  // destination op_sel bit (imms[1] bit 3) is refused.
  auto pknormF16 = [](const std::string &, Inst &inst) -> std::string {
    std::string why = checkOperands(inst, {-1, kNeg | kAbs | kOpSel});
    if (why.empty() && ((inst.numImms > 0 && inst.imms[0] != 0) ||
                        (inst.numImms > 1 && (inst.imms[1] & ~3))))
      why = "clamp or destination op_sel of " + inst.name + " is not simulated";
    return why;
  };
  // fp8 packs: op_sel (imms[0]) bit 2 the word, mirrored in S0's
  // modifiers (bit 3); nothing else.
  auto fp8Pack = [](const std::string &, Inst &inst) -> std::string {
    std::string why = checkOperands(inst, {-1, kNeg | kAbs | kOpSelHi});
    if (why.empty() && (inst.numSrcs < 3 || inst.srcs[1].mods & kOpSelHi))
      why = "operands of " + inst.name + " are not simulated";
    return why;
  };
  auto fp8Sr = [](const std::string &, Inst &inst) -> std::string {
    std::string why =
        checkOperands(inst, {-1, kNeg | kAbs | kOpSel | kOpSelHi});
    if (why.empty() && inst.numImms > 0 && (inst.imms[0] & ~12))
      why = "op_sel of " + inst.name + " is not simulated";
    if (why.empty() && (inst.srcs[1].mods || inst.numSrcs < 3))
      why = "operands of " + inst.name + " are not simulated";
    return why;
  };
  h["V_CVT_PKRTZ_F16_F32_e64"] = vCvtPk16F32<0>;
  p["V_CVT_PKRTZ_F16_F32_e64"] = clampF32;
  h["V_CVT_PK_F16_F32"] = vCvtPk16F32<1>;
  p["V_CVT_PK_F16_F32"] = clampF32;
  h["V_CVT_PK_BF16_F32"] = vCvtPk16F32<2>;
  p["V_CVT_PK_BF16_F32"] = clampF32;
  h["V_CVT_PKNORM_I16_F32_e64"] = vCvtPknorm<true, false>;
  h["V_CVT_PKNORM_U16_F32_e64"] = vCvtPknorm<false, false>;
  p["V_CVT_PKNORM_I16_F32_e64"] = plainF32;
  p["V_CVT_PKNORM_U16_F32_e64"] = plainF32;
  h["V_CVT_PKNORM_I16_F16"] = vCvtPknorm<true, true>;
  h["V_CVT_PKNORM_U16_F16"] = vCvtPknorm<false, true>;
  p["V_CVT_PKNORM_I16_F16"] = pknormF16;
  p["V_CVT_PKNORM_U16_F16"] = pknormF16;
  h["V_CVT_PK_U16_U32_e64"] = vCvtPkInt16<false>;
  h["V_CVT_PK_I16_I32_e64"] = vCvtPkInt16<true>;
  p["V_CVT_PK_U16_U32_e64"] = plain;
  p["V_CVT_PK_I16_I32_e64"] = plain;
  h["V_CVT_PK_U8_F32"] = vCvtPkU8F32<false>;
  h["V_CVT_PKACCUM_U8_F32_e64"] = vCvtPkU8F32<true>;
  p["V_CVT_PK_U8_F32"] = plainF32;
  p["V_CVT_PKACCUM_U8_F32_e64"] = plainF32;
  h["V_CVT_PK_FP8_F32"] = vCvtPkFp8F32<false>;
  h["V_CVT_PK_BF8_F32"] = vCvtPkFp8F32<true>;
  p["V_CVT_PK_FP8_F32"] = fp8Pack;
  p["V_CVT_PK_BF8_F32"] = fp8Pack;
  h["V_CVT_SR_FP8_F32"] = vCvtSrFp8F32<false>;
  h["V_CVT_SR_BF8_F32"] = vCvtSrFp8F32<true>;
  h["V_CVT_SR_F16_F32"] = vCvtSr16F32<false>;
  h["V_CVT_SR_BF16_F32"] = vCvtSr16F32<true>;
  for (const char *n : {"V_CVT_SR_FP8_F32", "V_CVT_SR_BF8_F32",
                        "V_CVT_SR_F16_F32", "V_CVT_SR_BF16_F32"})
    p[n] = fp8Sr;
}

//===-- CDNA4 scaled conversions (v_cvt_scalef32_*) -----------------------===//
//
// The scale operand is an f32 whose exponent field is an E8M0 scale:
// decoding multiplies by 2^(e - 127), encoding divides by it (AMD's
// reference model of gfx950, HIP's amd_hip_ocp_host.hpp; the mantissa and
// sign of the scale are not read). Results of decoding round once, to
// nearest even, into f32, f16 or bf16 (overflow gives inf). Encodings
// round to nearest even or stochastically; fp6 and fp4 saturate. Cases
// whose result the simulator cannot vouch for fault: a NaN scale (0xFF),
// fp8/bf8 results past the largest number, inf inputs, NaN into fp6/fp4.

enum class Wide : uint8_t { F32, F16, BF16 };
enum Small : uint8_t { kFp8, kBf8, kFp6, kBf6, kFp4 };

const fmt::Format &smallFormat(Small s) {
  static const fmt::Format *const formats[] = {
      &fmt::kE4M3, &fmt::kE5M2, &fmt::kE2M3, &fmt::kE3M2, &fmt::kE2M1};
  return *formats[s];
}

/// A small code times the scale, rounded into the wide format's bits.
uint32_t scaledDecode(uint32_t code, Small s, uint32_t scale, Wide d) {
  unsigned e = (scale >> 23) & 0xFF;
  double v = e == 0xFF ? NAN
                       : std::ldexp(double(fmt::decode(code, smallFormat(s))),
                                    int(e) - 127);
  switch (d) {
  case Wide::F32:
    return asBits(float(v));
  case Wide::F16:
    return fmt::encodeF16(toOddF32(v));
  case Wide::BF16:
    return fmt::encodeBF16(toOddF32(v));
  }
  return 0;
}

/// A wide value divided by the scale, in the small format.
uint32_t scaledEncode(Sim &sim, double x, Small s, uint32_t scale, bool sr,
                      uint32_t rng) {
  unsigned e = (scale >> 23) & 0xFF;
  if (e == 0xFF)
    sim.fail("a scaled conversion with a NaN scale is not simulated");
  bool fp8 = s == kFp8 || s == kBf8;
  if (std::isinf(x) || (std::isnan(x) && !fp8))
    sim.fail("a scaled conversion of inf, or of NaN to fp6/fp4, is not "
             "simulated");
  fmt::EncodeStatus st;
  float v = float(std::ldexp(x, 127 - int(e)));
  uint32_t c = fmt::encode(
      v, smallFormat(s), sr ? fmt::Round::Stochastic : fmt::Round::NearestEven,
      rng, false, &st);
  if (st.overflow && fp8)
    sim.fail("a scaled conversion past the largest fp8/bf8 number is not "
             "simulated");
  return c;
}

/// A 16- or 32-bit wide value as a double.
double wideValue(uint32_t bits, Wide t) {
  switch (t) {
  case Wide::F32:
    return asFloat(bits);
  case Wide::F16:
    return fmt::decodeF16(uint16_t(bits));
  case Wide::BF16:
    return fmt::decodeBF16(uint16_t(bits));
  }
  return 0;
}

unsigned smallBits(Small s) { return smallFormat(s).bits(); }

/// Decoding one fp8 / bf8 (byte op_sel[1:0] of S0) to f32, or to the f16
/// in word op_sel[2] of D, the other word kept.
template <Small S, Wide D> void scaleDecode1(Sim &, Wave &w, const Inst &i) {
  unsigned byte =
      ((i.srcs[0].mods & kOpSel) ? 1 : 0) | ((i.srcs[1].mods & kOpSel) ? 2 : 0);
  unsigned word = (i.srcs[0].mods & kOpSelHi) ? 1 : 0;
  forLanes(w, [&](unsigned l) {
    uint32_t code = (rd(w, i.srcs[0], l) >> (8 * byte)) & 0xFF;
    uint32_t r = scaledDecode(code, S, rd(w, i.srcs[1], l), D);
    if (D != Wide::F32) {
      uint32_t old = rd(w, i.defs[0], l);
      r = (old & ~(0xFFFFu << (16 * word))) | r << (16 * word);
    }
    wr(w, i.defs[0], l, r);
  });
}

/// Decoding two: the fp8 / bf8 of word op_sel[0] of S0, or the fp4 of byte
/// op_sel[1:0]; D two f32 (a register pair) or two f16 / bf16.
template <Small S, Wide D> void scaleDecodePk(Sim &, Wave &w, const Inst &i) {
  unsigned shift = S == kFp4 ? 8 * (((i.srcs[0].mods & kOpSel) ? 1 : 0) |
                                    ((i.srcs[1].mods & kOpSel) ? 2 : 0))
                             : 16 * ((i.srcs[0].mods & kOpSel) ? 1 : 0);
  unsigned n = smallBits(S);
  forLanes(w, [&](unsigned l) {
    uint32_t codes = rd(w, i.srcs[0], l) >> shift, scale = rd(w, i.srcs[1], l);
    uint32_t lo = scaledDecode(codes & ((1u << n) - 1), S, scale, D);
    uint32_t hi = scaledDecode((codes >> n) & ((1u << n) - 1), S, scale, D);
    if (D == Wide::F32)
      wr64(w, i.defs[0], l, lo | uint64_t(hi) << 32);
    else
      wr(w, i.defs[0], l, lo | hi << 16);
  });
}

/// Bits [6k + 5 : 6k] of the 192 bits of a register sextuple.
uint32_t fp6At(const Wave &w, const Operand &o, unsigned l, unsigned k) {
  uint64_t lo = rd(w, o, l, 6 * k / 32);
  uint64_t hi = 6 * k / 32 + 1 < 6 ? rd(w, o, l, 6 * k / 32 + 1) : 0;
  return uint32_t(((lo | hi << 32) >> (6 * k % 32)) & 63);
}

/// Decoding 32 fp6 / bf6 packed in 6 dwords (value k at bit 6k).
template <Small S, Wide D> void scaleDecodePk32(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    uint32_t scale = rd(w, i.srcs[1], l);
    for (unsigned k = 0; k < 32; ++k) {
      uint32_t r = scaledDecode(fp6At(w, i.srcs[0], l, k), S, scale, D);
      if (D == Wide::F32)
        wr(w, i.defs[0], l, r, k);
      else if (k % 2 == 0)
        wr(w, i.defs[0], l, r, k / 2);
      else
        wr(w, i.defs[0], l, rd(w, i.defs[0], l, k / 2) | r << 16, k / 2);
    }
  });
}

/// The value `k` of a packed wide source: a dword of f32, or a half of
/// f16 / bf16.
double wideAt(const Wave &w, const Operand &o, unsigned l, unsigned k, Wide t) {
  if (t == Wide::F32)
    return wideValue(rd(w, o, l, k), t);
  return wideValue(rd(w, o, l, k / 2) >> (16 * (k % 2)), t);
}

/// Encoding two values into the word op_sel[3] of D (fp8 / bf8) or into
/// its byte op_sel[3:2] (fp4); f32 sources are S0 and S1 (scale S2),
/// 16-bit ones the halves of S0 (scale S1). The rest of D is kept.
template <Small S, Wide T>
void scaleEncodePk(Sim &sim, Wave &w, const Inst &i) {
  unsigned scaleSrc = T == Wide::F32 ? 2 : 1;
  unsigned n = smallBits(S);
  unsigned shift = S == kFp4 ? 8 * (((i.srcs[0].mods & kOpSelHi) ? 2 : 0) |
                                    ((i.srcs[scaleSrc].mods & kOpSel) ? 1 : 0))
                             : 16 * ((i.srcs[0].mods & kOpSelHi) ? 1 : 0);
  uint32_t field = ((1u << (2 * n)) - 1) << shift;
  forLanes(w, [&](unsigned l) {
    uint32_t scale = rd(w, i.srcs[scaleSrc], l);
    double a = wideAt(w, i.srcs[0], l, 0, T);
    double b = T == Wide::F32 ? wideAt(w, i.srcs[1], l, 0, T)
                              : wideAt(w, i.srcs[0], l, 1, T);
    uint32_t v = scaledEncode(sim, a, S, scale, false, 0) |
                 scaledEncode(sim, b, S, scale, false, 0) << n;
    uint32_t old = rd(w, i.defs[0], l);
    wr(w, i.defs[0], l, (old & ~field) | ((v << shift) & field));
  });
}

/// Stochastic encodings: one fp8 / bf8 (S0; for 16-bit sources the half
/// op_sel[0] picks) or two fp4 (S0 a pair of f32 or two halves) into byte
/// op_sel[3:2] of D (the rest kept), S1 the random bits, S2 the scale.
template <Small S, Wide T>
void scaleEncodeSr(Sim &sim, Wave &w, const Inst &i) {
  unsigned shift = 8 * (((i.srcs[0].mods & kOpSelHi) ? 2 : 0) |
                        ((i.srcs[2].mods & kOpSel) ? 1 : 0));
  unsigned n = smallBits(S);
  uint32_t field = 0xFFu << shift;
  forLanes(w, [&](unsigned l) {
    uint32_t rng = rd(w, i.srcs[1], l), scale = rd(w, i.srcs[2], l);
    uint32_t v;
    if (S == kFp4) {
      v = scaledEncode(sim, wideAt(w, i.srcs[0], l, 0, T), S, scale, true,
                       rng) |
          scaledEncode(sim, wideAt(w, i.srcs[0], l, 1, T), S, scale, true, rng)
              << n;
    } else {
      unsigned k = T != Wide::F32 && (i.srcs[0].mods & kOpSel) ? 1 : 0;
      v = scaledEncode(sim, wideAt(w, i.srcs[0], l, k, T), S, scale, true, rng);
    }
    uint32_t old = rd(w, i.defs[0], l);
    wr(w, i.defs[0], l, (old & ~field) | ((v << shift) & field));
  });
}

/// Encoding 32 values into fp6 / bf6 (value k at bit 6k of 6 dwords):
/// pk32 from 16-bit sources (S0, scale S1), 2xpk16 from two groups of 16
/// f32 (S0, S1, scale S2), sr_pk32 with random bits (S1, scale S2).
template <Small S, Wide T, int Kind>
void scaleEncodePk32(Sim &sim, Wave &w, const Inst &i) {
  unsigned scaleSrc = Kind == 0 ? 1 : 2;
  forLanes(w, [&](unsigned l) {
    uint32_t scale = rd(w, i.srcs[scaleSrc], l);
    uint32_t rng = Kind == 2 ? rd(w, i.srcs[1], l) : 0;
    uint32_t out[7] = {0, 0, 0, 0, 0, 0, 0};
    for (unsigned k = 0; k < 32; ++k) {
      double x = Kind == 1 ? wideAt(w, i.srcs[k / 16], l, k % 16, T)
                           : wideAt(w, i.srcs[0], l, k, T);
      uint64_t c = scaledEncode(sim, x, S, scale, Kind == 2, rng);
      unsigned bit = 6 * k;
      uint64_t placed = c << (bit % 32);
      out[bit / 32] |= uint32_t(placed);
      out[bit / 32 + 1] |= uint32_t(placed >> 32);
    }
    for (unsigned d = 0; d < 6; ++d)
      wr(w, i.defs[0], l, out[d], d);
  });
}

void registerScaled(Semantics &table) {
  auto &h = table.handlers;
  auto &p = table.preparers;
  // Only op_sel bits reach these (as source modifiers); neg and abs do
  // not, and clamp is not an operand.
  auto opSelOnly = [](const std::string &, Inst &inst) {
    return checkOperands(inst, {-1, kOpSel | kOpSelHi});
  };
  auto add = [&](const std::string &n, Handler fn) {
    h["V_CVT_SCALEF32_" + n] = fn;
    p["V_CVT_SCALEF32_" + n] = opSelOnly;
  };
  add("F32_FP8", scaleDecode1<kFp8, Wide::F32>);
  add("F32_BF8", scaleDecode1<kBf8, Wide::F32>);
  add("F16_FP8", scaleDecode1<kFp8, Wide::F16>);
  add("F16_BF8", scaleDecode1<kBf8, Wide::F16>);
  add("PK_F32_FP8", scaleDecodePk<kFp8, Wide::F32>);
  add("PK_F32_BF8", scaleDecodePk<kBf8, Wide::F32>);
  add("PK_F16_FP8", scaleDecodePk<kFp8, Wide::F16>);
  add("PK_F16_BF8", scaleDecodePk<kBf8, Wide::F16>);
  add("PK_BF16_FP8", scaleDecodePk<kFp8, Wide::BF16>);
  add("PK_BF16_BF8", scaleDecodePk<kBf8, Wide::BF16>);
  add("PK_F32_FP4", scaleDecodePk<kFp4, Wide::F32>);
  add("PK_F16_FP4", scaleDecodePk<kFp4, Wide::F16>);
  add("PK_BF16_FP4", scaleDecodePk<kFp4, Wide::BF16>);
  add("PK32_F32_FP6", scaleDecodePk32<kFp6, Wide::F32>);
  add("PK32_F32_BF6", scaleDecodePk32<kBf6, Wide::F32>);
  add("PK32_F16_FP6", scaleDecodePk32<kFp6, Wide::F16>);
  add("PK32_F16_BF6", scaleDecodePk32<kBf6, Wide::F16>);
  add("PK32_BF16_FP6", scaleDecodePk32<kFp6, Wide::BF16>);
  add("PK32_BF16_BF6", scaleDecodePk32<kBf6, Wide::BF16>);
  add("PK_FP8_F32", scaleEncodePk<kFp8, Wide::F32>);
  add("PK_BF8_F32", scaleEncodePk<kBf8, Wide::F32>);
  add("PK_FP8_F16", scaleEncodePk<kFp8, Wide::F16>);
  add("PK_BF8_F16", scaleEncodePk<kBf8, Wide::F16>);
  add("PK_FP8_BF16", scaleEncodePk<kFp8, Wide::BF16>);
  add("PK_BF8_BF16", scaleEncodePk<kBf8, Wide::BF16>);
  add("PK_FP4_F32", scaleEncodePk<kFp4, Wide::F32>);
  add("PK_FP4_F16", scaleEncodePk<kFp4, Wide::F16>);
  add("PK_FP4_BF16", scaleEncodePk<kFp4, Wide::BF16>);
  add("SR_FP8_F32", scaleEncodeSr<kFp8, Wide::F32>);
  add("SR_BF8_F32", scaleEncodeSr<kBf8, Wide::F32>);
  add("SR_FP8_F16", scaleEncodeSr<kFp8, Wide::F16>);
  add("SR_BF8_F16", scaleEncodeSr<kBf8, Wide::F16>);
  add("SR_FP8_BF16", scaleEncodeSr<kFp8, Wide::BF16>);
  add("SR_BF8_BF16", scaleEncodeSr<kBf8, Wide::BF16>);
  add("SR_PK_FP4_F32", scaleEncodeSr<kFp4, Wide::F32>);
  add("SR_PK_FP4_F16", scaleEncodeSr<kFp4, Wide::F16>);
  add("SR_PK_FP4_BF16", scaleEncodeSr<kFp4, Wide::BF16>);
  add("PK32_FP6_F16", scaleEncodePk32<kFp6, Wide::F16, 0>);
  add("PK32_BF6_F16", scaleEncodePk32<kBf6, Wide::F16, 0>);
  add("PK32_FP6_BF16", scaleEncodePk32<kFp6, Wide::BF16, 0>);
  add("PK32_BF6_BF16", scaleEncodePk32<kBf6, Wide::BF16, 0>);
  add("2XPK16_FP6_F32", scaleEncodePk32<kFp6, Wide::F32, 1>);
  add("2XPK16_BF6_F32", scaleEncodePk32<kBf6, Wide::F32, 1>);
  add("SR_PK32_FP6_F32", scaleEncodePk32<kFp6, Wide::F32, 2>);
  add("SR_PK32_BF6_F32", scaleEncodePk32<kBf6, Wide::F32, 2>);
  add("SR_PK32_FP6_F16", scaleEncodePk32<kFp6, Wide::F16, 2>);
  add("SR_PK32_BF6_F16", scaleEncodePk32<kBf6, Wide::F16, 2>);
  add("SR_PK32_FP6_BF16", scaleEncodePk32<kFp6, Wide::BF16, 2>);
  add("SR_PK32_BF6_BF16", scaleEncodePk32<kBf6, Wide::BF16, 2>);
}

void registerPacked(Semantics &table) {
  auto &h = table.handlers;
  auto &p = table.preparers;
  // VOP3P: clamp (imms[0]) modeled; op_sel, op_sel_hi, neg_lo and neg_hi
  // arrive as source modifiers.
  auto packedFloat = [](const std::string &, Inst &inst) {
    std::string why = checkVop3p(inst, kNeg | kNegHi | kOpSel | kOpSelHi, true);
    return why.empty() ? checkPackedConstants(inst, 3) : why;
  };
  auto packedInt = [](const std::string &, Inst &inst) {
    std::string why = checkVop3p(inst, kOpSel | kOpSelHi, true);
    return why.empty() ? checkPackedConstants(inst, 3) : why;
  };
  auto packedNoClamp = [](const std::string &, Inst &inst) {
    std::string why = checkVop3p(inst, kOpSel | kOpSelHi, false);
    return why.empty() ? checkPackedConstants(inst, 3) : why;
  };
  // v_pk_mov_b32 reads one dword of each source, the one OP_SEL_0 names.
  auto pkMov = [](const std::string &, Inst &inst) -> std::string {
    std::string why = checkVop3p(inst, kOpSel | kOpSelHi, false);
    for (unsigned k = 0; why.empty() && k < inst.numSrcs; ++k)
      if (inst.srcs[k].file == File::Imm && inst.srcs[k].imm != 0 &&
          (inst.srcs[k].mods & kOpSel))
        why = "a nonzero inline constant read in the high dword of a packed "
              "operand is not simulated";
    return why;
  };
  struct P16 {
    const char *name;
    Handler fn;
    Preparer prep;
  };
  const P16 p16[] = {
      {"V_PK_ADD_F16", packed16<2, true, pkAddF16>, packedFloat},
      {"V_PK_MUL_F16", packed16<2, true, pkMulF16>, packedFloat},
      {"V_PK_FMA_F16", packed16<3, true, pkFmaF16>, packedFloat},
      {"V_PK_MIN_F16", packed16<2, true, pkMinF16>, packedFloat},
      {"V_PK_MAX_F16", packed16<2, true, pkMaxF16>, packedFloat},
      {"V_PK_MAXIMUM3_F16", packed16<3, true, pkMaximum3F16>, packedFloat},
      {"V_PK_MINIMUM3_F16", packed16<3, true, pkMinimum3F16>, packedFloat},
      {"V_PK_ADD_U16", packed16<2, false, pkAddU16>, packedInt},
      {"V_PK_SUB_U16", packed16<2, false, pkSubU16>, packedInt},
      {"V_PK_ADD_I16", packed16<2, false, pkAddI16>, packedInt},
      {"V_PK_SUB_I16", packed16<2, false, pkSubI16>, packedInt},
      {"V_PK_MAD_U16", packed16<3, false, pkMadU16>, packedInt},
      {"V_PK_MAD_I16", packed16<3, false, pkMadI16>, packedInt},
      {"V_PK_MUL_LO_U16", packed16<2, false, pkMulLoU16>, packedNoClamp},
      {"V_PK_MIN_U16", packed16<2, false, pkMinU16>, packedNoClamp},
      {"V_PK_MAX_U16", packed16<2, false, pkMaxU16>, packedNoClamp},
      {"V_PK_MIN_I16", packed16<2, false, pkMinI16>, packedNoClamp},
      {"V_PK_MAX_I16", packed16<2, false, pkMaxI16>, packedNoClamp},
      {"V_PK_LSHLREV_B16", packed16<2, false, pkLshlrevB16>, packedNoClamp},
      {"V_PK_LSHRREV_B16", packed16<2, false, pkLshrrevB16>, packedNoClamp},
      {"V_PK_ASHRREV_I16", packed16<2, false, pkAshrrevI16>, packedNoClamp},
      {"V_PK_ADD_F32", vPkAddF32, packedFloat},
      {"V_PK_MUL_F32", vPkMulF32, packedFloat},
      {"V_PK_FMA_F32", vPkFmaF32, packedFloat},
      {"V_PK_MOV_B32", vPkMovB32, pkMov},
  };
  for (const P16 &e : p16) {
    h[e.name] = e.fn;
    p[e.name] = e.prep;
  }
  // v_pk_fmac_f16 (VOP2): e32, e64 with clamp, DPP; no source modifiers.
  h["V_PK_FMAC_F16_e32"] = laneForm<pkFmacLane, true>;
  h["V_PK_FMAC_F16_e64"] = laneForm<pkFmacLane, true>;
  h["V_PK_FMAC_F16_dpp"] = laneDpp<pkFmacLane, 1>;
  p["V_PK_FMAC_F16_e32"] = [](const std::string &, Inst &inst) {
    return checkOperands(inst, {0, 0});
  };
  p["V_PK_FMAC_F16_e64"] = [](const std::string &, Inst &inst) {
    return checkOperands(inst, {1, 0});
  };
}

void registerMixAndDots(Semantics &table) {
  auto &h = table.handlers;
  auto &p = table.preparers;
  // v_fma_mix*: NEG is neg, NEG_HI abs, OP_SEL_HI "f16", OP_SEL the half.
  auto mix = [](const std::string &, Inst &inst) {
    std::string why = checkVop3p(inst, kNeg | kNegHi | kOpSel | kOpSelHi, true);
    return why.empty() ? checkPackedConstants(inst, 3) : why;
  };
  h["V_FMA_MIX_F32"] = vFmaMix<0>;
  h["V_FMA_MIXLO_F16"] = vFmaMix<1>;
  h["V_FMA_MIXHI_F16"] = vFmaMix<2>;
  for (const char *n : {"V_FMA_MIX_F32", "V_FMA_MIXLO_F16", "V_FMA_MIXHI_F16"})
    p[n] = mix;

  // Dot products: clamp modeled; op_sel_hi must keep its default (each
  // source whole) and nothing else is set.
  auto dot = [](const std::string &, Inst &inst) -> std::string {
    for (unsigned k = 0; k < inst.numSrcs; ++k) {
      if (inst.srcs[k].mods != kOpSelHi && inst.srcs[k].mods != 0)
        return "op_sel/neg modifiers of " + inst.name + " are not simulated";
      if (k < 2 && inst.srcs[k].file == File::Imm)
        return "an inline constant as packed source of " + inst.name +
               " is not simulated";
    }
    return checkVop3p(inst, kOpSelHi, true);
  };
  struct D {
    const char *name;
    Handler fn;
  };
  const D dots[] = {
      {"V_DOT2_F32_F16", laneForm<dot2F32Lane<false>, false>},
      {"V_DOT2_F32_BF16", laneForm<dot2F32Lane<true>, false>},
      {"V_DOT2C_F32_F16_e32", laneForm<dot2F32Lane<false>, true>},
      {"V_DOT2C_F32_F16_e64", laneForm<dot2F32Lane<false>, true>},
      {"V_DOT2C_F32_BF16_e32", laneForm<dot2F32Lane<true>, true>},
      {"V_DOT2C_F32_BF16_e64", laneForm<dot2F32Lane<true>, true>},
      {"V_DOT2_I32_I16", laneForm<dotIntLane<16, true>, false, false>},
      {"V_DOT2_U32_U16", laneForm<dotIntLane<16, false>, false, false>},
      {"V_DOT2C_I32_I16_e32", laneForm<dotIntLane<16, true>, true, false>},
      {"V_DOT2C_I32_I16_e64", laneForm<dotIntLane<16, true>, true, false>},
      {"V_DOT4_I32_I8", laneForm<dotIntLane<8, true>, false, false>},
      {"V_DOT4_U32_U8", laneForm<dotIntLane<8, false>, false, false>},
      {"V_DOT4C_I32_I8_e32", laneForm<dotIntLane<8, true>, true, false>},
      {"V_DOT4C_I32_I8_e64", laneForm<dotIntLane<8, true>, true, false>},
      {"V_DOT8_I32_I4", laneForm<dotIntLane<4, true>, false, false>},
      {"V_DOT8_U32_U4", laneForm<dotIntLane<4, false>, false, false>},
      {"V_DOT8C_I32_I4_e32", laneForm<dotIntLane<4, true>, true, false>},
      {"V_DOT8C_I32_I4_e64", laneForm<dotIntLane<4, true>, true, false>},
  };
  for (const D &e : dots) {
    h[e.name] = e.fn;
    p[e.name] = dot;
  }
  // DPP forms of the c dot products: srcs = {src0, src1, D}.
  auto dpp = [](const std::string &, Inst &inst) -> std::string {
    if (inst.numImms != 4 || dppLane(uint32_t(inst.imms[0]), 0) == -2 ||
        inst.srcs[0].mods || inst.srcs[1].mods)
      return "DPP operands of " + inst.name + " are not simulated";
    return "";
  };
  const D dpps[] = {
      {"V_DOT2C_F32_F16_dpp", laneDpp<dot2F32Lane<false>, 0>},
      {"V_DOT2C_F32_BF16_dpp", laneDpp<dot2F32Lane<true>, 0>},
      {"V_DOT2C_I32_I16_dpp", laneDpp<dotIntLane<16, true>, 0, false>},
      {"V_DOT4C_I32_I8_dpp", laneDpp<dotIntLane<8, true>, 0, false>},
      {"V_DOT8C_I32_I4_dpp", laneDpp<dotIntLane<4, true>, 0, false>},
  };
  for (const D &e : dpps) {
    h[e.name] = e.fn;
    p[e.name] = dpp;
  }
  p["V_PK_FMAC_F16_dpp"] = [](const std::string &, Inst &inst) -> std::string {
    if (inst.numImms != 4 || dppLane(uint32_t(inst.imms[0]), 0) == -2 ||
        inst.numSrcs != 3 || inst.srcs[1].mods || inst.srcs[2].mods)
      return "DPP operands of " + inst.name + " are not simulated";
    return "";
  };
}

} // namespace

void hk::rt::isa::registerConvert(Semantics &table) {
  registerPacked(table);
  registerMixAndDots(table);
  registerUnary(table);
  registerBinary(table);
  registerScaled(table);
}
