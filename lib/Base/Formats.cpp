//===- Formats.cpp - the number formats of the MFMAs and kernels ----------===//
//
// Decoding from the format's definition and encoding by rounding the f32
// significand at the result's exponent (Formats.h describes the rules).
//===----------------------------------------------------------------------===//

#include "hk/Base/Formats.h"

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

uint32_t hk::fmt::encode(float x, const Format &f, Round round, uint32_t rng,
                         bool saturate, EncodeStatus *status) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  unsigned n = f.bits(), m = f.manBits;
  uint32_t sign = (bits >> 31) << (n - 1);
  uint32_t expMax = (1u << f.expBits) - 1;
  // The largest finite magnitude's code, and the codes of inf and NaN.
  uint32_t maxCode, infCode, nanCode;
  switch (f.special) {
  case Special::Ieee:
    maxCode = ((expMax - 1) << m) | ((1u << m) - 1);
    infCode = sign | (expMax << m);
    nanCode = sign | (expMax << m) | (1u << (m - 1));
    break;
  case Special::AllOnesNan:
    maxCode = (1u << (n - 1)) - 2;
    nanCode = infCode = sign | ((1u << (n - 1)) - 1);
    break;
  case Special::Fnuz:
    maxCode = (1u << (n - 1)) - 1;
    nanCode = infCode = 1u << (n - 1);
    break;
  case Special::None:
    maxCode = (1u << (n - 1)) - 1;
    infCode = nanCode = sign | maxCode;
    break;
  }
  uint32_t absBits = bits & 0x7FFFFFFF;
  if (absBits >= 0x7F800000) {
    bool isNan = absBits > 0x7F800000;
    if (status && f.special == Special::None)
      status->special = true;
    if (isNan) {
      if (f.special == Special::Ieee)
        // Quiet, with the top of the f32 payload.
        return nanCode | (((bits & 0x7FFFFF) >> (23 - m)) & ((1u << m) - 1));
      return nanCode;
    }
    if (!saturate)
      return infCode;
    return sign | maxCode;
  }
  // |x| = sig * 2^(e - 23), sig with its implicit bit for normals.
  int e = int(absBits >> 23);
  uint64_t sig = absBits & 0x7FFFFF;
  if (e == 0)
    e = 1;
  else
    sig |= 0x800000;
  e -= 127;
  int emin = 1 - f.bias;
  int re = e < emin ? emin : e;
  unsigned drop = 23 - m;            // bits below the kept mantissa
  unsigned extra = unsigned(re - e); // denormal result: further bits
  uint64_t q;
  if (round == Round::Stochastic) {
    uint64_t t = extra >= 40 ? 0 : sig >> extra;
    t += rng >> (32 - drop);
    q = t >> drop;
  } else {
    unsigned shift = drop + extra;
    if (shift > 40) {
      q = 0;
    } else {
      q = sig >> shift;
      uint64_t rem = sig & ((uint64_t(1) << shift) - 1), half = uint64_t(1)
                                                                << (shift - 1);
      if (round == Round::NearestEven &&
          (rem > half || (rem == half && (q & 1))))
        ++q;
    }
  }
  // The code: exponent field (re + bias - 1) plus q, whose bit m (the
  // implicit bit) carries into the exponent field.
  int64_t code = (int64_t(re + f.bias - 1) << m) + int64_t(q);
  if (code > int64_t(maxCode)) {
    if (status)
      status->overflow = true;
    if (saturate || f.special == Special::None || round == Round::TowardZero)
      return sign | maxCode;
    return infCode;
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
