//===- Formats.h - the small number formats of CDNA3 and CDNA4 ------------===//
//
// The 4- to 16-bit formats that conversions and matrix instructions read
// and write, as AMD's CDNA3 and CDNA4 ISA reference guides and the OCP
// Microscaling Formats (MX) specification v1.0 define them:
//
//   format     exp man bias  max normal  inf / NaN
//   E4M3 OCP    4   3   7    448         none / S.1111.111 (gfx950 fp8)
//   E5M2 OCP    5   2  15    57344       S.11111.00 / S.11111.xx (gfx950 bf8)
//   E4M3 FNUZ   4   3   8    240         none / 0x80 (gfx942 fp8)
//   E5M2 FNUZ   5   2  16    57344       none / 0x80 (gfx942 bf8)
//   E2M3        2   3   1    7.5         none / none (fp6)
//   E3M2        3   2   3    28          none / none (bf6)
//   E2M1        2   1   1    6           none / none (fp4)
//   E8M0        8   0 127    2^127       none / 0xFF (MX scale)
//   f16         5  10  15    65504       IEEE 754
//   bf16        8   7 127    ~3.4e38     IEEE 754 layout
//
// FNUZ formats have no negative zero: 0x80 is their only NaN. Denormals
// (exponent field 0) are numbers in every format.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_ISA_FORMATS_H
#define HK_RUNTIME_ISA_FORMATS_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace hk::rt::isa::fmt {

/// How a format spends its top codes.
enum class Special : uint8_t {
  Ieee,       ///< all-ones exponent: inf (mantissa 0) or NaN (f16, bf16, E5M2)
  AllOnesNan, ///< only S.1111.111 is NaN, no inf (OCP E4M3)
  Fnuz,       ///< 0x80 is NaN, no inf, no -0 (AMD's FNUZ fp8/bf8)
  None,       ///< every code is a finite number (fp6, fp4)
};

struct Format {
  uint8_t expBits, manBits;
  int bias;
  Special special;
  unsigned bits() const { return 1 + expBits + manBits; }
};

constexpr Format kE4M3{4, 3, 7, Special::AllOnesNan};
constexpr Format kE5M2{5, 2, 15, Special::Ieee};
constexpr Format kE4M3Fnuz{4, 3, 8, Special::Fnuz};
constexpr Format kE5M2Fnuz{5, 2, 16, Special::Fnuz};
constexpr Format kE2M3{2, 3, 1, Special::None};
constexpr Format kE3M2{3, 2, 3, Special::None};
constexpr Format kE2M1{2, 1, 1, Special::None};
constexpr Format kF16{5, 10, 15, Special::Ieee};
constexpr Format kBF16{8, 7, 127, Special::Ieee};

//===-- Decoders: format -> float -----------------------------------------===//

/// The value of `code` (its low bits()) in format `f`; exact in float for
/// every format above.
inline float decode(uint32_t code, const Format &f) {
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

/// E8M0 (MX scale): 2^(code - 127); 0xFF is NaN.
inline float decodeE8M0(uint8_t code) {
  if (code == 0xFF)
    return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, int(code) - 127);
}

inline float decodeF16(uint16_t h) { return decode(h, kF16); }
inline float decodeBF16(uint16_t h) {
  uint32_t b = uint32_t(h) << 16;
  float f;
  memcpy(&f, &b, 4);
  return f;
}

//===-- Encoders: float -> format -----------------------------------------===//

enum class Round : uint8_t {
  NearestEven, ///< IEEE round to nearest, ties to even
  TowardZero,  ///< truncation
  Stochastic,  ///< AMD's stochastic rounding: random bits added, truncated
};

/// What encode() did besides its result.
struct EncodeStatus {
  bool overflow = false; ///< finite input past the format's largest number
  bool special = false;  ///< NaN or inf input to a format without them
};

/// `x` in format `f`.
///
/// Finite values: the f32 significand is rounded to the format's precision
/// at the exponent of the result (denormals kept, at the format's smallest
/// exponent). Round::Stochastic follows AMD's definition of its sr
/// conversions (V_CVT_SR_*; AMD's reference model of the gfx950 ones in
/// HIP's amd_hip_ocp_host.hpp): the f32 significand, first shifted down
/// to the result's exponent if the result is denormal, gets the top
/// 23 - manBits bits of `rng` added just below the kept mantissa (rng >>
/// (9 + manBits)) and is truncated.
///
/// Past the largest finite number: with `saturate`, or for the formats
/// without inf and NaN (fp6, fp4), the largest finite number of that sign;
/// otherwise inf (Ieee formats), NaN (E4M3 OCP, FNUZ). Round::TowardZero
/// never overflows to inf: it gives the largest finite number (IEEE).
/// NaN gives the format's NaN (quiet, with the sign, for Ieee and E4M3);
/// inf gives inf, or NaN where there is none; `saturate` makes inf the
/// largest number. The formats with neither (fp6, fp4) take the largest
/// number of the input's sign for both, and say so in `status` so that a
/// caller can refuse them.
/// FNUZ formats have no -0: a result of magnitude 0 is +0.
inline uint32_t encode(float x, const Format &f,
                       Round round = Round::NearestEven, uint32_t rng = 0,
                       bool saturate = false, EncodeStatus *status = nullptr) {
  uint32_t bits;
  memcpy(&bits, &x, 4);
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
    if (f.special == Special::Ieee || f.special == Special::None || !saturate)
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

/// f32 -> f16 and bf16 with IEEE round to nearest even.
inline uint16_t encodeF16(float x, Round r = Round::NearestEven,
                          uint32_t rng = 0) {
  return uint16_t(encode(x, kF16, r, rng));
}
inline uint16_t encodeBF16(float x, Round r = Round::NearestEven,
                           uint32_t rng = 0) {
  // Round to nearest even of a number (bf16 keeps f32's exponent range,
  // so denormals and overflow to infinity follow from the carry): adding
  // 0x7FFF plus the lowest kept bit rounds the dropped 16 bits. What
  // encode() does for it too, without its generality on the hot path of
  // v_cvt_pk_bf16_f32.
  uint32_t w;
  memcpy(&w, &x, 4);
  if (r == Round::NearestEven && (w & 0x7FFFFFFF) <= 0x7F800000)
    return uint16_t((w + 0x7FFF + ((w >> 16) & 1)) >> 16);
  return uint16_t(encode(x, kBF16, r, rng));
}

} // namespace hk::rt::isa::fmt

#endif // HK_RUNTIME_ISA_FORMATS_H
