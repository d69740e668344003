//===- IsaScalarTest.cpp - the ISA simulator's scalar semantics ----------===//
//
// Expected values come from AMD's ISA reference guides (and AMD's MFMA
// tables in ../shared/amd), never from the simulator's own output.
//
// SALU, program flow, scalar memory and VGPR indexing, each on gfx942 and
// gfx950: the values below are worked out by hand from the CDNA3/CDNA4
// guides' opcode descriptions (SCC included), AMDGPUUsage (the kernel
// descriptor's MODE bits and LDS granules) and the out-of-range rule of raw
// buffers.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include "hk/Base/Error.h"

#include <initializer_list>
#include <regex>

using namespace hk::rt;
using namespace hk::rt::isatest;

namespace {

const char *const kScalarChips[] = {"gfx942", "gfx950"};

/// Loads the output pointer into s[2:3] and zeroes v1.
const char *kPrologue = R"(
      s_load_dwordx2 s[2:3], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
)";

/// Stores each register (an SGPR or an inline constant) as one dword of the
/// output, in order.
std::string storeAll(std::initializer_list<const char *> regs) {
  std::string s = "      s_mov_b64 exec, -1\n";
  unsigned k = 0;
  for (const char *r : regs) {
    s += "      v_mov_b32_e32 v2, " + std::string(r) + "\n";
    s += "      global_store_dword v1, v2, s[2:3] offset:" +
         std::to_string(4 * k++) + "\n";
  }
  return s + "      s_waitcnt vmcnt(0)\n      s_endpgm\n";
}

std::vector<uint32_t> runScalar(const std::string &chip,
                                const std::string &body, size_t dwords,
                                uint32_t lanes = 64) {
  std::vector<uint32_t> out(dwords, 0xDEADBEEF);
  launch(chip, std::string(kPrologue) + body, {ptr(out.data())},
         {{out.data(), 4 * out.size()}}, lanes);
  return out;
}

/// The fault message of a kernel, or "" if it runs.
std::string scalarFault(const std::string &chip, const std::string &body) {
  std::vector<uint32_t> buf(64, 0);
  try {
    launch(chip, std::string(kPrologue) + body, {ptr(buf.data())},
           {{buf.data(), 4 * buf.size()}});
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_KERNEL_FAULT);
    return e.what();
  }
  return "";
}

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

// SOP2 (CDNA3/CDNA4 guides): nand/nor/xnor/orn2 D = ~(S0 & S1), ~(S0 | S1),
// ~(S0 ^ S1), S0 | ~S1 with SCC = (D != 0); s_bfm D = ((1 << S0) - 1) << S1;
// s_bfe_u32/i32/u64 the field at S1[4:0] (64: [5:0]) of width S1[22:16],
// sign-extended for _i32, SCC = (D != 0); s_absdiff_i32 D = |S0 - S1|, SCC =
// (D != 0); s_mul_hi_i32/u32 the high half of the product; s_pack_ll/lh/hh
// D = {S1 half, S0 half}; s_lshl3_add_u32 D = (S0 << 3) + S1 with SCC the
// carry out; s_add_i32/s_sub_i32 SCC = signed overflow; s_addc/s_subb use
// SCC as carry/borrow in and out.
TEST(IsaScalar, Sop2ArithmeticAndLogic) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip, std::string(R"(
      s_mov_b32 s4, 0xf0f01234
      s_mov_b32 s5, 0x0ff04321
      s_nand_b32 s6, s4, s5
      s_nor_b32 s7, s4, s5
      s_xnor_b32 s8, s4, s5
      s_orn2_b32 s9, s4, s5
      s_nor_b32 s10, -1, s5
      s_cselect_b32 s11, 1, 0
      s_bfm_b32 s12, 5, 4
      s_mov_b32 s13, 36
      s_bfm_b64 s[14:15], s13, 8
      s_mov_b32 s16, 0xf00
      s_bfe_i32 s17, s16, 0x40008
      s_bfe_u32 s18, s16, 0x40008
      s_mov_b32 s20, 0x80000000
      s_mov_b32 s21, 1
      s_bfe_u64 s[22:23], s[20:21], 0x2001f
      s_absdiff_i32 s24, -5, 2
      s_cselect_b32 s25, 1, 0
      s_absdiff_i32 s26, 7, 7
      s_cselect_b32 s27, 1, 0
      s_mul_hi_i32 s28, -2, 3
      s_mov_b32 s29, 0x40000000
      s_mul_hi_i32 s29, s29, 4
      s_mul_hi_u32 s30, -1, -1
      s_mov_b32 s31, 0x11112222
      s_mov_b32 s32, 0x33334444
      s_pack_ll_b32_b16 s33, s31, s32
      s_pack_lh_b32_b16 s34, s31, s32
      s_pack_hh_b32_b16 s35, s31, s32
      s_mov_b32 s36, 0x20000000
      s_lshl3_add_u32 s37, s36, 5
      s_cselect_b32 s38, 1, 0
      s_brev_b32 s39, 1
      s_sub_i32 s39, s39, 1
      s_cselect_b32 s40, 1, 0
      s_add_i32 s41, s39, 1
      s_cselect_b32 s42, 1, 0
      s_cmp_eq_u32 0, 0
      s_addc_u32 s43, 1, 2
      s_cmp_eq_u32 0, 0
      s_subb_u32 s44, 5, 5
      s_cselect_b32 s45, 1, 0
)") + storeAll({"s6",  "s7",  "s8",  "s9",  "s10", "s11", "s12", "s14",
                "s15", "s17", "s18", "s22", "s23", "s24", "s25", "s26",
                "s27", "s28", "s29", "s30", "s33", "s34", "s35", "s37",
                "s38", "s39", "s40", "s41", "s42", "s43", "s44", "s45"}),
                         32);
    std::vector<uint32_t> expect = {
        0xFF0FFDDF,                // ~(0xF0F01234 & 0x0FF04321) = ~0x00F00220
        0x000FACCA,                // ~(0xFFF05335)
        0x00FFAEEA,                // ~(0xFF005115)
        0xF0FFBEFE,                // 0xF0F01234 | 0xF00FBCDE
        0, 0,                      // s_nor with -1 is 0: SCC = 0
        0x1F0,                     // five ones shifted by 4
        0xFFFFFF00, 0x00000FFF,    // 36 ones shifted by 8
        0xFFFFFFFF, 0xF,           // field 0xF at bit 8, signed and unsigned
        3, 0,                      // bits 32:31 of 0x1_8000_0000
        7, 1, 0, 0,                // |-5 - 2|, |7 - 7|
        0xFFFFFFFF, 1, 0xFFFFFFFE, // high halves of -6, 2^32,
                                   // (2^32-1)^2
        0x44442222, 0x33332222, 0x33331111, 5,
        1,              // 0x20000000 << 3 carries out, + 5
        0x7FFFFFFF, 1,  // INT_MIN - 1 overflows
        0x80000000, 1,  // INT_MAX + 1 overflows
        4,              // 1 + 2 + carry in
        0xFFFFFFFF, 1}; // 5 - 5 - borrow in: borrow out
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
  }
}

