//===- IsaConvertTest.cpp - packed math and conversions -------------------===//
//
// Packed math (VOP3P) and conversions between number formats on the ISA
// simulator. Expected values come from the formats' definitions (IEEE 754
// for f16 and f32, the OCP Microscaling Formats (MX) specification v1.0 for
// E4M3, E5M2, E2M3, E3M2 and E2M1, AMD's FNUZ definitions: biases 8 and 16,
// no -0, 0x80 the only NaN) and the ISA guides' pseudocode, worked by hand
// or computed independently here (float64 and _Float16 arithmetic, a
// nearest-value search over all codes), never from the simulator's output.
//===----------------------------------------------------------------------===//

#include "../FormatSpec.h"
#include "IsaTestUtil.h"

#include "hk/Base/Error.h"
#include "hk/Base/Formats.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace hk::rt;
using namespace hk::rt::isatest;
namespace fmt = hk::fmt;
using namespace hk::formatspec;

namespace {

const char *const kChips[] = {"gfx942", "gfx950"};

uint32_t bitsOf(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
float floatOf(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
uint16_t halfBits(float f) {
  _Float16 h = (_Float16)f; // IEEE round to nearest even
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
uint16_t halfBitsD(double d) {
  _Float16 h = (_Float16)d; // one rounding from double
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
float halfValue(uint16_t b) {
  _Float16 h;
  memcpy(&h, &b, 2);
  return float(h);
}

/// Runs `body` for 64 lanes: v2..v9 hold in[0..7][lane] and v10..v17
/// out[0..7][lane] before it; out receives v10..v17 after it.
void runLanes(const std::string &chip, const std::string &body,
              const std::vector<std::vector<uint32_t>> &in,
              std::vector<std::vector<uint32_t>> &out) {
  std::vector<uint32_t> a(8 * 64, 0), d(8 * 64, 0);
  for (size_t r = 0; r < in.size(); ++r)
    for (size_t l = 0; l < 64 && l < in[r].size(); ++l)
      a[r * 64 + l] = in[r][l];
  out.resize(8);
  for (size_t r = 0; r < 8; ++r) {
    out[r].resize(64, 0);
    for (size_t l = 0; l < 64; ++l)
      d[r * 64 + l] = out[r][l];
  }
  std::string text = "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "v_lshlrev_b32_e32 v1, 2, v0\n";
  for (int r = 0; r < 8; ++r)
    text += "global_load_dword v" + std::to_string(2 + r) +
            ", v1, s[4:5] offset:" + std::to_string(256 * r) + "\n";
  for (int r = 0; r < 8; ++r)
    text += "global_load_dword v" + std::to_string(10 + r) +
            ", v1, s[6:7] offset:" + std::to_string(256 * r) + "\n";
  text += "s_waitcnt vmcnt(0)\n" + body + "\n";
  for (int r = 0; r < 8; ++r)
    text += "global_store_dword v1, v" + std::to_string(10 + r) +
            ", s[6:7] offset:" + std::to_string(256 * r) + "\n";
  text += "s_waitcnt vmcnt(0)\ns_endpgm\n";
  launch(chip, text, {ptr(a.data()), ptr(d.data())},
         {{a.data(), a.size() * 4}, {d.data(), d.size() * 4}});
  for (size_t r = 0; r < 8; ++r)
    for (size_t l = 0; l < 64; ++l)
      out[r][l] = d[r * 64 + l];
}

/// Lane values cycling through `values`.
std::vector<uint32_t> cycle(const std::vector<uint32_t> &values) {
  std::vector<uint32_t> v(64);
  for (size_t l = 0; l < 64; ++l)
    v[l] = values[l % values.size()];
  return v;
}
std::vector<uint32_t> cycleF(const std::vector<float> &values) {
  std::vector<uint32_t> v(64);
  for (size_t l = 0; l < 64; ++l)
    v[l] = bitsOf(values[l % values.size()]);
  return v;
}

// The formats themselves (decoding every code, rounding, special values)
// are tested in unittests/Base/FormatsTest.cpp.

//===-- Conversions on the simulator --------------------------------------===//

// v_cvt_f32_f16 in its e32 form (as user kernels have it), its e64 form
// with neg and abs, its SDWA form reading word 1; v_cvt_f16_f32 rounding
// to nearest even, its SDWA form writing word 1 and keeping word 0.
TEST(IsaConvert, F16AndF32) {
  std::vector<float> halves = {1.0f,  -2.5f,     65504.0f, 0x1p-24f,
                               -0.0f, 3.140625f, INFINITY, 0.333251953125f};
  std::vector<uint32_t> packed;
  for (size_t k = 0; k < halves.size(); ++k)
    packed.push_back(halfBits(halves[k]) |
                     uint32_t(halfBits(halves[(k + 3) % halves.size()])) << 16);
  std::vector<float> floats = {1.0f,     1.00048828125f, 1.000732421875f,
                               65520.0f, 65519.0f,       0x1p-25f,
                               -3.0e-8f, 1.0e9f};
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out(8, cycle({0xDEADBEEF}));
    runLanes(chip, R"(
      v_cvt_f32_f16_e32 v10, v2
      v_cvt_f32_f16_e64 v11, -|v2|
      v_cvt_f32_f16_sdwa v12, v2 src0_sel:WORD_1
      v_cvt_f16_f32_e32 v13, v3
      v_cvt_f16_f32_sdwa v14, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE
      v_cvt_f32_f16_e64 v15, v2 clamp)",
             {cycle(packed), cycleF(floats)}, out);
    for (int l = 0; l < 64; ++l) {
      uint32_t p = packed[l % packed.size()];
      float lo = halfValue(uint16_t(p)), hi = halfValue(uint16_t(p >> 16));
      EXPECT_EQ(out[0][l], bitsOf(lo)) << chip << " " << l;
      EXPECT_EQ(out[1][l], bitsOf(-std::fabs(lo))) << chip << " " << l;
      EXPECT_EQ(out[2][l], bitsOf(hi)) << chip << " " << l;
      float f = floats[l % floats.size()];
      EXPECT_EQ(out[3][l], halfBits(f)) << chip << " " << f;
      EXPECT_EQ(out[4][l], uint32_t(halfBits(f)) << 16 | 0xBEEF) << chip;
      float c = std::fmin(std::fmax(lo, 0.0f), 1.0f);
      EXPECT_EQ(out[5][l], bitsOf(c)) << chip << " " << lo;
    }
  }
}

// Float to integer: truncation toward zero, NaN to 0, saturation at the
// ends (cvt_i32/u32_f32), floor(x + 0.5) (rpi), floor (flr); integer and
// byte to float; the signed 4-bit offset format (S0[3:0] / 16); f64.
TEST(IsaConvert, IntegerAndDouble) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> xs = {2.5f,    -2.5f, -0.5f, 3.0e9f,
                           -3.0e9f, nan,   1.5f,  0.49999997f};
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out;
    runLanes(chip, R"(
      v_cvt_i32_f32_e32 v10, v2
      v_cvt_u32_f32_e32 v11, v2
      v_cvt_rpi_i32_f32_e32 v12, v2
      v_cvt_flr_i32_f32_e32 v13, v2
      v_cvt_f32_ubyte2_e32 v14, v3
      v_cvt_off_f32_i4_e32 v15, v3
      v_cvt_f64_f32_e32 v[16:17], v2)",
             {cycleF(xs), cycle({0x00C3000F, 0x12345678, 0xFF000008})}, out);
    for (int l = 0; l < 64; ++l) {
      double x = xs[l % xs.size()];
      auto sat = [&](double v, double lo, double hi) {
        return std::isnan(v) ? 0.0 : std::fmin(std::fmax(v, lo), hi);
      };
      EXPECT_EQ(int32_t(out[0][l]),
                int32_t(sat(std::trunc(x), -2147483648.0, 2147483647.0)))
          << chip << " " << x;
      EXPECT_EQ(out[1][l], uint32_t(sat(std::trunc(x), 0, 4294967295.0)))
          << chip << " " << x;
      EXPECT_EQ(int32_t(out[2][l]),
                int32_t(sat(std::floor(x + 0.5), -2147483648.0, 2147483647.0)))
          << chip << " " << x;
      EXPECT_EQ(int32_t(out[3][l]),
                int32_t(sat(std::floor(x), -2147483648.0, 2147483647.0)))
          << chip << " " << x;
      uint32_t b =
          std::vector<uint32_t>{0x00C3000F, 0x12345678, 0xFF000008}[l % 3];
      EXPECT_EQ(floatOf(out[4][l]), float((b >> 16) & 0xFF)) << chip;
      int i4 = int(b & 0xF) >= 8 ? int(b & 0xF) - 16 : int(b & 0xF);
      EXPECT_EQ(floatOf(out[5][l]), float(i4) / 16.0f) << chip;
      uint64_t d = out[6][l] | uint64_t(out[7][l]) << 32;
      double dv;
      memcpy(&dv, &d, 8);
      if (std::isnan(x))
        EXPECT_TRUE(std::isnan(dv));
      else
        EXPECT_EQ(dv, x) << chip;
    }
  }
}

