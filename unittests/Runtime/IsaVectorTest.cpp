//===- IsaVectorTest.cpp - the ISA simulator's vector semantics ----------===//
//
// VALU instructions (VOP1, VOP2, VOPC, VOP3 in their e32, e64, SDWA and DPP
// forms) run on both chips. Expected values come from AMD's ISA reference
// guides (CDNA3, CDNA4) and IEEE 754, worked out by hand or computed here
// independently in float, double or _Float16, never from the simulator's
// own output.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

using namespace hk::rt;
using namespace hk::rt::isatest;

namespace {

const char *const kChips[] = {"gfx942", "gfx950"};

uint32_t bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
float flt(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
uint64_t bits64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
double dbl(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
uint16_t hbits(_Float16 h) {
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
_Float16 half(uint16_t b) {
  _Float16 h;
  memcpy(&h, &b, 2);
  return h;
}

/// The default float mode of these tests: IEEE mode, DX10 clamp, round to
/// nearest even, denormals kept for every type.
const char *const kKeepDenormals =
    "  .amdhsa_float_denorm_mode_32 3\n  .amdhsa_float_denorm_mode_16_64 3\n";

constexpr unsigned kIn = 8; ///< dwords per lane in and out

/// Runs `body` on 64 lanes: lane l finds in[l * 8 + k] in v[10 + k] and
/// its v[20 + k] (zeroed first unless `keep`) is returned as out[l * 8 +
/// k], k < 8. v0 holds the lane id; v1 and s[0:7] are the kernel's; the
/// body may use v2..v9, v28..v63 and s8..s31. EXEC is all lanes again
/// before the stores.
std::vector<uint32_t> runLanes(const std::string &chip, const std::string &body,
                               const std::vector<uint32_t> &in,
                               const std::string &directives = kKeepDenormals,
                               bool keep = false) {
  std::string prologue = "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
                         "s_waitcnt lgkmcnt(0)\n"
                         "v_lshlrev_b32_e32 v1, 5, v0\n"
                         "global_load_dwordx4 v[10:13], v1, s[4:5]\n"
                         "global_load_dwordx4 v[14:17], v1, s[4:5] offset:16\n"
                         "s_waitcnt vmcnt(0)\n";
  if (!keep)
    for (unsigned k = 20; k < 28; ++k)
      prologue += "v_mov_b32_e32 v" + std::to_string(k) + ", 0\n";
  std::string epilogue = "s_mov_b64 exec, -1\n"
                         "global_store_dwordx4 v1, v[20:23], s[6:7]\n"
                         "global_store_dwordx4 v1, v[24:27], s[6:7] "
                         "offset:16\n"
                         "s_waitcnt vmcnt(0)\ns_endpgm\n";
  std::vector<uint32_t> input(in), out(64 * kIn, 0);
  input.resize(64 * kIn, 0);
  auto code = isa::loadCodeObject(
      assembleWith(chip, prologue + body + epilogue, directives), chip);
  isa::Launch l;
  l.kernel = "k";
  l.block = {64, 1, 1};
  uint64_t args[2] = {ptr(input.data()), ptr(out.data())};
  l.kernarg.resize(16);
  memcpy(l.kernarg.data(), args, 16);
  l.memory.push_back({ptr(input.data()), ptr(input.data()) + 4 * input.size()});
  l.memory.push_back({ptr(out.data()), ptr(out.data()) + 4 * out.size()});
  std::sort(l.memory.begin(), l.memory.end(),
            [](auto &a, auto &b) { return a.begin < b.begin; });
  isa::run(*code, l);
  return out;
}

/// Per-lane inputs from a function of (lane, k).
std::vector<uint32_t> inputs(std::function<uint32_t(unsigned, unsigned)> f) {
  std::vector<uint32_t> v(64 * kIn);
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned k = 0; k < kIn; ++k)
      v[l * kIn + k] = f(l, k);
  return v;
}

/// The fault message of running `body`, or "" if it runs.
std::string laneFault(const std::string &chip, const std::string &body) {
  try {
    runLanes(chip, body, {});
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

} // namespace

namespace {

float laneA(unsigned l) { return float(int(l) - 20) * 0.375f; }
float laneB(unsigned l) { return 1.5f - float(l) * 0.125f; }

// VOP3 input and output modifiers (CDNA3 ISA, VOP3A): abs then neg on the
// sources; omod (*2, *4, /2) on the result, then clamp to [0, 1].
TEST(IsaVector, Vop3ModifiersAbsNegOmodClamp) {
  auto in = inputs([](unsigned l, unsigned k) {
    return k == 0 ? bits(laneA(l)) : k == 1 ? bits(laneB(l)) : bits(0.75f);
  });
  std::string body = "v_add_f32_e64 v20, -v10, |v11|\n"
                     "v_mul_f32_e64 v21, v10, v11 mul:2\n"
                     "v_mul_f32_e64 v22, v10, v11 clamp div:2\n"
                     "v_add_f32_e64 v23, v10, v11 clamp\n"
                     "v_fma_f32 v24, -|v10|, v11, v12 mul:4\n"
                     "v_max_f32_e64 v25, -v10, -|v11| div:2\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      float a = laneA(l), b = laneB(l);
      auto clamp = [](float x) { return x <= 0 ? 0.0f : x >= 1 ? 1.0f : x; };
      const uint32_t *o = &out[l * kIn];
      EXPECT_EQ(o[0], bits(-a + std::fabs(b))) << l;
      EXPECT_EQ(o[1], bits((a * b) * 2)) << l;
      EXPECT_EQ(o[2], bits(clamp((a * b) * 0.5f))) << l;
      EXPECT_EQ(o[3], bits(clamp(a + b))) << l;
      EXPECT_EQ(o[4], bits(std::fma(-std::fabs(a), b, 0.75f) * 4)) << l;
      EXPECT_EQ(o[5], bits(std::max(-a, -std::fabs(b)) * 0.5f)) << l;
    }
  }
}

// V_MAX_F32 / V_MIN_F32 (CDNA4 ISA pseudocode): in IEEE mode a signaling
// NaN input gives it quieted; otherwise a NaN gives the other input; +0 is
// above -0. v_med3_f32 of a NaN is min3. Compares are false when
// unordered, their N forms true.
TEST(IsaVector, MinMaxNanSignedZeroAndCompares) {
  const uint32_t sNan = 0x7F800001, qNan = 0x7FC00000, pz = 0, nz = 0x80000000,
                 one = 0x3F800000;
  const uint32_t pairs[][2] = {{pz, nz},          {nz, pz},         {qNan, one},
                               {one, qNan},       {sNan, one},      {one, sNan},
                               {one, 0x40000000}, {0xFF800000, one}};
  auto in = inputs([&](unsigned l, unsigned k) {
    return k < 2 ? pairs[l % 8][k] : 0x40400000; // v12 = 3.0
  });
  std::string body = "v_max_f32_e32 v20, v10, v11\n"
                     "v_min_f32_e32 v21, v10, v11\n"
                     "v_med3_f32 v22, v10, v11, v12\n"
                     "v_cmp_lt_f32_e32 vcc, v10, v11\n"
                     "v_cndmask_b32_e64 v23, 0, 1, vcc\n"
                     "v_cmp_nge_f32_e64 s[8:9], v10, v11\n"
                     "v_cndmask_b32_e64 v24, 0, 1, s[8:9]\n"
                     "v_cmp_eq_f32_e64 s[8:9], v10, v11\n"
                     "v_cndmask_b32_e64 v25, 0, 1, s[8:9]\n"
                     "v_cmp_u_f32_e64 s[8:9], v10, v11\n"
                     "v_cndmask_b32_e64 v26, 0, 1, s[8:9]\n";
  // Expected, from the pseudocode, for IEEE mode on and off.
  const uint32_t maxIeee[] = {pz,         pz,         one,        one,
                              0x7FC00001, 0x7FC00001, 0x40000000, one};
  const uint32_t minIeee[] = {nz,         nz,         one, one,
                              0x7FC00001, 0x7FC00001, one, 0xFF800000};
  const uint32_t maxOff[] = {pz, pz, one, one, one, one, 0x40000000, one};
  const uint32_t minOff[] = {nz, nz, one, one, one, one, one, 0xFF800000};
  // med3(a, b, 3): with a NaN, min3 (whose first min turns a quiet NaN
  // into the other input, a signaling one into a quiet NaN, which the
  // second min then drops); else the median.
  const uint32_t medIeee[] = {pz,         pz,         one,        one,
                              0x40400000, 0x40400000, 0x40000000, one};
  const bool lt[] = {0, 0, 0, 0, 0, 0, 1, 1};
  const bool eq[] = {1, 1, 0, 0, 0, 0, 0, 0};
  const bool unord[] = {0, 0, 1, 1, 1, 1, 0, 0};
  for (const char *chip : kChips)
    for (bool ieee : {true, false}) {
      SCOPED_TRACE(std::string(chip) + (ieee ? " ieee" : " non-ieee"));
      auto out = runLanes(chip, body, in,
                          std::string(kKeepDenormals) + "  .amdhsa_ieee_mode " +
                              (ieee ? "1\n" : "0\n"));
      for (unsigned l = 0; l < 64; ++l) {
        unsigned p = l % 8;
        const uint32_t *o = &out[l * kIn];
        EXPECT_EQ(o[0], ieee ? maxIeee[p] : maxOff[p]) << p;
        EXPECT_EQ(o[1], ieee ? minIeee[p] : minOff[p]) << p;
        if (ieee)
          EXPECT_EQ(o[2], medIeee[p]) << p;
        EXPECT_EQ(o[3], uint32_t(lt[p])) << p;
        EXPECT_EQ(o[4], uint32_t(lt[p] || unord[p])) << p; // NGE: !(a >= b)
        EXPECT_EQ(o[5], uint32_t(eq[p])) << p;
        EXPECT_EQ(o[6], uint32_t(unord[p])) << p;
      }
    }
}

} // namespace

namespace {

/// The field of an SDWA select: byte 0-3, word 0-1, dword.
uint32_t field(uint32_t x, unsigned sel, bool sext) {
  unsigned off = sel <= 3 ? 8 * sel : sel <= 5 ? 16 * (sel - 4) : 0;
  unsigned width = sel <= 3 ? 8 : sel <= 5 ? 16 : 32;
  if (width == 32)
    return x;
  uint32_t v = (x >> off) & ((1u << width) - 1);
  if (sext && (v >> (width - 1)) & 1)
    v |= ~((1u << width) - 1);
  return v;
}

// SDWA (CDNA3 ISA, "SDWA"): source selects with sext, dst_sel and the
// three dst_unused policies; v_cmp_eq_u16_sdwa compares the selected
// words; an f16 add reads and writes the selected halves.
TEST(IsaVector, SdwaSelectsSextAndDstUnused) {
  auto in = inputs([](unsigned l, unsigned k) {
    uint32_t x = 0x9E3779B9u * (l + 1) + 0x7F4A7C15u * k;
    if (k == 2) // halves of f16 values: 1.5 + lane / 8 and 2.25
      return uint32_t(hbits(_Float16(1.5f + float(l) / 8))) << 16 |
             hbits(_Float16(2.25f));
    if (k == 3) // v13's low word equals v10's high word on even lanes
      return l % 2 ? x : 0xABCD0000u | 0; // filled below
    return x;
  });
  for (unsigned l = 0; l < 64; l += 2)
    in[l * kIn + 3] = in[l * kIn + 0] >> 16 | 0x55550000u;
  std::string body =
      "v_mov_b32_e32 v22, 0x12345678\n"
      "v_add_u32_sdwa v20, sext(v10), v11 dst_sel:WORD_1 "
      "dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_0\n"
      "v_add_u32_sdwa v21, v10, sext(v11) dst_sel:BYTE_2 "
      "dst_unused:UNUSED_SEXT src0_sel:BYTE_3 src1_sel:BYTE_0\n"
      "v_sub_u32_sdwa v22, v10, v11 dst_sel:BYTE_1 "
      "dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_2\n"
      "v_cmp_eq_u16_sdwa vcc, v10, v13 src0_sel:WORD_1 src1_sel:WORD_0\n"
      "v_cndmask_b32_e64 v23, 0, 1, vcc\n"
      "v_mov_b32_e32 v24, v12\n"
      "v_add_f16_sdwa v24, v12, v12 dst_sel:WORD_0 "
      "dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0\n"
      "v_mov_b32_sdwa v25, sext(v11) dst_sel:WORD_1 dst_unused:UNUSED_SEXT "
      "src0_sel:BYTE_1\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
      uint32_t a = x[0], b = x[1];
      // dst_sel WORD_1, UNUSED_PAD: the sum's low word in bits 31:16.
      EXPECT_EQ(o[0], (field(a, 1, true) + field(b, 4, false)) << 16) << l;
      // dst_sel BYTE_2, UNUSED_SEXT: bits 31:24 copy bit 23, 15:0 zero.
      uint32_t s = (field(a, 3, false) + field(b, 0, true)) & 0xFF;
      EXPECT_EQ(o[1], s << 16 | (s & 0x80 ? 0xFF000000u : 0)) << l;
      // dst_sel BYTE_1, UNUSED_PRESERVE: the rest of 0x12345678 kept.
      uint32_t d = (field(a, 5, false) - field(b, 2, false)) & 0xFF;
      EXPECT_EQ(o[2], (0x12345678u & ~0xFF00u) | d << 8) << l;
      EXPECT_EQ(o[3], (a >> 16) == (x[3] & 0xFFFF) ? 1u : 0u) << l;
      EXPECT_EQ(o[3], l % 2 == 0 ? 1u : o[3]) << l;
      _Float16 sum = half(uint16_t(x[2] >> 16)) + half(uint16_t(x[2]));
      EXPECT_EQ(o[4], (x[2] & 0xFFFF0000u) | hbits(sum)) << l;
      uint32_t byte1 = field(b, 1, true) & 0xFFFF;
      EXPECT_EQ(o[5], byte1 << 16) << l; // bits 15:0 zero, no bits above
    }
  }
}

/// The lane row_shr:1 reads for `l` (CDNA3 ISA, DPP), or -1.
int rowShr1(unsigned l) { return (l % 16) == 0 ? -1 : int(l) - 1; }

// DPP16: src0 from another lane (row_shr:1, quad_perm), bound_ctrl (zero
// for a source outside the row instead of no write), row_mask and
// bank_mask (lanes of disabled rows or banks are not written).
TEST(IsaVector, DppBoundCtrlAndMasks) {
  auto in = inputs([](unsigned l, unsigned k) {
    return bits(k == 0 ? float(l) + 0.5f : 100.0f);
  });
  std::string body =
      "v_mov_b32_e32 v20, -1\n"
      "v_mov_b32_e32 v21, -1\n"
      "v_mov_b32_e32 v22, -1\n"
      "v_add_f32_dpp v20, v10, v11 row_shr:1 row_mask:0xf bank_mask:0xf\n"
      "v_add_f32_dpp v21, v10, v11 row_shr:1 row_mask:0xf bank_mask:0xf "
      "bound_ctrl:0\n"
      "v_sub_f32_dpp v22, -v10, v11 quad_perm:[3,2,1,0] row_mask:0x5 "
      "bank_mask:0x6\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *o = &out[l * kIn];
      int from = rowShr1(l);
      EXPECT_EQ(o[0], from < 0 ? 0xFFFFFFFFu : bits(float(from) + 0.5f + 100))
          << l;
      EXPECT_EQ(o[1], bits(from < 0 ? 100.0f : float(from) + 0.5f + 100)) << l;
      bool on = (0x5 >> (l / 16) & 1) && (0x6 >> ((l % 16) / 4) & 1);
      unsigned q = (l & ~3u) + 3 - (l & 3);
      EXPECT_EQ(o[2], on ? bits(-(float(q) + 0.5f) - 100.0f) : 0xFFFFFFFFu)
          << l;
    }
  }
}