// SOP1 masks: s_not_b64 D = ~S0, SCC = (D != 0); s_bitreplicate_b64_b32
// D[2k] = D[2k+1] = S0[k]; s_quadmask D[k] = OR of S0[4k+3:4k], SCC =
// (D != 0); s_wqm each nibble all ones if any bit of it is set, SCC =
// (D != 0).
TEST(IsaScalar, Sop1MaskOperations) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip,
                         std::string(R"(
      s_mov_b32 s4, -1
      s_mov_b32 s5, 0
      s_not_b64 s[6:7], s[4:5]
      s_cselect_b32 s8, 1, 0
      s_not_b64 s[4:5], -1
      s_cselect_b32 s9, 1, 0
      s_mov_b32 s10, 0x80000005
      s_bitreplicate_b64_b32 s[10:11], s10
      s_mov_b32 s12, 0x0f001010
      s_quadmask_b32 s12, s12
      s_mov_b32 s14, 1
      s_mov_b32 s15, 0x10000000
      s_quadmask_b64 s[14:15], s[14:15]
      s_quadmask_b64 s[16:17], 0
      s_cselect_b32 s16, 1, 0
      s_mov_b32 s18, 0x01002040
      s_wqm_b32 s18, s18
      s_mov_b32 s20, 0
      s_mov_b32 s21, 0x80000000
      s_wqm_b64 s[20:21], s[20:21]
)") + storeAll({"s6", "s7", "s8", "s4", "s5", "s9", "s10", "s11", "s12", "s14",
                "s15", "s16", "s18", "s20", "s21"}),
                         15);
    std::vector<uint32_t> expect = {
        0,          0xFFFFFFFF,
        1, // ~0x00000000_FFFFFFFF, SCC = 1
        0,          0,
        0,                       // ~(-1) = 0, SCC = 0
        0x33,       0xC0000000,  // bits 0, 2 and 31 doubled
        0x4A,                    // nibbles 1, 3 and 6 are nonzero
        0x8001,     0,           // nibbles 0 and 15 of 0x10000000_00000001
        0,                       // quadmask of 0: SCC = 0
        0x0F00F0F0,              // wqm of 0x01002040
        0,          0xF0000000}; // wqm_b64 of 0x80000000_00000000
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
  }
}