// v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 write two codes into the word
// op_sel picks (the other kept); v_cvt_f32_fp8 (SDWA: the byte src0_sel
// picks) and v_cvt_pk_f32_bf8 read them back. gfx942 uses the FNUZ
// formats, gfx950 the OCP ones (CDNA3 and CDNA4 guides).
TEST(IsaConvert, Fp8Conversions) {
  std::vector<float> xs = {1.0f,   449.0f, 0.001953125f, -0.0f,
                           240.0f, -3.3f,  0.1f,         57344.0f};
  for (const char *chip : kChips) {
    bool ocp = std::string(chip) == "gfx950";
    const Spec &fp8 = kSpecs[ocp ? 0 : 2], &bf8 = kSpecs[ocp ? 1 : 3];
    std::vector<std::vector<uint32_t>> out(8, cycle({0x11223344}));
    runLanes(chip, R"(
      v_cvt_pk_fp8_f32 v10, v2, v3
      v_cvt_pk_bf8_f32 v11, v2, v3 op_sel:[0,0,1]
      v_cvt_f32_fp8_sdwa v12, v4 src0_sel:BYTE_2
      v_cvt_pk_f32_bf8_sdwa v[14:15], v4 src0_sel:WORD_1
      v_cvt_f32_fp8_e32 v13, v4)",
             {cycleF(xs), cycleF({-1.5f, 300.0f, 2.0f, 1.0e-9f}),
              cycle({0x01807F38, 0xC0F0FF7B, 0x3C7E8001})},
             out);
    for (int l = 0; l < 64; ++l) {
      double a = xs[l % xs.size()];
      double b = std::vector<double>{-1.5, 300.0, 2.0, 1.0e-9}[l % 4];
      // Finite results within range from the nearest-even search; the
      // overflow cases worked by hand: E4M3 OCP 449 -> 448 (0x7E);
      // FNUZ E4M3 449, 300 -> NaN (0x80); OCP E4M3 57344 -> NaN (0x7F);
      // FNUZ E4M3 57344 -> 0x80.
      auto fp8Code = [&](double x) -> unsigned {
        double max = specValue(fp8, ocp ? 0x7E : 0x7F);
        double maxUlp = max - specValue(fp8, ocp ? 0x7D : 0x7E);
        if (std::fabs(x) >= max + maxUlp / 2)
          return ocp ? (std::signbit(x) ? 0xFF : 0x7F) : 0x80;
        return nearestCode(fp8, x);
      };
      unsigned lo = fp8Code(a) | fp8Code(b) << 8;
      EXPECT_EQ(out[0][l], 0x11220000u | lo) << chip << " " << a << " " << b;
      unsigned hi = nearestCode(bf8, a) | nearestCode(bf8, b) << 8;
      EXPECT_EQ(out[1][l], hi << 16 | 0x3344u) << chip << " " << a;
      uint32_t codes =
          std::vector<uint32_t>{0x01807F38, 0xC0F0FF7B, 0x3C7E8001}[l % 3];
      auto same = [&](uint32_t got, double want) {
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(floatOf(got))) << chip;
        else
          EXPECT_EQ(double(floatOf(got)), want) << chip << " " << codes;
      };
      same(out[2][l], specValue(fp8, (codes >> 16) & 0xFF));
      same(out[4][l], specValue(bf8, (codes >> 16) & 0xFF));
      same(out[5][l], specValue(bf8, (codes >> 24) & 0xFF));
      same(out[3][l], specValue(fp8, codes & 0xFF));
    }
  }
}

// v_cvt_sr_fp8_f32: the byte op_sel picks; S1 gives the random bits.
TEST(IsaConvert, Fp8StochasticRounding) {
  for (const char *chip : kChips) {
    bool ocp = std::string(chip) == "gfx950";
    std::vector<std::vector<uint32_t>> out(8, cycle({0xAABBCCDD}));
    runLanes(
        chip, R"(
      v_cvt_sr_fp8_f32 v10, v2, v3
      v_cvt_sr_fp8_f32 v11, v2, v3 op_sel:[0,0,1,1])",
        {cycleF({1.0625f}), cycle({0x7FFFFFFF, 0x80000000, 0xFFFFF000, 0xFFF})},
        out);
    for (int l = 0; l < 64; ++l) {
      bool up = (std::vector<uint32_t>{0x7FFFFFFF, 0x80000000, 0xFFFFF000,
                                       0xFFF}[l % 4]) >= 0x80000000u;
      // 1.0 is 0x38 (OCP, bias 7) or 0x40 (FNUZ, bias 8); 1.125 the next.
      uint32_t code = (ocp ? 0x38 : 0x40) + (up ? 1 : 0);
      EXPECT_EQ(out[0][l], 0xAABBCC00u | code) << chip << " " << l;
      EXPECT_EQ(out[1][l], 0x00BBCCDDu | code << 24) << chip << " " << l;
    }
  }
}

