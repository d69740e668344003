//===- FormatsTest.cpp - the number formats of hk/Base --------------------===//
//
// Every code of the 8-bit and smaller formats, and the rounding and special
// values of each, against values computed here independently: from each
// format's definition by formula (the OCP Microscaling Formats (MX)
// specification v1.0 for E4M3, E5M2, E2M3, E3M2, E2M1 and E8M0; AMD's FNUZ
// definitions: biases 8 and 16, no -0, 0x80 the only NaN), a nearest-value
// search over all codes, the compiler's _Float16 for f16, and values those
// documents state, never from the encoders themselves.
//===----------------------------------------------------------------------===//

#include "hk/Base/Formats.h"
#include "../FormatSpec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace fmt = hk::fmt;
using namespace hk::formatspec;

namespace {

/// The largest finite code of a positive sign, from the definition.
unsigned maxFiniteCode(const Spec &s) {
  unsigned best = 0;
  for (unsigned c = 0; c < (1u << (s.exp + s.man)); ++c)
    if (std::isfinite(specValue(s, c)) && specValue(s, c) > specValue(s, best))
      best = c;
  return best;
}

float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

} // namespace

TEST(Formats, DecodersMatchTheDefinitionsForEveryCode) {
  for (const Spec &s : kSpecs) {
    unsigned n = 1u << (1 + s.exp + s.man);
    for (unsigned c = 0; c < n; ++c) {
      double want = specValue(s, c);
      float got = fmt::decode(c, s.format);
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(got)) << s.name << " " << c;
      else
        EXPECT_EQ(double(got), want) << s.name << " " << c;
    }
  }
}

// decode(encode(x)) for every code: each number comes back as its own
// code (NaNs as NaN).
TEST(Formats, EveryCodeRoundTrips) {
  for (const Spec &s : kSpecs) {
    unsigned n = 1u << (1 + s.exp + s.man);
    for (unsigned c = 0; c < n; ++c) {
      double v = specValue(s, c);
      if (std::isinf(v))
        continue;
      uint32_t back = fmt::encode(float(v), s.format);
      if (std::isnan(v))
        EXPECT_TRUE(std::isnan(specValue(s, back))) << s.name << " " << c;
      else
        EXPECT_EQ(back, c) << s.name << " " << c;
    }
  }
}

// Values between the codes round to nearest even, as the search over all
// codes says: midpoints and points a quarter of the way.
TEST(Formats, EncodersRoundToNearestEven) {
  for (const Spec &s : kSpecs) {
    unsigned half = 1u << (s.exp + s.man);
    for (unsigned c = 0; c + 1 < half; ++c) {
      double a = specValue(s, c), b = specValue(s, c + 1);
      if (!std::isfinite(b))
        continue;
      for (double t : {0.25, 0.5, 0.75})
        for (double sign : {1.0, -1.0}) {
          double x = sign * (a + (b - a) * t);
          if (float(x) != x)
            continue;
          EXPECT_EQ(fmt::encode(float(x), s.format), nearestCode(s, x))
              << s.name << " " << x;
        }
    }
  }
}