// MODE.FP_DENORM (the kernel descriptor's FLOAT_DENORM_MODE_32 and
// _16_64): 0 flushes denormal inputs and results to zero (sign kept), 3
// keeps them.
TEST(IsaVector, DenormalsFlushedOrKept) {
  const uint32_t tiny = 0x00000003;             // 3 * 2^-149
  const uint64_t tinyD = 0x0000000000000005ull; // 5 * 2^-1074
  const uint16_t tinyH = 0x0003;                // 3 * 2^-24
  auto in = inputs([&](unsigned l, unsigned k) {
    switch (k) {
    case 0:
      return tiny | (l % 2 ? 0x80000000u : 0);
    case 1:
      return bits(1.0f);
    case 2:
      return uint32_t(tinyD);
    case 3:
      return uint32_t(tinyD >> 32);
    case 4:
      return uint32_t(tinyH);
    default:
      return bits(0x1p-70f);
    }
  });
  std::string body = "v_mul_f32_e32 v20, v10, v11\n"     // denormal input
                     "v_mul_f32_e32 v21, v15, v15\n"     // denormal result
                     "v_add_f64 v[22:23], v[12:13], 0\n" // f64 input
                     "v_add_f16_e32 v24, v14, v14\n"     // f16
                     "s_movk_i32 s10, 0x90\n"
                     "v_cmp_class_f32_e64 s[8:9], v10, s10\n" // +-denormal
                     "v_cndmask_b32_e64 v25, 0, 1, s[8:9]\n";
  for (const char *chip : kChips)
    for (int mode : {0, 3}) {
      SCOPED_TRACE(std::string(chip) + " mode " + std::to_string(mode));
      std::string m = std::to_string(mode);
      auto out =
          runLanes(chip, body, in,
                   "  .amdhsa_float_denorm_mode_32 " + m +
                       "\n  .amdhsa_float_denorm_mode_16_64 " + m + "\n");
      for (unsigned l = 0; l < 64; ++l) {
        const uint32_t *o = &out[l * kIn];
        uint32_t sign = l % 2 ? 0x80000000u : 0;
        EXPECT_EQ(o[0], mode ? (tiny | sign) : sign) << l;
        // 2^-70 squared is the denormal 2^-140.
        EXPECT_EQ(o[1], mode ? 0x00000200u : 0u) << l;
        EXPECT_EQ(uint64_t(o[2]) | uint64_t(o[3]) << 32, mode ? tinyD : 0) << l;
        EXPECT_EQ(o[4], mode ? uint32_t(2 * tinyH) : 0u) << l;
        EXPECT_EQ(o[5], 1u) << l; // v_cmp_class reads bits, never flushed
      }
    }
}

