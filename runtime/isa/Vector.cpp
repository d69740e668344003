//===- Vector.cpp - VALU ----------------------------------------------------===
//
// Semantics of VALU: VOP1, VOP2, VOPC and VOP3 in their e32, e64, SDWA and DPP
// forms, written from AMD's CDNA3 and CDNA4 ISA reference guides. Each
// operation is one lane function (VectorForms.h): VectorOps.def lists them
// with the lane functions defined here, and the compares are made from their
// condition codes below. The forms of an operation are derived from it by
// the form handlers at the end of this file.
//
// Float mode (the wave's MODE register, set from COMPUTE_PGM_RSRC1):
// FP_ROUND [1:0] for f32 and [3:2] for f16/f64 (0 nearest even, 1 towards
// +inf, 2 towards -inf, 3 towards zero) is the host's rounding mode while
// the operation runs; FP_DENORM [5:4] for f32 and [7:6] for f16/f64 (bit 0
// allows input denormals, bit 1 output denormals; otherwise they are
// flushed to a zero of the same sign); DX10_CLAMP [8] makes clamp turn a NaN
// into 0; IEEE [9] selects the IEEE behaviour of min/max on signaling NaNs.
//
// Transcendentals (exp, log, rcp, rsq, sqrt, sin, cos) are computed
// correctly rounded; the hardware is within 1 ULP of that.
//===----------------------------------------------------------------------===//

#include "VectorForms.h"

#include <cfenv>
#include <cmath>
#include <deque>
#include <limits>

using namespace hk::rt;
using namespace hk::rt::isa;
using namespace hk::rt::isa::valu;

namespace {

//===-- Float formats -----------------------------------------------------===//

inline float f32(uint64_t b) { return asFloat(uint32_t(b)); }
inline uint64_t b32(float f) { return asBits(f); }
inline double f64(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
inline uint64_t b64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

/// An f16 value, exactly, as a double.
double f16(uint64_t h) {
  unsigned e = (h >> 10) & 31, m = h & 1023;
  double v = e == 31  ? (m ? std::numeric_limits<double>::quiet_NaN()
                           : std::numeric_limits<double>::infinity())
             : e == 0 ? std::ldexp(double(m), -24)
                      : std::ldexp(double(m | 1024), int(e) - 25);
  return (h >> 15 & 1) ? -v : v;
}

/// `x` rounded to f16 in the host's current rounding mode (IEEE 754: an
/// overflow gives infinity, or the largest finite value when rounding
/// towards zero or away from that infinity); a NaN becomes the quiet NaN.
uint64_t h16(double x) {
  uint64_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x))
    return 0x7E00;
  if (std::isinf(x))
    return sign | 0x7C00;
  if (x == 0)
    return sign;
  int e = std::max(-14, std::min(15, std::ilogb(x)));
  double m = std::fabs(std::nearbyint(std::ldexp(x, 10 - e)));
  double v = std::ldexp(m, e - 10);
  if (v > 65504.0) {
    int r = fegetround();
    bool toMax = r == FE_TOWARDZERO || (r == FE_UPWARD && sign) ||
                 (r == FE_DOWNWARD && !sign);
    return sign | (toMax ? 0x7BFF : 0x7C00);
  }
  if (v < std::ldexp(1.0, -14))
    return sign | uint64_t(std::ldexp(v, 24));
  int ve = std::ilogb(v);
  return sign | uint64_t(ve + 15) << 10 |
         (uint64_t(std::ldexp(v, 10 - ve)) & 1023);
}

/// fma rounded once to f16: the product of two f16 values is exact in
/// double; the sum is rounded to odd in double (53 bits, more than twice
/// 11 + 1), so that the final rounding to f16 is the only one that counts.
uint64_t fmaH(double a, double b, double c) {
  double p = a * b, s = p + c;
  if (std::isfinite(s)) {
    // Two-sum: the exact error of s = p + c.
    double bb = s - p, err = (p - (s - bb)) + (c - bb);
    if (err != 0 && !(b64(s) & 1))
      s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  }
  return h16(s);
}

bool isNan(Ty t, uint64_t b) {
  switch (t) {
  case F16:
    return (b & 0x7FFF) > 0x7C00;
  case F32:
    return (b & 0x7FFFFFFF) > 0x7F800000;
  default:
    return (b & ~(uint64_t(1) << 63)) > 0x7FF0000000000000;
  }
}
uint64_t quietBit(Ty t) {
  return t == F16 ? 0x200 : t == F32 ? 0x400000 : uint64_t(1) << 51;
}
bool isSignalingNan(Ty t, uint64_t b) {
  return isNan(t, b) && !(b & quietBit(t));
}
uint64_t signBit(Ty t) { return uint64_t(1) << (widthOf(t) - 1); }
uint64_t widthMask(unsigned bits) {
  return bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

/// The value of a float of type t as a double (exact).
double value(Ty t, uint64_t b) {
  return t == F16 ? f16(b) : t == F32 ? double(f32(b)) : f64(b);
}

/// Denormal: exponent field 0, mantissa not 0.
bool isDenormal(Ty t, uint64_t b) {
  uint64_t mag = b & ~signBit(t);
  uint64_t minNormal = t == F16   ? 0x400
                       : t == F32 ? 0x800000
                                  : uint64_t(1) << 52;
  return mag != 0 && mag < minNormal;
}

/// MODE.FP_DENORM for the type: bit 0 allows input, bit 1 output denormals.
unsigned denormMode(uint32_t mode, Ty t) {
  return t == F32 ? (mode >> 4) & 3 : (mode >> 6) & 3;
}

//===-- min / max (CDNA3/CDNA4 ISA, V_MIN_F32 and V_MAX_F32)
//---------------===//

/// V_MAX_F32's definition, for any float type: in IEEE mode a signaling NaN
/// input gives it quieted; otherwise a NaN input gives the other input;
/// +0 is larger than -0; IEEE mode picks S0 on ties, non-IEEE mode S1.
template <Ty T> uint64_t maxT(Lane &c, uint64_t a, uint64_t b) {
  if (c.ieee() && isSignalingNan(T, a))
    return a | quietBit(T);
  if (c.ieee() && isSignalingNan(T, b))
    return b | quietBit(T);
  if (isNan(T, a))
    return b;
  if (isNan(T, b))
    return a;
  double x = value(T, a), y = value(T, b);
  if (x == 0 && y == 0 && (a & signBit(T)) != (b & signBit(T)))
    return (a & signBit(T)) ? b : a;
  return (c.ieee() ? x >= y : x > y) ? a : b;
}
/// V_MIN_F32's definition, for any float type (-0 smaller than +0).
template <Ty T> uint64_t minT(Lane &c, uint64_t a, uint64_t b) {
  if (c.ieee() && isSignalingNan(T, a))
    return a | quietBit(T);
  if (c.ieee() && isSignalingNan(T, b))
    return b | quietBit(T);
  if (isNan(T, a))
    return b;
  if (isNan(T, b))
    return a;
  double x = value(T, a), y = value(T, b);
  if (x == 0 && y == 0 && (a & signBit(T)) != (b & signBit(T)))
    return (a & signBit(T)) ? a : b;
  return x < y ? a : b;
}
/// V_MED3_F32: with a NaN input, min3; otherwise the median, found as the
/// max of the two inputs other than the max3.
template <Ty T> uint64_t med3T(Lane &c, uint64_t a, uint64_t b, uint64_t d) {
  if (isNan(T, a) || isNan(T, b) || isNan(T, d))
    return minT<T>(c, minT<T>(c, a, b), d);
  uint64_t m = maxT<T>(c, maxT<T>(c, a, b), d);
  double v = value(T, m);
  if (v == value(T, a))
    return maxT<T>(c, b, d);
  if (v == value(T, b))
    return maxT<T>(c, a, d);
  return maxT<T>(c, a, b);
}
/// IEEE 754-2019 maximum/minimum (v_maximum3_f32, v_minimum3_f32 of CDNA4):
/// a NaN input gives a quiet NaN, -0 is smaller than +0.
uint64_t maximumF32(uint64_t a, uint64_t b, bool max) {
  if (isNan(F32, a))
    return a | quietBit(F32);
  if (isNan(F32, b))
    return b | quietBit(F32);
  float x = f32(a), y = f32(b);
  if (x == y)
    return max ? (a & b) : (a | b); // only the signs of zeros differ
  return (max ? x > y : x < y) ? a : b;
}

//===-- Rounding helpers --------------------------------------------------===//

/// V_RNDNE_*: to the nearest integer, ties to even, in any rounding mode.
double roundEven(double x) {
  double f = std::floor(x), d = x - f;
  if (d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0))
    f += 1;
  return f == 0 ? std::copysign(0.0, x) : f;
}

