//===- IsaSimulatorTest.cpp - the ISA simulator against AMD's definitions -===//
//
// Small kernels written in assembly, assembled with llvm-mc and linked with
// ld.lld into code objects, run on the ISA simulator; expected values come
// from the ISA guides' definitions (buffer range checking, v_perm_b32,
// v_bitop3_b32, bf16 rounding) and from the matrix instruction calculator's
// register layouts (unittests/Inputs/mfma-layouts-cdna3), never from the
// simulator's own output.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include "hk/Base/Error.h"
#include "hk/Runtime/hkrt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace hk::rt;
using namespace hk::rt::isatest;

namespace {

// v_perm_b32 (CDNA3 ISA, VOP3): selector byte k picks byte k of D from the
// eight bytes {S0, S1} (S1 bytes 0-3, S0 bytes 4-7); 8-11 replicate the
// sign bits 15, 31, 47, 63; 12 gives 0x00; 13 and above 0xFF.
TEST(IsaSemantics, PermB32) {
  EXPECT_EQ(isa::permB32(0x11223344, 0x55667788, 0x05040100), 0x33447788u);
  EXPECT_EQ(isa::permB32(0x11223344, 0x55667788, 0x07060302), 0x11225566u);
  EXPECT_EQ(isa::permB32(0x11223344, 0x55667788, 0x0C0D0C0D), 0x00FF00FFu);
  // Sign bits: bit 15 of S1 (0x7788: 0), 31 (0x5566...: 0), 47 (bit 15 of
  // S0 = 0x3344: 0), 63 (0x1122: 0); then with them set.
  EXPECT_EQ(isa::permB32(0x11223344, 0x55667788, 0x08090A0B), 0x00000000u);
  EXPECT_EQ(isa::permB32(0x80008000, 0x80008000, 0x08090A0B), 0xFFFFFFFFu);
  // Only bit 47 (bit 15 of S0) set; selector byte 3 is 0x0A, which
  // replicates it.
  EXPECT_EQ(isa::permB32(0x00008000, 0x00000000, 0x0A0B0809), 0xFF000000u);
}

// bf16 conversion: round to nearest, ties to even, NaN stays a quiet NaN.
TEST(IsaSemantics, Bf16RoundToNearestEven) {
  auto bits = [](uint32_t w) {
    float f;
    memcpy(&f, &w, 4);
    return isa::f32ToBF16(f);
  };
  EXPECT_EQ(bits(0x3F800000), 0x3F80); // 1.0 exact
  EXPECT_EQ(bits(0x3F808000), 0x3F80); // tie, even stays
  EXPECT_EQ(bits(0x3F818000), 0x3F82); // tie, odd rounds up
  EXPECT_EQ(bits(0x3F808001), 0x3F81); // above the tie
  EXPECT_EQ(bits(0x3F807FFF), 0x3F80); // below the tie
  EXPECT_EQ(bits(0x7F7FFFFF), 0x7F80); // largest float rounds to infinity
  EXPECT_EQ(bits(0xFF800000), 0xFF80); // -inf
  EXPECT_EQ(bits(0x7F800001) & 0x7FC0, 0x7FC0); // NaN stays NaN, quiet
}

// v_bitop3_b32: the truth-table bytes of the sources themselves are 0xF0
// (S0), 0xCC (S1) and 0xAA (S2), as in the ISA's definition of the table
// index {S0, S1, S2}.
TEST(IsaSemantics, Bitop3) {
  uint32_t a = 0x0F0F1234, b = 0x00FF5678, c = 0x33339ABC;
  EXPECT_EQ(isa::bitop3(a, b, c, 0xF0), a);
  EXPECT_EQ(isa::bitop3(a, b, c, 0xCC), b);
  EXPECT_EQ(isa::bitop3(a, b, c, 0xAA), c);
  EXPECT_EQ(isa::bitop3(a, b, c, 0x80), a & b & c);
  EXPECT_EQ(isa::bitop3(a, b, c, 0xFE), a | b | c);
  EXPECT_EQ(isa::bitop3(a, b, c, 0x96), a ^ b ^ c);
  EXPECT_EQ(isa::bitop3(a, b, c, 0xE8), (a & b) | (a & c) | (b & c));
}

const char *kChips[] = {"gfx942", "gfx950"};

// Raw buffer range checking (CDNA3 ISA, "Range Checking"): the offset
// checked is InstOffset + the VGPR offset, without the SGPR offset
// (SOFFSET adds to the address only); dwordx4 accesses are checked per
// dword, and a dword (or 16-bit value) is in range only when all of its
// bytes are below num_records. Out of range: loads give 0, stores are
// dropped. num_records 4k + 0..3 and SOFFSET 0 and 8.
TEST(IsaSemantics, BufferOutOfRange) {
  const char *body = R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0   // src, out
      s_load_dwordx4 s[12:15], s[0:1], 0x10 // dst, out16
      s_load_dword s6, s[0:1], 0x20         // num_records
      s_load_dword s3, s[0:1], 0x28         // soffset
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_mov_b32 s5, s9
      s_mov_b32 s7, 0
      s_mov_b32 s16, s12
      s_mov_b32 s17, s13
      s_mov_b32 s18, s6
      s_mov_b32 s19, 0
      v_lshlrev_b32_e32 v1, 4, v0
      buffer_load_dwordx4 v[2:5], v1, s[4:7], s3 offen
      v_lshlrev_b32_e32 v10, 1, v0
      buffer_load_ushort v11, v10, s[4:7], s3 offen
      v_lshlrev_b32_e32 v12, 2, v0
      s_waitcnt vmcnt(0)
      global_store_dwordx4 v1, v[2:5], s[10:11]
      global_store_dword v12, v11, s[14:15]
      v_mov_b32_e32 v6, 7
      v_mov_b32_e32 v7, 8
      v_mov_b32_e32 v8, 9
      v_mov_b32_e32 v9, 10
      buffer_store_dwordx4 v[6:9], v1, s[16:19], s3 offen
      s_waitcnt vmcnt(0)
      s_endpgm)";
  for (const char *chip : kChips)
    for (uint32_t numRecords : {20u, 21u, 22u, 23u})
      for (uint32_t soffset : {0u, 8u}) {
        SCOPED_TRACE(std::string(chip) + " num_records " +
                     std::to_string(numRecords) + " soffset " +
                     std::to_string(soffset));
        std::vector<uint32_t> src(264), out(256, 0xDEADBEEF), dst(264, 0xCAFE),
            out16(64, 0xDEADBEEF);
        for (size_t i = 0; i < src.size(); ++i)
          src[i] = uint32_t(i + 1) * 0x01010101u;
        launch(chip, body,
               {ptr(src.data()), ptr(out.data()), ptr(dst.data()),
                ptr(out16.data()), numRecords, soffset},
               {{src.data(), 4 * src.size()},
                {out.data(), 1024},
                {dst.data(), 4 * dst.size()},
                {out16.data(), 256}});
        const auto *bytes = reinterpret_cast<const uint8_t *>(src.data());
        std::vector<uint32_t> stored(264, 0xCAFE);
        for (unsigned lane = 0; lane < 64; ++lane) {
          for (unsigned k = 0; k < 4; ++k) {
            uint32_t offset = 16 * lane + 4 * k; // the range-checked part
            bool inRange = offset + 4 <= numRecords;
            EXPECT_EQ(out[4 * lane + k],
                      inRange ? src[(soffset + offset) / 4] : 0u)
                << "lane " << lane << " dword " << k;
            if (inRange)
              stored[(soffset + offset) / 4] = 7 + k;
          }
          uint32_t offset = 2 * lane;
          uint32_t half = bytes[soffset + offset] |
                          uint32_t(bytes[soffset + offset + 1]) << 8;
          EXPECT_EQ(out16[lane], offset + 2 <= numRecords ? half : 0u)
              << "ushort lane " << lane;
        }
        EXPECT_EQ(dst, stored);
      }
}