// MODE.FP_ROUND (FLOAT_ROUND_MODE_32): 1 + 2^-24 is a tie; nearest even
// gives 1, towards +inf the next float up; 1 + 3 * 2^-25 towards zero 1.
TEST(IsaVector, RoundModeOfF32) {
  auto in = inputs([](unsigned l, unsigned k) {
    return k == 0 ? bits(1.0f) : k == 1 ? bits(0x1p-24f) : bits(0x1.8p-24f);
  });
  std::string body = "v_add_f32_e32 v20, v10, v11\n"
                     "v_add_f32_e32 v21, v10, v12\n"
                     "v_fma_f32 v22, v11, -1.0, v10\n";
  const int modes[] = {0, 1, 2, 3};
  for (const char *chip : kChips)
    for (int m : modes) {
      SCOPED_TRACE(std::string(chip) + " round " + std::to_string(m));
      auto out = runLanes(chip, body, in,
                          std::string(kKeepDenormals) +
                              "  .amdhsa_float_round_mode_32 " +
                              std::to_string(m) + "\n");
      float up = std::nextafter(1.0f, 2.0f), down = std::nextafter(1.0f, 0.f);
      // 1 + 2^-24: RNE 1, +inf up, -inf 1, zero 1.
      const float add1[] = {1.0f, up, 1.0f, 1.0f};
      // 1 + 1.5 * 2^-24: RNE up, +inf up, -inf 1, zero 1.
      const float add2[] = {up, up, 1.0f, 1.0f};
      // 1 - 2^-24 is exact in f32 (0x3f7fffff): the same in every mode.
      for (unsigned l = 0; l < 64; ++l) {
        const uint32_t *o = &out[l * kIn];
        EXPECT_EQ(o[0], bits(add1[m])) << l;
        EXPECT_EQ(o[1], bits(add2[m])) << l;
        EXPECT_EQ(o[2], bits(down)) << l;
      }
    }
}

} // namespace

