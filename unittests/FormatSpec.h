//===- FormatSpec.h - the small float formats from their definitions ------===//
//
// The 8-bit and smaller float formats as their specifications describe
// them (sign, exponent, mantissa, bias, which codes are NaN or inf), and
// the value of every code and the nearest code of a value computed from
// that description alone: the independent reference the tests of
// hk/Base/Formats.h (unittests/Base) and of the ISA simulator's
// conversions (unittests/Runtime) check against.
//===----------------------------------------------------------------------===//

#ifndef HK_UNITTESTS_FORMATSPEC_H
#define HK_UNITTESTS_FORMATSPEC_H

#include "hk/Base/Formats.h"

#include <cmath>
#include <limits>

namespace hk::formatspec {

namespace fmt = hk::fmt;

/// A small float format, described the way the specifications do.
struct Spec {
  const char *name;
  int exp, man, bias;
  bool fnuz;    ///< 0x80 is NaN, no -0, no inf
  bool ocpE4M3; ///< S.1111.111 is NaN, no inf
  bool ieee;    ///< all-ones exponent: inf and NaN
  fmt::Format format;
};

inline const Spec kSpecs[] = {
    {"E4M3", 4, 3, 7, false, true, false, fmt::kE4M3},
    {"E5M2", 5, 2, 15, false, false, true, fmt::kE5M2},
    {"E4M3FNUZ", 4, 3, 8, true, false, false, fmt::kE4M3Fnuz},
    {"E5M2FNUZ", 5, 2, 16, true, false, false, fmt::kE5M2Fnuz},
    {"E2M3", 2, 3, 1, false, false, false, fmt::kE2M3},
    {"E3M2", 3, 2, 3, false, false, false, fmt::kE3M2},
    {"E2M1", 2, 1, 1, false, false, false, fmt::kE2M1},
};

/// The value of `code` from the format's definition: (-1)^s * 2^(e - bias)
/// * 1.m for e > 0, (-1)^s * 2^(1 - bias) * 0.m for e = 0.
inline double specValue(const Spec &s, unsigned code) {
  unsigned bits = 1 + s.exp + s.man;
  bool neg = (code >> (bits - 1)) & 1;
  unsigned e = (code >> s.man) & ((1u << s.exp) - 1);
  unsigned m = code & ((1u << s.man) - 1);
  double nan = std::numeric_limits<double>::quiet_NaN();
  if (s.fnuz && code == 0x80)
    return nan;
  if (s.ocpE4M3 && (code & 0x7F) == 0x7F)
    return nan;
  if (s.ieee && e == (1u << s.exp) - 1)
    return m ? nan : (neg ? -INFINITY : INFINITY);
  double v = e ? std::ldexp(1.0 + m / double(1 << s.man), int(e) - s.bias)
               : std::ldexp(m / double(1 << s.man), 1 - s.bias);
  return neg ? -v : v;
}

/// Round to nearest, ties to the even code, by searching every finite
/// code: the independent reference for the encoders (finite results).
inline unsigned nearestCode(const Spec &s, double x) {
  unsigned n = 1u << (1 + s.exp + s.man);
  unsigned best = 0;
  double bestErr = INFINITY;
  for (unsigned c = 0; c < n; ++c) {
    double v = specValue(s, c);
    if (!std::isfinite(v) ||
        (v == 0 && std::signbit(v) != std::signbit(x) && !s.fnuz))
      continue;
    double err = std::fabs(v - x);
    if (err < bestErr || (err == bestErr && (c & 1) == 0 && (best & 1))) {
      best = c;
      bestErr = err;
    }
  }
  return best;
}

} // namespace hk::formatspec

#endif // HK_UNITTESTS_FORMATSPEC_H