/// V_FRACT_*: S0 - floor(S0), at most the largest value below 1; an
/// infinity or NaN gives NaN.
double fract(double x, double below1) {
  if (!std::isfinite(x))
    return std::numeric_limits<double>::quiet_NaN();
  return std::min(x - std::floor(x), below1);
}

/// V_FREXP_MANT_*: the significand in [0.5, 1); infinities and NaN pass.
double frexpMant(double x) {
  if (!std::isfinite(x) || x == 0)
    return x;
  int e;
  return std::frexp(x, &e);
}
/// V_FREXP_EXP_*: the exponent of frexp; 0 for infinities and NaN.
int frexpExp(double x) {
  if (!std::isfinite(x) || x == 0)
    return 0;
  int e;
  std::frexp(x, &e);
  return e;
}

constexpr double kTwoPi = 6.283185307179586476925286766559;

//===-- Integer helpers ---------------------------------------------------===//

inline int64_t sx(uint64_t v, unsigned bits) {
  return int64_t(v << (64 - bits)) >> (64 - bits);
}
uint64_t bfeU(uint64_t v, uint64_t off, uint64_t width) {
  off &= 31;
  width &= 31;
  if (width == 0)
    return 0;
  return (uint32_t(v) >> off) & ((uint64_t(1) << width) - 1);
}
uint64_t bfeI(uint64_t v, uint64_t off, uint64_t width) {
  off &= 31;
  width &= 31;
  if (width == 0)
    return 0;
  if (off + width < 32)
    return uint64_t(sx(uint32_t(v) >> off, unsigned(width)));
  return uint64_t(int64_t(int32_t(v) >> off));
}
/// V_FFBH_U32: the count of leading zeros, -1 for 0.
uint64_t ffbh(uint32_t v) { return v ? __builtin_clz(v) : 0xFFFFFFFFu; }
/// V_FFBH_I32: the position, from bit 31 as 0, of the first bit that
/// differs from the sign; -1 for 0 and -1.
uint64_t ffbhI(uint32_t v) {
  if (v == 0 || v == 0xFFFFFFFFu)
    return 0xFFFFFFFFu;
  return __builtin_clz(int32_t(v) < 0 ? ~v : v);
}
uint64_t ffbl(uint32_t v) { return v ? __builtin_ctz(v) : 0xFFFFFFFFu; }
uint32_t brev(uint32_t v) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 32; ++i)
    r |= ((v >> i) & 1) << (31 - i);
  return r;
}
/// V_SAD_U8 and V_MSAD_U8: the sum of the byte differences (msad skips
/// the bytes where S1 is 0), plus S2.
uint64_t sadU8(uint64_t a, uint64_t b, uint64_t c, bool masked) {
  uint64_t s = uint32_t(c);
  for (unsigned i = 0; i < 32; i += 8) {
    int x = int((a >> i) & 0xFF), y = int((b >> i) & 0xFF);
    if (!masked || y != 0)
      s += uint64_t(std::abs(x - y));
  }
  return s;
}
/// V_LERP_U8: each byte ((S0 + S1 + S2[bit 0 of that byte]) >> 1).
uint64_t lerpU8(uint64_t a, uint64_t b, uint64_t c) {
  uint32_t d = 0;
  for (unsigned i = 0; i < 32; i += 8)
    d |= uint32_t((((a >> i) & 0xFF) + ((b >> i) & 0xFF) + ((c >> i) & 1)) >> 1)
         << i;
  return d;
}
/// V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8: four (masked) SADs of S1 against
/// the byte windows S0[8k+31:8k], each plus S2's 16-bit field k and
/// truncated to 16 bits.
uint64_t qsad(uint64_t a, uint64_t b, uint64_t c, bool masked) {
  uint64_t r = 0;
  for (unsigned k = 0; k < 4; ++k)
    r |= (sadU8(a >> (8 * k), b, (c >> (16 * k)) & 0xFFFF, masked) & 0xFFFF)
         << (16 * k);
  return r;
}
/// V_CUBEID/SC/TC/MA_F32: the cube map face of (x, y, z) = (S0, S1, S2):
/// z major if |z| >= |x| and |z| >= |y|, else y major if |y| >= |x|, else
/// x major. Face id 4/5 (z), 2/3 (y), 0/1 (x), odd for negative; sc and
/// tc the face coordinates, ma twice the major coordinate.
uint64_t cube(uint64_t x, uint64_t y, uint64_t z, int which) {
  float fx = f32(x), fy = f32(y), fz = f32(z);
  int axis = std::fabs(fz) >= std::fabs(fx) && std::fabs(fz) >= std::fabs(fy)
                 ? 2
             : std::fabs(fy) >= std::fabs(fx) ? 1
                                              : 0;
  float v[3] = {fx, fy, fz};
  float major = v[axis];
  switch (which) {
  case 0:
    return b32(float(2 * axis + (major < 0 ? 1 : 0)));
  case 1: // sc
    return b32(axis == 2   ? (fz < 0 ? -fx : fx)
               : axis == 1 ? fx
                           : (fx < 0 ? fz : -fz));
  case 2: // tc
    return b32(axis == 1 ? (fy < 0 ? -fz : fz) : -fy);
  default:
    return b32(major * 2.0f);
  }
}

/// V_SAT_PK_U8_I16: the two i16 halves saturated to u8, packed in the low
/// 16 bits.
uint64_t satPkU8(uint64_t a) {
  auto sat = [](int v) { return uint64_t(std::max(0, std::min(255, v))); };
  return sat(int16_t(a)) | sat(int16_t(a >> 16)) << 8;
}
/// V_ASHR_PK_I8_I32 / V_ASHR_PK_U8_I32 (CDNA4): S0 and S1 shifted right
/// arithmetically by S2[4:0], each saturated to i8 (u8), packed S0 low.
uint64_t ashrPk(uint64_t a, uint64_t b, uint64_t c, bool unsig) {
  auto sat = [&](int32_t v) {
    int lo = unsig ? 0 : -128, hi = unsig ? 255 : 127;
    return uint64_t(uint8_t(std::max(lo, std::min(hi, v))));
  };
  unsigned s = unsigned(c) & 31;
  return sat(int32_t(a) >> s) | sat(int32_t(b) >> s) << 8;
}

} // namespace

//===-- The operations ----------------------------------------------------===//