namespace {

// v_cmpx (GFX9): the compare's mask goes to VCC (e32) or the SGPR pair
// (e64) and to EXEC; lanes outside EXEC give 0.
TEST(IsaVector, CmpxWritesExecAndMask) {
  auto in = inputs([](unsigned l, unsigned k) { return l * 7 % 64; });
  std::string body = "v_cmpx_lt_u32_e32 vcc, 31, v10\n"
                     "v_mov_b32_e32 v20, 1\n"
                     "v_cmpx_lt_i32_e64 s[8:9], v10, 50\n"
                     "v_mov_b32_e32 v21, 2\n"
                     "s_mov_b64 s[10:11], exec\n"
                     "s_mov_b64 exec, -1\n"
                     "v_mov_b32_e32 v22, vcc_lo\n"
                     "v_mov_b32_e32 v23, vcc_hi\n"
                     "v_mov_b32_e32 v24, s8\n"
                     "v_mov_b32_e32 v25, s9\n"
                     "v_mov_b32_e32 v26, s10\n"
                     "v_mov_b32_e32 v27, s11\n";
  uint64_t first = 0, second = 0;
  for (unsigned l = 0; l < 64; ++l) {
    unsigned x = l * 7 % 64;
    if (x > 31)
      first |= uint64_t(1) << l;
    if (x > 31 && x < 50)
      second |= uint64_t(1) << l;
  }
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *o = &out[l * kIn];
      EXPECT_EQ(o[0], (first >> l & 1) ? 1u : 0u) << l;
      EXPECT_EQ(o[1], (second >> l & 1) ? 2u : 0u) << l;
      EXPECT_EQ(uint64_t(o[2]) | uint64_t(o[3]) << 32, first);
      EXPECT_EQ(uint64_t(o[4]) | uint64_t(o[5]) << 32, second);
      EXPECT_EQ(uint64_t(o[6]) | uint64_t(o[7]) << 32, second);
    }
  }
}