// SOP1 bits: s_flbit_i32 counts the bits from the MSB equal to the sign bit
// (-1 if all are), s_flbit_i32_b32/b64 the zeros above the highest one (-1
// for 0); s_ff0/ff1 the lowest 0/1 bit (-1 if none); s_bcnt0/1 the 0/1
// bits, SCC = (D != 0); s_sext; s_bitset0/1 clear/set D[S0]; s_brev_b64;
// s_cmov moves only when SCC is set.
TEST(IsaScalar, Sop1BitOperations) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip, std::string(R"(
      s_flbit_i32 s22, -1
      s_mov_b32 s23, 0xffff0000
      s_flbit_i32 s23, s23
      s_mov_b32 s24, 0x40000000
      s_flbit_i32 s24, s24
      s_mov_b32 s25, 0xc0000000
      s_flbit_i32 s25, s25
      s_mov_b32 s26, 0
      s_mov_b32 s27, -1
      s_flbit_i32_i64 s26, s[26:27]
      s_mov_b32 s27, 0x10000
      s_flbit_i32_b32 s27, s27
      s_flbit_i32_b64 s28, 1
      s_flbit_i32_b32 s29, 0
      s_mov_b32 s30, 0x10000
      s_ff1_i32_b32 s30, s30
      s_mov_b32 s31, 0xffff
      s_ff0_i32_b32 s31, s31
      s_mov_b32 s32, 0
      s_mov_b32 s33, 0x10
      s_ff1_i32_b64 s32, s[32:33]
      s_ff0_i32_b64 s33, -1
      s_mov_b32 s34, 0xff
      s_mov_b32 s35, 1
      s_bcnt1_i32_b64 s34, s[34:35]
      s_bcnt0_i32_b32 s35, -1
      s_cselect_b32 s36, 1, 0
      s_mov_b32 s37, 0x80
      s_sext_i32_i8 s37, s37
      s_mov_b32 s38, 0x18000
      s_sext_i32_i16 s38, s38
      s_mov_b64 s[40:41], 0
      s_bitset1_b64 s[40:41], 40
      s_mov_b32 s42, -1
      s_bitset0_b32 s42, 3
      s_brev_b64 s[44:45], 1
      s_mov_b32 s46, 7
      s_cmp_eq_u32 0, 1
      s_cmov_b32 s46, 9
      s_mov_b32 s47, 7
      s_cmp_eq_u32 1, 1
      s_cmov_b32 s47, 9
)") + storeAll({"s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29",
                "s30", "s31", "s32", "s33", "s34", "s35", "s36", "s37",
                "s38", "s40", "s41", "s42", "s44", "s45", "s46", "s47"}),
                         24);
    std::vector<uint32_t> expect = {
        0xFFFFFFFF, // flbit_i32(-1): all bits equal the sign
        16,         1,
        2,  // 0xFFFF0000, 0x40000000, 0xC0000000
        32, // flbit_i32_i64(0xFFFFFFFF_00000000)
        15,         63,
        0xFFFFFFFF,             // flbit_b32(0x10000), flbit_b64(1), flbit(0)
        16,         16,         // ff1(0x10000), ff0(0xFFFF)
        36,         0xFFFFFFFF, // ff1_b64(0x10_00000000), ff0_b64(-1)
        9,          0,
        0,                      // bcnt1(0x1_000000FF), bcnt0(-1), SCC = 0
        0xFFFFFF80, 0xFFFF8000, // sext of 0x80 (i8), 0x8000 (i16)
        0,          0x100,      // bit 40 set
        0xFFFFFFF7,             // bit 3 cleared
        0,          0x80000000, // brev_b64(1)
        7,          9};         // cmov: kept with SCC = 0, moved with SCC = 1
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
  }
}

// SOPK and SOPC: s_movk/s_cmpk_*_i32 sign-extend SIMM16, s_cmpk_*_u32
// zero-extend it; s_addk_i32 D += SIMM16 with SCC = signed overflow;
// s_mulk_i32 D *= SIMM16; s_cmovk_i32 moves when SCC is set; s_bitcmp1_b64
// SCC = S0[S1[5:0]]; s_cmp_lg_u64 compares 64 bits.
TEST(IsaScalar, SopkAndSopc) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip,
                         std::string(R"(
      s_movk_i32 s4, 0x8000
      s_mov_b32 s5, 0
      s_cmpk_gt_i32 s5, 0x8000
      s_cselect_b32 s6, 1, 0
      s_cmpk_gt_u32 s5, 0x8000
      s_cselect_b32 s7, 1, 0
      s_mov_b32 s5, 0x8000
      s_cmpk_eq_u32 s5, 0x8000
      s_cselect_b32 s8, 1, 0
      s_cmpk_lg_i32 s5, 0x8000
      s_cselect_b32 s9, 1, 0
      s_mov_b32 s10, 0x7ffffff0
      s_addk_i32 s10, 0x10
      s_cselect_b32 s11, 1, 0
      s_mov_b32 s12, 5
      s_addk_i32 s12, 0xffff
      s_cselect_b32 s13, 1, 0
      s_mov_b32 s14, 7
      s_mulk_i32 s14, 0xfffd
      s_mov_b32 s15, 1
      s_cmp_eq_u32 0, 0
      s_cmovk_i32 s15, 0x1234
      s_mov_b32 s16, 0
      s_mov_b32 s17, 2
      s_bitcmp1_b64 s[16:17], 33
      s_cselect_b32 s18, 1, 0
      s_bitcmp0_b64 s[16:17], 33
      s_cselect_b32 s19, 1, 0
      s_mov_b32 s20, 0
      s_mov_b32 s21, 2
      s_cmp_lg_u64 s[16:17], s[20:21]
      s_cselect_b32 s22, 1, 0
      s_mov_b32 s21, 3
      s_cmp_lg_u64 s[16:17], s[20:21]
      s_cselect_b32 s23, 1, 0
)") + storeAll({"s4", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14",
                "s15", "s18", "s19", "s22", "s23"}),
                         15);
    std::vector<uint32_t> expect = {
        0xFFFF8000,     // movk sign-extends
        1,          0,  // 0 > -32768 signed; 0 > 32768 unsigned is false
        1,          1,  // 0x8000 == 0x8000 unsigned; != -32768 signed
        0x80000000, 1,  // 0x7FFFFFF0 + 16 overflows
        4,          0,  // 5 + (-1)
        0xFFFFFFEB,     // 7 * -3
        0x1234,         // cmovk with SCC = 1
        1,          0,  // bit 33 of 0x2_00000000 is set
        0,          1}; // equal, then different
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
  }
}