// A load's result reaches its registers only when a wait requires it;
// reading them earlier is a fault that names the register and the counter.
TEST(IsaSemantics, MissingWaitIsAFault) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::string smem = faultOf(chip, R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      s_mov_b32 s6, s4
      s_endpgm)");
    EXPECT_NE(smem.find("s4 read while a load into it is outstanding, "
                        "lgkmcnt=1"),
              std::string::npos)
        << smem;
    const char *vmem = R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      global_load_dword v2, v1, s[4:5]
      global_load_dword v3, v1, s[4:5] offset:4
      s_waitcnt vmcnt(WAIT)
      v_add_u32_e32 v4, v2, v2
      s_endpgm)";
    std::string tooWeak =
        faultOf(chip, std::regex_replace(vmem, std::regex("WAIT"), "2"));
    EXPECT_NE(tooWeak.find("v2 read while a load into it is outstanding, "
                           "vmcnt=2"),
              std::string::npos)
        << tooWeak;
    EXPECT_NE(tooWeak.find("v_add_u32_e32 v4, v2, v2"), std::string::npos);
    // vmcnt(1): the older load (into v2) has completed.
    EXPECT_EQ(faultOf(chip, std::regex_replace(vmem, std::regex("WAIT"), "1")),
              "");
  }
}

// Scratch (CDNA3 ISA, "scratch instructions"; the form spills take,
// "scratch_store_dwordx2 off, v[4:5], off offset:28"): each lane has its
// own private memory, so lanes storing different values at the same private
// address read back their own; a reload before its vmcnt wait is a fault,
// and an access past the private segment is one too.
TEST(IsaSemantics, ScratchIsPerLane) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(128, 0);
    const char *body = R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_lshlrev_b32_e32 v2, 1, v0
      v_add_u32_e32 v2, v2, v0
      v_add_u32_e32 v3, 7, v0
      scratch_store_dwordx2 off, v[2:3], off offset:8
      v_mov_b32_e32 v2, 0
      v_mov_b32_e32 v3, 0
      scratch_load_dwordx2 v[4:5], off, off offset:8
      s_waitcnt vmcnt(0) lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 3, v0
      global_store_dwordx2 v1, v[4:5], s[4:5]
      s_endpgm)";
    launch(chip, body, {ptr(out.data())}, {{out.data(), 4 * out.size()}}, 64,
           16);
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[2 * l], 3 * l) << "lane " << l;
      EXPECT_EQ(out[2 * l + 1], l + 7) << "lane " << l;
    }
    // With a VGPR address (the form a private array indexed per lane
    // takes): lane l stores l + 100 at 4 (l % 4) and 2l at 4 (l % 4 + 1)
    // (so lanes do not agree on what is where), then reads 4 (l % 4) back.
    std::vector<uint32_t> back(64, 0);
    launch(chip, R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_and_b32_e32 v1, 3, v0
      v_lshlrev_b32_e32 v1, 2, v1
      v_add_u32_e32 v2, 100, v0
      v_lshlrev_b32_e32 v3, 1, v0
      scratch_store_dword v1, v2, off
      scratch_store_dword v1, v3, off offset:4
      scratch_load_dword v4, v1, off
      s_waitcnt vmcnt(0) lgkmcnt(0)
      v_lshlrev_b32_e32 v5, 2, v0
      global_store_dword v5, v4, s[4:5]
      s_endpgm)",
           {ptr(back.data())}, {{back.data(), 4 * back.size()}}, 64, 32);
    for (uint32_t l = 0; l < 64; ++l)
      EXPECT_EQ(back[l], l + 100) << "lane " << l;
    std::vector<uint32_t> buf(65, 3);
    auto fault = [&](const std::string &text, unsigned privateBytes) {
      try {
        launch(chip, text, {ptr(buf.data())}, {{buf.data(), 4 * buf.size()}},
               64, privateBytes);
      } catch (const Error &e) {
        return std::string(e.what());
      }
      return std::string();
    };
    std::string early = fault(R"(
      scratch_store_dword off, v0, off offset:4
      scratch_load_dword v1, off, off offset:4
      v_add_u32_e32 v2, v1, v1
      s_endpgm)",
                              8);
    // The store counts too: gfx9 counts vector memory stores in vmcnt.
    EXPECT_NE(early.find("v1 read while a load into it is outstanding, "
                         "vmcnt=2"),
              std::string::npos)
        << early;
    std::string past = fault(R"(
      scratch_store_dwordx2 off, v[0:1], off offset:12
      s_endpgm)",
                             16);
    EXPECT_NE(past.find("scratch access of 8 bytes at private address 12 of "
                        "lane 0, past the 16-byte private segment"),
              std::string::npos)
        << past;
  }
}

// ds_read_b64_tr_b16 (gfx950) as HipKittens uses it for col-layout tiles
// (shared_to_register.cuh): LDS holds a 16x16 bf16 block M[r][c] = 16r + c
// (plus 256 per further block); lane l = 16g + i reads row 4g + i / 4,
// columns 4 (i % 4) .. + 3, and must receive the MFMA B-operand layout of
// ../shared/amd/mfma-layouts (16x16x16): column i, rows 4g .. 4g + 3. The
// expected values come from that layout, not from the simulator's mapping.
TEST(IsaSemantics, TransposeReadGivesTheColLayout) {
  std::vector<uint32_t> out(128, 0);
  launch("gfx950", R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v2, 1, v1
      v_lshlrev_b32_e32 v3, 16, v2
      v_or_b32_e32 v4, v1, v3
      v_add_u32_e32 v5, 2, v1
      v_add_u32_e32 v6, 3, v1
      v_lshlrev_b32_e32 v6, 16, v6
      v_or_b32_e32 v5, v5, v6
      v_lshlrev_b32_e32 v7, 3, v0
      ds_write_b64 v7, v[4:5]
      s_waitcnt lgkmcnt(0)
      v_and_b32_e32 v8, 15, v0
      v_lshrrev_b32_e32 v9, 4, v0
      v_lshlrev_b32_e32 v9, 2, v9
      v_lshrrev_b32_e32 v10, 2, v8
      v_add_u32_e32 v9, v9, v10
      v_and_b32_e32 v11, 3, v8
      v_lshlrev_b32_e32 v11, 2, v11
      v_lshlrev_b32_e32 v9, 4, v9
      v_add_u32_e32 v9, v9, v11
      v_lshlrev_b32_e32 v9, 1, v9
      ds_read_b64_tr_b16 v[12:13], v9
      s_waitcnt lgkmcnt(0)
      global_store_dwordx2 v7, v[12:13], s[4:5]
      s_endpgm)",
         {ptr(out.data())}, {{out.data(), 4 * out.size()}});
  for (uint32_t l = 0; l < 64; ++l)
    for (uint32_t k = 0; k < 4; ++k) {
      uint32_t expected = 16 * (4 * (l / 16) + k) + l % 16;
      uint32_t got = out[2 * l + k / 2] >> (16 * (k % 2)) & 0xFFFF;
      EXPECT_EQ(got, expected) << "lane " << l << " element " << k;
    }
}