namespace {

#define FN(EXPR)                                                               \
  [](Lane &c, uint64_t a, uint64_t b, uint64_t d) -> uint64_t { return (EXPR); }
#define S1(T) {T, T, T}
#define S2(T, U) {T, U, U}
#define S3(T, U, V) {T, U, V}

// f32 as the host computes it (IEEE 754, in the rounding mode of MODE).
inline float F(uint64_t b) { return f32(b); }
inline double D(uint64_t b) { return f64(b); }
inline double H(uint64_t b) { return f16(b); }
/// An f32 result computed in double, rounded once to f32.
inline uint64_t RF(double v) { return b32(float(v)); }

/// V_MUL_LEGACY_F32: as V_MUL_F32, but 0 times anything (inf, NaN) is +0.
uint64_t mulLegacy(uint64_t a, uint64_t b) {
  if (F(a) == 0 || F(b) == 0)
    return 0;
  return b32(F(a) * F(b));
}

/// V_DIV_FIXUP_*: the special cases of IEEE division (NaN, infinities,
/// zeros) give their IEEE results, otherwise |S0| with the sign of
/// S2 / S1. S0 is the quotient, S1 the denominator, S2 the numerator.
double divFixup(double q, double den, double num) {
  if (std::isnan(den) || std::isnan(num) || std::isinf(den) ||
      std::isinf(num) || den == 0 || num == 0)
    return num / den;
  return std::copysign(std::fabs(q),
                       std::signbit(den) != std::signbit(num) ? -1.0 : 1.0);
}

/// V_DIV_SCALE_F32/F64 D, VCC, S0, S1 (denominator), S2 (numerator), the
/// first step of IEEE division: both operands scaled together by 2^+-64
/// (2^+-128 for f64) when the numerator is tiny or the denominator
/// denormal, or its reciprocal would be. The one-sided scaling for
/// quotients at the ends of the range (VCC set for v_div_fmas) is not
/// simulated: it is a fault.
template <Ty T> uint64_t divScale(Lane &c, uint64_t a, uint64_t b, uint64_t d) {
  bool isF = T == F32;
  double s0 = value(T, a), s1 = value(T, b), s2 = value(T, d);
  int scale = isF ? 64 : 128, mant = isF ? 23 : 52, emax = isF ? 96 : 768;
  auto expField = [&](uint64_t x) {
    return isF ? int((x >> 23) & 0xFF) : int((x >> 52) & 0x7FF);
  };
  auto out = [&](double v) { return isF ? RF(v) : b64(v); };
  if (std::isnan(s1) || std::isnan(s2) || std::isinf(s1) || std::isinf(s2))
    return a;
  if (s1 == 0 || s2 == 0)
    return out(std::numeric_limits<double>::quiet_NaN());
  bool s1Denorm = isDenormal(T, b);
  double q = isF ? double(float(s2) / float(s1)) : s2 / s1;
  double rcp = isF ? double(1.0f / float(s1)) : 1.0 / s1;
  if (expField(d) - expField(b) >= emax ||
      (!s1Denorm && isDenormal(T, isF ? b32(float(q)) : b64(q))))
    c.sim.fail("v_div_scale of a quotient near the end of the range "
               "(one-sided scaling through VCC) is not simulated");
  if (s1Denorm)
    return out(std::ldexp(s0, scale));
  if (isDenormal(T, isF ? b32(float(rcp)) : b64(rcp)))
    return out(std::ldexp(s0, -scale));
  if (expField(d) <= mant)
    return out(std::ldexp(s0, scale));
  return a;
}

/// V_DIV_FMAS_*: fma(S0, S1, S2), scaled back when VCC says v_div_scale
/// scaled one side (never, as simulated: that is a fault).
template <Ty T> uint64_t divFmas(Lane &c, uint64_t a, uint64_t b, uint64_t d) {
  if (c.carryIn)
    c.sim.fail("v_div_fmas with VCC set (one-sided division scaling) is not "
               "simulated");
  return T == F32 ? b32(std::fma(F(a), F(b), F(d)))
                  : b64(std::fma(D(a), D(b), D(d)));
}

/// The class of a float for v_cmp_class: bit 0 signaling NaN, 1 quiet NaN,
/// 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal,
/// 9 +inf.
template <Ty T> unsigned floatClass(uint64_t x) {
  bool neg = x & signBit(T);
  if (isNan(T, x))
    return isSignalingNan(T, x) ? 0 : 1;
  double v = value(T, x);
  if (std::isinf(v))
    return neg ? 2 : 9;
  if (v == 0)
    return neg ? 5 : 6;
  if (isDenormal(T, x))
    return neg ? 4 : 7;
  return neg ? 3 : 8;
}

/// Float compares: F, LT, EQ, LE, GT, LG, GE, O, U, NGE, NLG, NGT, NLE,
/// NEQ, NLT, TRU (the VOPC opcode order); the N forms are true when
/// unordered.
template <Ty T, int K> uint64_t cmpF(Lane &, uint64_t a, uint64_t b, uint64_t) {
  double x = value(T, a), y = value(T, b);
  switch (K) {
  case 0:
    return 0;
  case 1:
    return x < y;
  case 2:
    return x == y;
  case 3:
    return x <= y;
  case 4:
    return x > y;
  case 5:
    return x < y || x > y;
  case 6:
    return x >= y;
  case 7:
    return !std::isnan(x) && !std::isnan(y);
  case 8:
    return std::isnan(x) || std::isnan(y);
  case 9:
    return !(x >= y);
  case 10:
    return !(x < y || x > y);
  case 11:
    return !(x > y);
  case 12:
    return !(x <= y);
  case 13:
    return !(x == y);
  case 14:
    return !(x < y);
  default:
    return 1;
  }
}
/// Integer compares: F, LT, EQ, LE, GT, NE, GE, T.
template <bool Signed, int K>
uint64_t cmpI(Lane &, uint64_t a, uint64_t b, uint64_t) {
  bool lt = Signed ? int64_t(a) < int64_t(b) : a < b;
  bool eq = a == b;
  switch (K) {
  case 0:
    return 0;
  case 1:
    return lt;
  case 2:
    return eq;
  case 3:
    return lt || eq;
  case 4:
    return !lt && !eq;
  case 5:
    return !eq;
  case 6:
    return !lt;
  default:
    return 1;
  }
}
template <Ty T> uint64_t cmpClass(Lane &, uint64_t a, uint64_t b, uint64_t) {
  return (b >> floatClass<T>(a)) & 1;
}

/// 128-bit products for v_mad_u64_u32 / v_mad_i64_i32: {carry, D}.
uint64_t madU64(Lane &c, uint64_t a, uint64_t b, uint64_t d) {
  unsigned __int128 r = (unsigned __int128)(uint32_t(a)) * uint32_t(b) + d;
  c.carryOut = r >> 64;
  return uint64_t(r);
}
uint64_t madI64(Lane &c, uint64_t a, uint64_t b, uint64_t d) {
  __int128 r = (__int128)int32_t(a) * int32_t(b) + (__int128)int64_t(d);
  c.carryOut = (r >> 64) != ((__int128)int64_t(r) >> 64);
  return uint64_t(r);
}

/// v_lshl_add_u64 (CDNA3): D = (S0 << S1) + S2, S1 from 0 to 4.
uint64_t lshlAddU64(Lane &c, uint64_t a, uint64_t b, uint64_t d) {
  if (uint32_t(b) > 4)
    c.sim.fail("v_lshl_add_u64 with shift " + std::to_string(uint32_t(b)) +
               " (the ISA defines 0 to 4)");
  return (a << b) + d;
}

uint64_t mbcnt(Lane &c, uint64_t a, uint64_t b, bool high) {
  uint64_t below = (uint64_t(1) << c.lane) - 1;
  uint32_t m = high ? uint32_t(below >> 32) : uint32_t(below);
  return uint32_t(__builtin_popcount(uint32_t(a) & m)) + uint32_t(b);
}

/// f16 multiply-add without fusing (v_mad_f16, v_mac_f16, madmk/madak):
/// the product rounded to f16, then the sum.
uint64_t madH(uint64_t a, uint64_t b, uint64_t d) {
  return h16(H(h16(H(a) * H(b))) + H(d));
}

template <typename T> T med3(T a, T b, T c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}
uint64_t med3I(uint64_t a, uint64_t b, uint64_t d) {
  return uint64_t(med3(int64_t(a), int64_t(b), int64_t(d)));
}

/// One compare per condition code, in VOPC and VOPCX versions.
template <Ty T, int K>
void addCmp(std::vector<Op> &v, const char *type, const char *cond, LaneFn fn) {
  std::string n = std::string(cond) + "_" + type;
  static std::deque<std::string> names; // the table keeps the strings
  names.push_back("V_CMP_" + n);
  v.push_back({names.back().c_str(), U32, {T, T, T}, 2, kCmp, fn});
  names.push_back("V_CMPX_" + n);
  v.push_back({names.back().c_str(), U32, {T, T, T}, 2, kCmp | kCmpx, fn});
}

template <Ty T> void addFloatCmps(std::vector<Op> &v, const char *type) {
  addCmp<T, 0>(v, type, "F", cmpF<T, 0>);
  addCmp<T, 1>(v, type, "LT", cmpF<T, 1>);
  addCmp<T, 2>(v, type, "EQ", cmpF<T, 2>);
  addCmp<T, 3>(v, type, "LE", cmpF<T, 3>);
  addCmp<T, 4>(v, type, "GT", cmpF<T, 4>);
  addCmp<T, 5>(v, type, "LG", cmpF<T, 5>);
  addCmp<T, 6>(v, type, "GE", cmpF<T, 6>);
  addCmp<T, 7>(v, type, "O", cmpF<T, 7>);
  addCmp<T, 8>(v, type, "U", cmpF<T, 8>);
  addCmp<T, 9>(v, type, "NGE", cmpF<T, 9>);
  addCmp<T, 10>(v, type, "NLG", cmpF<T, 10>);
  addCmp<T, 11>(v, type, "NGT", cmpF<T, 11>);
  addCmp<T, 12>(v, type, "NLE", cmpF<T, 12>);
  addCmp<T, 13>(v, type, "NEQ", cmpF<T, 13>);
  addCmp<T, 14>(v, type, "NLT", cmpF<T, 14>);
  addCmp<T, 15>(v, type, "TRU", cmpF<T, 15>);
  // v_cmp_class: S1 is a mask of classes, S0 taken as bits.
  size_t at = v.size();
  addCmp<T, 0>(v, type, "CLASS", cmpClass<T>);
  for (size_t k = at; k < v.size(); ++k) {
    v[k].src[1] = U32;
    v[k].flags |= kNoFlush;
  }
}

template <Ty T, bool Signed>
void addIntCmps(std::vector<Op> &v, const char *type) {
  addCmp<T, 0>(v, type, "F", cmpI<Signed, 0>);
  addCmp<T, 1>(v, type, "LT", cmpI<Signed, 1>);
  addCmp<T, 2>(v, type, "EQ", cmpI<Signed, 2>);
  addCmp<T, 3>(v, type, "LE", cmpI<Signed, 3>);
  addCmp<T, 4>(v, type, "GT", cmpI<Signed, 4>);
  addCmp<T, 5>(v, type, "NE", cmpI<Signed, 5>);
  addCmp<T, 6>(v, type, "GE", cmpI<Signed, 6>);
  addCmp<T, 7>(v, type, "T", cmpI<Signed, 7>);
}

const std::vector<Op> &ops() {
  static const std::vector<Op> table = [] {
    std::vector<Op> v = {
#define VALU_OP(NAME, DST, SRCS, NUM_SRCS, FLAGS, FUNCTION)                    \
  {#NAME, DST, SRCS, NUM_SRCS, FLAGS, FUNCTION},
#include "VectorOps.def"
    };
    addFloatCmps<F16>(v, "F16");
    addFloatCmps<F32>(v, "F32");
    addFloatCmps<F64>(v, "F64");
    addIntCmps<I16, true>(v, "I16");
    addIntCmps<U16, false>(v, "U16");
    addIntCmps<I32, true>(v, "I32");
    addIntCmps<U32, false>(v, "U32");
    addIntCmps<I64, true>(v, "I64");
    addIntCmps<U64, false>(v, "U64");
    return v;
  }();
  return table;
}

} // namespace

const Op *hk::rt::isa::valu::findOp(const std::string &name) {
  for (const Op &op : ops())
    if (name == op.name)
      return &op;
  return nullptr;
}

//===-- Forms -------------------------------------------------------------===//

namespace {

enum FormKind : uint32_t { kVop = 0, kSdwa = 1, kDpp = 2 };
constexpr uint32_t kNeg = 1, kAbs = 2, kOpSel0 = 4, kDstOpSel = 8,
                   kSext = 16; // SISrcMods

/// What the preparer found, packed into Inst::aux: aux[0] the operation,
/// aux[1] the form and its modifiers, aux[2] the SDWA selects or DPP
/// controls, aux[3] the literal K of madmk/madak.
struct Form {
  const Op *op = nullptr;
  uint32_t kind = kVop;
  bool clamp = false;
  unsigned omod = 0;         ///< 1: *2, 2: *4, 3: /2
  bool opsel = false;        ///< a 16-bit result keeps the other half
  bool dstHigh = false;      ///< op_sel of the destination: bits 31:16
  unsigned first = 0;        ///< srcs index of the operation's first source
  bool explicitMask = false; ///< carry-in / cndmask mask in srcs, not VCC
  uint32_t ctrl = 0;
  uint64_t k = 0;
};

uint32_t packForm(const Form &f) {
  return f.kind | uint32_t(f.clamp) << 4 | f.omod << 5 |
         uint32_t(f.opsel) << 7 | uint32_t(f.dstHigh) << 8 | f.first << 9 |
         uint32_t(f.explicitMask) << 11;
}
Form unpackForm(const Inst &i) {
  Form f;
  f.op = &ops()[i.aux[0]];
  uint32_t x = i.aux[1];
  f.kind = x & 15;
  f.clamp = x >> 4 & 1;
  f.omod = x >> 5 & 3;
  f.opsel = x >> 7 & 1;
  f.dstHigh = x >> 8 & 1;
  f.first = x >> 9 & 3;
  f.explicitMask = x >> 11 & 1;
  f.ctrl = i.aux[2];
  f.k = i.aux[3];
  return f;
}

/// Sources the operation reads from registers (madmk/madak take one from
/// the literal).
unsigned registerSources(const Op &op) {
  return op.numSrcs - ((op.flags & (kKMid | kKEnd)) ? 1 : 0);
}

/// A source as the lane function sees it: the op_sel half of a 16-bit
/// operand, abs then neg on a float's sign, input denormals flushed unless
/// MODE allows them, signed integers sign-extended.
uint64_t take(Ty t, uint64_t raw, uint32_t mods, uint32_t mode, bool noFlush) {
  unsigned bits = widthOf(t);
  if (bits == 16 && (mods & kOpSel0))
    raw >>= 16;
  raw &= widthMask(bits);
  if (isFloat(t) || t == B32M) {
    uint64_t sign = t == B32M ? uint64_t(1) << 31 : signBit(t);
    if (mods & kAbs)
      raw &= ~sign;
    if (mods & kNeg)
      raw ^= sign;
    if (isFloat(t) && !noFlush && !(denormMode(mode, t) & 1) &&
        isDenormal(t, raw))
      raw &= sign;
  } else if (t == I16 || t == I32) {
    raw = uint64_t(sx(raw, bits));
  }
  return raw;
}

uint64_t one(Ty t) {
  return t == F16 ? 0x3C00 : t == F32 ? 0x3F800000 : 0x3FF0000000000000;
}

/// The result after the output modifiers: for floats omod (before clamp),
/// output denormals flushed unless MODE allows them, then clamp to [0, 1]
/// (a NaN to 0 with DX10_CLAMP); for integers saturation (clamp, kIntClamp)
/// or truncation to the type.
uint64_t finish(const Form &f, uint64_t r, uint32_t mode) {
  Ty t = f.op->dst;
  if (f.op->flags & kCmp)
    return r & 1;
  if (!isFloat(t)) {
    int64_t v = int64_t(r);
    if (f.clamp && (f.op->flags & kIntClamp)) {
      int64_t lo = t == I16 ? -32768 : t == I32 ? INT32_MIN : 0;
      int64_t hi = t == I16   ? 32767
                   : t == I32 ? INT32_MAX
                   : t == U16 ? 65535
                              : int64_t(UINT32_MAX);
      v = std::max(lo, std::min(hi, v));
    }
    return uint64_t(v) & widthMask(widthOf(t));
  }
  if (f.omod && !isNan(t, r)) {
    double v = value(t, r) * (f.omod == 1 ? 2.0 : f.omod == 2 ? 4.0 : 0.5);
    r = t == F32 ? RF(v) : t == F16 ? h16(v) : b64(v);
  }
  if (!(denormMode(mode, t) & 2) && isDenormal(t, r))
    r &= signBit(t);
  if (f.clamp) {
    if (isNan(t, r))
      return (mode >> 8 & 1) ? 0 : r;
    double v = value(t, r);
    r = v <= 0 ? 0 : v >= 1 ? one(t) : r;
  }
  return r;
}

/// MODE.FP_ROUND of the result's type as the host's rounding mode while
/// the instruction runs.
struct RoundScope {
  int saved = -1;
  RoundScope(const Op &op, uint32_t mode) {
    if (!isFloat(op.dst) || (op.flags & kCmp))
      return;
    unsigned rm = op.dst == F32 ? mode & 3 : (mode >> 2) & 3;
    static const int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD,
                                FE_TOWARDZERO};
    if (rm) {
      saved = fegetround();
      fesetround(modes[rm]);
    }
  }
  ~RoundScope() {
    if (saved >= 0)
      fesetround(saved);
  }
};

uint64_t readRaw(const Wave &w, const Operand &o, unsigned lane, Ty t) {
  return widthOf(t) == 64 ? rd64(w, o, lane) : rd(w, o, lane);
}

/// Writes a VOP or DPP result: 64, 32 or 16 bits; a 16-bit result zeroes
/// bits 31:16 (the GFX9 VOP1/VOP2 16-bit operations, LLVM's
/// GCNSubtarget::zeroesHigh16BitsOfDest) unless the operation has op_sel,
/// which writes the half it names and keeps the other.
void writeResult(Wave &w, const Inst &i, const Form &f, unsigned l,
                 uint64_t r) {
  unsigned bits = widthOf(f.op->dst);
  if (bits == 64)
    return wr64(w, i.defs[0], l, r);
  if (bits == 16 && f.opsel) {
    uint32_t old = rd(w, i.defs[0], l);
    r = f.dstHigh ? (old & 0xFFFF) | uint32_t(r) << 16
                  : (old & 0xFFFF0000u) | uint32_t(r);
  }
  wr(w, i.defs[0], l, uint32_t(r));
}

/// The lane masks an instruction writes: a compare's result (VCC for e32,
/// else its SGPR pair; v_cmpx also EXEC) or a carry out (VCC, or the
/// second definition of VOP3b).
void writeMasks(Wave &w, const Inst &i, const Form &f, uint64_t m) {
  const Op &op = *f.op;
  if (op.flags & kCmp) {
    if (i.numDefs)
      swr64(w, i.defs[0], m);
    else
      w.setVcc(m);
    if (op.flags & kCmpx)
      w.setExec(m);
  } else if (op.flags & kCarryOut) {
    if (i.numDefs > 1)
      swr64(w, i.defs[1], m);
    else
      w.setVcc(m);
  }
}

/// Runs the lane function on sources s (as read by the form), returning
/// the finished result; the compare or carry bit goes to *bit.
uint64_t compute(Sim &sim, const Wave &w, const Form &f, unsigned l,
                 uint64_t cin, uint64_t s[3], bool *bit) {
  Lane c{sim, w};
  c.lane = l;
  c.mode = w.mode;
  c.clamp = f.clamp;
  c.carryIn = cin >> l & 1;
  const Op &op = *f.op;
  uint64_t r = op.fn(c, s[0], s[1], s[2]);
  *bit = (op.flags & kCmp) ? (r & 1) : c.carryOut;
  return finish(f, r, w.mode);
}

uint64_t carryMask(const Wave &w, const Inst &i, const Form &f) {
  if (!(f.op->flags & kCarryIn))
    return 0;
  return f.explicitMask ? mask(w, i.srcs[f.first + registerSources(*f.op)])
                        : w.vcc();
}

/// Inst::aux[1] bits set by prepareValu for an e32/e64 form that needs none
/// of runVop's per-lane generality (isPlain), and for one whose sources or
/// result are f32.
constexpr uint32_t kPlain = 1u << 12, kPlainF32 = 1u << 13;

/// Whether an e32/e64 form has 32-bit sources and result (or a compare
/// result), no input modifier, clamp, omod, op_sel or literal K: then
/// reading a source is reading its register (an I32 sign-extended) and
/// finishing the result is truncating it to 32 bits, as long as MODE keeps
/// f32 denormals and rounds to nearest even (checked when it runs).
bool isPlain(const Op &op, const Inst &inst, const Form &f) {
  if (f.kind != kVop || f.clamp || f.omod || f.opsel ||
      (op.flags & (kKMid | kKEnd | kOpsel)))
    return false;
  if (!(op.flags & kCmp) && (widthOf(op.dst) != 32 || inst.numDefs == 0))
    return false;
  for (unsigned k = 0; k < op.numSrcs; ++k)
    if (widthOf(op.src[k]) != 32 || inst.srcs[f.first + k].mods != 0)
      return false;
  return true;
}

bool usesF32(const Op &op) {
  if (op.dst == F32 && !(op.flags & kCmp))
    return true;
  for (unsigned k = 0; k < op.numSrcs; ++k)
    if (op.src[k] == F32)
      return true;
  return false;
}

/// runVop for a plain form (isPlain): the lane function on the registers'
/// values, with none of the modifier, flushing or rounding steps, which
/// are identities here.
void runPlain(Sim &sim, Wave &w, const Inst &i, const Form &f) {
  const Op &op = *f.op;
  // The sources of all 64 lanes, read row by row (a VGPR's row of lanes,
  // or the one value of an SGPR or constant; I32 sign-extended): loops the
  // compiler vectorises. Lanes outside EXEC are read, never written.
  uint64_t s[3][kLanes];
  for (unsigned k = 0; k < 3; ++k) {
    if (k >= op.numSrcs) {
      std::fill(s[k], s[k] + kLanes, 0);
      continue;
    }
    const Operand &o = i.srcs[f.first + k];
    bool sext = op.src[k] == I32;
    if (o.file == File::V) {
      const uint32_t *row = &w.v[size_t(o.reg) * kLanes];
      if (sext)
        for (unsigned l = 0; l < kLanes; ++l)
          s[k][l] = uint64_t(int64_t(int32_t(row[l])));
      else
        for (unsigned l = 0; l < kLanes; ++l)
          s[k][l] = row[l];
    } else {
      uint32_t v = rd(w, o, 0);
      std::fill(s[k], s[k] + kLanes,
                sext ? uint64_t(int64_t(int32_t(v))) : uint64_t(v));
    }
  }
  const bool cmp = op.flags & kCmp;
  const bool carries = op.flags & (kCarryIn | kCarryOut);
  uint32_t *dst = !cmp && i.defs[0].file == File::V
                      ? &w.v[size_t(i.defs[0].reg) * kLanes]
                      : nullptr;
  Lane c{sim, w};
  c.mode = w.mode;
  if (dst && !carries && w.exec() == ~uint64_t(0)) {
    for (unsigned l = 0; l < kLanes; ++l) {
      c.lane = l;
      dst[l] = uint32_t(op.fn(c, s[0][l], s[1][l], s[2][l]));
    }
    return;
  }
  uint64_t cin = carryMask(w, i, f), m = 0;
  forLanes(w, [&](unsigned l) {
    c.lane = l;
    c.carryIn = cin >> l & 1;
    c.carryOut = false;
    uint64_t r = op.fn(c, s[0][l], s[1][l], s[2][l]);
    if (cmp) {
      m |= (r & 1) << l;
      return;
    }
    if (dst)
      dst[l] = uint32_t(r);
    else
      wr(w, i.defs[0], l, uint32_t(r));
    m |= uint64_t(c.carryOut) << l;
  });
  writeMasks(w, i, f, m);
}

/// e32, e64 (VOP3a/b) and VOP3 op_sel forms.
void runVop(Sim &sim, Wave &w, const Inst &i) {
  Form f = unpackForm(i);
  // MODE: f32 round to nearest even (bits 1:0 = 0), f32 denormals kept in
  // and out (bits 5:4 = 3).
  if ((i.aux[1] & kPlain) &&
      (!(i.aux[1] & kPlainF32) || (w.mode & 0x33) == 0x30))
    return runPlain(sim, w, i, f);
  const Op &op = *f.op;
  RoundScope round(op, w.mode);
  uint64_t cin = carryMask(w, i, f), m = 0;
  unsigned regs = registerSources(op);
  forLanes(w, [&](unsigned l) {
    uint64_t s[3] = {0, 0, 0};
    unsigned r = 0;
    for (unsigned k = 0; k < op.numSrcs; ++k) {
      bool isK =
          ((op.flags & kKMid) && k == 1) || ((op.flags & kKEnd) && k == 2);
      uint64_t raw = f.k;
      uint32_t mods = 0;
      if (!isK && r < regs) {
        const Operand &o = i.srcs[f.first + r++];
        raw = readRaw(w, o, l, op.src[k]);
        mods = o.mods;
      }
      s[k] = take(op.src[k], raw, mods, w.mode, op.flags & kNoFlush);
    }
    bool bit = false;
    uint64_t res = compute(sim, w, f, l, cin, s, &bit);
    if (!(op.flags & kCmp))
      writeResult(w, i, f, l, res);
    m |= uint64_t(bit) << l;
  });
  writeMasks(w, i, f, m);
}

/// The field an SDWA select names: byte 0-3 (0-3), word 0-1 (4-5), the
/// dword (6); as {offset, width}.
std::pair<unsigned, unsigned> sdwaField(unsigned sel) {
  if (sel <= 3)
    return {8 * sel, 8};
  if (sel <= 5)
    return {16 * (sel - 4), 16};
  return {0, 32};
}

/// An SDWA source select: the field, zero- or (SEXT) sign-extended.
uint32_t sdwaSelect(uint32_t x, unsigned sel, bool sext) {
  auto [off, width] = sdwaField(sel);
  if (width == 32)
    return x;
  uint32_t v = (x >> off) & ((1u << width) - 1);
  if (sext && (v >> (width - 1) & 1))
    v |= ~((1u << width) - 1);
  return v;
}

/// SDWA (CDNA3 ISA, "SDWA"): each source's field picked by its select
/// (SEXT sign-extends it, abs/neg then apply); the result goes to the
/// field dst_sel names, the other bits zero (UNUSED_PAD), the sign of the
/// field above it and zero below (UNUSED_SEXT), or kept (UNUSED_PRESERVE).
/// A compare writes VCC or the SGPR pair it names. aux[2] = dst_sel |
/// dst_unused << 4 | src0_sel << 8 | src1_sel << 12.
void runSdwa(Sim &sim, Wave &w, const Inst &i) {
  Form f = unpackForm(i);
  const Op &op = *f.op;
  RoundScope round(op, w.mode);
  unsigned dstSel = f.ctrl & 15, unused = f.ctrl >> 4 & 15;
  unsigned sel[2] = {f.ctrl >> 8 & 15, f.ctrl >> 12 & 15};
  unsigned off = sdwaField(dstSel).first, width = sdwaField(dstSel).second;
  uint32_t field = width == 32 ? ~0u : ((1u << width) - 1) << off;
  uint64_t cin = carryMask(w, i, f), m = 0;
  forLanes(w, [&](unsigned l) {
    uint64_t s[3] = {0, 0, 0};
    for (unsigned k = 0; k < op.numSrcs; ++k) {
      const Operand &o = i.srcs[k];
      uint32_t raw = sdwaSelect(rd(w, o, l), sel[k], o.mods & kSext);
      s[k] = take(op.src[k], raw, o.mods & (kNeg | kAbs), w.mode,
                  op.flags & kNoFlush);
    }
    bool bit = false;
    uint32_t r = uint32_t(compute(sim, w, f, l, cin, s, &bit));
    m |= uint64_t(bit) << l;
    if (op.flags & kCmp)
      return;
    uint32_t placed = (r << off) & field, rest = 0;
    if (unused == 2)
      rest = rd(w, i.defs[0], l) & ~field;
    else if (unused == 1 && off + width < 32 &&
             (placed >> (off + width - 1) & 1))
      rest = ~0u << (off + width);
    wr(w, i.defs[0], l, placed | rest);
  });
  writeMasks(w, i, f, m);
}

/// The lane a DPP16 control (dpp_ctrl, as encoded) reads for lane `lane`,
/// or -1 if it reads outside its row or the wave; for controls not
/// simulated, -2. From the DPP section of AMD's CDNA3/CDNA4 ISA guides:
/// quad_perm 0x00-0xff, row_shl 0x101-0x10f, row_shr 0x111-0x11f, row_ror
/// 0x121-0x12f, wave_shl 0x130, wave_rol 0x134, wave_shr 0x138, wave_ror
/// 0x13c, row_mirror 0x140, row_half_mirror 0x141, row_bcast15 0x142,
/// row_bcast31 0x143, row_newbcast 0x150-0x15f (gfx90a and later: lane N
/// of each row to the whole row).
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
  if (ctrl >= 0x150 && ctrl <= 0x15f)
    return row + int(ctrl & 15);
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

/// DPP16: src0 is read from the lane dpp_ctrl names (before any lane is
/// written), the other sources from the lane itself. A lane is computed
/// and written only if it is in EXEC and its row (row_mask) and bank
/// (bank_mask, lanes 4k..4k+3 of each row) are enabled. A lane whose src0
/// lane is outside the row or wave, or off in EXEC, reads 0 when
/// bound_ctrl is set and is not written otherwise (it keeps the old value,
/// the tied vdst). aux[2] = dpp_ctrl | row_mask << 16 | bank_mask << 20 |
/// bound_ctrl << 24.
void runDpp(Sim &sim, Wave &w, const Inst &i) {
  Form f = unpackForm(i);
  const Op &op = *f.op;
  RoundScope round(op, w.mode);
  uint32_t ctrl = f.ctrl & 0xFFFF, rowMask = f.ctrl >> 16 & 15,
           bankMask = f.ctrl >> 20 & 15;
  bool boundZero = f.ctrl >> 24 & 1;
  const Operand &src0 = i.srcs[f.first];
  uint64_t from0[kLanes];
  for (unsigned l = 0; l < kLanes; ++l)
    from0[l] = readRaw(w, src0, l, op.src[0]);
  uint64_t exec = w.exec(), cin = carryMask(w, i, f);
  // Lanes left unwritten keep their bits of the mask a carry writes.
  uint64_t old = (op.flags & kCarryOut) ? w.vcc() : 0, m = 0, done = 0;
  forLanes(w, [&](unsigned l) {
    if (!(rowMask >> (l / 16) & 1) || !(bankMask >> ((l & 15) / 4) & 1))
      return;
    int from = dppSourceLane(ctrl, l);
    bool valid = from >= 0 && (exec >> from & 1);
    if (!valid && !boundZero)
      return;
    uint64_t s[3] = {0, 0, 0};
    for (unsigned k = 0; k < op.numSrcs; ++k) {
      const Operand &o = i.srcs[f.first + k];
      uint64_t raw = k ? readRaw(w, o, l, op.src[k]) : valid ? from0[from] : 0;
      s[k] = take(op.src[k], raw, o.mods, w.mode, op.flags & kNoFlush);
    }
    bool bit = false;
    uint64_t r = compute(sim, w, f, l, cin, s, &bit);
    writeResult(w, i, f, l, r);
    m |= uint64_t(bit) << l;
    done |= uint64_t(1) << l;
  });
  if (op.flags & kCarryOut)
    writeMasks(w, i, f, m | (old & ~done));
}

} // namespace