// v_cvt_pkrtz_f16_f32 truncates; v_cvt_pknorm_i16/u16_f32 scale by 32767
// and 65535 after clamping; v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32 saturate.
TEST(IsaConvert, PackedConversions) {
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out;
    runLanes(chip, R"(
      v_cvt_pkrtz_f16_f32 v10, v2, v3
      v_cvt_pknorm_i16_f32 v11, v2, v3
      v_cvt_pknorm_u16_f32 v12, v2, v3
      v_cvt_pk_u16_u32 v13, v4, v5
      v_cvt_pk_i16_i32 v14, v4, v5
      v_cvt_pk_u8_f32 v15, v2, 2, v4)",
             {cycleF({1.00048828125f, -0.5f, 70000.0f, 0.25f}),
              cycleF({-1.5f, 2.0f, 0.0001f, -70000.0f}),
              cycle({70000, 0xFFFF8000, 5}), cycle({0xFFFFFFFF, 12, 40000})},
             out);
    for (int l = 0; l < 64; ++l) {
      double a = std::vector<double>{1.00048828125, -0.5, 70000.0, 0.25}[l % 4];
      double b = std::vector<double>{-1.5, 2.0, 0.0001, -70000.0}[l % 4];
      auto rtz = [](double x) -> uint32_t {
        // The f16 at or below |x|, with x's sign (no inf: 65504 at most).
        uint16_t h = halfBits(float(x));
        if (std::fabs(double(halfValue(h))) > std::fabs(x))
          h = uint16_t(h - 1);
        if ((h & 0x7FFF) == 0x7C00)
          h = uint16_t(h - 1);
        return h;
      };
      EXPECT_EQ(out[0][l], rtz(a) | rtz(b) << 16) << chip << " " << a;
      auto sn = [](double x) {
        return uint32_t(uint16_t(int16_t(
            std::nearbyint(std::fmin(std::fmax(x, -1.0), 1.0) * 32767))));
      };
      auto un = [](double x) {
        return uint32_t(
            std::nearbyint(std::fmin(std::fmax(x, 0.0), 1.0) * 65535));
      };
      EXPECT_EQ(out[1][l], sn(a) | sn(b) << 16) << chip;
      EXPECT_EQ(out[2][l], un(a) | un(b) << 16) << chip;
      uint32_t c = std::vector<uint32_t>{70000, 0xFFFF8000, 5}[l % 3];
      uint32_t d = std::vector<uint32_t>{0xFFFFFFFF, 12, 40000}[l % 3];
      auto u16 = [](uint32_t v) { return std::min<uint32_t>(v, 0xFFFF); };
      auto i16 = [](uint32_t v) {
        return uint32_t(
            uint16_t(std::clamp<int32_t>(int32_t(v), -32768, 32767)));
      };
      EXPECT_EQ(out[3][l], u16(c) | u16(d) << 16) << chip;
      EXPECT_EQ(out[4][l], i16(c) | i16(d) << 16) << chip;
      // u8(a) into byte 2 of S2 (v4).
      uint32_t u8 =
          uint32_t(std::fmin(std::fmax(std::nearbyint(a), 0.0), 255.0));
      EXPECT_EQ(out[5][l], (c & 0xFF00FFFF) | u8 << 16) << chip << " " << a;
    }
  }
}

//===-- Packed math -------------------------------------------------------===//

/// The f16 of half `hi` of v.
float h(uint32_t v, bool hi) { return halfValue(uint16_t(hi ? v >> 16 : v)); }

// v_pk_add_f16 with op_sel / op_sel_hi / neg_lo / neg_hi, v_pk_fma_f16
// (one rounding, compared with the float64 fma rounded once to f16),
// v_pk_mul_f16 with clamp, v_pk_max_f16.
TEST(IsaConvert, PackedF16) {
  std::vector<uint32_t> a = {0x3C004000, 0xC2003555, 0x7BFF0001, 0x80003C01},
                        b = {0x3E00BC00, 0x3C013C01, 0x7BFF8001, 0x00003C00},
                        c = {0x00013800, 0xFC00BC00, 0x3C003C00, 0x0400C000};
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out;
    runLanes(chip, R"(
      v_pk_add_f16 v10, v2, v3 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1] neg_hi:[1,0]
      v_pk_fma_f16 v11, v2, v3, v4
      v_pk_mul_f16 v12, v2, v3 clamp
      v_pk_max_f16 v13, v2, v3
      v_pk_add_f16 v14, v2, v3)",
             {cycle(a), cycle(b), cycle(c)}, out);
    for (int l = 0; l < 64; ++l) {
      uint32_t x = a[l % 4], y = b[l % 4], z = c[l % 4];
      auto pack = [](float lo, float hi) {
        return uint32_t(halfBits(lo)) | uint32_t(halfBits(hi)) << 16;
      };
      // low result: S0.hi + -S1.lo; high result: -S0.lo + S1.hi.
      EXPECT_EQ(out[0][l], pack(h(x, 1) + -h(y, 0), -h(x, 0) + h(y, 1)))
          << chip << " " << l;
      // fma of f16 values: the product is exact in double, and so is the
      // sum for these operands; one rounding to f16.
      auto fma16 = [](float p, float q, float r) {
        return uint32_t(halfBitsD(std::fma(double(p), double(q), double(r))));
      };
      EXPECT_EQ(out[1][l], fma16(h(x, 0), h(y, 0), h(z, 0)) |
                               fma16(h(x, 1), h(y, 1), h(z, 1)) << 16)
          << chip << " " << l;
      auto cl = [](float v) {
        return std::isnan(v) ? 0.0f : std::fmin(std::fmax(v, 0.0f), 1.0f);
      };
      EXPECT_EQ(out[2][l],
                pack(cl(float(halfValue(halfBits(h(x, 0) * h(y, 0))))),
                     cl(float(halfValue(halfBits(h(x, 1) * h(y, 1)))))))
          << chip << " " << l;
      // max: the larger; of -0 and +0, +0.
      auto mx = [](float p, float q) {
        return p == q ? (std::signbit(p) ? q : p) : std::fmax(p, q);
      };
      EXPECT_EQ(out[3][l], pack(mx(h(x, 0), h(y, 0)), mx(h(x, 1), h(y, 1))))
          << chip << " " << l;
      EXPECT_EQ(out[4][l], pack(h(x, 0) + h(y, 0), h(x, 1) + h(y, 1)))
          << chip << " " << l;
    }
  }
}

// Packed 16-bit integers: add with and without clamp (saturation), sub,
// mad_u16, mul_lo, min_i16, shifts (amount from S0's low 4 bits).
TEST(IsaConvert, PackedI16) {
  std::vector<uint32_t> a = {0xFFFF0001, 0x7FFF8000, 0x00031234, 0x80010010},
                        b = {0x00020003, 0x00018000, 0x0011FFFF, 0x7FFF0011},
                        c = {0x00010002, 0x12345678, 0xFFFF0000, 0x00100004};
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out;
    runLanes(chip, R"(
      v_pk_add_u16 v10, v2, v3
      v_pk_add_u16 v11, v2, v3 clamp
      v_pk_add_i16 v12, v2, v3 clamp
      v_pk_sub_u16 v13, v2, v3 clamp
      v_pk_mad_u16 v14, v2, v3, v4
      v_pk_min_i16 v15, v2, v3
      v_pk_lshlrev_b16 v16, v4, v2
      v_pk_ashrrev_i16 v17, v4, v2)",
             {cycle(a), cycle(b), cycle(c)}, out);
    for (int l = 0; l < 64; ++l) {
      uint32_t x = a[l % 4], y = b[l % 4], z = c[l % 4];
      auto each = [&](auto f) {
        uint32_t r = 0;
        for (int s = 0; s < 32; s += 16)
          r |= (uint32_t(f((x >> s) & 0xFFFF, (y >> s) & 0xFFFF,
                           (z >> s) & 0xFFFF)) &
                0xFFFF)
               << s;
        return r;
      };
      auto i16 = [](uint32_t v) { return int32_t(int16_t(uint16_t(v))); };
      EXPECT_EQ(out[0][l],
                each([](uint32_t p, uint32_t q, uint32_t) { return p + q; }));
      EXPECT_EQ(out[1][l], each([](uint32_t p, uint32_t q, uint32_t) {
                  return std::min<uint32_t>(p + q, 0xFFFF);
                }));
      EXPECT_EQ(out[2][l], each([&](uint32_t p, uint32_t q, uint32_t) {
                  return std::clamp(i16(p) + i16(q), -32768, 32767);
                }));
      EXPECT_EQ(out[3][l], each([](uint32_t p, uint32_t q, uint32_t) {
                  return p < q ? 0u : p - q;
                }));
      EXPECT_EQ(out[4][l], each([](uint32_t p, uint32_t q, uint32_t r) {
                  return p * q + r;
                }));
      EXPECT_EQ(out[5][l], each([&](uint32_t p, uint32_t q, uint32_t) {
                  return std::min(i16(p), i16(q));
                }));
      EXPECT_EQ(out[6][l], each([](uint32_t p, uint32_t, uint32_t r) {
                  return p << (r & 15);
                }));
      EXPECT_EQ(out[7][l], each([&](uint32_t p, uint32_t, uint32_t r) {
                  return i16(p) >> (r & 15);
                }));
    }
  }
}