// ds_read2 (CDNA3 ISA, DS_READ2_B32, DS_READ2ST64_B64): two values per
// lane, value k from ADDR + OFFSETk * size (ds_read2_b32: 4 bytes;
// ds_read2st64_b64: 8 * 64 bytes). LDS dword d holds d + 1000 (each lane
// writes dwords 8l .. 8l + 7); lane l reads at 8l: ds_read2_b32 offset0:1
// offset1:5 gives dwords 2l + 1 and 2l + 5, ds_read2st64_b64 offset0:1
// offset1:2 gives dwords 2l + 128, 2l + 129 and 2l + 256, 2l + 257.
TEST(IsaSemantics, DsRead2) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(64 * 6, 0);
    launch(chip, R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_lshlrev_b32_e32 v1, 3, v0
      v_add_u32_e32 v2, 0x3e8, v1
      v_add_u32_e32 v3, 1, v2
      v_add_u32_e32 v4, 2, v2
      v_add_u32_e32 v5, 3, v2
      v_add_u32_e32 v6, 4, v2
      v_add_u32_e32 v7, 5, v2
      v_add_u32_e32 v8, 6, v2
      v_add_u32_e32 v9, 7, v2
      v_lshlrev_b32_e32 v10, 5, v0
      ds_write_b128 v10, v[2:5]
      ds_write_b128 v10, v[6:9] offset:16
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v11, 3, v0
      ds_read2_b32 v[12:13], v11 offset0:1 offset1:5
      ds_read2st64_b64 v[14:17], v11 offset0:1 offset1:2
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v18, 2, v0
      global_store_dword v18, v12, s[4:5]
      global_store_dword v18, v13, s[4:5] offset:256
      global_store_dword v18, v14, s[4:5] offset:512
      global_store_dword v18, v15, s[4:5] offset:768
      global_store_dword v18, v16, s[4:5] offset:1024
      global_store_dword v18, v17, s[4:5] offset:1280
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[l], 1000 + 2 * l + 1) << "lane " << l;
      EXPECT_EQ(out[64 + l], 1000 + 2 * l + 5) << "lane " << l;
      EXPECT_EQ(out[128 + l], 1000 + 2 * l + 128) << "lane " << l;
      EXPECT_EQ(out[192 + l], 1000 + 2 * l + 129) << "lane " << l;
      EXPECT_EQ(out[256 + l], 1000 + 2 * l + 256) << "lane " << l;
      EXPECT_EQ(out[320 + l], 1000 + 2 * l + 257) << "lane " << l;
    }
  }
}

// The VALU instructions HipKittens' GQA forward added (CDNA3/CDNA4 ISA):
// v_alignbit_b32 D = ({S0, S1} >> S2[4:0])[31:0]: ({0x12345678,
// 0x9abcdef0} >> 8) = 0x789abcde; v_xad_u32 D = (S0 ^ S1) + S2:
// (5 ^ 3) + 10 = 16; v_ldexp_f32 D = S0 * 2^S1: 1.5 * 2^3 = 12.0 and
// 1.5 * 2^-2 = 0.375; and src_shared_base read by s_mov_b64, whose low
// dword (what LDS pointers keep after truncation) is 0.
TEST(IsaSemantics, AlignbitXadLdexpSharedBase) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(64 * 5, 0);
    launch(chip, R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_mov_b32_e32 v1, 0x12345678
      v_mov_b32_e32 v2, 0x9abcdef0
      v_alignbit_b32 v3, v1, v2, 8
      v_mov_b32_e32 v4, 5
      v_xad_u32 v5, v4, 3, 10
      v_mov_b32_e32 v6, 1.5
      v_mov_b32_e32 v7, 3
      v_ldexp_f32 v8, v6, v7
      v_mov_b32_e32 v7, -2
      v_ldexp_f32 v9, v6, v7
      s_mov_b64 s[6:7], src_shared_base
      v_mov_b32_e32 v10, s6
      v_lshlrev_b32_e32 v11, 2, v0
      s_waitcnt lgkmcnt(0)
      global_store_dword v11, v3, s[4:5]
      global_store_dword v11, v5, s[4:5] offset:256
      global_store_dword v11, v8, s[4:5] offset:512
      global_store_dword v11, v9, s[4:5] offset:768
      global_store_dword v11, v10, s[4:5] offset:1024
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    float twelve = 12.0f, threeEighths = 0.375f;
    uint32_t twelveBits, threeEighthsBits;
    memcpy(&twelveBits, &twelve, 4);
    memcpy(&threeEighthsBits, &threeEighths, 4);
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[l], 0x789abcdeu) << "lane " << l;
      EXPECT_EQ(out[64 + l], 16u) << "lane " << l;
      EXPECT_EQ(out[128 + l], twelveBits) << "lane " << l;
      EXPECT_EQ(out[192 + l], threeEighthsBits) << "lane " << l;
      EXPECT_EQ(out[256 + l], 0u) << "lane " << l;
    }
  }
}

// SDWA (CDNA3 ISA, "SDWA"): v_or_b32_sdwa ORs the sources' selected parts
// (BYTE_0 of 0x11223344 is 0x44; the DWORD 0x500) and writes the result to
// the part dst_sel names: WORD_1 gives 0x05440000 with UNUSED_PAD and keeps
// the old low word 0xbbbb with UNUSED_PRESERVE. v_cndmask_b32_sdwa is
// D = VCC[lane] ? S1 : S0: WORD_1 of 0x55667788 (0x5566) in odd lanes,
// 0x11223344 in even ones. v_bitop3_b16 (gfx950) writes
// bits 15:0 from the truth table (bit k of the table for the input bits
// 4 a + 2 b + c), computed here bit by bit.
TEST(IsaSemantics, SdwaAndBitop3B16) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(64 * 4, 0);
    bool gfx950 = std::string(chip) == "gfx950";
    launch(chip,
           std::string(R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_mov_b32_e32 v1, 0x11223344
      v_mov_b32_e32 v2, 0x500
      v_or_b32_sdwa v3, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
      v_mov_b32_e32 v4, 0xaaaabbbb
      v_or_b32_sdwa v4, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:DWORD
      v_mov_b32_e32 v5, 0xdead0000
      v_mov_b32_e32 v6, 0x1234f0f0
      v_mov_b32_e32 v7, 0xff00cccc
      v_mov_b32_e32 v8, 0x0f0faaaa
      v_and_b32_e32 v9, 1, v0
      v_cmp_eq_u32_e32 vcc, 1, v9
      v_mov_b32_e32 v12, 0x55667788
      v_cndmask_b32_sdwa v10, v1, v12, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
)") + (gfx950 ? "      v_bitop3_b16 v5, v6, v7, v8 bitop3:0xec\n" : "") +
               R"(
      v_lshlrev_b32_e32 v11, 2, v0
      s_waitcnt lgkmcnt(0)
      global_store_dword v11, v3, s[4:5]
      global_store_dword v11, v4, s[4:5] offset:256
      global_store_dword v11, v5, s[4:5] offset:512
      global_store_dword v11, v10, s[4:5] offset:768
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    uint32_t low = 0;
    for (unsigned bit = 0; bit < 16; ++bit) {
      unsigned index = 4 * (0xf0f0u >> bit & 1) + 2 * (0xccccu >> bit & 1) +
                       (0xaaaau >> bit & 1);
      low |= (0xecu >> index & 1) << bit;
    }
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[l], 0x05440000u) << "lane " << l;
      EXPECT_EQ(out[64 + l], 0x0544bbbbu) << "lane " << l;
      if (gfx950)
        EXPECT_EQ(out[128 + l] & 0xffffu, low) << "lane " << l;
      EXPECT_EQ(out[192 + l], l % 2 ? 0x5566u : 0x11223344u) << "lane " << l;
    }
  }
}