// 64-bit operations: shifts, v_mad_i64_i32 and v_mad_u64_u32 (128-bit
// products, carry out), f64 add and fma, a signed 64-bit compare.
TEST(IsaVector, SixtyFourBitOperations) {
  auto in = inputs([](unsigned l, unsigned k) {
    uint64_t x = 0x9E3779B97F4A7C15ull * (l + 3);
    double d = (double(l) - 31.5) * 1.25e10;
    switch (k) {
    case 0:
      return uint32_t(x);
    case 1:
      return uint32_t(x >> 32);
    case 2:
      return uint32_t(bits64(d));
    case 3:
      return uint32_t(bits64(d) >> 32);
    case 4:
      return l * 5 % 64; // a shift
    default:
      return uint32_t(0x80000001u + l * 0x3456789u);
    }
  });
  std::string body = "v_ashrrev_i64 v[20:21], v14, v[10:11]\n"
                     "v_mad_i64_i32 v[22:23], s[8:9], v15, v14, v[10:11]\n"
                     "v_add_f64 v[24:25], v[12:13], -v[10:11]\n"
                     "v_fma_f64 v[26:27], v[12:13], v[12:13], 1.0\n"
                     "v_mad_u64_u32 v[28:29], s[8:9], v15, v15, v[10:11]\n"
                     "v_cmp_lt_i64_e32 vcc, v[10:11], v[12:13]\n"
                     "v_cndmask_b32_e64 v30, 0, 1, vcc\n"
                     "v_add_u32_e32 v20, v20, v28\n"
                     "v_add_u32_e32 v21, v21, v29\n"
                     "v_add_u32_e32 v21, v21, v30\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
      uint64_t a = x[0] | uint64_t(x[1]) << 32;
      uint64_t d = x[2] | uint64_t(x[3]) << 32;
      uint64_t sh = uint64_t(int64_t(a) >> (x[4] & 63));
      __int128 mi = (__int128)int32_t(x[5]) * int32_t(x[4]) + int64_t(a);
      unsigned __int128 mu = (unsigned __int128)x[5] * x[5] + a;
      uint64_t lt = int64_t(a) < int64_t(d);
      // Lane sums keep the check to 8 dwords: low and high halves.
      uint64_t sum = sh + (uint64_t(mu) & 0xFFFFFFFF) +
                     (uint64_t(uint32_t(mu >> 32)) << 32) + (lt << 32);
      EXPECT_EQ(o[0], uint32_t(sh) + uint32_t(mu)) << l;
      EXPECT_EQ(o[1], uint32_t(sh >> 32) + uint32_t(uint64_t(mu) >> 32) +
                          uint32_t(lt))
          << l;
      (void)sum;
      EXPECT_EQ(uint64_t(o[2]) | uint64_t(o[3]) << 32, uint64_t(mi)) << l;
      EXPECT_EQ(uint64_t(o[4]) | uint64_t(o[5]) << 32, bits64(dbl(d) - dbl(a)))
          << l;
      EXPECT_EQ(uint64_t(o[6]) | uint64_t(o[7]) << 32,
                bits64(std::fma(dbl(d), dbl(d), 1.0)))
          << l;
    }
  }
}

// f16 arithmetic, and the GFX9 VOP3 op_sel of v_fma_f16 (sources' and
// destination's halves; the other half of the destination kept), against
// _Float16 (IEEE binary16, round to nearest even); v_add_f16_e32 zeroes
// bits 31:16.
TEST(IsaVector, F16ArithmeticAndOpsel) {
  auto val = [](unsigned l, unsigned k) {
    return _Float16(float(int(l) - 30) * 0.1875f + float(k) * 0.7f);
  };
  auto in = inputs([&](unsigned l, unsigned k) {
    return uint32_t(hbits(val(l, k + 8))) << 16 | hbits(val(l, k));
  });
  std::string body = "v_mov_b32_e32 v20, v12\n"
                     "v_fma_f16 v20, v10, v11, v12 op_sel:[1,0,1,1]\n"
                     "v_add_f16_e32 v21, v10, v11\n"
                     "v_mul_f16_e64 v22, -v10, |v11| clamp\n"
                     "v_max_f16_e32 v23, v10, v11\n"
                     "v_ldexp_f16_e64 v24, v10, 3\n"
                     "v_sqrt_f16_e64 v25, |v10|\n"
                     "v_mad_u16 v26, v13, v13, v13 op_sel:[1,1,0,0]\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
      auto lo = [&](unsigned k) { return half(uint16_t(x[k])); };
      auto hi = [&](unsigned k) { return half(uint16_t(x[k] >> 16)); };
      // fma: the product of two halves and its sum with a third are exact
      // in double for these magnitudes, so the one rounding is to half.
      _Float16 fma = _Float16(double(hi(0)) * double(lo(1)) + double(hi(2)));
      EXPECT_EQ(o[0], (x[2] & 0xFFFF) | uint32_t(hbits(fma)) << 16) << l;
      EXPECT_EQ(o[1], uint32_t(hbits(lo(0) + lo(1)))) << l;
      float p = -float(lo(0)) * std::fabs(float(lo(1)));
      _Float16 c = _Float16(p);
      c = c <= 0 ? _Float16(0) : c >= 1 ? _Float16(1) : c;
      EXPECT_EQ(o[2], uint32_t(hbits(c))) << l;
      _Float16 m = lo(0) >= lo(1) ? lo(0) : lo(1);
      EXPECT_EQ(o[3], uint32_t(hbits(m))) << l;
      EXPECT_EQ(o[4], uint32_t(hbits(lo(0) * _Float16(8)))) << l;
      EXPECT_EQ(o[5],
                uint32_t(hbits(_Float16(std::sqrt(std::fabs(float(lo(0))))))))
          << l;
      uint16_t u = uint16_t(x[3] >> 16);
      EXPECT_EQ(o[6] & 0xFFFF, uint16_t(u * u + uint16_t(x[3]))) << l;
    }
  }
}

} // namespace