// v_pk_fma_f32 with op_sel picking dwords, v_pk_mov_b32 with op_sel,
// v_pk_add_f32 with clamp.
TEST(IsaConvert, PackedF32AndMov) {
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out;
    runLanes(chip, R"(
      v_pk_fma_f32 v[10:11], v[2:3], v[4:5], v[6:7] op_sel:[1,0,0] op_sel_hi:[0,1,1]
      v_pk_mov_b32 v[12:13], v[2:3], v[4:5] op_sel:[1,0]
      v_pk_add_f32 v[14:15], v[2:3], v[4:5] neg_lo:[1,0] clamp
      v_pk_mov_b32 v[16:17], 1.0, v[4:5])",
             {cycleF({1.5f, -2.0f}), cycleF({3.0f, 0.25f}),
              cycleF({2.0f, 7.0f}), cycleF({-4.0f, 0.5f}),
              cycleF({0.125f, 1.0f}), cycleF({10.0f, -1.0f})},
             out);
    for (int l = 0; l < 64; ++l) {
      float s0lo = std::vector<float>{1.5f, -2.0f}[l % 2],
            s0hi = std::vector<float>{3.0f, 0.25f}[l % 2],
            s1lo = std::vector<float>{2.0f, 7.0f}[l % 2],
            s1hi = std::vector<float>{-4.0f, 0.5f}[l % 2],
            s2lo = std::vector<float>{0.125f, 1.0f}[l % 2],
            s2hi = std::vector<float>{10.0f, -1.0f}[l % 2];
      // low: S0 dword 1 (op_sel), S1 and S2 dword 0; high: all dword 1
      // (S0's op_sel_hi 0 reads its dword 0).
      EXPECT_EQ(floatOf(out[0][l]), std::fma(s0hi, s1lo, s2lo)) << chip;
      EXPECT_EQ(floatOf(out[1][l]), std::fma(s0lo, s1hi, s2hi)) << chip;
      EXPECT_EQ(floatOf(out[2][l]), s0hi) << chip;
      EXPECT_EQ(floatOf(out[3][l]), s1lo) << chip;
      auto cl = [](float v) { return std::fmin(std::fmax(v, 0.0f), 1.0f); };
      EXPECT_EQ(floatOf(out[4][l]), cl(-s0lo + s1lo)) << chip;
      EXPECT_EQ(floatOf(out[5][l]), cl(s0hi + s1hi)) << chip;
      // An inline constant's low dword (OP_SEL_0 clear) is the constant.
      EXPECT_EQ(floatOf(out[6][l]), 1.0f) << chip;
      EXPECT_EQ(floatOf(out[7][l]), s1lo) << chip;
    }
  }
}

// v_fma_mix_f32: op_sel_hi marks f16 sources, op_sel their half; neg_lo
// negates, neg_hi takes the absolute value. v_fma_mixlo/hi_f16 round
// once to f16 into one half of D, keeping the other.
TEST(IsaConvert, FmaMix) {
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out(8, cycle({0x12345678}));
    runLanes(chip, R"(
      v_fma_mix_f32 v10, v2, v3, v4 op_sel:[1,0,0] op_sel_hi:[1,1,0]
      v_fma_mix_f32 v11, v2, -v3, |v4| op_sel_hi:[1,0,0]
      v_fma_mixlo_f16 v12, v2, v3, v4 op_sel_hi:[1,1,0]
      v_fma_mixhi_f16 v13, v2, v3, v4 op_sel:[0,1,0] op_sel_hi:[1,1,0])",
             {cycle({0x40003C00u | 0, 0xC5003800u}),
              cycle({0x3E004200u, 0x3555C000u}), cycleF({0.1f, -1.0e-3f})},
             out);
    for (int l = 0; l < 64; ++l) {
      uint32_t a = std::vector<uint32_t>{0x40003C00u, 0xC5003800u}[l % 2];
      uint32_t b = std::vector<uint32_t>{0x3E004200u, 0x3555C000u}[l % 2];
      float c = std::vector<float>{0.1f, -1.0e-3f}[l % 2];
      EXPECT_EQ(floatOf(out[0][l]), std::fma(h(a, 1), h(b, 0), c)) << chip;
      EXPECT_EQ(floatOf(out[1][l]),
                std::fma(h(a, 0), -floatOf(b), std::fabs(c)))
          << chip;
      // f16 of the exact a * b + c (exact in double for these operands),
      // rounded once.
      uint32_t lo =
          halfBitsD(std::fma(double(h(a, 0)), double(h(b, 0)), double(c)));
      EXPECT_EQ(out[2][l], 0x12340000u | lo) << chip;
      uint32_t hi =
          halfBitsD(std::fma(double(h(a, 0)), double(h(b, 1)), double(c)));
      EXPECT_EQ(out[3][l], 0x5678u | hi << 16) << chip;
    }
  }
}

// Dot products: f16 pairs into f32, bf16 pairs (gfx950), integer dots
// with and without clamp, the accumulating c forms.
TEST(IsaConvert, DotProducts) {
  std::vector<uint32_t> a = {0x7F80FF01, 0x01020304, 0x80808080, 0x7FFF8000},
                        b = {0x7F7F7F7F, 0xFFFEFDFC, 0x80808080, 0x7FFF7FFF},
                        c = {0x7FFFFF00, 5, 0x80000000, 0xFFFFFFFF};
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out(8, cycle({3}));
    runLanes(chip, R"(
      v_dot4_i32_i8 v10, v2, v3, v4
      v_dot4_i32_i8 v11, v2, v3, v4 clamp
      v_dot4_u32_u8 v12, v2, v3, v4 clamp
      v_dot2_i32_i16 v13, v2, v3, v4
      v_dot8_u32_u4 v14, v2, v3, v4
      v_dot8_i32_i4 v15, v2, v3, v4 clamp
      v_dot4c_i32_i8_e32 v16, v2, v3
      v_dot2_f32_f16 v17, v5, v6, v7)",
             {cycle(a), cycle(b), cycle(c), cycle({0x3C004000, 0x7BFFC000}),
              cycle({0x3800B800, 0x7BFF3C00}), cycleF({0.75f, -1.0f})},
             out);
    for (int l = 0; l < 64; ++l) {
      uint32_t x = a[l % 4], y = b[l % 4], z = c[l % 4];
      auto dot = [&](unsigned bits, bool sgn) {
        int64_t s = sgn ? int64_t(int32_t(z)) : int64_t(z);
        for (unsigned k = 0; k < 32 / bits; ++k) {
          int64_t p = (x >> (bits * k)) & ((1u << bits) - 1),
                  q = (y >> (bits * k)) & ((1u << bits) - 1);
          if (sgn) {
            p -= (p >> (bits - 1)) << bits;
            q -= (q >> (bits - 1)) << bits;
          }
          s += p * q;
        }
        return s;
      };
      auto satI = [](int64_t v) {
        return uint32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
      };
      EXPECT_EQ(out[0][l], uint32_t(dot(8, true))) << chip << " " << l;
      EXPECT_EQ(out[1][l], satI(dot(8, true))) << chip << " " << l;
      EXPECT_EQ(out[2][l],
                uint32_t(std::min<int64_t>(dot(8, false), UINT32_MAX)))
          << chip << " " << l;
      EXPECT_EQ(out[3][l], uint32_t(dot(16, true))) << chip << " " << l;
      EXPECT_EQ(out[4][l], uint32_t(dot(4, false))) << chip << " " << l;
      EXPECT_EQ(out[5][l], satI(dot(4, true))) << chip << " " << l;
      z = 3; // the c form accumulates into D (3)
      EXPECT_EQ(out[6][l], uint32_t(dot(8, true))) << chip << " " << l;
      uint32_t p = std::vector<uint32_t>{0x3C004000, 0x7BFFC000}[l % 2],
               q = std::vector<uint32_t>{0x3800B800, 0x7BFF3C00}[l % 2];
      float acc = std::vector<float>{0.75f, -1.0f}[l % 2];
      double want = double(h(p, 0)) * h(q, 0) + double(h(p, 1)) * h(q, 1) + acc;
      EXPECT_EQ(floatOf(out[7][l]), float(want)) << chip << " " << l;
    }
  }
}