// Hand-worked values from the OCP MX spec and AMD's FNUZ definition.
TEST(Formats, EncoderSpecialValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // E4M3 (OCP): 1.0 = 0.0111.000; max 448 = 0.1111.110; 449 rounds to
  // 448, 464 (the midpoint to the NaN code) to even 448, 465 overflows
  // to NaN (no inf) or saturates; 2^-9 is the smallest denormal.
  EXPECT_EQ(fmt::encode(1.0f, fmt::kE4M3), 0x38u);
  EXPECT_EQ(fmt::encode(448.0f, fmt::kE4M3), 0x7Eu);
  EXPECT_EQ(fmt::encode(449.0f, fmt::kE4M3), 0x7Eu);
  EXPECT_EQ(fmt::encode(464.0f, fmt::kE4M3), 0x7Eu);
  EXPECT_EQ(fmt::encode(465.0f, fmt::kE4M3), 0x7Fu);
  EXPECT_EQ(fmt::encode(-465.0f, fmt::kE4M3), 0xFFu);
  EXPECT_EQ(fmt::encode(465.0f, fmt::kE4M3, fmt::Round::NearestEven, 0, true),
            0x7Eu);
  EXPECT_EQ(fmt::encode(0.001953125f, fmt::kE4M3), 0x01u);
  EXPECT_EQ(fmt::encode(0.0009765625f, fmt::kE4M3), 0x00u); // tie to 0
  EXPECT_EQ(fmt::encode(-0.0f, fmt::kE4M3), 0x80u);
  EXPECT_EQ(fmt::encode(nan, fmt::kE4M3), 0x7Fu);
  EXPECT_EQ(fmt::encode(INFINITY, fmt::kE4M3), 0x7Fu);
  // E5M2 (OCP): max 57344 = 0.11110.11; 61440 ties up to inf.
  EXPECT_EQ(fmt::encode(1.0f, fmt::kE5M2), 0x3Cu);
  EXPECT_EQ(fmt::encode(57344.0f, fmt::kE5M2), 0x7Bu);
  EXPECT_EQ(fmt::encode(61440.0f, fmt::kE5M2), 0x7Cu);
  EXPECT_EQ(fmt::encode(61440.0f, fmt::kE5M2, fmt::Round::NearestEven, 0, true),
            0x7Bu);
  EXPECT_EQ(fmt::encode(-INFINITY, fmt::kE5M2), 0xFCu);
  EXPECT_EQ(fmt::encode(0x1p-16f, fmt::kE5M2), 0x01u);
  EXPECT_TRUE(
      std::isnan(fmt::decode(fmt::encode(nan, fmt::kE5M2), fmt::kE5M2)));
  // FNUZ: 1.0 has exponent field 8 (E4M3) or 16 (E5M2); max 240 / 57344;
  // -0 and negative underflow give +0; NaN, inf and overflow give 0x80.
  EXPECT_EQ(fmt::encode(1.0f, fmt::kE4M3Fnuz), 0x40u);
  EXPECT_EQ(fmt::encode(240.0f, fmt::kE4M3Fnuz), 0x7Fu);
  EXPECT_EQ(fmt::encode(247.0f, fmt::kE4M3Fnuz), 0x7Fu);
  EXPECT_EQ(fmt::encode(248.0f, fmt::kE4M3Fnuz), 0x80u);
  EXPECT_EQ(fmt::encode(-0.0f, fmt::kE4M3Fnuz), 0x00u);
  EXPECT_EQ(fmt::encode(-0x1p-12f, fmt::kE4M3Fnuz), 0x00u);
  EXPECT_EQ(fmt::encode(0x1p-10f, fmt::kE4M3Fnuz), 0x01u);
  EXPECT_EQ(fmt::encode(nan, fmt::kE4M3Fnuz), 0x80u);
  EXPECT_EQ(fmt::encode(-INFINITY, fmt::kE4M3Fnuz), 0x80u);
  EXPECT_EQ(fmt::encode(1.0f, fmt::kE5M2Fnuz), 0x40u);
  EXPECT_EQ(fmt::encode(57344.0f, fmt::kE5M2Fnuz), 0x7Fu);
  EXPECT_EQ(fmt::encode(0x1p-17f, fmt::kE5M2Fnuz), 0x01u);
  // fp6 / fp4 (no inf, no NaN): out-of-range values saturate.
  EXPECT_EQ(fmt::encode(7.5f, fmt::kE2M3), 0x1Fu);
  EXPECT_EQ(fmt::encode(100.0f, fmt::kE2M3), 0x1Fu);
  EXPECT_EQ(fmt::encode(0.125f, fmt::kE2M3), 0x01u);
  EXPECT_EQ(fmt::encode(28.0f, fmt::kE3M2), 0x1Fu);
  EXPECT_EQ(fmt::encode(1.0f, fmt::kE3M2), 0x0Cu);
  EXPECT_EQ(fmt::encode(6.0f, fmt::kE2M1), 0x7u);
  EXPECT_EQ(fmt::encode(5.0f, fmt::kE2M1), 0x6u); // tie to even: 4
  EXPECT_EQ(fmt::encode(-0.5f, fmt::kE2M1), 0x9u);
}