namespace {

// Integer clamp saturates (CDNA3 ISA: "clamp" on integer adds and
// subtracts); without clamp the result wraps.
TEST(IsaVector, IntegerClampSaturates) {
  auto in = inputs([](unsigned l, unsigned k) {
    const uint32_t v[] = {0xFFFFFFF0u, 0x20u,   0x7FFFFFF0u, 0x10u,
                          0x8000u,     0x7FF0u, 0xFFF0u,     0x30u};
    return v[k] + (l % 4);
  });
  std::string body = "v_add_u32_e64 v20, v10, v11 clamp\n"
                     "v_add_u32_e64 v21, v10, v11\n"
                     "v_sub_u32_e64 v22, v11, v10 clamp\n"
                     "v_add_i32 v23, v12, v13 clamp\n"
                     "v_add_u16_e64 v24, v16, v17 clamp\n"
                     "v_sub_i16 v25, v14, v15 clamp\n"
                     "v_add_co_u32_e64 v26, s[8:9], v10, v11 clamp\n"
                     "v_mad_u32_u24 v27, v15, v15, v10 clamp\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
      auto satU = [](int64_t v, int64_t hi) {
        return uint32_t(std::max<int64_t>(0, std::min(hi, v)));
      };
      EXPECT_EQ(o[0], satU(int64_t(x[0]) + x[1], 0xFFFFFFFFll)) << l;
      EXPECT_EQ(o[1], x[0] + x[1]) << l;
      EXPECT_EQ(o[2], 0u) << l; // 0x20 - 0xFFFFFFF0 saturates at 0
      EXPECT_EQ(o[3], uint32_t(INT32_MAX)) << l;
      EXPECT_EQ(o[4], satU(int64_t(x[6] & 0xFFFF) + (x[7] & 0xFFFF), 65535))
          << l;
      // i16: 0x8000 (-32768) - 0x7FF0 saturates at -32768, bits 15:0.
      int64_t d = int64_t(int16_t(x[4])) - int16_t(x[5]);
      EXPECT_EQ(o[5] & 0xFFFF, uint32_t(uint16_t(std::max<int64_t>(-32768, d))))
          << l;
      EXPECT_EQ(o[6], 0xFFFFFFFFu) << l;
      uint64_t m = uint64_t(x[5] & 0xFFFFFF) * (x[5] & 0xFFFFFF) + x[0];
      EXPECT_EQ(o[7], uint32_t(std::min<uint64_t>(m, 0xFFFFFFFFu))) << l;
    }
  }
}

// Bit operations against their definitions in the CDNA3 ISA guide.
TEST(IsaVector, BitOperations) {
  auto in = inputs([](unsigned l, unsigned k) {
    uint32_t x = 0x9E3779B9u * (l + 1) ^ (l * 0x01000193u);
    return k == 0 ? x >> (l % 29) : k == 1 ? l % 32 : k == 2 ? 7 + l % 9 : x;
  });
  std::string body = "v_bfrev_b32_e32 v20, v10\n"
                     "v_ffbh_u32_e32 v21, v10\n"
                     "v_ffbl_b32_e32 v22, v10\n"
                     "v_ffbh_i32_e32 v23, v13\n"
                     "v_bcnt_u32_b32 v24, v13, v11\n"
                     "v_bfm_b32 v25, v12, v11\n"
                     "v_bfe_i32 v26, v13, v11, v12\n"
                     "v_alignbyte_b32 v27, v13, v10, v11\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
      uint32_t a = x[0], s = x[1], w = x[2], b = x[3];
      uint32_t rev = 0;
      for (int i = 0; i < 32; ++i)
        rev |= ((a >> i) & 1u) << (31 - i);
      EXPECT_EQ(o[0], rev) << l;
      int lead = -1;
      for (int i = 31; i >= 0 && lead < 0; --i)
        if (a >> i & 1)
          lead = 31 - i;
      EXPECT_EQ(o[1], a ? uint32_t(lead) : 0xFFFFFFFFu) << l;
      int trail = -1;
      for (int i = 0; i < 32 && trail < 0; ++i)
        if (a >> i & 1)
          trail = i;
      EXPECT_EQ(o[2], a ? uint32_t(trail) : 0xFFFFFFFFu) << l;
      // ffbh_i32: the first bit, from the top, differing from the sign.
      int diff = -1;
      for (int i = 30; i >= 0 && diff < 0; --i)
        if ((b >> i & 1) != (b >> 31))
          diff = 31 - i;
      EXPECT_EQ(o[3], diff < 0 ? 0xFFFFFFFFu : uint32_t(diff)) << l;
      unsigned pop = 0;
      for (int i = 0; i < 32; ++i)
        pop += b >> i & 1;
      EXPECT_EQ(o[4], pop + s) << l;
      EXPECT_EQ(o[5], ((1u << w) - 1) << s) << l;
      // bfe_i32: bits [s, s + w) of b, sign-extended from bit w - 1.
      int64_t field = (int64_t(b) >> s) & ((int64_t(1) << w) - 1);
      if (field >> (w - 1) & 1)
        field -= int64_t(1) << w;
      EXPECT_EQ(o[6], s + w <= 32 ? uint32_t(int32_t(field)) : o[6]) << l;
      uint64_t cat = uint64_t(b) << 32 | a;
      EXPECT_EQ(o[7], uint32_t(cat >> (8 * (s & 3)))) << l;
    }
  }
}

