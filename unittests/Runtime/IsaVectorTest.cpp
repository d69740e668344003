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

/// `body` as kernel k with extra kernel descriptor directives (float
/// modes), assembled and linked like isatest::assemble.
std::string assembleWith(const std::string &chip, const std::string &body,
                         const std::string &directives) {
  char dir[] = "/tmp/hk-isa-vector-XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  std::string base = std::string(dir) + "/k";
  std::ofstream(base + ".s")
      << ".amdgcn_target \"amdgcn-amd-amdhsa--" << chip << "\"\n"
      << ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"
      << body << "\n.rodata\n.p2align 6\n.amdhsa_kernel k\n"
      << "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
      << "  .amdhsa_next_free_vgpr 64\n  .amdhsa_next_free_sgpr 32\n"
      << "  .amdhsa_accum_offset 32\n"
      << directives << ".end_amdhsa_kernel\n";
  std::string tools = HK_LLVM_TOOLS_DIR;
  std::string cmd = tools + "/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=" + chip +
                    " -filetype=obj " + base + ".s -o " + base + ".o && " +
                    tools + "/ld.lld -shared " + base + ".o -o " + base +
                    ".hsaco";
  EXPECT_EQ(system(cmd.c_str()), 0) << cmd;
  std::string elf = readFile(base + ".hsaco");
  system(("rm -rf " + std::string(dir)).c_str());
  return elf;
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
std::string faultOf(const std::string &chip, const std::string &body) {
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