// The DPP forms: src0 from the lane dpp_ctrl names (quad_perm, row_shr);
// a lane reading outside its row keeps D unless bound_ctrl zeroes its
// source; rows off in row_mask keep D.
TEST(IsaConvert, DppForms) {
  std::vector<uint32_t> ints(64);
  for (int l = 0; l < 64; ++l)
    ints[l] = uint32_t(l * 3 - 50);
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out(8, cycle({0x7777}));
    runLanes(chip, R"(
      v_cvt_f32_i32_dpp v10, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
      v_cvt_f32_i32_dpp v11, v2 row_shr:1 row_mask:0xf bank_mask:0xf
      v_cvt_f32_i32_dpp v12, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
      v_cvt_f32_f16_dpp v13, -v3 quad_perm:[3,3,3,3] row_mask:0x5 bank_mask:0xf)",
             {ints, cycle({0x3C00, 0x4000, 0x4200, 0x4400})}, out);
    for (int l = 0; l < 64; ++l) {
      int q = (l & ~3) | ((l & 3) ^ 1);
      EXPECT_EQ(floatOf(out[0][l]), float(int32_t(ints[q]))) << chip << l;
      if (l % 16 == 0) {
        EXPECT_EQ(out[1][l], 0x7777u) << chip << " " << l;
        EXPECT_EQ(out[2][l], 0u) << chip << " " << l; // f32 of 0
      } else {
        EXPECT_EQ(floatOf(out[1][l]), float(int32_t(ints[l - 1]))) << chip;
        EXPECT_EQ(floatOf(out[2][l]), float(int32_t(ints[l - 1]))) << chip;
      }
      // Rows 0 and 2 enabled: -(lane 3 of the quad's f16) = -4.0.
      if ((l / 16) % 2 == 0)
        EXPECT_EQ(floatOf(out[3][l]), -4.0f) << chip << " " << l;
      else
        EXPECT_EQ(out[3][l], 0x7777u) << chip << " " << l;
    }
  }
}

// gfx950's scaled conversions: the scale is the exponent of an f32 (an
// E8M0 value); decoding multiplies by it, encoding divides by it, then
// rounds to nearest even (fp4 saturates). Expected values from the OCP
// definitions: specValue() and the nearest-code search.
TEST(IsaConvert, ScaledConversionsGfx950) {
  const Spec &e4m3 = kSpecs[0], &e5m2 = kSpecs[1], &e2m1 = kSpecs[6];
  std::vector<uint32_t> codes = {0x4A3C38C1, 0x017F7E80, 0xB5C4D3E2};
  std::vector<float> scales = {4.0f, 0.5f, 1.0f, 0.125f};
  std::vector<float> xs = {1.0f, -3.3f, 40.0f, 0.01f, 2.9f, -7.0f};
  std::vector<float> ys = {0.3f, 20.0f, -0.001f, 5.5f, 1.0f, 0.0f};
  std::vector<std::vector<uint32_t>> out(8, cycle({0xA5A5A5A5}));
  runLanes("gfx950", R"(
    v_cvt_scalef32_pk_f32_fp8 v[10:11], v2, v3
    v_cvt_scalef32_f32_bf8 v12, v2, v3 op_sel:[1,1]
    v_cvt_scalef32_pk_f32_fp4 v[14:15], v2, v3 op_sel:[1,0]
    v_cvt_scalef32_pk_fp8_f32 v13, v4, v5, v3
    v_cvt_scalef32_pk_fp4_f32 v16, v4, v5, v3 op_sel:[0,0,1,0]
    v_cvt_scalef32_sr_bf8_f32 v17, v6, v7, v3 op_sel:[0,0,1,1])",
           {cycle(codes), cycleF(scales), cycleF(xs), cycleF(ys),
            cycleF({1.0625f}), cycle({0xBFFFFFFF, 0xC0000000})},
           out);
  for (int l = 0; l < 64; ++l) {
    uint32_t c = codes[l % 3];
    double scale = scales[l % 4];
    auto same = [&](uint32_t got, double want, const char *what) {
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(floatOf(got))) << what << " " << l;
      else
        EXPECT_EQ(double(floatOf(got)), double(float(want)))
            << what << " " << l;
    };
    same(out[0][l], specValue(e4m3, c & 0xFF) * scale, "pk_f32_fp8 lo");
    same(out[1][l], specValue(e4m3, (c >> 8) & 0xFF) * scale, "pk_f32_fp8 hi");
    same(out[2][l], specValue(e5m2, c >> 24) * scale, "f32_bf8 byte 3");
    same(out[4][l], specValue(e2m1, (c >> 8) & 0xF) * scale, "pk_f32_fp4 lo");
    same(out[5][l], specValue(e2m1, (c >> 12) & 0xF) * scale, "pk_f32_fp4 hi");
    double x = xs[l % 6] / scale, y = ys[l % 6] / scale;
    EXPECT_EQ(out[3][l],
              0xA5A50000u | nearestCode(e4m3, x) | nearestCode(e4m3, y) << 8)
        << "pk_fp8_f32 " << l;
    auto fp4 = [&](double v) -> uint32_t {
      return std::fabs(v) > 6 ? (std::signbit(v) ? 0xF : 0x7)
                              : nearestCode(e2m1, v);
    };
    EXPECT_EQ(out[6][l], 0xA5A500A5u | (fp4(x) | fp4(y) << 4) << 8)
        << "pk_fp4_f32 " << l << " " << x << " " << y;
    // 1.0625 / scale in E5M2 is 2^k (1 + 1/16): a quarter of E5M2's step
    // above 2^k, 2^19 of the 2^21 dropped units; it rounds up when
    // rng >> 11 adds the other 3 * 2^19 (rng >= 0xC0000000).
    double v = 1.0625 / scale;
    uint32_t rng = (l % 2) ? 0xC0000000 : 0xBFFFFFFF;
    uint32_t down = nearestCode(e5m2, std::ldexp(1.0, std::ilogb(v)));
    bool up = (rng >> 11) + (1u << 19) >= (1u << 21);
    EXPECT_EQ(out[7][l], 0x00A5A5A5u | (down + (up ? 1 : 0)) << 24)
        << "sr_bf8_f32 " << l << " " << std::hex << rng;
  }
}