// A 32-bit literal used as a 64-bit source (CDNA3/CDNA4 guides, "Literal
// Expansion to 64 bits"): zero-extended for the unsigned and bitwise
// operations, sign-extended for the signed ones. 0x80000000 >> 4 is
// 0x00000000_08000000 for s_lshr_b64 and 0xFFFFFFFF_F8000000 for
// s_ashr_i64; s_flbit_i32_i64 of 0xFFFFFFFF_80000000 counts 33 bits equal
// to the sign bit.
TEST(IsaScalar, LiteralExpansionTo64Bits) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip, std::string(R"(
      s_lshr_b64 s[4:5], 0x80000000, 4
      s_ashr_i64 s[6:7], 0x80000000, 4
      s_flbit_i32_i64 s8, 0x80000000
      s_and_b64 s[10:11], -1, 0x80000000
)") + storeAll({"s4", "s5", "s6", "s7", "s8", "s10", "s11"}),
                         7);
    std::vector<uint32_t> expect = {0x08000000, 0, 0xF8000000, 0xFFFFFFFF, 33,
                                    0x80000000, 0};
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
  }
}

// The exec forms: saveexec D = EXEC before, EXEC = op(S0, EXEC); wrexec
// EXEC = op(S0, EXEC), D = EXEC after; both SCC = (EXEC != 0). andn1 is
// ~S0 & EXEC, orn1 ~S0 | EXEC, andn2 S0 & ~EXEC, xnor ~(S0 ^ EXEC).
TEST(IsaScalar, SaveexecAndWrexec) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip,
                         std::string(R"(
      s_mov_b32 s4, 0xf0
      s_mov_b32 s5, 0
      s_mov_b64 exec, 0xff
      s_andn1_saveexec_b64 s[6:7], s[4:5]
      s_mov_b64 s[8:9], exec
      s_orn1_saveexec_b64 s[10:11], s[4:5]
      s_mov_b64 s[12:13], exec
      s_andn2_wrexec_b64 s[14:15], s[4:5]
      s_cselect_b32 s16, 1, 0
      s_andn1_wrexec_b64 s[18:19], s[4:5]
      s_cselect_b32 s17, 1, 0
      s_mov_b64 exec, -1
      s_xnor_saveexec_b64 s[20:21], s[4:5]
      s_mov_b64 s[22:23], exec
      s_mov_b64 exec, -1
      s_nand_saveexec_b64 s[24:25], s[4:5]
      s_mov_b64 s[26:27], exec
)") + storeAll({"s6", "s8", "s9", "s10", "s12", "s13", "s14", "s15", "s16",
                "s18", "s19", "s17", "s20", "s21", "s22", "s23", "s26", "s27"}),
                         18);
    std::vector<uint32_t> expect = {
        0xFF,                      // saved EXEC
        0x0F,       0,             // ~0xF0 & 0xFF
        0x0F,                      // saved
        0xFFFFFF0F, 0xFFFFFFFF,    // ~0xF0 | 0x0F
        0xF0,       0,          1, // 0xF0 & ~EXEC, written back; SCC = 1
        0,          0,          0, // ~0xF0 & 0xF0 = 0; SCC = 0
        0xFFFFFFFF, 0xFFFFFFFF,    // saved all ones
        0xF0,       0,             // ~(0xF0 ^ -1)
        0xFFFFFF0F, 0xFFFFFFFF};   // ~(0xF0 & -1)
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
  }
}