//===-- Decode-time preparation -------------------------------------------===//

namespace {

/// The form named by the opcode's suffix, and the operation's name.
std::pair<FormKind, std::string> splitForm(const std::string &base) {
  auto ends = [&](const char *s) {
    size_t n = strlen(s);
    return base.size() > n && base.compare(base.size() - n, n, s) == 0;
  };
  for (const char *s : {"_e32", "_e64", "_opsel"})
    if (ends(s))
      return {kVop, base.substr(0, base.size() - strlen(s))};
  if (ends("_sdwa"))
    return {kSdwa, base.substr(0, base.size() - 5)};
  if (ends("_dpp"))
    return {kDpp, base.substr(0, base.size() - 4)};
  return {kVop, base};
}

/// Which input modifiers source k may carry in this form.
std::string checkMods(const Op &op, const Form &f, unsigned k, uint32_t mods) {
  Ty t = op.src[k];
  uint32_t allowed = 0;
  if (isFloat(t) || t == B32M)
    allowed |= kNeg | kAbs;
  if (f.kind == kSdwa && !isFloat(t))
    allowed |= kSext;
  if (f.kind == kVop && f.opsel && widthOf(t) == 16)
    allowed |= kOpSel0;
  if (f.kind == kVop && f.opsel && k == 0 && widthOf(op.dst) == 16)
    allowed |= kDstOpSel;
  if (mods & ~allowed)
    return std::string(op.name) + " with input modifiers " +
           std::to_string(mods) + " on source " + std::to_string(k) +
           " is not simulated";
  return "";
}

/// e32/e64/op_sel immediates: madmk/madak's K; else clamp, then omod for
/// float results, then op_sel (whose bits the sources' modifiers carry).
std::string prepareVop(const Op &op, Inst &inst, Form &f) {
  if (op.flags & (kKMid | kKEnd)) {
    if (inst.numImms != 1)
      return std::string(op.name) + ": unexpected operand list";
    f.k = uint64_t(inst.imms[0]) & 0xFFFFFFFFu;
    return "";
  }
  bool floatResult = isFloat(op.dst) && !(op.flags & kCmp);
  if (!(op.flags & kNoClampImm)) {
    f.clamp = inst.numImms > 0 && inst.imms[0] != 0;
    if (floatResult && inst.numImms > 1)
      f.omod = unsigned(inst.imms[1]) & 3;
  }
  if (f.clamp && inst.text.find(" clamp") == std::string::npos)
    return std::string(op.name) + ": immediate operand " +
           std::to_string(inst.imms[0]) + " is not simulated";
  if (f.omod && inst.text.find(" mul:") == std::string::npos &&
      inst.text.find(" div:") == std::string::npos)
    return std::string(op.name) + ": immediate operand " +
           std::to_string(inst.imms[1]) + " is not simulated";
  unsigned regs = registerSources(op);
  f.explicitMask = (op.flags & kCarryIn) && inst.numSrcs == regs + 1;
  if (inst.numSrcs != regs + (f.explicitMask ? 1 : 0))
    return std::string(op.name) + ": unexpected operand list";
  f.dstHigh =
      f.opsel && (inst.srcs[0].mods & kDstOpSel) && widthOf(op.dst) == 16;
  return "";
}

/// SDWA immediates, from the end: src1_sel (VOP2, VOPC), src0_sel, then
/// for VOP1/VOP2 dst_unused and dst_sel; before them clamp and, for float
/// results, omod.
std::string prepareSdwa(const Op &op, Inst &inst, Form &f) {
  unsigned n = inst.numImms, srcs = registerSources(op);
  bool cmp = op.flags & kCmp;
  unsigned sels = srcs, tail = sels + (cmp ? 0 : 2);
  if (n < tail || inst.numSrcs != srcs || srcs > 2 || srcs != op.numSrcs)
    return std::string(op.name) + " in SDWA form: unexpected operand list";
  for (unsigned k = 0; k < op.numSrcs; ++k)
    if (widthOf(op.src[k]) == 64 || widthOf(op.dst) == 64)
      return std::string(op.name) + " in SDWA form is not simulated";
  uint32_t sel[2] = {6, 6};
  for (unsigned k = 0; k < sels; ++k)
    sel[k] = uint32_t(inst.imms[n - sels + k]);
  uint32_t dstSel = 6, unused = 0;
  if (!cmp) {
    dstSel = uint32_t(inst.imms[n - tail]);
    unused = uint32_t(inst.imms[n - tail + 1]);
  }
  if (sel[0] > 6 || sel[1] > 6 || dstSel > 6 || unused > 2)
    return "SDWA select or dst_unused out of range";
  unsigned prefix = n - tail;
  f.clamp = prefix > 0 && inst.imms[0] != 0;
  if (prefix > 1)
    f.omod = unsigned(inst.imms[1]) & 3;
  f.ctrl = dstSel | unused << 4 | sel[0] << 8 | sel[1] << 12;
  return "";
}

std::string prepareDpp(const Op &op, Inst &inst, Form &f) {
  unsigned regs = registerSources(op);
  if (inst.numImms != 4 || inst.numSrcs < regs || inst.numSrcs > regs + 1 ||
      regs != op.numSrcs)
    return std::string(op.name) + " in DPP form: unexpected operand list";
  f.first = inst.numSrcs - regs;
  uint32_t ctrl = uint32_t(inst.imms[0]);
  if (dppSourceLane(ctrl, 0) == -2)
    return "DPP control " + std::to_string(ctrl) + " is not simulated";
  f.ctrl = (ctrl & 0xFFFF) | uint32_t(inst.imms[1] & 15) << 16 |
           uint32_t(inst.imms[2] & 15) << 20 |
           uint32_t(inst.imms[3] != 0) << 24;
  return "";
}

std::string prepareValu(const std::string &base, Inst &inst) {
  auto [kind, name] = splitForm(base);
  const Op *op = findOp(name);
  if (!op)
    return "instruction " + inst.name + " is not simulated";
  Form f;
  f.op = op;
  f.kind = kind;
  f.opsel = (op->flags & kOpsel) ||
            inst.name.find("_gfx9_gfx9") != std::string::npos ||
            inst.name.find("_opsel") != std::string::npos;
  std::string why = kind == kSdwa  ? prepareSdwa(*op, inst, f)
                    : kind == kDpp ? prepareDpp(*op, inst, f)
                                   : prepareVop(*op, inst, f);
  if (!why.empty())
    return why;
  bool floatResult = isFloat(op->dst) && !(op->flags & kCmp);
  if (f.clamp && !floatResult && !(op->flags & kIntClamp))
    return std::string(op->name) + " with clamp is not simulated";
  for (unsigned k = 0, r = 0; k < op->numSrcs; ++k) {
    if (((op->flags & kKMid) && k == 1) || ((op->flags & kKEnd) && k == 2))
      continue;
    why = checkMods(*op, f, k, inst.srcs[f.first + r++].mods);
    if (!why.empty())
      return why;
  }
  inst.aux[0] = uint32_t(op - ops().data());
  inst.aux[1] = packForm(f);
  if (isPlain(*op, inst, f))
    inst.aux[1] |= kPlain | (usesF32(*op) ? kPlainF32 : 0);
  inst.aux[2] = f.ctrl;
  inst.aux[3] = uint32_t(f.k);
  return "";
}

//===-- Instructions outside the table ------------------------------------===//

void vNop(Sim &, Wave &, const Inst &) {}

/// v_readfirstlane_b32: the first lane of EXEC (lane 0 when EXEC is 0).
void vReadfirstlaneB32(Sim &, Wave &w, const Inst &i) {
  uint64_t e = w.exec();
  unsigned l = e ? unsigned(__builtin_ctzll(e)) : 0;
  swr(w, i.defs[0], rd(w, i.srcs[0], l));
}
/// v_readlane_b32: the lane S1[5:0] of S0, whatever EXEC is.
void vReadlaneB32(Sim &, Wave &w, const Inst &i) {
  swr(w, i.defs[0], rd(w, i.srcs[0], srd(w, i.srcs[1]) & 63));
}
/// v_writelane_b32: S0 into lane S1[5:0] of D, whatever EXEC is.
void vWritelaneB32(Sim &, Wave &w, const Inst &i) {
  wr(w, i.defs[0], srd(w, i.srcs[1]) & 63, srd(w, i.srcs[0]));
}
/// v_swap_b32: the two registers exchange their values in each lane of
/// EXEC. defs = {vdst, vsrc}.
void vSwapB32(Sim &, Wave &w, const Inst &i) {
  forLanes(w, [&](unsigned l) {
    uint32_t x = rd(w, i.defs[0], l), y = rd(w, i.defs[1], l);
    wr(w, i.defs[0], l, y);
    wr(w, i.defs[1], l, x);
  });
}

/// v_mqsad_u32_u8 D[127:0], S0[63:0], S1, S2[127:0]: four masked SADs of
/// S1 against the byte windows S0[8k+31:8k], each plus S2's dword k.
void vMqsadU32U8(Sim &sim, Wave &w, const Inst &i) {
  if (i.numImms && i.imms[0])
    sim.fail("v_mqsad_u32_u8 with clamp is not simulated");
  forLanes(w, [&](unsigned l) {
    uint64_t a = rd64(w, i.srcs[0], l);
    uint32_t b = rd(w, i.srcs[1], l), c[4];
    for (unsigned k = 0; k < 4; ++k)
      c[k] = rd(w, i.srcs[2], l, k);
    for (unsigned k = 0; k < 4; ++k)
      wr(w, i.defs[0], l, uint32_t(sadU8(a >> (8 * k), b, c[k], true)), k);
  });
}

/// v_bitop3_b32 (CDNA4): bit j of D is bit {S0[j], S1[j], S2[j]} of the
/// truth table imms[0] (bitop3).
void vBitop3B32(Sim &, Wave &w, const Inst &i) {
  uint8_t table = uint8_t(i.imms[0]);
  forLanes(w, [&](unsigned l) {
    wr(w, i.defs[0], l,
       bitop3(rd(w, i.srcs[0], l), rd(w, i.srcs[1], l), rd(w, i.srcs[2], l),
              table));
  });
}

/// v_bitop3_b16 (CDNA4): bits 15:0 of D from the truth table as for
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

/// v_permlane16_swap_b32 / v_permlane32_swap_b32 (CDNA4): for each pair of
/// rows (16 lanes) or halves (32 lanes), the odd row of VDST swaps with the
/// even row of VSRC. defs = {vdst, vsrc}, srcs = {vdst, vsrc} (tied). The
/// VOP3 forms add bound_ctrl and fi, which only decide what a lane reads
/// from a lane that is off; with lanes off the swap is not simulated.
template <unsigned Width> void permlaneSwap(Sim &sim, Wave &w, const Inst &i) {
  if (w.exec() != ~uint64_t(0))
    sim.fail("permlane swap with lanes off in EXEC is not simulated");
  const Operand &d = i.defs[0], &s = i.defs[1];
  for (unsigned l = 0; l < kLanes; ++l) {
    if ((l / Width) % 2 == 0)
      continue;
    std::swap(w.v[d.reg * kLanes + l], w.v[s.reg * kLanes + l - Width]);
  }
}

} // namespace