// Stochastic rounding adds the top 23 - m bits of the random value just
// below the kept mantissa and truncates: 1 + 2^-4 lies half way between
// the E4M3 neighbours 1.0 and 1.125 (2^19 of the 2^20 dropped units), so
// it rounds up exactly when rng >> 12 reaches 2^19, i.e. rng >= 2^31.
TEST(Formats, StochasticRounding) {
  float x = 1.0625f;
  EXPECT_EQ(fmt::encode(x, fmt::kE4M3, fmt::Round::Stochastic, 0x7FFFFFFF),
            0x38u);
  EXPECT_EQ(fmt::encode(x, fmt::kE4M3, fmt::Round::Stochastic, 0x80000000),
            0x39u);
  EXPECT_EQ(fmt::encode(x, fmt::kE4M3, fmt::Round::Stochastic, 0x00000FFF),
            0x38u);
  // A quarter of the way up: rounds up when rng >> 12 >= 3 * 2^18.
  EXPECT_EQ(
      fmt::encode(1.03125f, fmt::kE4M3, fmt::Round::Stochastic, 0xBFFFFFFF),
      0x38u);
  EXPECT_EQ(
      fmt::encode(1.03125f, fmt::kE4M3, fmt::Round::Stochastic, 0xC0000000),
      0x39u);
  // Exact values never move.
  EXPECT_EQ(fmt::encode(1.0f, fmt::kE4M3, fmt::Round::Stochastic, 0xFFFFFFFF),
            0x38u);
  // f16: 13 dropped bits, rng >> 19; 1 + 2^-11 is half an f16 ulp above 1.
  EXPECT_EQ(fmt::encode(1.00048828125f, fmt::kF16, fmt::Round::Stochastic,
                        0x7FFFFFFF),
            0x3C00u);
  EXPECT_EQ(fmt::encode(1.00048828125f, fmt::kF16, fmt::Round::Stochastic,
                        0x80000000),
            0x3C01u);
  // A denormal result: 2^-10 + 2^-12 in E4M3 (denormal step 2^-9) is
  // 0.625 of a step above 2^-10; the f32 significand loses the bits below
  // the denormal exponent first, then rounds up when rng >> 12 >= 0.375 *
  // 2^20.
  float d = 0x1p-10f + 0x1p-12f;
  EXPECT_EQ(fmt::encode(d, fmt::kE4M3, fmt::Round::Stochastic, 0x5FFFFFFF),
            0x00u);
  EXPECT_EQ(fmt::encode(d, fmt::kE4M3, fmt::Round::Stochastic, 0x60000000),
            0x01u);
}

// The values the OCP MX specification (tables of its element formats) and
// AMD's FNUZ definition state: largest normal, smallest normal and
// smallest subnormal, and the codes of 1.0.
TEST(Formats, DocumentedExtremes) {
  struct Row {
    fmt::Format f;
    unsigned maxCode, minNormalCode;
    double max, minNormal, minSubnormal;
    unsigned one;
  } rows[] = {
      {fmt::kE4M3, 0x7E, 0x08, 448, 0x1p-6, 0x1p-9, 0x38},
      {fmt::kE5M2, 0x7B, 0x04, 57344, 0x1p-14, 0x1p-16, 0x3C},
      {fmt::kE4M3Fnuz, 0x7F, 0x08, 240, 0x1p-7, 0x1p-10, 0x40},
      {fmt::kE5M2Fnuz, 0x7F, 0x04, 57344, 0x1p-15, 0x1p-17, 0x40},
      {fmt::kE2M3, 0x1F, 0x08, 7.5, 1.0, 0.125, 0x08},
      {fmt::kE3M2, 0x1F, 0x04, 28, 0.25, 0.0625, 0x0C},
      {fmt::kE2M1, 0x7, 0x2, 6, 1.0, 0.5, 0x2},
  };
  for (const Row &r : rows) {
    EXPECT_EQ(double(fmt::decode(r.maxCode, r.f)), r.max);
    EXPECT_EQ(double(fmt::decode(r.minNormalCode, r.f)), r.minNormal);
    EXPECT_EQ(double(fmt::decode(1, r.f)), r.minSubnormal);
    EXPECT_EQ(fmt::decode(r.one, r.f), 1.0f);
    EXPECT_EQ(fmt::encode(float(r.max), r.f), r.maxCode);
    EXPECT_EQ(fmt::encode(1.0f, r.f), r.one);
  }
}

