//===- Formats.cpp - the number formats of the MFMAs and kernels ----------===//
//
// Decoding from the format's definition and encoding by rounding the f32
// significand at the result's exponent (Formats.h describes the rules).
//===----------------------------------------------------------------------===//

#include "hk/Base/Formats.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace hk::fmt;

float hk::fmt::decode(uint32_t code, const Format &f) {
  unsigned n = f.bits();
  code &= (1u << n) - 1;
  bool neg = code >> (n - 1);
  uint32_t mag = code & ((1u << (n - 1)) - 1);
  uint32_t expField = mag >> f.manBits, man = mag & ((1u << f.manBits) - 1);
  uint32_t expMax = (1u << f.expBits) - 1;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  switch (f.special) {
  case Special::Fnuz:
    if (neg && mag == 0)
      return nan;
    break;
  case Special::AllOnesNan:
    if (mag == (1u << (n - 1)) - 1)
      return neg ? -nan : nan;
    break;
  case Special::Ieee:
    if (expField == expMax && man != 0)
      return neg ? -nan : nan;
    if (expField == expMax)
      return neg ? -INFINITY : INFINITY;
    break;
  case Special::None:
    break;
  }
  float v = expField == 0 ? std::ldexp(float(man), 1 - f.bias - int(f.manBits))
                          : std::ldexp(float(man | (1u << f.manBits)),
                                       int(expField) - f.bias - int(f.manBits));
  return neg ? -v : v;
}

float hk::fmt::decodeE8M0(uint8_t code) {
  if (code == 0xFF)
    return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, int(code) - 127);
}

namespace {

/// The codes of a format that encode() may return besides rounded numbers:
/// the largest finite magnitude, and inf and NaN of the input's sign (where
/// the format has none, what stands for them).
struct SpecialCodes {
  uint32_t max, inf, nan;
};

SpecialCodes specialCodes(const Format &f, uint32_t sign) {
  unsigned n = f.bits(), m = f.manBits;
  uint32_t expMax = (1u << f.expBits) - 1;
  switch (f.special) {
  case Special::Ieee:
    return {((expMax - 1) << m) | ((1u << m) - 1), sign | (expMax << m),
            sign | (expMax << m) | (1u << (m - 1))};
  case Special::AllOnesNan:
    return {(1u << (n - 1)) - 2, sign | ((1u << (n - 1)) - 1),
            sign | ((1u << (n - 1)) - 1)};
  case Special::Fnuz:
    return {(1u << (n - 1)) - 1, 1u << (n - 1), 1u << (n - 1)};
  case Special::None:
    break;
  }
  uint32_t max = (1u << (n - 1)) - 1;
  return {max, sign | max, sign | max};
}

/// encode() of a NaN or an infinity (f32 `bits`).
uint32_t encodeNonFinite(uint32_t bits, const Format &f, uint32_t sign,
                         const SpecialCodes &c, bool saturate,
                         EncodeStatus *status) {
  if (status && f.special == Special::None)
    status->special = true;
  if ((bits & 0x7FFFFFFF) > 0x7F800000) {
    unsigned m = f.manBits;
    if (f.special == Special::Ieee)
      // Quiet, with the top of the f32 payload.
      return c.nan | (((bits & 0x7FFFFF) >> (23 - m)) & ((1u << m) - 1));
    return c.nan;
  }
  return saturate ? sign | c.max : c.inf;
}

/// The magnitude of a finite f32 `absBits` in units of the result's last
/// place at exponent `re` (the rounded mantissa with its implicit bit),
/// rounded as `round` says.
uint64_t roundedUnits(uint32_t absBits, int e, int re, unsigned m, Round round,
                      uint32_t rng) {
  // |x| = sig * 2^(e - 23), sig with its implicit bit for normals.
  uint64_t sig = absBits & 0x7FFFFF;
  if (absBits >> 23)
    sig |= 0x800000;
  unsigned drop = 23 - m;            // bits below the kept mantissa
  unsigned extra = unsigned(re - e); // denormal result: further bits
  if (round == Round::Stochastic) {
    uint64_t t = extra >= 40 ? 0 : sig >> extra;
    t += rng >> (32 - drop);
    return t >> drop;
  }
  unsigned shift = drop + extra;
  if (shift > 40)
    return 0;
  uint64_t q = sig >> shift;
  uint64_t rem = sig & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (round == Round::NearestEven && (rem > half || (rem == half && (q & 1))))
    ++q;
  return q;
}

} // namespace

uint32_t hk::fmt::encode(float x, const Format &f, Round round, uint32_t rng,
                         bool saturate, EncodeStatus *status) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  uint32_t sign = (bits >> 31) << (f.bits() - 1);
  SpecialCodes c = specialCodes(f, sign);
  uint32_t absBits = bits & 0x7FFFFFFF;
  if (absBits >= 0x7F800000)
    return encodeNonFinite(bits, f, sign, c, saturate, status);
  int e = std::max(int(absBits >> 23), 1) - 127;
  int re = std::max(e, 1 - f.bias);
  uint64_t q = roundedUnits(absBits, e, re, f.manBits, round, rng);
  // The code: exponent field (re + bias - 1) plus q, whose bit m (the
  // implicit bit) carries into the exponent field.
  int64_t code = (int64_t(re + f.bias - 1) << f.manBits) + int64_t(q);
  if (code > int64_t(c.max)) {
    if (status)
      status->overflow = true;
    if (saturate || f.special == Special::None || round == Round::TowardZero)
      return sign | c.max;
    return c.inf;
  }
  if (code == 0 && f.special == Special::Fnuz)
    return 0;
  return sign | uint32_t(code);
}

uint8_t hk::fmt::encodeE8M0(float x, bool saturate, EncodeStatus *status) {
  constexpr uint8_t kNan = 0xFF, kMax = 0xFE;
  if (!(x > 0) || std::isinf(x)) {
    if (status)
      status->special = true;
    return std::isinf(x) && x > 0 && saturate ? kMax : kNan;
  }
  int e;
  // x = m * 2^e with m in [0.5, 1): the candidates are 2^(e-1) and 2^e.
  float m = std::frexp(x, &e);
  int lower = e - 1;
  if (m > 0.75f || (m == 0.75f && ((lower + 127) & 1)))
    ++lower;
  if (lower < -127)
    return 0;
  if (lower > 127) {
    if (status)
      status->overflow = true;
    return saturate ? kMax : kNan;
  }
  return uint8_t(lower + 127);
}