// pk32: 32 fp6 codes (value k at bit 6k of six dwords) decoded to f16,
// and 32 f16 encoded back into six dwords.
TEST(IsaConvert, ScaledFp6Gfx950) {
  const Spec &e2m3 = kSpecs[4], &e3m2 = kSpecs[5];
  std::vector<std::vector<uint32_t>> in(8), out(8);
  uint32_t packed[6] = {0x12345678, 0x9ABCDEF0, 0x0F1E2D3C,
                        0x4B5A6978, 0x8796A5B4, 0xC3D2E1F0};
  for (int d = 0; d < 6; ++d)
    in[d] = cycle({packed[d]});
  in[6] = cycleF({2.0f});
  // 32 f16 values for the encoding (v2..v17 after the decode is stored):
  std::vector<float> vals;
  for (int k = 0; k < 32; ++k)
    vals.push_back(float((k % 7) - 3) * 0.75f + (k % 3) * 0.125f);
  for (int d = 0; d < 8; ++d)
    out[d] = cycle({uint32_t(halfBits(vals[2 * d])) |
                    uint32_t(halfBits(vals[2 * d + 1])) << 16});
  runLanes("gfx950", R"(
    v_cvt_scalef32_pk32_f16_fp6 v[18:33], v[2:7], v8
    v_cvt_scalef32_pk32_bf6_f16 v[34:39], v[10:25], v8
    v_mov_b32 v10, v18
    v_mov_b32 v11, v19
    v_mov_b32 v12, v20
    v_mov_b32 v13, v21
    v_mov_b32 v14, v34
    v_mov_b32 v15, v35
    v_mov_b32 v16, v36
    v_mov_b32 v17, v39)",
           in, out);
  auto codeAt = [&](const uint32_t *w, int k) {
    uint64_t lo = w[6 * k / 32],
             hi = 6 * k / 32 + 1 < 6 ? w[6 * k / 32 + 1] : 0;
    return unsigned(((lo | hi << 32) >> (6 * k % 32)) & 63);
  };
  for (int l = 0; l < 64; ++l) {
    for (int k = 0; k < 8; ++k) {
      float want = float(specValue(e2m3, codeAt(packed, k)) * 2.0);
      EXPECT_EQ(uint32_t(halfBits(want)),
                (out[k / 2][l] >> (16 * (k % 2))) & 0xFFFF)
          << "pk32_f16_fp6 value " << k;
    }
  }
  // The encoding's input: v10..v17 (first 16 values) then v18..v25, which
  // the decode wrote first (its first 16 f16 results).
  std::vector<float> enc(vals.begin(), vals.begin() + 16);
  for (int k = 0; k < 16; ++k)
    enc.push_back(float(specValue(e2m3, codeAt(packed, k)) * 2.0));
  uint32_t want[6] = {0, 0, 0, 0, 0, 0};
  for (int k = 0; k < 32; ++k) {
    uint64_t c = nearestCode(e3m2, double(halfValue(halfBits(enc[k]))) / 2.0);
    want[6 * k / 32] |= uint32_t(c << (6 * k % 32));
    if (6 * k % 32 > 26)
      want[6 * k / 32 + 1] |= uint32_t(c >> (32 - 6 * k % 32));
  }
  for (int l = 0; l < 64; ++l) {
    EXPECT_EQ(out[4][l], want[0]) << l;
    EXPECT_EQ(out[5][l], want[1]) << l;
    EXPECT_EQ(out[6][l], want[2]) << l;
    EXPECT_EQ(out[7][l], want[5]) << l;
  }
}

// 16-bit integer and normalized conversions: v_cvt_f16_i16 (exact here),
// v_cvt_u16_f16 (truncated, saturated, NaN to 0), v_cvt_norm_i16_f16
// (clamp to [-1, 1], times 32767, nearest even), v_cvt_pknorm_u16_f16
// reading the halves op_sel picks; f64 to f32 and i32.
TEST(IsaConvert, SixteenBitAndF64) {
  std::vector<uint32_t> halves = {0xBC00C900u, 0x7C003800u, 0x7E00FBFFu,
                                  0x3A00B555u};
  std::vector<double> ds = {1.0 / 3.0, -2.5e9, 1e-40, 123456.789};
  std::vector<uint32_t> dlo, dhi;
  for (double d : ds) {
    uint64_t b;
    memcpy(&b, &d, 8);
    dlo.push_back(uint32_t(b));
    dhi.push_back(uint32_t(b >> 32));
  }
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out;
    runLanes(chip, R"(
      v_cvt_f16_i16_e32 v10, v2
      v_cvt_u16_f16_e32 v11, v3
      v_cvt_norm_i16_f16_e32 v12, v3
      v_cvt_pknorm_u16_f16 v13, v3, v3 op_sel:[1,0]
      v_cvt_f32_f64_e32 v14, v[4:5]
      v_cvt_i32_f64_e32 v15, v[4:5])",
             {cycle({0xFFFF8000u, 0x00007FFFu, 0x1234FFFDu}), cycle(halves),
              cycle(dlo), cycle(dhi)},
             out);
    for (int l = 0; l < 64; ++l) {
      uint32_t i16 =
          std::vector<uint32_t>{0xFFFF8000u, 0x7FFFu, 0x1234FFFDu}[l % 3];
      float f = float(int16_t(uint16_t(i16)));
      EXPECT_EQ(out[0][l], halfBits(f)) << chip << " " << l;
      uint32_t hv = halves[l % 4];
      double lo = halfValue(uint16_t(hv)), hi = halfValue(uint16_t(hv >> 16));
      auto u16 = [](double x) -> uint32_t {
        return std::isnan(x) ? 0
                             : uint32_t(std::fmin(std::fmax(std::trunc(x), 0.0),
                                                  65535.0));
      };
      EXPECT_EQ(out[1][l], u16(lo)) << chip << " " << lo;
      auto sn = [](double x) -> uint32_t {
        return std::isnan(x)
                   ? 0
                   : uint16_t(int16_t(std::nearbyint(
                         std::fmin(std::fmax(x, -1.0), 1.0) * 32767)));
      };
      auto un = [](double x) -> uint32_t {
        return std::isnan(x) ? 0
                             : uint32_t(std::nearbyint(
                                   std::fmin(std::fmax(x, 0.0), 1.0) * 65535));
      };
      EXPECT_EQ(out[2][l], sn(lo)) << chip << " " << lo;
      EXPECT_EQ(out[3][l], un(hi) | un(lo) << 16) << chip << " " << lo;
      double d = ds[l % 4];
      // The kernel flushes f32 denormal results (MODE.FP_DENORM f32 = 0,
      // the assembler's default): 1e-40 becomes +0.
      float want = std::fabs(d) < 0x1p-126 ? 0.0f : float(d);
      EXPECT_EQ(out[4][l], bitsOf(want)) << chip << " " << d;
      int32_t wi = d <= -2147483648.0 ? INT32_MIN : int32_t(std::trunc(d));
      EXPECT_EQ(int32_t(out[5][l]), wi) << chip << " " << d;
    }
  }
}