// A store reads its data registers when it is issued: on every chip since
// Sea Islands, and so on gfx942 and gfx950, overwriting them right after the
// store needs no wait (LLVM's SIInsertWaitcnts tracks store data with
// expcnt only where GCNSubtarget::vmemWriteNeedsExpWaitcnt(), i.e. before
// Sea Islands). The stored value is the one the registers held at issue.
TEST(IsaSemantics, StoreDataIsReadAtIssue) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(64, 0);
    launch(chip, R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v2, 1000, v0
      s_waitcnt lgkmcnt(0)
      global_store_dword v1, v2, s[4:5]
      v_mov_b32_e32 v2, 7
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    for (uint32_t l = 0; l < 64; ++l)
      EXPECT_EQ(out[l], 1000 + l) << "lane " << l;
  }
}

// v_mbcnt_lo/hi_u32_b32 (CDNA3 ISA): D = popcount(S0 & the mask of the
// lanes below this one, bits 31:0 or 63:32) + S1, so mbcnt_hi(-1,
// mbcnt_lo(-1, 0)) is the lane's index; s_lshl2_add_u32 D = (S0 << 2) + S1:
// (3 << 2) + 5 = 17; v_mad_u32_u24 D = S0[23:0] * S1[23:0] + S2:
// 0x1000003 -> 3, 3 * 5 + 7 = 22; v_mul_u32_u24 D = S0[23:0] * S1[23:0]:
// 24 * 3 = 72.
TEST(IsaSemantics, MbcntAndLshl2Add) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(256, 0);
    launch(chip, R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      v_mbcnt_lo_u32_b32 v1, -1, 0
      v_mbcnt_hi_u32_b32 v1, -1, v1
      s_mov_b32 s2, 3
      s_lshl2_add_u32 s3, s2, 5
      v_mov_b32_e32 v2, s3
      v_mov_b32_e32 v3, 0x1000003
      v_mov_b32_e32 v4, 5
      v_mad_u32_u24 v5, v3, v4, 7
      v_mul_u32_u24_e32 v6, 24, v3
      v_lshlrev_b32_e32 v11, 2, v0
      s_waitcnt lgkmcnt(0)
      global_store_dword v11, v1, s[4:5]
      global_store_dword v11, v2, s[4:5] offset:256
      global_store_dword v11, v5, s[4:5] offset:512
      global_store_dword v11, v6, s[4:5] offset:768
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[l], l) << "lane " << l;
      EXPECT_EQ(out[64 + l], 17u) << "lane " << l;
      EXPECT_EQ(out[128 + l], 22u) << "lane " << l;
      EXPECT_EQ(out[192 + l], 72u) << "lane " << l; // 3 * 24: bits 23:0 only
    }
  }
}

// LDS DMA (buffer_load_dword ... lds): lane l's dword lands in LDS at
// M0 + l * 4 (CDNA3 ISA, "global/buffer load to LDS"), and only when the
// wave waits for it with vmcnt; a ds_read of it before is a fault.
TEST(IsaSemantics, LdsDmaLandsAtItsWait) {
  const char *body = R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0   // src, out
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_mov_b32 s5, s9
      s_mov_b32 s6, 256
      s_mov_b32 s7, 0
      s_mov_b32 m0, 16
      v_lshlrev_b32_e32 v1, 2, v0
      buffer_load_dword v1, s[4:7], 0 offen lds
      WAIT
      v_add_u32_e32 v3, 16, v1
      ds_read_b32 v2, v3
      s_waitcnt lgkmcnt(0)
      global_store_dword v1, v2, s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> src(64), out(64, 0);
    for (size_t i = 0; i < src.size(); ++i)
      src[i] = uint32_t(1000 + i);
    launch(chip,
           std::regex_replace(body, std::regex("WAIT"), "s_waitcnt vmcnt(0)"),
           {ptr(src.data()), ptr(out.data())},
           {{src.data(), 256}, {out.data(), 256}});
    for (unsigned l = 0; l < 64; ++l)
      EXPECT_EQ(out[l], src[l]) << "lane " << l;
    try {
      launch(chip, std::regex_replace(body, std::regex("WAIT"), ""),
             {ptr(src.data()), ptr(out.data())},
             {{src.data(), 256}, {out.data(), 256}});
      ADD_FAILURE() << "no fault without the wait";
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find(
                    "LDS bytes 16 to 19 (lane 0) read while an LDS DMA into "
                    "them is outstanding"),
                std::string::npos)
          << e.what();
    }
  }
}