// MODE (hwreg 1): FP_ROUND [3:0], FP_DENORM [7:4] (f32 [5:4], f16/f64
// [7:6]), DX10_CLAMP [8], IEEE [9], from the kernel descriptor's
// COMPUTE_PGM_RSRC1 (AMDGPUUsage). With f32 denormals flushed, f16/f64
// ones kept, round to nearest, DX10 clamp and IEEE on: 0x3C0. s_getreg
// reads the field at offset [10:6] of size [15:11] + 1; s_setreg writes it
// and keeps the rest. Writing another register is a fault, and so is
// turning on a MODE bit the simulator does not model (an exception
// enable).
TEST(IsaScalar, GetregAndSetregOfMode) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    std::string body = std::string(kPrologue) + R"(
      s_getreg_b32 s4, hwreg(HW_REG_MODE)
      s_getreg_b32 s5, hwreg(HW_REG_MODE, 4, 4)
      s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
      s_getreg_b32 s6, hwreg(HW_REG_MODE)
      s_mov_b32 s7, 0
      s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s7
      s_getreg_b32 s8, hwreg(HW_REG_MODE)
      s_setreg_b32 hwreg(HW_REG_MODE), s4
      s_getreg_b32 s9, hwreg(HW_REG_MODE)
)" + storeAll({"s4", "s5", "s6", "s8", "s9"});
    std::vector<uint32_t> out(5, 0xDEADBEEF);
    auto code = isa::loadCodeObject(
        assembleWith(chip, body,
                     "  .amdhsa_float_denorm_mode_32 0\n"
                     "  .amdhsa_float_denorm_mode_16_64 3\n"
                     "  .amdhsa_float_round_mode_32 0\n"
                     "  .amdhsa_float_round_mode_16_64 0\n"
                     "  .amdhsa_dx10_clamp 1\n  .amdhsa_ieee_mode 1\n"),
        chip);
    isa::Launch l;
    l.kernel = "k";
    l.block = {64, 1, 1};
    uint64_t p = ptr(out.data());
    l.kernarg.resize(8);
    memcpy(l.kernarg.data(), &p, 8);
    l.memory.push_back({p, p + 4 * out.size()});
    isa::run(*code, l);
    EXPECT_EQ(out[0], 0x3C0u);
    EXPECT_EQ(out[1], 0xCu);   // FP_DENORM alone
    EXPECT_EQ(out[2], 0x3F0u); // f32 denormals turned on
    EXPECT_EQ(out[3], 0x300u); // FP_DENORM cleared
    EXPECT_EQ(out[4], 0x3C0u); // the first value written back

    std::string f = scalarFault(chip, R"(
      s_setreg_b32 hwreg(HW_REG_HW_ID), s4
      s_endpgm)");
    EXPECT_TRUE(has(f, "writing hardware register 4 is not simulated")) << f;
    f = scalarFault(chip, R"(
      s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 1), 1
      s_endpgm)");
    EXPECT_TRUE(has(f, "MODE bits 0x1000")) << f;
  }
}

// The other hardware registers a compute kernel reads (CDNA3/CDNA4 guides,
// "Hardware ID Registers" and the s_getreg tables), as the simulator's
// launch defines them (docs/isa-simulator.md): HW_ID SIMD_ID [5:4] = wave
// % 4; LDS_ALLOC LDS_SIZE [20:12] in units of 64 dwords, the LDS rounded up
// to the allocation blocks (4096 bytes: 16 on gfx942 with 512-byte blocks,
// 5120 / 256 = 20 on gfx950 with 1280-byte ones); IB_STS LGKM_CNT [11:8]
// counts a one-dword scalar load 1 and a two-dword one 2; GPR_ALLOC
// ACCV_OFF [17:12] = .amdhsa_accum_offset 32 / 4; XCC_ID 0.
TEST(IsaScalar, HardwareRegisters) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(12, 0xDEADBEEF);
    launch(chip, std::string(kPrologue) + R"(
      v_readfirstlane_b32 s10, v0
      s_lshr_b32 s10, s10, 6
      s_mul_i32 s10, s10, 24
      s_add_u32 s2, s2, s10
      s_addc_u32 s3, s3, 0
      s_getreg_b32 s4, hwreg(HW_REG_HW_ID, 4, 2)
      s_getreg_b32 s5, hwreg(HW_REG_LDS_ALLOC, 12, 9)
      s_load_dword s12, s[0:1], 0x0
      s_getreg_b32 s6, hwreg(HW_REG_IB_STS, 8, 4)
      s_load_dwordx2 s[14:15], s[0:1], 0x0
      s_getreg_b32 s8, hwreg(HW_REG_IB_STS, 8, 4)
      s_waitcnt lgkmcnt(0)
      s_getreg_b32 s7, hwreg(HW_REG_XCC_ID)
      s_getreg_b32 s9, hwreg(HW_REG_GPR_ALLOC, 12, 6)
)" + storeAll({"s4", "s5", "s6", "s8", "s7", "s9"}),
           {ptr(out.data())}, {{out.data(), 4 * out.size()}}, 128);
    uint32_t lds = std::string(chip) == "gfx950" ? 20 : 16;
    for (unsigned wave = 0; wave < 2; ++wave) {
      const uint32_t *o = &out[6 * wave];
      EXPECT_EQ(o[0], wave) << "SIMD_ID of wave " << wave;
      EXPECT_EQ(o[1], lds);
      EXPECT_EQ(o[2], 1u); // one s_load_dword outstanding
      EXPECT_EQ(o[3], 3u); // and an s_load_dwordx2
      EXPECT_EQ(o[4], 0u);
      EXPECT_EQ(o[5], 8u);
    }
  }
}