void hk::rt::isa::registerVector(Semantics &table) {
  for (const Op &op : ops()) {
    std::string n = op.name;
    for (const char *s : {"", "_e32", "_e64", "_opsel"}) {
      table.handlers[n + s] = runVop;
      table.preparers[n + s] = prepareValu;
    }
    table.handlers[n + "_sdwa"] = runSdwa;
    table.preparers[n + "_sdwa"] = prepareValu;
    table.handlers[n + "_dpp"] = runDpp;
    table.preparers[n + "_dpp"] = prepareValu;
  }
  table.handlers["V_NOP_e32"] = vNop;
  table.handlers["V_NOP_e64"] = vNop;
  // Clears the exception state, which the simulator does not keep.
  table.handlers["V_CLREXCP_e32"] = vNop;
  table.handlers["V_CLREXCP_e64"] = vNop;
  for (const char *s : {"_e32", "_e64", ""})
    table.handlers[std::string("V_READFIRSTLANE_B32") + s] = vReadfirstlaneB32;
  table.handlers["V_READLANE_B32"] = vReadlaneB32;
  table.handlers["V_WRITELANE_B32"] = vWritelaneB32;
  table.handlers["V_SWAP_B32"] = vSwapB32;
  table.handlers["V_MQSAD_U32_U8"] = vMqsadU32U8;
  table.handlers["V_BITOP3_B32"] = vBitop3B32;
  table.handlers["V_BITOP3_B16"] = vBitop3B16;
  for (const char *s : {"_e32", "_e64"}) {
    table.handlers[std::string("V_PERMLANE16_SWAP_B32") + s] = permlaneSwap<16>;
    table.handlers[std::string("V_PERMLANE32_SWAP_B32") + s] = permlaneSwap<32>;
  }
  table.handlers["V_NOP_dpp"] = vNop;
  table.handlers["V_NOP_sdwa"] = vNop;
}