// Flat memory (CDNA3 ISA, "flat memory instructions"): an address whose
// bits 63:32 are those of src_shared_base addresses LDS at its low 32 bits,
// any other global memory; a flat access counts in both vmcnt and lgkmcnt,
// so a loaded register is ready only when both waits cover it. Also
// s_bitcmp0_b32 (SCC = bit S1[4:0] of S0 is 0) and ds_write_b16_d16_hi
// (stores bits 31:16 of its data), from the same guide.
TEST(IsaSemantics, FlatBitcmp0AndDsWriteD16Hi) {
  const char *body = R"(
      s_load_dwordx4 s[4:7], s[0:1], 0x0    // in, out
      s_mov_b64 s[8:9], src_shared_base
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v2, 100, v0
      ds_write_b32 v1, v2
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v20, v1
      v_mov_b32_e32 v21, s9
      flat_load_dword v5, v[20:21]
      v_mov_b32_e32 v6, s5
      v_add_co_u32_e32 v22, vcc, s4, v1
      v_addc_co_u32_e32 v23, vcc, 0, v6, vcc
      flat_load_dword v9, v[22:23]
      WAIT
      v_add_u32_e32 v26, v5, v9
      v_mov_b32_e32 v10, 0xabcd1234
      ds_write_b16_d16_hi v1, v10
      s_waitcnt lgkmcnt(0)
      ds_read_b32 v11, v1
      s_mov_b32 s10, 4
      s_bitcmp0_b32 s10, 2
      s_cselect_b32 s11, 1, 2
      s_bitcmp0_b32 s10, 1
      s_cselect_b32 s12, 1, 2
      v_mov_b32_e32 v12, s11
      v_mov_b32_e32 v13, s12
      s_waitcnt lgkmcnt(0)
      v_add_co_u32_e32 v24, vcc, s6, v1
      v_mov_b32_e32 v25, s7
      v_addc_co_u32_e32 v25, vcc, 0, v25, vcc
      flat_store_dword v[24:25], v5
      global_store_dword v1, v9, s[6:7] offset:256
      global_store_dword v1, v11, s[6:7] offset:512
      global_store_dword v1, v12, s[6:7] offset:768
      global_store_dword v1, v13, s[6:7] offset:1024
      s_waitcnt vmcnt(0) lgkmcnt(0)
      s_endpgm)";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> in(64), out(320, 0);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = uint32_t(7000 + 3 * i);
    auto run = [&](const char *wait) {
      launch(chip, std::regex_replace(body, std::regex("WAIT"), wait),
             {ptr(in.data()), ptr(out.data())},
             {{in.data(), 4 * in.size()}, {out.data(), 4 * out.size()}});
    };
    run("s_waitcnt vmcnt(0) lgkmcnt(0)");
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[l], 100 + l) << "lane " << l;           // LDS aperture
      EXPECT_EQ(out[64 + l], 7000 + 3 * l) << "lane " << l; // global
      EXPECT_EQ(out[128 + l], 0xabcdu) << "lane " << l;     // d16_hi
      EXPECT_EQ(out[192 + l], 2u) << "lane " << l;          // bit 2 set
      EXPECT_EQ(out[256 + l], 1u) << "lane " << l;          // bit 1 clear
    }
    // Either wait alone leaves both loads held by the other counter.
    for (auto [one, left] : {std::pair{"s_waitcnt vmcnt(0)", "lgkmcnt=2"},
                             std::pair{"s_waitcnt lgkmcnt(0)", "vmcnt=2"}}) {
      try {
        run(one);
        ADD_FAILURE() << "no fault with only " << one;
      } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find(
                      std::string("v5 read while a load into it is "
                                  "outstanding, ") +
                      left),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

// From the CDNA3 ISA guide: s_not_b32 D = ~S0, SCC = (D != 0);
// global_atomic_add_f32 (no return) adds the lane's f32 to memory;
// scratch_store_short(_d16_hi) stores bits 15:0 (31:16) and
// scratch_load_ushort/sshort zero-/sign-extend; a VOPC compare in SDWA form
// compares the selected fields (WORD_1 of 0x0005ffff is 5).
TEST(IsaSemantics, NotAtomicAddShortScratchAndSdwaCompare) {
  const char *body = R"(
      s_load_dwordx4 s[4:7], s[0:1], 0x0    // sum, out
      s_mov_b32 s8, 0x0f0f0000
      s_not_b32 s9, s8
      s_cselect_b32 s10, 1, 2
      s_mov_b32 s11, -1
      s_not_b32 s12, s11
      s_cselect_b32 s13, 1, 2
      v_cvt_f32_u32_e32 v1, v0
      v_mov_b32_e32 v2, 0
      s_waitcnt lgkmcnt(0)
      global_atomic_add_f32 v2, v1, s[4:5]
      v_mov_b32_e32 v3, 0x8001abcd
      scratch_store_short off, v3, off offset:4
      scratch_store_short_d16_hi off, v3, off offset:6
      scratch_load_ushort v4, off, off offset:4
      scratch_load_sshort v5, off, off offset:6
      v_mov_b32_e32 v6, 0x0005ffff
      v_mov_b32_e32 v7, 5
      v_cmp_eq_u32_sdwa vcc, v6, v7 src0_sel:WORD_1 src1_sel:DWORD
      v_cndmask_b32_e64 v8, 0, 1, vcc
      v_cmp_eq_u32_sdwa vcc, v6, v7 src0_sel:WORD_0 src1_sel:DWORD
      v_cndmask_b32_e64 v9, 0, 1, vcc
      v_mov_b32_e32 v10, s9
      v_mov_b32_e32 v11, s10
      v_mov_b32_e32 v12, s13
      s_waitcnt vmcnt(0)
      v_lshlrev_b32_e32 v13, 2, v0
      global_store_dword v13, v4, s[6:7]
      global_store_dword v13, v5, s[6:7] offset:256
      global_store_dword v13, v8, s[6:7] offset:512
      global_store_dword v13, v9, s[6:7] offset:768
      global_store_dword v13, v10, s[6:7] offset:1024
      global_store_dword v13, v11, s[6:7] offset:1280
      global_store_dword v13, v12, s[6:7] offset:1536
      s_waitcnt vmcnt(0)
      s_endpgm)";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    float sum = 0.5f;
    std::vector<uint32_t> out(448, 0);
    launch(chip, body, {ptr(&sum), ptr(out.data())},
           {{&sum, 4}, {out.data(), 4 * out.size()}}, 64, 16);
    EXPECT_EQ(sum, 0.5f + 2016.0f); // 0 + 1 + ... + 63, exact in f32
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[l], 0xabcdu) << "lane " << l;
      EXPECT_EQ(out[64 + l], 0xffff8001u) << "lane " << l;
      EXPECT_EQ(out[128 + l], 1u) << "lane " << l;
      EXPECT_EQ(out[192 + l], 0u) << "lane " << l;
      EXPECT_EQ(out[256 + l], 0xf0f0ffffu) << "lane " << l;
      EXPECT_EQ(out[320 + l], 1u) << "lane " << l; // ~S0 != 0: SCC = 1
      EXPECT_EQ(out[384 + l], 2u) << "lane " << l; // ~(-1) == 0: SCC = 0
    }
  }
}

// Scalar ops that HipKittens' GEMM uses, as AMD's CDNA3/CDNA4 ISA guides
// define them: s_min/s_max D = the smaller/larger of S0, S1 (signed for _i32)
// with SCC = 1 when S0 is chosen; s_abs_i32 D = |S0| (0x80000000 stays
// 0x80000000) with SCC = (D != 0). The values below are worked out by hand
// from those definitions.
TEST(IsaSemantics, ScalarMinMaxAbs) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(32, 0xDEADBEEF);
    launch(chip, R"(
      s_load_dwordx2 s[2:3], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      s_mov_b32 s4, -5
      s_mov_b32 s5, 3
      s_min_i32 s6, s4, s5
      s_cselect_b32 s7, 1, 0
      s_min_u32 s8, s4, s5
      s_cselect_b32 s9, 1, 0
      s_max_i32 s10, s4, s5
      s_cselect_b32 s11, 1, 0
      s_max_u32 s12, s4, s5
      s_cselect_b32 s13, 1, 0
      s_mov_b32 s14, -7
      s_abs_i32 s15, s14
      s_cselect_b32 s16, 1, 0
      s_brev_b32 s14, 1
      s_abs_i32 s17, s14
      s_abs_i32 s18, 0
      s_cselect_b32 s19, 1, 0
      v_mov_b32_e32 v2, s6
      global_store_dword v1, v2, s[2:3] offset:0
      v_mov_b32_e32 v2, s7
      global_store_dword v1, v2, s[2:3] offset:4
      v_mov_b32_e32 v2, s8
      global_store_dword v1, v2, s[2:3] offset:8
      v_mov_b32_e32 v2, s9
      global_store_dword v1, v2, s[2:3] offset:12
      v_mov_b32_e32 v2, s10
      global_store_dword v1, v2, s[2:3] offset:16
      v_mov_b32_e32 v2, s11
      global_store_dword v1, v2, s[2:3] offset:20
      v_mov_b32_e32 v2, s12
      global_store_dword v1, v2, s[2:3] offset:24
      v_mov_b32_e32 v2, s13
      global_store_dword v1, v2, s[2:3] offset:28
      v_mov_b32_e32 v2, s15
      global_store_dword v1, v2, s[2:3] offset:32
      v_mov_b32_e32 v2, s16
      global_store_dword v1, v2, s[2:3] offset:36
      v_mov_b32_e32 v2, s17
      global_store_dword v1, v2, s[2:3] offset:40
      v_mov_b32_e32 v2, s18
      global_store_dword v1, v2, s[2:3] offset:44
      v_mov_b32_e32 v2, s19
      global_store_dword v1, v2, s[2:3] offset:48
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    EXPECT_EQ(out[0], 0xFFFFFFFBu); // s_min_i32(-5, 3) = -5
    EXPECT_EQ(out[1], 1u);          // S0 chosen
    EXPECT_EQ(out[2], 3u);          // s_min_u32(0xFFFFFFFB, 3) = 3
    EXPECT_EQ(out[3], 0u);
    EXPECT_EQ(out[4], 3u); // s_max_i32(-5, 3) = 3
    EXPECT_EQ(out[5], 0u);
    EXPECT_EQ(out[6], 0xFFFFFFFBu); // s_max_u32
    EXPECT_EQ(out[7], 1u);
    EXPECT_EQ(out[8], 7u); // s_abs_i32(-7)
    EXPECT_EQ(out[9], 1u);
    EXPECT_EQ(out[10], 0x80000000u); // s_abs_i32(INT_MIN)
    EXPECT_EQ(out[11], 0u);          // s_abs_i32(0)
    EXPECT_EQ(out[12], 0u);          // SCC = (D != 0)
    EXPECT_EQ(out[13], 0xDEADBEEFu); // nothing past the stores
  }
}