// VGPR indexing in the form LLVM emits for a dynamic insert and extract
// (llc -mcpu=gfx942 on insertelement/extractelement of <16 x i32> with a
// variable index): s_set_gpr_idx_on S0, gpr_idx(DST) makes the next VALU
// write v[dst + S0]; gpr_idx(SRC0) makes it read v[src0 + S0]; the index
// is M0[7:0] and the mode M0[15:12]; s_set_gpr_idx_idx and
// s_set_gpr_idx_mode change one of them; s_set_gpr_idx_off ends it.
TEST(IsaScalar, GprIndexing) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(5 * 64, 0xDEADBEEF);
    launch(chip, std::string(kPrologue) + R"(
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v10, 100, v0
      v_add_u32_e32 v11, 200, v0
      v_add_u32_e32 v12, 300, v0
      v_add_u32_e32 v13, 400, v0
      v_mov_b32_e32 v20, 7
      s_mov_b32 s4, 2
      s_mov_b32 s5, 3
      s_set_gpr_idx_on s4, gpr_idx(DST)
      v_mov_b32_e32 v10, v20
      s_set_gpr_idx_off
      s_set_gpr_idx_on s5, gpr_idx(SRC0)
      v_mov_b32_e32 v21, v10
      s_set_gpr_idx_off
      s_mov_b32 s6, m0
      v_mov_b32_e32 v22, s6
      s_mov_b32 s7, 1
      s_set_gpr_idx_on s4, gpr_idx(SRC0)
      s_set_gpr_idx_idx s7
      s_set_gpr_idx_mode gpr_idx(DST)
      v_mov_b32_e32 v30, 9
      s_set_gpr_idx_off
      v_mov_b32_e32 v23, 5
      global_store_dword v1, v21, s[2:3]
      global_store_dword v1, v12, s[2:3] offset:256
      global_store_dword v1, v22, s[2:3] offset:512
      global_store_dword v1, v31, s[2:3] offset:768
      global_store_dword v1, v23, s[2:3] offset:1024
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    for (unsigned l = 0; l < 64; ++l) {
      EXPECT_EQ(out[l], 400 + l) << "lane " << l; // v[10 + 3] read
      EXPECT_EQ(out[64 + l], 7u) << "lane " << l; // v[10 + 2] written
      EXPECT_EQ(out[128 + l], 3u | 1u << 12) << "lane " << l; // M0
      // s_set_gpr_idx_idx / _mode changed the index to 1 and the mode to
      // DST: v[30 + 1] written; after s_set_gpr_idx_off, v23 itself.
      EXPECT_EQ(out[192 + l], 9u) << "lane " << l;
      EXPECT_EQ(out[256 + l], 5u) << "lane " << l;
    }
    std::string f = scalarFault(chip, R"(
      s_movk_i32 s4, 0xf0
      s_set_gpr_idx_on s4, gpr_idx(SRC0)
      v_mov_b32_e32 v1, v200
      s_endpgm)");
    EXPECT_TRUE(has(f, "past v255")) << f;
    f = scalarFault(chip, R"(
      s_mov_b32 s4, 1
      s_set_gpr_idx_on s4, gpr_idx(DST)
      ds_read_b32 v2, v1
      s_endpgm)");
    EXPECT_TRUE(has(f, "vector memory instruction under VGPR indexing")) << f;
  }
}

// s_movrels_b32/b64 D = SGPR[S0 + M0]; s_movreld_b32/b64 SGPR[D + M0] =
// S0; a register past s101 is a fault.
TEST(IsaScalar, Movrels) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip, std::string(R"(
      s_mov_b32 s10, 10
      s_mov_b32 s11, 11
      s_mov_b32 s12, 12
      s_mov_b32 s13, 13
      s_mov_b32 s14, 14
      s_mov_b32 m0, 3
      s_movrels_b32 s4, s10
      s_mov_b32 m0, 2
      s_movrels_b64 s[6:7], s[10:11]
      s_movreld_b32 s10, 99
      s_mov_b32 s5, 55
      s_movreld_b64 s[8:9], s[4:5]
)") + storeAll({"s4", "s6", "s7", "s12", "s10", "s11"}),
                         6);
    std::vector<uint32_t> expect = {13, 12, 13, 99, 13, 55};
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
    std::string f = scalarFault(chip, R"(
      s_mov_b32 m0, 100
      s_movrels_b32 s4, s10
      s_endpgm)");
    EXPECT_TRUE(has(f, "outside s0..s101")) << f;
  }
}

// s_buffer_load_dword*: a raw buffer resource (base, num_records = 12
// bytes) read at the SGPR offset plus the immediate; each dword at or past
// num_records reads 0. s_buffer_store_dword drops an out-of-range dword.
// s_load_dword with a negative immediate offset reads below SBASE.
TEST(IsaScalar, BufferLoadOutOfRangeAndNegativeOffset) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> data = {0x100, 0x101, 0x102, 0x103, 0x104, 0x105};
    std::vector<uint32_t> out(12, 0xDEADBEEF);
    uint64_t d = ptr(data.data());
    launch(chip, std::string(kPrologue) + R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x8
      s_waitcnt lgkmcnt(0)
      s_and_b32 s5, s5, 0xffff
      s_mov_b32 s6, 12
      s_mov_b32 s7, 0
      s_buffer_load_dwordx4 s[8:11], s[4:7], 0x4
      s_mov_b32 s20, 8
      s_buffer_load_dwordx2 s[12:13], s[4:7], s20
      s_buffer_load_dword s14, s[4:7], s20 offset:0x4
      s_add_u32 s16, s4, 16
      s_addc_u32 s17, s5, 0
      s_load_dword s15, s[16:17], -0xc
      s_buffer_store_dwordx2 s[20:21], s[4:7], 0x8
      s_waitcnt lgkmcnt(0)
)" + storeAll({"s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15"}),
           {ptr(out.data()), d},
           {{out.data(), 4 * out.size()}, {data.data(), 4 * data.size()}});
    std::vector<uint32_t> expect = {0x101, 0x102, 0, 0, 0x102, 0, 0, 0x101};
    for (size_t k = 0; k < expect.size(); ++k)
      EXPECT_EQ(out[k], expect[k]) << "dword " << k;
    EXPECT_EQ(data[2], 8u);     // in range: written
    EXPECT_EQ(data[3], 0x103u); // at num_records: dropped
  }
}