// Transcendentals and roundings: values exact in f32, so the correctly
// rounded result is the exact one (the hardware is within 1 ULP of it).
TEST(IsaVector, TranscendentalsAndRoundings) {
  auto in = inputs([](unsigned l, unsigned k) {
    const float v[] = {0.25f, 3.0f, 8.0f, 4.0f, -1.25f, 2.5f, 12.0f, -3.5f};
    return bits(v[k]);
  });
  std::string body = "v_sin_f32_e32 v20, v10\n"        // sin(pi / 2)
                     "v_exp_f32_e32 v21, v11\n"        // 2^3
                     "v_log_f32_e32 v22, v12\n"        // log2(8)
                     "v_rsq_f32_e32 v23, v13\n"        // 1 / sqrt(4)
                     "v_fract_f32_e32 v24, v14\n"      // -1.25 - floor
                     "v_rndne_f32_e32 v25, v15\n"      // tie to even
                     "v_frexp_mant_f32_e32 v26, v16\n" // 12 = 0.75 * 2^4
                     "v_frexp_exp_i32_f32_e32 v27, v16\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *o = &out[l * kIn];
      EXPECT_EQ(o[0], bits(1.0f));
      EXPECT_EQ(o[1], bits(8.0f));
      EXPECT_EQ(o[2], bits(3.0f));
      EXPECT_EQ(o[3], bits(0.5f));
      EXPECT_EQ(o[4], bits(0.75f));
      EXPECT_EQ(o[5], bits(2.0f));
      EXPECT_EQ(o[6], bits(0.75f));
      EXPECT_EQ(o[7], 4u);
    }
  }
}

// CDNA4 only: v_maximum3_f32 / v_minimum3_f32 (IEEE 754-2019 maximum and
// minimum: a NaN wins, -0 < +0) and v_prng_b32 (one LFSR step: (S0 << 1)
// ^ (S0[31] ? 0xC5 : 0)).
TEST(IsaVector, Gfx950Maximum3AndPrng) {
  const uint32_t qNan = 0x7FC00000;
  auto in = inputs([&](unsigned l, unsigned k) {
    if (k == 3)
      return 0x9E3779B9u * (l + 1);
    if (l % 4 == 0)
      return k == 1 ? qNan : bits(float(k));
    if (l % 4 == 1)
      return k == 0 ? 0x80000000u : k == 1 ? 0u : bits(-1.0f);
    return bits(float(int(l) - 3 * int(k)));
  });
  std::string body = "v_maximum3_f32 v20, v10, v11, v12\n"
                     "v_minimum3_f32 v21, v10, v11, v12\n"
                     "v_prng_b32_e32 v22, v13\n"
                     "v_maximum3_f32 v23, -v10, v11, v12 clamp\n";
  auto out = runLanes("gfx950", body, in);
  for (unsigned l = 0; l < 64; ++l) {
    const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
    if (l % 4 == 0) {
      EXPECT_EQ(o[0], qNan) << l;
      EXPECT_EQ(o[1], qNan) << l;
      EXPECT_EQ(o[3], 0u) << l; // clamp turns NaN into 0 (DX10_CLAMP)
    } else if (l % 4 == 1) {
      EXPECT_EQ(o[0], 0u) << l;          // +0 above -0
      EXPECT_EQ(o[1], bits(-1.0f)) << l; // -1 below -0
    } else {
      float a = flt(x[0]), b = flt(x[1]), c = flt(x[2]);
      EXPECT_EQ(o[0], bits(std::max(std::max(a, b), c))) << l;
      EXPECT_EQ(o[1], bits(std::min(std::min(a, b), c))) << l;
    }
    uint32_t s = x[3];
    EXPECT_EQ(o[2], (s << 1) ^ (s >> 31 ? 0xC5u : 0u)) << l;
  }
}

// What is not simulated is a fault naming it, not a guess.
TEST(IsaVector, UnsimulatedFormsAreFaults) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::string f =
        laneFault(chip, "v_trig_preop_f64 v[28:29], v[10:11], v12\n");
    EXPECT_NE(f.find("V_TRIG_PREOP_F64"), std::string::npos) << f;
    EXPECT_NE(f.find("not simulated"), std::string::npos) << f;
    // A compare with clamp.
    f = laneFault(chip, "v_cmp_eq_f32_e64 s[8:9], v10, v11 clamp\n");
    EXPECT_NE(f.find("with clamp is not simulated"), std::string::npos) << f;
  }
}

} // namespace