// s_bfe_i64 D = the field of S0 at offset S1[5:0], width S1[22:16],
// sign-extended, SCC = (D != 0).
TEST(IsaSemantics, ScalarBfeI64) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(32, 0xDEADBEEF);
    launch(chip, R"(
      s_load_dwordx2 s[2:3], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      s_mov_b32 s20, 0xF000
      s_mov_b32 s21, 0
      s_bfe_i64 s[22:23], s[20:21], 0x4000c
      s_bfe_i64 s[24:25], s[20:21], 0x5000c
      s_cselect_b32 s26, 1, 0
      s_bfe_i64 s[28:29], s[20:21], 0xc
      s_cselect_b32 s27, 1, 0
      v_mov_b32_e32 v2, s22
      global_store_dword v1, v2, s[2:3] offset:0
      v_mov_b32_e32 v2, s23
      global_store_dword v1, v2, s[2:3] offset:4
      v_mov_b32_e32 v2, s24
      global_store_dword v1, v2, s[2:3] offset:8
      v_mov_b32_e32 v2, s25
      global_store_dword v1, v2, s[2:3] offset:12
      v_mov_b32_e32 v2, s26
      global_store_dword v1, v2, s[2:3] offset:16
      v_mov_b32_e32 v2, s28
      global_store_dword v1, v2, s[2:3] offset:20
      v_mov_b32_e32 v2, s27
      global_store_dword v1, v2, s[2:3] offset:24
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    // 0xF000 bits 15:12 = 0b1111: as a 4-bit signed field -1.
    EXPECT_EQ(out[0], 0xFFFFFFFFu);
    EXPECT_EQ(out[1], 0xFFFFFFFFu);
    // 5 bits from 12: 0b01111 = 15, positive.
    EXPECT_EQ(out[2], 15u);
    EXPECT_EQ(out[3], 0u);
    EXPECT_EQ(out[4], 1u);
    EXPECT_EQ(out[5], 0u); // width 0 gives 0
    EXPECT_EQ(out[6], 0u); // and SCC 0
  }
}

// global_store_short_d16_hi stores bits 31:16 of its data.
TEST(IsaSemantics, GlobalStoreShortD16Hi) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(32, 0xDEADBEEF);
    launch(chip, R"(
      s_load_dwordx2 s[2:3], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 0xabcd1234
      global_store_short_d16_hi v1, v2, s[2:3] offset:80
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    EXPECT_EQ(out[20], 0xDEADABCDu); // the high half, in the low 2 bytes
    EXPECT_EQ(out[19], 0xDEADBEEFu);
  }
}

// L1 cache swizzling (buffer resource word1 bit 30, with a stride in bits
// 29:16 and bit 31, as HipKittens' make_srsrc sets them) changes no address:
// the loads read what a raw buffer gives. A stride without it is a fault.
TEST(IsaSemantics, CacheSwizzledBufferIsRaw) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> src(256), out(256, 0);
    for (size_t i = 0; i < src.size(); ++i)
      src[i] = uint32_t(3 * i + 1);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_or_b32 s5, s5, 0xc2000000
      s_mov_b32 s6, 1024
      s_mov_b32 s7, 0x110000
      v_lshlrev_b32_e32 v1, 4, v0
      buffer_load_dwordx4 v[2:5], v1, s[4:7], 0 offen
      s_waitcnt vmcnt(0)
      global_store_dwordx4 v1, v[2:5], s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(src.data()), ptr(out.data())},
           {{src.data(), 1024}, {out.data(), 1024}});
    EXPECT_EQ(out, src);
  }
  std::string f = faultOf("gfx950", R"(
      s_load_dwordx2 s[8:9], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_or_b32 s5, s5, 0x2000000
      s_mov_b32 s6, 256
      s_mov_b32 s7, 0x110000
      buffer_load_dword v2, v0, s[4:7], 0 offen
      s_endpgm)");
  EXPECT_NE(f.find("buffer resource with a stride or swizzling"),
            std::string::npos)
      << f;
}

// A typed buffer load (MTBUF: the data converted by a format in the
// instruction) is one of the families the simulator leaves out
// (docs/isa-simulator.md, "Coverage"): reaching it is a named fault.
TEST(IsaSemantics, UnknownInstructionIsAFault) {
  std::string f = faultOf("gfx942", R"(
      tbuffer_load_format_x v1, off, s[4:7], 0
      s_endpgm)");
  EXPECT_NE(f.find("pc 0x"), std::string::npos) << f;
  EXPECT_NE(f.find("instruction TBUFFER_LOAD_FORMAT_X_OFFSET_gfx90a is not "
                   "simulated"),
            std::string::npos)
      << f;
}

// The C API opens the device for a known chip only, and a library artifact's
// code object loads on it.
TEST(IsaDevice, OpensThroughTheCApi) {
  hkrt_device dev = nullptr;
  EXPECT_EQ(hkrt_device_open_isa("gfx900", &dev), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(hkrt_last_error()).find("not 'gfx900'"),
            std::string::npos)
      << hkrt_last_error();
  EXPECT_EQ(hkrt_device_open_isa("gfx942", nullptr),
            HKRT_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hkrt_device_open_isa("gfx942", &dev), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_device_get_kind(dev), HKRT_DEVICE_ISA);
  EXPECT_STREQ(hkrt_device_chip(dev), "gfx942");
  // A code object with garbage bytes is an invalid artifact, not a crash.
  try {
    isa::loadCodeObject("not an ELF file", "gfx942");
    ADD_FAILURE() << "garbage loaded";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_INVALID_ARTIFACT) << e.what();
  }
  EXPECT_EQ(hkrt_device_close(dev), HKRT_SUCCESS);
}

/// layout[lane][slot] = (row, col), from the calculator's CSV.
std::vector<std::vector<std::pair<int, int>>> readLayout(const std::string &n) {
  std::ifstream in(std::string(HK_MFMA_LAYOUTS_DIR) + "/" + n);
  EXPECT_TRUE(in) << n;
  std::vector<std::vector<std::pair<int, int>>> layout(64);
  std::regex cell(R"([ABCD]\[(\d+)\]\[(\d+)\])");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || !isdigit(static_cast<unsigned char>(line[0])))
      continue;
    int lane = std::stoi(line);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), cell);
         it != std::sregex_iterator(); ++it)
      layout[lane].push_back({std::stoi((*it)[1]), std::stoi((*it)[2])});
  }
  return layout;
}