// v_pk_fmac_f16 accumulates into D; the DPP form of v_dot4c_i32_i8 reads
// S0 from the lane quad_perm names; gfx950's v_pk_maximum3_f16 (NaN wins,
// -0 below +0), v_cvt_f32_bf16, v_cvt_pk_f16_f32 and v_cvt_sr_bf16_f32.
TEST(IsaConvert, AccumulatingFormsAndGfx950Additions) {
  std::vector<uint32_t> a = {0x3C004000u, 0xC0003555u, 0x00017BFFu,
                             0x8000BC00u};
  std::vector<uint32_t> b = {0x38003800u, 0x3C00C000u, 0x3C003C00u,
                             0x00007E00u};
  std::vector<uint32_t> lanes(64);
  for (int l = 0; l < 64; ++l)
    lanes[l] = uint32_t(l) * 0x01010101u ^ 0x80FF0180u;
  for (const char *chip : kChips) {
    bool gfx950 = std::string(chip) == "gfx950";
    std::vector<std::vector<uint32_t>> out(8, cycle({0x3C003C00u}));
    out[1] = cycle({7});
    std::string body = R"(
      v_pk_fmac_f16_e32 v10, v2, v3
      v_dot4c_i32_i8_dpp v11, v4, v5 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf)";
    if (gfx950)
      body += R"(
      v_pk_maximum3_f16 v12, v2, v3, v7
      v_cvt_f32_bf16_e32 v13, v6
      v_cvt_pk_f16_f32 v14, v8, v9
      v_cvt_sr_bf16_f32 v15, v8, v9 op_sel:[0,0,1])";
    runLanes(chip, body,
             {cycle(a), cycle(b), lanes, cycle({0x01FF7F80u, 0x02030405u}),
              cycle({0xC3000000u, 0x00008000u}),
              cycle({0x4170BF80u, 0x80008000u}),
              cycleF({1.00048828125f, 3.0e-8f, -70000.0f}),
              cycle({0x00000000u, 0xFFFFFFFFu, 0x80000000u})},
             out);
    for (int l = 0; l < 64; ++l) {
      uint32_t x = a[l % 4], y = b[l % 4];
      auto fma16 = [](float p, float q, float r) {
        return uint32_t(halfBitsD(std::fma(double(p), double(q), double(r))));
      };
      EXPECT_EQ(out[0][l], fma16(h(x, 0), h(y, 0), 1.0f) |
                               fma16(h(x, 1), h(y, 1), 1.0f) << 16)
          << chip << " " << l;
      int q = (l & ~3) | (3 - (l & 3));
      uint32_t s0 = lanes[q],
               s1 = std::vector<uint32_t>{0x01FF7F80u, 0x02030405u}[l % 2];
      int64_t sum = 7;
      for (int k = 0; k < 4; ++k)
        sum += int64_t(int8_t(s0 >> (8 * k))) * int8_t(s1 >> (8 * k));
      EXPECT_EQ(out[1][l], uint32_t(sum)) << chip << " " << l;
      if (!gfx950)
        continue;
      uint32_t z = std::vector<uint32_t>{0x4170BF80u, 0x80008000u}[l % 2];
      auto mx = [](float p, float q, float r) -> uint32_t {
        if (std::isnan(p) || std::isnan(q) || std::isnan(r))
          return 0x7E00;
        float m = p;
        for (float v : {q, r})
          if (v > m || (v == m && !std::signbit(v)))
            m = v;
        return halfBits(m);
      };
      uint32_t got = out[2][l];
      uint32_t wantLo = mx(h(x, 0), h(y, 0), h(z, 0)),
               wantHi = mx(h(x, 1), h(y, 1), h(z, 1));
      EXPECT_EQ(got & 0xFFFF, wantLo) << chip << " " << l;
      EXPECT_EQ(got >> 16, wantHi) << chip << " " << l;
      uint32_t bf = std::vector<uint32_t>{0xC3000000u, 0x00008000u}[l % 2];
      EXPECT_EQ(out[3][l], (bf & 0xFFFF) << 16) << chip;
      float f0 = std::vector<float>{1.00048828125f, 3.0e-8f, -70000.0f}[l % 3];
      float f1 =
          floatOf(std::vector<uint32_t>{0u, 0xFFFFFFFFu, 0x80000000u}[l % 3]);
      EXPECT_EQ(out[4][l] & 0xFFFF, halfBits(f0)) << chip << " " << l;
      if (std::isnan(f1))
        EXPECT_TRUE(std::isnan(halfValue(uint16_t(out[4][l] >> 16)))) << chip;
      else
        EXPECT_EQ(out[4][l] >> 16, halfBits(f1)) << chip << " " << l;
      // sr bf16: 16 dropped bits, rng >> 16 added: 1.00048828125 is
      // 2^-11 above 1.0, 32 of bf16's 2^16 units per 2^-7 step... the
      // f32 bits below bf16's last one are 0x0800 (of 0x10000).
      uint32_t fb = bitsOf(f0),
               rng = std::vector<uint32_t>{0u, 0xFFFFFFFFu, 0x80000000u}[l % 3];
      uint32_t sr = (fb + (rng >> 16)) >> 16;
      EXPECT_EQ(out[5][l], 0x3C00u | sr << 16) << chip << " " << l;
    }
  }
}

// gfx950's bf16 forms: v_cvt_pk_bf16_f32 (nearest even: the f32 bits
// rounded at bit 16), v_dot2_f32_bf16, v_dot2c_f32_bf16; and on both chips
// v_cvt_pkaccum_u8_f32 into D's byte S1[1:0], v_cvt_f16_u16 rounding to
// nearest even (2049 -> 2048, 2051 -> 2052), v_dot2c_f32_f16.
TEST(IsaConvert, Bf16AndAccumulators) {
  std::vector<uint32_t> fs = {0x3F808000u, 0x3F818000u, 0xC0A00001u,
                              0x7F7FFFFFu};
  std::vector<uint32_t> bfA = {0x3F804000u, 0xC1203E80u},
                        bfB = {0x40403F00u, 0x3F80BF80u};
  for (const char *chip : kChips) {
    bool gfx950 = std::string(chip) == "gfx950";
    std::vector<std::vector<uint32_t>> out(8, cycle({0x11223344u}));
    out[5] = cycleF({0.5f});
    std::string body = R"(
      v_cvt_pkaccum_u8_f32 v10, v2, v3
      v_cvt_f16_u16_e32 v11, v4
      v_dot2c_f32_f16_e32 v15, v5, v6)";
    if (gfx950)
      body += R"(
      v_cvt_pk_bf16_f32 v12, v7, v8
      v_dot2_f32_bf16 v13, v5, v6, v9
      v_dot2c_f32_bf16_e32 v14, v5, v6)";
    runLanes(chip, body,
             {cycleF({17.5f, 300.0f, -4.0f, 254.5f}), cycle({0, 1, 2, 3, 6}),
              cycle({2049, 2051, 65535}), cycle(bfA), cycle(bfB), cycle(fs),
              cycle({0x3F800001u, 0xFF800000u, 0x00000001u}),
              cycleF({0.25f, -8.0f})},
             out);
    for (int l = 0; l < 64; ++l) {
      float x = std::vector<float>{17.5f, 300.0f, -4.0f, 254.5f}[l % 4];
      unsigned sh = 8 * (std::vector<uint32_t>{0, 1, 2, 3, 6}[l % 5] & 3);
      uint32_t u8 =
          uint32_t(std::fmin(std::fmax(std::nearbyint(x), 0.0f), 255.0f));
      EXPECT_EQ(out[0][l], (0x11223344u & ~(0xFFu << sh)) | u8 << sh)
          << chip << " " << x;
      uint32_t u = std::vector<uint32_t>{2049, 2051, 65535}[l % 3];
      EXPECT_EQ(out[1][l], halfBits(float(u))) << chip << " " << u;
      uint32_t p = bfA[l % 2], q = bfB[l % 2];
      double d16 = double(h(p, 0)) * h(q, 0) + double(h(p, 1)) * h(q, 1) + 0.5;
      EXPECT_EQ(floatOf(out[5][l]), float(d16)) << chip << " " << l;
      if (!gfx950)
        continue;
      auto bf = [](uint32_t v) { return floatOf(v << 16); };
      auto rne = [](uint32_t b) -> uint32_t {
        if ((b & 0x7FFFFFFF) > 0x7F800000)
          return (b >> 16) | 0x40;
        return (b + 0x7FFF + ((b >> 16) & 1)) >> 16;
      };
      uint32_t f0 = fs[l % 4];
      uint32_t f1 =
          std::vector<uint32_t>{0x3F800001u, 0xFF800000u, 0x00000001u}[l % 3];
      EXPECT_EQ(out[2][l], rne(f0) | rne(f1) << 16) << chip << " " << l;
      float c = std::vector<float>{0.25f, -8.0f}[l % 2];
      double db = double(bf(p & 0xFFFF)) * bf(q & 0xFFFF) +
                  double(bf(p >> 16)) * bf(q >> 16);
      EXPECT_EQ(floatOf(out[3][l]), float(db + c)) << chip << " " << l;
      EXPECT_EQ(floatOf(out[4][l]), float(db + floatOf(0x11223344u)))
          << chip << " " << l;
    }
  }
}