// The SGPR offset of s_load_dword in each of its encodings (CDNA3 guide,
// SMEM: IMM = 0 takes the SGPR from the OFFSET field, or with SOE = 1 from
// SOFFSET; IMM = 1 with SOE = 1 adds both): the assembler's s_load_dword
// s, s[4:5], s6 (_SGPR), the same with the SGPR in SOFFSET written as raw
// words (LLVM decodes it as _SGPR_alt), and s6 plus offset:0x4 (_SGPR_IMM).
TEST(IsaScalar, SgprOffsetForms) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> data = {0x200, 0x201, 0x202, 0x203};
    std::vector<uint32_t> out(3, 0xDEADBEEF);
    launch(chip, std::string(kPrologue) + R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x8
      s_mov_b32 s6, 4
      s_waitcnt lgkmcnt(0)
      s_load_dword s21, s[4:5], s6
      .long 0xc0004502, 0x0c000000
      s_load_dword s22, s[4:5], s6 offset:0x4
      s_waitcnt lgkmcnt(0)
)" + storeAll({"s21", "s20", "s22"}),
           {ptr(out.data()), ptr(data.data())},
           {{out.data(), 4 * out.size()}, {data.data(), 4 * data.size()}});
    EXPECT_EQ(out[0], 0x201u); // SBASE + 4
    EXPECT_EQ(out[1], 0x201u); // the same, SGPR in SOFFSET
    EXPECT_EQ(out[2], 0x202u); // SBASE + 4 + 4
  }
}

// s_swappc_b64 D = the address after it, PC = S0; s_setpc_b64 PC = S0;
// s_getpc_b64 D = the address after it; s_call_b64 D = the address after
// it, PC = PC + 4 + SIMM16 * 4. A call to a subroutine and its return.
TEST(IsaScalar, CallAndReturn) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    auto out = runScalar(chip, std::string(R"(
      s_mov_b32 s4, 0
      s_getpc_b64 s[6:7]
    after_getpc:
      s_add_u32 s6, s6, sub - after_getpc
      s_addc_u32 s7, s7, 0
      s_swappc_b64 s[30:31], s[6:7]
      s_add_u32 s4, s4, 100
      s_call_b64 s[30:31], sub
      s_add_u32 s4, s4, 1000
      s_branch done
    sub:
      s_add_u32 s4, s4, 1
      s_setpc_b64 s[30:31]
    done:
)") + storeAll({"s4"}),
                         1);
    // sub runs twice, each return lands after the call.
    EXPECT_EQ(out[0], 1102u);
  }
}

// Scalar stores and atomics (GFX9 scalar memory, which LLVM decodes for
// gfx942 and gfx950): s_store_dword writes at SBASE + offset;
// s_atomic_add with glc returns the value before the addition;
// s_atomic_cmpswap {src, cmp} stores src when memory equals cmp.
TEST(IsaScalar, StoresAndAtomics) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> data = {5, 0, 40, 0};
    std::vector<uint32_t> out(4, 0xDEADBEEF);
    launch(chip, std::string(kPrologue) + R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x8
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s6, 9
      s_store_dword s6, s[4:5], 0x4
      s_mov_b32 s7, 3
      s_atomic_add s7, s[4:5], 0x0 glc
      s_mov_b32 s8, 77
      s_mov_b32 s9, 40
      s_atomic_cmpswap s[8:9], s[4:5], 0x8 glc
      s_mov_b32 s10, 1
      s_mov_b32 s11, 41
      s_atomic_cmpswap s[10:11], s[4:5], 0xc
      s_waitcnt lgkmcnt(0)
)" + storeAll({"s7", "s8"}),
           {ptr(out.data()), ptr(data.data())},
           {{out.data(), 4 * out.size()}, {data.data(), 4 * data.size()}});
    EXPECT_EQ(out[0], 5u);   // the value before the add
    EXPECT_EQ(out[1], 40u);  // the value before the swap
    EXPECT_EQ(data[0], 8u);  // 5 + 3
    EXPECT_EQ(data[1], 9u);  // stored
    EXPECT_EQ(data[2], 77u); // 40 == cmp: swapped
    EXPECT_EQ(data[3], 0u);  // 0 != 41: kept
  }
}