/// Runs one 16x16 MFMA `mnemonic` on `chip` with 8 bytes of A and of B and
/// four C registers per lane (lane-major arrays), writing D to `d`.
void runMfma16(const std::string &chip, const std::string &mnemonic,
               const void *a, const void *b, const void *c, void *d) {
  launch(chip,
         R"(
      s_load_dwordx8 s[4:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 3, v0
      v_lshlrev_b32_e32 v2, 4, v0
      global_load_dwordx2 v[4:5], v1, s[4:5]
      global_load_dwordx2 v[6:7], v1, s[6:7]
      global_load_dwordx4 v[8:11], v2, s[8:9]
      s_waitcnt vmcnt(0)
      )" + mnemonic +
             R"( v[12:15], v[4:5], v[6:7], v[8:11]
      s_nop 7
      s_nop 7
      global_store_dwordx4 v2, v[12:15], s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)",
         {ptr(a), ptr(b), ptr(c), ptr(d)},
         {{const_cast<void *>(a), 512},
          {const_cast<void *>(b), 512},
          {const_cast<void *>(c), 1024},
          {d, 1024}});
}

// v_mfma_f32_16x16x16_bf16 on gfx942: registers filled through the
// calculator's A, B and C layouts, D read through its D layout and compared
// with a float64 product (exact products of bf16, one f32 rounding).
TEST(IsaSemantics, MfmaMatchesCalculatorLayouts) {
  auto A = readLayout("v_mfma_f32_16x16x16_bf16.A.csv");
  auto B = readLayout("v_mfma_f32_16x16x16_bf16.B.csv");
  auto C = readLayout("v_mfma_f32_16x16x16_bf16.C.csv");
  auto D = readLayout("v_mfma_f32_16x16x16_bf16.D.csv");
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> small(-64, 64);
  double a[16][16], b[16][16], c[16][16];
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      a[i][j] = small(gen) / 32.0; // exact in bf16
      b[i][j] = small(gen) / 32.0;
      c[i][j] = small(gen) / 8.0;
    }
  auto bf16 = [](double v) {
    float f = float(v);
    uint32_t w;
    memcpy(&w, &f, 4);
    return uint16_t(w >> 16);
  };
  std::vector<uint16_t> ra(64 * 4), rb(64 * 4);
  std::vector<float> rc(64 * 4), rd(64 * 4, -1.0f);
  for (int l = 0; l < 64; ++l)
    for (int s = 0; s < 4; ++s) {
      ra[l * 4 + s] = bf16(a[A[l][s].first][A[l][s].second]);
      rb[l * 4 + s] = bf16(b[B[l][s].first][B[l][s].second]);
      rc[l * 4 + s] = float(c[C[l][s].first][C[l][s].second]);
    }
  runMfma16("gfx942", "v_mfma_f32_16x16x16_bf16", ra.data(), rb.data(),
            rc.data(), rd.data());
  for (int l = 0; l < 64; ++l)
    for (int s = 0; s < 4; ++s) {
      auto [row, col] = D[l][s];
      double ref = c[row][col];
      for (int k = 0; k < 16; ++k)
        ref += a[row][k] * b[k][col];
      EXPECT_EQ(rd[l * 4 + s], float(ref)) << "lane " << l << " reg " << s;
    }
}

// v_mfma_i32_16x16x32_i8 on both chips: i8 operands placed through the
// calculator's A and B layouts (8 per lane, byte k of the lane's two
// registers), i32 C through its C layout; D, read through its D layout, is
// the exact integer product plus C, wrapping to 32 bits (C near INT32_MAX).
TEST(IsaSemantics, MfmaI8MatchesCalculatorLayouts) {
  auto A = readLayout("v_mfma_i32_16x16x32_i8.A.csv");
  auto B = readLayout("v_mfma_i32_16x16x32_i8.B.csv");
  auto C = readLayout("v_mfma_i32_16x16x32_i8.C.csv");
  auto D = readLayout("v_mfma_i32_16x16x32_i8.D.csv");
  ASSERT_EQ(A[0].size(), 8u);
  std::mt19937 gen(11);
  std::uniform_int_distribution<int> byte(-128, 127);
  int a[16][32], b[32][16];
  int64_t c[16][16];
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 32; ++k) {
      a[i][k] = byte(gen);
      b[k][i] = byte(gen);
    }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      c[i][j] = (i + j) % 3 == 0 ? INT32_MAX - 1000 : byte(gen) * 1000;
  for (const char *chip : kChips) {
    std::vector<int8_t> ra(64 * 8), rb(64 * 8);
    std::vector<int32_t> rc(64 * 4), rd(64 * 4, -1);
    for (int l = 0; l < 64; ++l) {
      for (int s = 0; s < 8; ++s) {
        ra[l * 8 + s] = int8_t(a[A[l][s].first][A[l][s].second]);
        rb[l * 8 + s] = int8_t(b[B[l][s].first][B[l][s].second]);
      }
      for (int s = 0; s < 4; ++s)
        rc[l * 4 + s] = int32_t(c[C[l][s].first][C[l][s].second]);
    }
    runMfma16(chip, "v_mfma_i32_16x16x32_i8", ra.data(), rb.data(), rc.data(),
              rd.data());
    for (int l = 0; l < 64; ++l)
      for (int s = 0; s < 4; ++s) {
        auto [row, col] = D[l][s];
        int64_t ref = c[row][col];
        for (int k = 0; k < 32; ++k)
          ref += int64_t(a[row][k]) * b[k][col];
        EXPECT_EQ(rd[l * 4 + s], int32_t(uint32_t(uint64_t(ref))))
            << chip << " lane " << l << " reg " << s;
      }
  }
}

// v_mov_b32 with DPP16 (the ISA guides' DPP section): each lane reads the
// lane its control names; row_mask and bank_mask leave rows (16 lanes) and
// banks (4 lanes of a row) unwritten; a lane whose source is outside its row
// keeps the old value, or gets 0 with bound_ctrl.
TEST(IsaSemantics, DppMov) {
  auto in = [](int lane) { return uint32_t(1000 + lane); };
  const uint32_t old = 7;
  std::vector<std::pair<std::string, std::function<uint32_t(int)>>> cases = {
      {"quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
       [&](int l) { return in(l ^ 1); }},
      {"quad_perm:[3,3,3,3] row_mask:0xf bank_mask:0xf",
       [&](int l) { return in((l & ~3) + 3); }},
      {"row_shr:1 row_mask:0xf bank_mask:0xf",
       [&](int l) { return l % 16 == 0 ? old : in(l - 1); }},
      {"row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
       [&](int l) { return l % 16 == 0 ? 0u : in(l - 1); }},
      {"row_shl:4 row_mask:0xf bank_mask:0xf",
       [&](int l) { return l % 16 >= 12 ? old : in(l + 4); }},
      {"row_ror:3 row_mask:0xf bank_mask:0xf",
       [&](int l) { return in((l & ~15) + ((l % 16 + 16 - 3) % 16)); }},
      {"row_mirror row_mask:0xf bank_mask:0xf",
       [&](int l) { return in((l & ~15) + 15 - l % 16); }},
      {"quad_perm:[1,0,3,2] row_mask:0x5 bank_mask:0xf",
       [&](int l) { return (l / 16) % 2 == 1 ? old : in(l ^ 1); }},
      {"quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0x2",
       [&](int l) { return (l % 16) / 4 == 1 ? in(l ^ 1) : old; }},
  };
  for (const char *chip : kChips)
    for (auto &[control, expect] : cases) {
      std::vector<uint32_t> src(64), dst(64, 0xdeadbeef);
      for (int l = 0; l < 64; ++l)
        src[l] = in(l);
      launch(chip,
             R"(
        s_load_dwordx4 s[4:7], s[0:1], 0x0
        s_waitcnt lgkmcnt(0)
        v_lshlrev_b32_e32 v1, 2, v0
        global_load_dword v2, v1, s[4:5]
        s_waitcnt vmcnt(0)
        v_mov_b32_e32 v3, 7
        v_mov_b32_dpp v3, v2 )" +
                 control + R"(
        global_store_dword v1, v3, s[6:7]
        s_waitcnt vmcnt(0)
        s_endpgm)",
             {ptr(src.data()), ptr(dst.data())},
             {{src.data(), 256}, {dst.data(), 256}});
      for (int l = 0; l < 64; ++l)
        EXPECT_EQ(dst[l], expect(l)) << chip << " " << control << " lane " << l;
    }
}

} // namespace