// v_pk_max_f16 / v_pk_min_f16 with MODE.IEEE (the kernel descriptor's
// default on gfx9): a signaling NaN operand gives that NaN quieted (bit 9
// set); a quiet NaN loses to the number; -0 < +0.
TEST(IsaConvert, PackedMinMaxNaNs) {
  for (const char *chip : kChips) {
    std::vector<std::vector<uint32_t>> out;
    runLanes(
        chip, R"(
      v_pk_max_f16 v10, v2, v3
      v_pk_min_f16 v11, v2, v3)",
        {cycle({0x7C013C00u, 0x80007E00u}), cycle({0x3C00FC05u, 0x0000C000u})},
        out);
    for (int l = 0; l < 64; ++l) {
      if (l % 2 == 0) {
        // lo: 1.0 vs sNaN 0xFC05 -> 0xFE05; hi: sNaN 0x7C01 vs 1.0 -> 0x7E01.
        EXPECT_EQ(out[0][l], 0x7E01FE05u) << chip;
        EXPECT_EQ(out[1][l], 0x7E01FE05u) << chip;
      } else {
        // lo: qNaN vs -2.0 -> -2.0; hi: -0 vs +0.
        EXPECT_EQ(out[0][l], 0x0000C000u) << chip;
        EXPECT_EQ(out[1][l], 0x8000C000u) << chip;
      }
    }
  }
}

// More gfx950 scaled forms: the f16 of one fp8 into the word op_sel[2]
// picks (byte op_sel[1:0] of S0), two bf16 from word 1, two fp8 from an
// f16 pair into word 1, two fp4 from an f16 pair with stochastic rounding
// (random bits 0: truncation) into byte 3.
TEST(IsaConvert, ScaledHalfFormsGfx950) {
  const Spec &e4m3 = kSpecs[0], &e2m1 = kSpecs[6];
  std::vector<uint32_t> codes = {0x4A3C38C1u, 0x017F7E80u};
  std::vector<float> halves = {1.0f, -2.75f, 0.3f, 5.0f};
  std::vector<uint32_t> pairs;
  for (int k = 0; k < 4; ++k)
    pairs.push_back(uint32_t(halfBits(halves[k])) |
                    uint32_t(halfBits(halves[(k + 1) % 4])) << 16);
  std::vector<std::vector<uint32_t>> out(8, cycle({0x5A5A5A5Au}));
  runLanes("gfx950", R"(
    v_cvt_scalef32_f16_fp8 v10, v2, v3 op_sel:[0,1,1]
    v_cvt_scalef32_pk_bf16_fp8 v11, v2, v3 op_sel:[1,0]
    v_cvt_scalef32_pk_fp8_f16 v12, v4, v3 op_sel:[0,0,1]
    v_cvt_scalef32_sr_pk_fp4_f16 v13, v4, v5, v3 op_sel:[0,0,1,1])",
           {cycle(codes), cycleF({2.0f, 0.25f}), cycle(pairs), cycle({0})},
           out);
  for (int l = 0; l < 64; ++l) {
    uint32_t c = codes[l % 2];
    double scale = l % 2 ? 0.25 : 2.0;
    EXPECT_EQ(
        out[0][l],
        0x5A5Au |
            uint32_t(halfBits(float(specValue(e4m3, (c >> 16) & 0xFF) * scale)))
                << 16)
        << l;
    auto bf16 = [](double v) { return bitsOf(float(v)) >> 16; }; // exact
    EXPECT_EQ(out[1][l], bf16(specValue(e4m3, (c >> 16) & 0xFF) * scale) |
                             bf16(specValue(e4m3, c >> 24) * scale) << 16)
        << l;
    uint32_t p = pairs[l % 4];
    double lo = halfValue(uint16_t(p)) / scale,
           hi = halfValue(uint16_t(p >> 16)) / scale;
    EXPECT_EQ(out[2][l],
              0x5A5Au | (nearestCode(e4m3, lo) | nearestCode(e4m3, hi) << 8)
                            << 16)
        << l;
    // Truncation toward zero, saturating past 6.
    auto trunc4 = [&](double v) -> uint32_t {
      double m = std::fabs(v);
      uint32_t best = 0;
      for (uint32_t k = 0; k < 8; ++k)
        if (specValue(e2m1, k) <= m)
          best = k;
      return best | (std::signbit(v) ? 8 : 0);
    };
    EXPECT_EQ(out[3][l], 0x005A5A5Au | (trunc4(lo) | trunc4(hi) << 4) << 24)
        << l << " " << lo << " " << hi;
  }
}

// An operand the handlers do not model faults at decode, naming itself:
// omod on a conversion, a nonzero inline constant read in the high half
// of a packed operand. The constant 0 is 0 in either half.
TEST(IsaConvert, UnmodeledOperandsFault) {
  for (const char *chip : kChips) {
    for (const char *op :
         {"v_cvt_f32_f16_e64 v10, v2 mul:2", "v_pk_add_f16 v10, v2, 1.0",
          "v_pk_mul_f32 v[10:11], v[2:3], 2.0"}) {
      std::vector<std::vector<uint32_t>> out;
      try {
        runLanes(chip, op, {}, out);
        ADD_FAILURE() << op << " accepted on " << chip;
      } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("not simulated"),
                  std::string::npos)
            << e.what();
      }
    }
    std::vector<std::vector<uint32_t>> out;
    runLanes(chip,
             "v_pk_add_f32 v[10:11], v[2:3], 0 neg_lo:[1,1] "
             "neg_hi:[1,1]",
             {cycleF({1.5f}), cycleF({-2.0f})}, out);
    for (int l = 0; l < 64; ++l) {
      EXPECT_EQ(floatOf(out[0][l]), -1.5f) << chip;
      EXPECT_EQ(floatOf(out[1][l]), 2.0f) << chip;
    }
  }
}

} // namespace
