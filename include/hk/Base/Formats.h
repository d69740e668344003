//===- Formats.h - the number formats of the MFMAs and kernels ------------===//
//
// One definition of each number format that hk's kernels, the MFMAs of
// gfx942 and gfx950 and their conversions read and write, as AMD's CDNA3
// and CDNA4 ISA reference guides and the OCP Microscaling Formats (MX)
// specification v1.0 define them:
//
//   format     exp man bias  max normal  inf / NaN
//   E4M3 OCP    4   3   7    448         none / S.1111.111 (gfx950 fp8)
//   E5M2 OCP    5   2  15    57344       S.11111.00 / S.11111.xx (gfx950 bf8)
//   E4M3 FNUZ   4   3   8    240         none / 0x80 (gfx942 fp8)
//   E5M2 FNUZ   5   2  16    57344       none / 0x80 (gfx942 bf8)
//   E2M3        2   3   1    7.5         none / none (fp6)
//   E3M2        3   2   3    28          none / none (bf6)
//   E2M1        2   1   1    6           none / none (fp4)
//   E8M0        8   0 127    2^127       none / 0xFF (MX scale, no sign)
//   f16         5  10  15    65504       IEEE 754
//   bf16        8   7 127    ~3.4e38     IEEE 754 layout
//
// FNUZ formats have no negative zero: 0x80 is their only NaN. Denormals
// (exponent field 0) are numbers in every format. Every value of every
// format is exact in float (and so in double). The compiler, the runtime's
// ISA simulator and the kernels' float64 references all use these.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_FORMATS_H
#define HK_BASE_FORMATS_H

#include <cstdint>
#include <cstring>

namespace hk::fmt {

/// How a format spends its top codes.
enum class Special : uint8_t {
  Ieee,       ///< all-ones exponent: inf (mantissa 0) or NaN (f16, bf16, E5M2)
  AllOnesNan, ///< only S.1111.111 is NaN, no inf (OCP E4M3)
  Fnuz,       ///< 0x80 is NaN, no inf, no -0 (AMD's FNUZ fp8/bf8)
  None,       ///< every code is a finite number (fp6, fp4)
};

/// A signed format of 1 + expBits + manBits bits (E8M0, unsigned and
/// without a mantissa, has functions of its own).
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

/// The value of `code` (its low bits(); higher bits are ignored) in format
/// `f`. NaN codes give a quiet NaN of the code's sign.
float decode(uint32_t code, const Format &f);

/// E8M0 (MX scale): 2^(code - 127); 0xFF is NaN.
float decodeE8M0(uint8_t code);

inline float decodeF16(uint16_t h) { return decode(h, kF16); }
inline float decodeBF16(uint16_t h) {
  uint32_t b = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
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
/// largest number of its sign in every format, as the OCP 8-bit floating
/// point specification's saturating conversion does (HIP's
/// __HIP_SATFINITE conversions clamp finite values only). The formats with
/// neither (fp6, fp4) take the largest number of the input's sign for both, and
/// say so in `status` so that a caller can refuse them. FNUZ formats have no
/// -0: a result of magnitude 0 is +0.
uint32_t encode(float x, const Format &f, Round round = Round::NearestEven,
                uint32_t rng = 0, bool saturate = false,
                EncodeStatus *status = nullptr);

/// E8M0 (MX scale) of a positive `x`: the nearest power of two, ties (1.5
/// times a power of two) to the even code. Below 2^-127 (there is no zero)
/// the nearest is 2^-127 (code 0); past 2^127 the result is NaN (0xFF), or
/// 2^127 (0xFE) with `saturate`, and `status->overflow` says so. NaN, zero
/// and negative inputs, which no code holds, give NaN, as does inf unless
/// `saturate` (0xFE); `status->special` says so.
uint8_t encodeE8M0(float x, bool saturate = false,
                   EncodeStatus *status = nullptr);

/// f32 -> f16 and bf16, IEEE round to nearest even by default.
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
  // the simulator's v_cvt_pk_bf16_f32 and of the kernels' references.
  uint32_t w;
  std::memcpy(&w, &x, 4);
  if (r == Round::NearestEven && (w & 0x7FFFFFFF) <= 0x7F800000)
    return uint16_t((w + 0x7FFF + ((w >> 16) & 1)) >> 16);
  return uint16_t(encode(x, kBF16, r, rng));
}

} // namespace hk::fmt

#endif // HK_BASE_FORMATS_H