// The clamp output modifier of VOP3 float instructions (CDNA3 ISA, output
// modifiers): the result limited to [0, 1], and a NaN to 0 since the kernel
// descriptor enables DX10_CLAMP (the assembler's default on gfx9, as in
// LLVM's code objects). v_exp_f32 with clamp is how attention backward's P
// = min(max(exp2(x), 0), 1) compiles; v_add_f32 checks a VOP2 form.
TEST(IsaSemantics, ClampOutputModifier) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inputs[] = {-1.0f, 0.0f, -0.5f, 1.0f, 200.0f, -200.0f, nan};
  auto clampRef = [](float x) {
    return std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
  };
  for (const char *chip : kChips)
    for (const char *op :
         {"v_exp_f32_e64 v2, v2 clamp", "v_add_f32_e64 v2, v2, 0.5 clamp",
          "v_exp_f32_e64 v2, v2"}) {
      std::vector<float> src(64), dst(64, -7.0f);
      for (int l = 0; l < 64; ++l)
        src[l] = inputs[l % 7];
      launch(chip, std::string(R"(
        s_load_dwordx4 s[4:7], s[0:1], 0x0
        s_waitcnt lgkmcnt(0)
        v_lshlrev_b32_e32 v1, 2, v0
        global_load_dword v2, v1, s[4:5]
        s_waitcnt vmcnt(0)
        )") + op + R"(
        global_store_dword v1, v2, s[6:7]
        s_waitcnt vmcnt(0)
        s_endpgm)",
             {ptr(src.data()), ptr(dst.data())},
             {{src.data(), 256}, {dst.data(), 256}});
      std::string name = op;
      for (int l = 0; l < 64; ++l) {
        float x = src[l];
        float want =
            name.find("exp") != std::string::npos ? std::exp2(x) : x + 0.5f;
        if (name.find("clamp") != std::string::npos)
          want = clampRef(want);
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(dst[l])) << chip << " " << op << " " << x;
        else
          EXPECT_EQ(dst[l], want) << chip << " " << op << " " << x;
      }
    }
}

// Memory instructions whose data operand is an AGPR tuple (gfx90a and
// later; LLVM names them *_agpr): the same accesses as the VGPR forms, with
// the data in the accumulation registers. Lane l writes 3l + 1 to LDS from
// a1 and reads its neighbour's dword ((l + 1) % 64) into a2; a global load
// fills a[4:5] with the input's dwords 2l and 2l + 1.
TEST(IsaSemantics, AgprMemoryForms) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> in(128), out(192, 0);
    for (size_t k = 0; k < in.size(); ++k)
      in[k] = uint32_t(1000 + k);
    launch(chip, R"(
      s_load_dwordx4 s[4:7], s[0:1], 0x0
      v_lshlrev_b32_e32 v1, 2, v0
      v_mad_u32_u24 v2, v0, 3, 1
      v_accvgpr_write_b32 a1, v2
      ds_write_b32 v1, a1
      s_waitcnt lgkmcnt(0)
      s_barrier
      v_add_u32_e32 v3, 4, v1
      v_and_b32_e32 v3, 0xff, v3
      ds_read_b32 a2, v3
      v_lshlrev_b32_e32 v4, 3, v0
      s_waitcnt lgkmcnt(0)
      global_load_dwordx2 a[4:5], v4, s[4:5]
      s_waitcnt vmcnt(0)
      v_accvgpr_read_b32 v5, a2
      v_accvgpr_read_b32 v6, a4
      v_accvgpr_read_b32 v7, a5
      v_mul_u32_u24 v8, 12, v0
      global_store_dword v8, v5, s[6:7]
      global_store_dwordx2 v8, v[6:7], s[6:7] offset:4
      s_endpgm)",
           {ptr(in.data()), ptr(out.data())},
           {{in.data(), 4 * in.size()}, {out.data(), 4 * out.size()}});
    for (uint32_t l = 0; l < 64; ++l) {
      EXPECT_EQ(out[3 * l], 3 * ((l + 1) % 64) + 1) << "lane " << l;
      EXPECT_EQ(out[3 * l + 1], 1000 + 2 * l) << "lane " << l;
      EXPECT_EQ(out[3 * l + 2], 1000 + 2 * l + 1) << "lane " << l;
    }
  }
}

// A workgroup larger than 64 waves is refused before anything is
// allocated, also when the product of the block dimensions does not fit
// in 32 bits (65536 x 65536 wrapped to 0 work-items, a launch that ran
// nothing and reported success).
TEST(IsaSemantics, OversizedWorkgroupIsRefusedFirst) {
  auto code = isa::loadCodeObject(assemble("gfx942", "s_endpgm"), "gfx942");
  for (std::array<uint32_t, 3> block :
       {std::array<uint32_t, 3>{65536, 65536, 1},
        std::array<uint32_t, 3>{4097, 1, 1}}) {
    isa::Launch l;
    l.kernel = "k";
    l.block = block;
    l.kernarg.resize(8);
    try {
      isa::run(*code, l);
      ADD_FAILURE() << "block " << block[0] << "x" << block[1] << " ran";
    } catch (const Error &e) {
      EXPECT_EQ(e.status(), HKRT_ERROR_UNSUPPORTED);
      EXPECT_NE(std::string(e.what()).find("more than 64 waves"),
                std::string::npos)
          << e.what();
    }
  }
}

// A kernel-descriptor symbol whose 64 bytes would wrap past 2^64 lies in
// no section: it names no kernel, and nothing is read from its address.
TEST(IsaSemantics, WrappingDescriptorSymbolNamesNoKernel) {
  auto code = isa::loadCodeObject(assemble("gfx942", R"(
      s_endpgm
      .globl bad.kd
      .set bad.kd, 0xfffffffffffffff0)"),
                                  "gfx942");
  EXPECT_NO_THROW(isa::kernelDescriptor(*code, "k"));
  try {
    isa::kernelDescriptor(*code, "bad");
    ADD_FAILURE() << "bad.kd was taken for a kernel descriptor";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_NOT_FOUND);
  }
}