namespace {

// Carry chains (VCC in e32, SGPR pairs in VOP3b), v_cndmask_b32 in its DPP
// and SDWA forms, cross-lane reads and writes, v_swap_b32.
TEST(IsaVector, CarriesCrossLaneAndSwap) {
  auto in = inputs([](unsigned l, unsigned k) {
    uint64_t a = 0xFFFFFFFF00000000ull + l * 0x0123456789ull;
    uint64_t b = 0x00000001FFFFFFF0ull * (l % 5);
    const uint32_t v[] = {
        uint32_t(a), uint32_t(a >> 32), uint32_t(b), uint32_t(b >> 32),
        l * 3,       0x11110000u + l,   0,           0};
    return v[k];
  });
  std::string body = "v_add_co_u32_e32 v20, vcc, v10, v12\n"
                     "v_addc_co_u32_e32 v21, vcc, v11, v13, vcc\n"
                     "v_sub_co_u32_e64 v22, s[8:9], v10, v12\n"
                     "v_subb_co_u32_e64 v23, s[8:9], v11, v13, s[8:9]\n"
                     "v_cmp_gt_u32_e32 vcc, 32, v0\n"
                     "v_cndmask_b32_dpp v24, v14, v15, vcc row_ror:4 "
                     "row_mask:0xf bank_mask:0xf\n"
                     "v_cndmask_b32_sdwa v25, v14, v15, vcc dst_sel:WORD_1 "
                     "dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1\n"
                     "v_readlane_b32 s10, v14, 37\n"
                     "s_mov_b64 exec, 0xF0\n"
                     "v_readfirstlane_b32 s11, v14\n"
                     "v_writelane_b32 v26, s10, 5\n"
                     "v_mov_b32_e32 v27, v15\n"
                     "v_swap_b32 v27, v14\n"
                     "s_mov_b64 exec, -1\n"
                     "v_add_u32_e32 v26, s11, v26\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
      uint64_t a = x[0] | uint64_t(x[1]) << 32, b = x[2] | uint64_t(x[3]) << 32;
      EXPECT_EQ(uint64_t(o[0]) | uint64_t(o[1]) << 32, a + b) << l;
      EXPECT_EQ(uint64_t(o[2]) | uint64_t(o[3]) << 32, a - b) << l;
      // row_ror:4: lane l reads lane (l - 4) mod 16 of its row for src0.
      unsigned from = (l & ~15u) | ((l - 4) & 15);
      EXPECT_EQ(o[4], l < 32 ? x[5] : in[from * kIn + 4]) << l;
      uint32_t sel = l < 32 ? x[5] >> 16 : x[4] & 0xFF;
      EXPECT_EQ(o[5], sel << 16) << l;
      // readfirstlane with EXEC = 0xF0: lane 4; writelane ignores EXEC.
      EXPECT_EQ(o[6], (l == 5 ? in[37 * kIn + 4] : 0u) + in[4 * kIn + 4]) << l;
      bool on = l >= 4 && l < 8;
      // v27 = v15 then the swap run on EXEC's lanes only (v27 was 0).
      EXPECT_EQ(o[7], on ? x[4] : 0u) << l;
    }
  }
}

// f64 operations, v_cmp_class of f16 and f64, and f16 op_sel on the
// VOP3-only v_max3_f16 (the other half kept) against v_add_f16_e64
// (bits 31:16 zeroed).
TEST(IsaVector, F64AndClassAndHalves) {
  auto in = inputs([](unsigned l, unsigned k) {
    double d = (double(l) - 20.25) * 0.75;
    if (k < 2)
      return uint32_t(bits64(d) >> (32 * k));
    if (k == 2) // f16 halves: -inf, 1.5 | denormal, NaN by lane
      return l % 2 ? 0x7E00FC00u : 0x00033E00u;
    if (k == 3)
      return 0xDEAD0000u | hbits(_Float16(float(l) * 0.5f));
    return uint32_t(l % 4 == 0   ? 0
                    : l % 4 == 1 ? 0x7FF00000u
                    : l % 4 == 2 ? 0x80000000u
                                 : 0x00080000u);
  });
  std::string body = "v_rndne_f64_e32 v[20:21], v[10:11]\n"
                     "v_frexp_mant_f64_e32 v[22:23], v[10:11]\n"
                     "v_frexp_exp_i32_f64_e32 v24, v[10:11]\n"
                     "v_mov_b32_e32 v2, 0\n"
                     "v_mov_b32_e32 v3, v14\n"
                     "s_movk_i32 s12, 0x3FF\n"
                     "v_cmp_class_f64_e64 s[8:9], v[2:3], s12\n"
                     "v_cndmask_b32_e64 v25, 0, 1, s[8:9]\n"
                     "v_cmp_class_f16_e64 s[8:9], v12, 4\n" // -inf
                     "v_cndmask_b32_e64 v2, 0, 2, s[8:9]\n"
                     "v_cmp_class_f16_e32 vcc, v12, v5\n"
                     "v_cndmask_b32_e64 v3, 0, 4, vcc\n"
                     "v_or_b32_e32 v25, v25, v2\n"
                     "v_or_b32_e32 v25, v25, v3\n"
                     "v_mov_b32_e32 v26, v13\n"
                     "v_max3_f16 v26, v13, v13, v12 op_sel:[0,0,1,0]\n"
                     "v_mov_b32_e32 v27, v13\n"
                     "v_add_f16_e64 v27, v13, v13\n";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    auto out = runLanes(chip, "v_mov_b32_e32 v5, 0x90\n" + body, in);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *x = &in[l * kIn], *o = &out[l * kIn];
      double d = dbl(x[0] | uint64_t(x[1]) << 32);
      double r = std::nearbyint(d); // the host rounds ties to even
      EXPECT_EQ(uint64_t(o[0]) | uint64_t(o[1]) << 32, bits64(r)) << l;
      int e = 0;
      double m = d == 0 ? 0 : std::frexp(d, &e);
      EXPECT_EQ(uint64_t(o[2]) | uint64_t(o[3]) << 32, bits64(m)) << l;
      EXPECT_EQ(o[4], uint32_t(e)) << l;
      // Class bits of the f64 {0, x[4]}: +0, +inf, -0, +denormal, all in
      // mask 0x3FF; the f16 low halves: 1.5 (not -inf) or -inf; the
      // denormal/NaN check of mask 0x90 (+-denormal) on 0x3E00 / 0xFC00.
      uint32_t want = 1 | (l % 2 ? 2 : 0);
      EXPECT_EQ(o[5], want) << l;
      _Float16 h = half(uint16_t(x[3]));
      _Float16 hi = half(uint16_t(x[2] >> 16));
      // max3(h, h, hi(v12)): hi is 0x0003 (a denormal) or NaN (ignored).
      _Float16 m3 = l % 2 ? h : (h > hi ? h : hi);
      EXPECT_EQ(o[6], 0xDEAD0000u | hbits(m3)) << l;
      EXPECT_EQ(o[7], uint32_t(hbits(h + h))) << l;
    }
  }
}

} // namespace