// Past the largest number: the tie just above it rounds to even (away from
// the largest number when its mantissa is odd, as in IEEE 754), anything
// larger overflows; saturation gives the largest number of the sign, and
// without it the result is inf (E5M2), NaN (E4M3, FNUZ) or, in the formats
// with neither, the largest number still. The status says so.
TEST(Formats, OverflowAndSaturation) {
  for (const Spec &s : kSpecs) {
    unsigned maxCode = maxFiniteCode(s), sign = 1u << (s.exp + s.man);
    double max = specValue(s, maxCode);
    double ulp = max - specValue(s, maxCode - 1);
    unsigned overflowCode = s.ieee      ? ((1u << s.exp) - 1) << s.man
                            : s.fnuz    ? 0x80
                            : s.ocpE4M3 ? 0x7F
                                        : maxCode;
    bool tieOverflows = maxCode & 1;
    for (double neg : {1.0, -1.0}) {
      unsigned signBit = neg < 0 ? sign : 0;
      unsigned over = s.fnuz ? overflowCode : (overflowCode | signBit);
      float tie = float(neg * (max + ulp / 2));
      fmt::EncodeStatus st;
      EXPECT_EQ(
          fmt::encode(tie, s.format, fmt::Round::NearestEven, 0, false, &st),
          tieOverflows ? over : (maxCode | signBit))
          << s.name << " " << tie;
      EXPECT_EQ(st.overflow, tieOverflows) << s.name;
      for (float x : {float(neg * max * 2), float(neg * 1e30)}) {
        fmt::EncodeStatus big;
        EXPECT_EQ(
            fmt::encode(x, s.format, fmt::Round::NearestEven, 0, false, &big),
            over)
            << s.name << " " << x;
        EXPECT_TRUE(big.overflow) << s.name << " " << x;
        EXPECT_EQ(fmt::encode(x, s.format, fmt::Round::NearestEven, 0, true),
                  maxCode | signBit)
            << s.name << " " << x;
        // Truncation never rounds up to inf or NaN.
        EXPECT_EQ(fmt::encode(x, s.format, fmt::Round::TowardZero),
                  maxCode | signBit)
            << s.name << " " << x;
      }
    }
  }
}

// NaN and inf inputs: NaN stays NaN where the format has one; inf is inf
// (E5M2), NaN (E4M3, FNUZ) or, saturated, the largest number; the formats
// with neither give the largest number and flag the input.
TEST(Formats, NanAndInfInputs) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Spec &s : kSpecs) {
    fmt::EncodeStatus st;
    uint32_t code =
        fmt::encode(nan, s.format, fmt::Round::NearestEven, 0, false, &st);
    unsigned maxCode = maxFiniteCode(s);
    if (s.ieee || s.fnuz || s.ocpE4M3) {
      EXPECT_TRUE(std::isnan(specValue(s, code))) << s.name;
      EXPECT_FALSE(st.special) << s.name;
      EXPECT_TRUE(std::isnan(specValue(
          s, fmt::encode(nan, s.format, fmt::Round::NearestEven, 0, true))))
          << s.name << ": saturation keeps NaN";
    } else {
      EXPECT_EQ(code, maxCode) << s.name;
      EXPECT_TRUE(st.special) << s.name;
    }
    double inf = specValue(s, fmt::encode(INFINITY, s.format));
    if (s.ieee)
      EXPECT_EQ(inf, INFINITY) << s.name;
    else if (s.fnuz || s.ocpE4M3)
      EXPECT_TRUE(std::isnan(inf)) << s.name;
    else
      EXPECT_EQ(inf, specValue(s, maxCode)) << s.name;
    EXPECT_EQ(
        fmt::encode(-INFINITY, s.format, fmt::Round::NearestEven, 0, true),
        maxCode | (1u << (s.exp + s.man)))
        << s.name;
  }
}

//===-- E8M0 --------------------------------------------------------------===//

// Every code: 2^(code - 127), 0xFF NaN; each power of two encodes to its
// code.
TEST(Formats, E8M0EveryCode) {
  for (unsigned c = 0; c < 256; ++c) {
    float v = fmt::decodeE8M0(uint8_t(c));
    if (c == 0xFF) {
      EXPECT_TRUE(std::isnan(v));
      continue;
    }
    EXPECT_EQ(double(v), std::pow(2.0, int(c) - 127)) << c;
    EXPECT_EQ(fmt::encodeE8M0(v), c) << c;
  }
  // The MX specification's extremes: 2^-127 (0x00), 2^0 (0x7F), 2^127.
  EXPECT_EQ(fmt::decodeE8M0(0x7F), 1.0f);
  EXPECT_EQ(double(fmt::decodeE8M0(0xFE)), 0x1p127);
  EXPECT_EQ(double(fmt::decodeE8M0(0x00)), 0x1p-127);
}