// Program-flow instructions a kernel cannot complete are named faults:
// s_trap (the kernel trapped), s_sendmsg (no message is simulated), scalar
// scratch access, s_sethalt 1 (halt), s_setvskip turning VSKIP on (S0[S1]
// = 1), reading STATUS, the graphics-only s_setkill; s_sethalt 0 and
// s_setvskip clearing VSKIP run; with a scalar load outstanding, a nonzero
// lgkmcnt covers only what it surely covers (scalar memory returns out of
// order, counting 1 for one dword and 2 for more; LDS in order), so a read
// of a register it does not cover is the missing-wait fault; s_memtime returns
// through lgkmcnt, so reading it before the wait is the missing-wait fault; the
// cdbg branches are never taken.
TEST(IsaScalar, FaultsAndCounters) {
  for (const char *chip : kScalarChips) {
    SCOPED_TRACE(chip);
    std::string f = scalarFault(chip, "s_trap 2\ns_endpgm");
    EXPECT_TRUE(has(f, "the kernel trapped (s_trap 2)")) << f;
    f = scalarFault(chip, "s_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm");
    EXPECT_TRUE(has(f, "message MSG_INTERRUPT is not simulated")) << f;
    f = scalarFault(chip, "s_scratch_load_dword s4, s[0:1], 0x0\ns_endpgm");
    EXPECT_TRUE(has(f, "is not simulated")) << f;
    f = scalarFault(chip, "s_sethalt 1\ns_endpgm");
    EXPECT_TRUE(has(f, "the wave halted itself")) << f;
    EXPECT_EQ(scalarFault(chip, "s_sethalt 0\ns_endpgm"), "");
    f = scalarFault(chip, "s_setvskip 1, 0\ns_endpgm");
    EXPECT_TRUE(has(f, "vector skip mode is not simulated")) << f;
    EXPECT_EQ(scalarFault(chip, "s_setvskip 0, 0\ns_endpgm"), "");
    f = scalarFault(chip, "s_getreg_b32 s4, hwreg(HW_REG_STATUS)\ns_endpgm");
    EXPECT_TRUE(has(f, "reading hardware register 2 is not simulated")) << f;
    f = scalarFault(chip, "s_setkill 1\ns_endpgm");
    EXPECT_TRUE(has(f, "(graphics only) is not simulated")) << f;
    // An s_load, then a ds_read; lgkmcnt(1) may leave either outstanding.
    const char *loadThenRead = R"(
      v_mov_b32_e32 v1, 0
      s_load_dword s4, s[0:1], 0x0
      ds_read_b32 v2, v1
      s_waitcnt lgkmcnt(1)
      USE
      s_endpgm)";
    auto use = [&](const char *body, const char *what) {
      return scalarFault(chip,
                         std::regex_replace(body, std::regex("USE"), what));
    };
    f = use(loadThenRead, "s_mov_b32 s5, s4");
    EXPECT_TRUE(has(f, "s4 read while a load into it is outstanding")) << f;
    f = use(loadThenRead, "v_mov_b32_e32 v3, v2");
    EXPECT_TRUE(has(f, "v2 read while a load into it is outstanding")) << f;
    // Two ds_reads, then an s_load: lgkmcnt(1) covers the first ds_read
    // (LDS returns in order) and neither the second nor the s_load.
    const char *readsThenLoad = R"(
      v_mov_b32_e32 v1, 0
      ds_read_b32 v2, v1
      ds_read_b32 v3, v1
      s_load_dword s4, s[0:1], 0x0
      s_waitcnt lgkmcnt(1)
      USE
      s_endpgm)";
    EXPECT_EQ(use(readsThenLoad, "v_mov_b32_e32 v5, v2"), "");
    f = use(readsThenLoad, "v_mov_b32_e32 v5, v3");
    EXPECT_TRUE(has(f, "v3 read while a load into it is outstanding")) << f;
    // s_waitcnt vmcnt(0) leaves lgkmcnt at 15: it waits for no s_load.
    f = scalarFault(chip, R"(
      s_load_dword s4, s[0:1], 0x0
      s_waitcnt vmcnt(0)
      s_mov_b32 s5, s4
      s_endpgm)");
    EXPECT_TRUE(has(f, "s4 read while a load into it is outstanding")) << f;
    // A two-dword s_load counts 2: lgkmcnt(1) covers it.
    EXPECT_EQ(scalarFault(chip, R"(
      v_mov_b32_e32 v1, 0
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      s_waitcnt lgkmcnt(1)
      s_mov_b32 s6, s5
      s_endpgm)"),
              "");
    f = scalarFault(chip, "s_memtime s[4:5]\ns_mov_b32 s6, s4\ns_endpgm");
    EXPECT_TRUE(has(f, "s4 read while a load into it is outstanding")) << f;
    auto out = runScalar(chip, std::string(R"(
      s_mov_b32 s4, 1
      s_memtime s[6:7]
      s_nop 0
      s_memtime s[8:9]
      s_dcache_wb
      s_waitcnt lgkmcnt(0)
      s_sub_u32 s10, s8, s6
      s_cbranch_cdbgsys skip
      s_cbranch_cdbguser skip
      s_mov_b32 s4, 2
    skip:
)") + storeAll({"s4", "s10"}),
                         2);
    EXPECT_EQ(out[0], 2u); // neither branch taken
    EXPECT_GT(out[1], 0u); // the counter advanced
  }
}

} // namespace