// Between two powers of two the nearer wins; at 1.5 times the lower one
// (the midpoint) the even code.
TEST(Formats, E8M0Rounding) {
  for (int e = -126; e < 126; ++e) {
    unsigned lo = unsigned(e + 127);
    double p = std::ldexp(1.0, e);
    EXPECT_EQ(fmt::encodeE8M0(float(p * 1.25)), lo) << e;
    EXPECT_EQ(fmt::encodeE8M0(float(p * 1.75)), lo + 1) << e;
    EXPECT_EQ(fmt::encodeE8M0(float(p * 1.5)), lo & 1 ? lo + 1 : lo) << e;
  }
  // Below 2^-127 the nearest is 2^-127; no zero.
  EXPECT_EQ(fmt::encodeE8M0(0x1p-140f), 0x00u);
  // Past 2^127: NaN, or 2^127 saturated.
  fmt::EncodeStatus st;
  EXPECT_EQ(fmt::encodeE8M0(0x1.cp127f, false, &st), 0xFFu);
  EXPECT_TRUE(st.overflow);
  EXPECT_EQ(fmt::encodeE8M0(0x1.cp127f, true), 0xFEu);
  // 1.5 * 2^127 ties to the even code 0xFE (2^127), no overflow.
  fmt::EncodeStatus tie;
  EXPECT_EQ(fmt::encodeE8M0(0x1.8p127f, false, &tie), 0xFEu);
  EXPECT_FALSE(tie.overflow);
  // No sign, no zero, no inf.
  for (float x : {0.0f, -0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                  -INFINITY}) {
    fmt::EncodeStatus bad;
    EXPECT_EQ(fmt::encodeE8M0(x, true, &bad), 0xFFu) << x;
    EXPECT_TRUE(bad.special) << x;
  }
  EXPECT_EQ(fmt::encodeE8M0(INFINITY), 0xFFu);
  EXPECT_EQ(fmt::encodeE8M0(INFINITY, true), 0xFEu);
}

//===-- f16 and bf16 ------------------------------------------------------===//

// Every f16 code decodes as the compiler's _Float16 does; every midpoint
// between neighbours (and a point a quarter of the way) encodes as its
// conversion from float does, to nearest even.
TEST(Formats, F16EveryCode) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    _Float16 h;
    uint16_t bits = uint16_t(c);
    std::memcpy(&h, &bits, 2);
    float want = float(h), got = fmt::decodeF16(bits);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << c;
      continue;
    }
    EXPECT_EQ(got, want) << c;
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << c;
    if ((c & 0x7FFF) >= 0x7C00 - 1)
      continue;
    float next = fmt::decodeF16(uint16_t(c + 1));
    for (float t : {0.25f, 0.5f}) {
      float x = got + (next - got) * t;
      _Float16 r = (_Float16)x;
      uint16_t rb;
      std::memcpy(&rb, &r, 2);
      EXPECT_EQ(fmt::encodeF16(x), rb) << c << " " << t;
    }
  }
}

// bf16 is the top half of a float: decoding is exact; encoding rounds the
// low 16 bits to nearest even, carries into the exponent and overflows to
// inf, and keeps a NaN quiet with its sign.
TEST(Formats, BF16RoundingAndSpecials) {
  for (uint32_t c = 0; c < 0x10000; c += 7) {
    float v = floatOf(c << 16);
    float got = fmt::decodeBF16(uint16_t(c));
    if (std::isnan(v))
      EXPECT_TRUE(std::isnan(got)) << c;
    else
      EXPECT_EQ(got, v) << c;
  }
  EXPECT_EQ(fmt::encodeBF16(1.0f), 0x3F80u);
  EXPECT_EQ(fmt::encodeBF16(-2.0f), 0xC000u);
  // 1 + 2^-8 is half a bf16 ulp above 1: ties to the even 1.0; 1 + 3 * 2^-8
  // ties to the even 1 + 2^-6; just above a tie rounds up.
  EXPECT_EQ(fmt::encodeBF16(1.00390625f), 0x3F80u);
  EXPECT_EQ(fmt::encodeBF16(1.01171875f), 0x3F82u);
  EXPECT_EQ(fmt::encodeBF16(floatOf(0x3F808001)), 0x3F81u);
  // The largest bf16 plus half an ulp ties up to inf; the largest float
  // rounds to inf too.
  EXPECT_EQ(fmt::encodeBF16(floatOf(0x7F7F8000)), 0x7F80u);
  EXPECT_EQ(fmt::encodeBF16(floatOf(0x7F7F7FFF)), 0x7F7Fu);
  EXPECT_EQ(fmt::encodeBF16(-INFINITY), 0xFF80u);
  // Denormals round like any other value.
  EXPECT_EQ(fmt::encodeBF16(floatOf(0x00018000)), 0x0002u);
  EXPECT_EQ(fmt::encodeBF16(floatOf(0x00008000)), 0x0000u);
  // A signalling NaN comes back quiet, with its sign and payload top.
  EXPECT_EQ(fmt::encodeBF16(floatOf(0xFF810000)), 0xFFC1u);
  EXPECT_EQ(fmt::encodeBF16(floatOf(0x7FC00000)), 0x7FC0u);
  // Truncation drops the low half.
  EXPECT_EQ(fmt::encodeBF16(floatOf(0x3F80FFFF), fmt::Round::TowardZero),
            0x3F80u);
}
