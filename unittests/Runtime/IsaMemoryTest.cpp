//===- IsaMemoryTest.cpp - the ISA simulator's memory semantics ----------===//
//
// LDS, buffer, global, flat and scratch instructions in small assembly
// kernels. Expected values come from AMD's CDNA3/CDNA4 ISA reference guides
// (opcode descriptions, "Range Checking", "Float Memory Atomics", "16-bit
// Memory Operations") and IEEE 754, worked out here in the test, never from
// the simulator's own output.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include "hk/Base/Error.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <regex>
#include <string>
#include <vector>

using namespace hk::rt;
using namespace hk::rt::isatest;

namespace {

const char *const kChips[] = {"gfx942", "gfx950"};

std::string with(std::string body, const std::string &key,
                 const std::string &value) {
  return std::regex_replace(body, std::regex(key), value);
}

float f32(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
uint32_t bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
uint64_t bits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

/// Inputs of the 32-bit atomic tests, one per lane: equal values, zero,
/// all ones, negative numbers, memory below and above the data.
std::vector<uint32_t> lanes(uint32_t seed) {
  std::vector<uint32_t> v(64);
  uint32_t x = seed;
  for (unsigned l = 0; l < 64; ++l) {
    x = x * 1664525u + 1013904223u;
    v[l] = l % 8 == 0 ? 0u : l % 8 == 1 ? 0xFFFFFFFFu : l % 8 == 2 ? 7u : x;
  }
  return v;
}

// DS atomics with return (CDNA3 ISA, DS opcodes): each lane's dword at
// ADDR = 4 * lane starts as INIT; the instruction returns the old value
// and leaves the new one. DS_INC: old >= DATA ? 0 : old + 1; DS_DEC:
// old == 0 || old > DATA ? DATA : old - 1; DS_MSKOR: (old & ~DATA) |
// DATA2; DS_CMPST: old == DATA ? DATA2 : old; DS_WRAP: old >= DATA ?
// old - DATA : old + DATA2.
TEST(IsaMemory, DsAtomicsReturnTheOldValue) {
  using F = std::function<uint32_t(uint32_t, uint32_t, uint32_t)>;
  struct Case {
    const char *op;
    F f;
  };
  const Case cases[] = {
      {"ds_add_rtn_u32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o + d; }},
      {"ds_sub_rtn_u32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o - d; }},
      {"ds_rsub_rtn_u32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return d - o; }},
      {"ds_inc_rtn_u32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o >= d ? 0 : o + 1; }},
      {"ds_dec_rtn_u32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) {
         return o == 0 || o > d ? d : o - 1;
       }},
      {"ds_min_rtn_i32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) {
         return int32_t(o) < int32_t(d) ? o : d;
       }},
      {"ds_max_rtn_i32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) {
         return int32_t(o) > int32_t(d) ? o : d;
       }},
      {"ds_min_rtn_u32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o < d ? o : d; }},
      {"ds_max_rtn_u32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o > d ? o : d; }},
      {"ds_and_rtn_b32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o & d; }},
      {"ds_or_rtn_b32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o | d; }},
      {"ds_xor_rtn_b32 v5, v1, v3",
       [](uint32_t o, uint32_t d, uint32_t) { return o ^ d; }},
      {"ds_wrxchg_rtn_b32 v5, v1, v3",
       [](uint32_t, uint32_t d, uint32_t) { return d; }},
      {"ds_mskor_rtn_b32 v5, v1, v3, v4",
       [](uint32_t o, uint32_t d, uint32_t d2) { return (o & ~d) | d2; }},
      {"ds_cmpst_rtn_b32 v5, v1, v3, v4",
       [](uint32_t o, uint32_t d, uint32_t d2) { return o == d ? d2 : o; }},
      {"ds_wrap_rtn_b32 v5, v1, v3, v4",
       [](uint32_t o, uint32_t d, uint32_t d2) {
         return o >= d ? o - d : o + d2;
       }},
  };
  const char *body = R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_load_dwordx4 s[12:15], s[0:1], 0x10
      s_load_dwordx2 s[16:17], s[0:1], 0x20
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      global_load_dword v2, v1, s[8:9]
      global_load_dword v3, v1, s[10:11]
      global_load_dword v4, v1, s[12:13]
      s_waitcnt vmcnt(0)
      ds_write_b32 v1, v2
      OP
      ds_read_b32 v6, v1
      s_waitcnt lgkmcnt(0)
      global_store_dword v1, v5, s[14:15]
      global_store_dword v1, v6, s[16:17]
      s_waitcnt vmcnt(0)
      s_endpgm)";
  std::vector<uint32_t> init = lanes(1), data = lanes(2), data2 = lanes(3);
  for (unsigned l = 0; l < 64; l += 5)
    data[l] = init[l]; // compares that hold
  for (const char *chip : kChips)
    for (const Case &c : cases) {
      SCOPED_TRACE(std::string(chip) + " " + c.op);
      std::vector<uint32_t> old(64, 0xDEAD), mem(64, 0xDEAD);
      launch(chip, with(body, "OP", c.op),
             {ptr(init.data()), ptr(data.data()), ptr(data2.data()),
              ptr(old.data()), ptr(mem.data())},
             {{init.data(), 256},
              {data.data(), 256},
              {data2.data(), 256},
              {old.data(), 256},
              {mem.data(), 256}});
      for (unsigned l = 0; l < 64; ++l) {
        EXPECT_EQ(old[l], init[l]) << "lane " << l;
        EXPECT_EQ(mem[l], c.f(init[l], data[l], data2[l])) << "lane " << l;
      }
    }
}

// Lanes of one atomic apply in lane order: 64 lanes adding to one dword
// each return the sum of the lanes below them (plus the start value), and
// the dword ends as the total. The same through ds_add_u32 without return
// and ds_inc_u32 (a counter that wraps to 0 past DATA).
TEST(IsaMemory, DsAtomicsOnOneAddressApplyInLaneOrder) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> old(64), total(4);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 1000
      ds_write_b32 v1, v2
      v_add_u32_e32 v3, 1, v0
      ds_add_rtn_u32 v4, v1, v3
      ds_add_u32 v1, v3 offset:4
      v_mov_b32_e32 v5, 9
      ds_inc_u32 v1, v5 offset:8
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v6, 2, v0
      global_store_dword v6, v4, s[8:9]
      ds_read_b32 v7, v1
      ds_read_b32 v8, v1 offset:4
      ds_read_b32 v9, v1 offset:8
      s_waitcnt lgkmcnt(0)
      global_store_dword v1, v7, s[10:11]
      global_store_dword v1, v8, s[10:11] offset:4
      global_store_dword v1, v9, s[10:11] offset:8
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(old.data()), ptr(total.data())},
           {{old.data(), 256}, {total.data(), 16}});
    uint32_t sum = 1000;
    for (unsigned l = 0; l < 64; ++l) {
      EXPECT_EQ(old[l], sum) << "lane " << l;
      sum += l + 1;
    }
    EXPECT_EQ(total[0], 1000u + 64 * 65 / 2);
    EXPECT_EQ(total[1], 64u * 65 / 2);
    // 64 increments of a counter that wraps at 9: 0..9 repeating.
    EXPECT_EQ(total[2], 64u % 10);
  }
}

// 64-bit DS atomics: the same definitions on 64-bit values.
TEST(IsaMemory, Ds64BitAtomics) {
  using F = std::function<uint64_t(uint64_t, uint64_t, uint64_t)>;
  struct Case {
    const char *op;
    F f;
  };
  const Case cases[] = {
      {"ds_add_rtn_u64 v[10:11], v1, v[4:5]",
       [](uint64_t o, uint64_t d, uint64_t) { return o + d; }},
      {"ds_min_rtn_i64 v[10:11], v1, v[4:5]",
       [](uint64_t o, uint64_t d, uint64_t) {
         return int64_t(o) < int64_t(d) ? o : d;
       }},
      {"ds_max_rtn_u64 v[10:11], v1, v[4:5]",
       [](uint64_t o, uint64_t d, uint64_t) { return o > d ? o : d; }},
      {"ds_dec_rtn_u64 v[10:11], v1, v[4:5]",
       [](uint64_t o, uint64_t d, uint64_t) {
         return o == 0 || o > d ? d : o - 1;
       }},
      {"ds_cmpst_rtn_b64 v[10:11], v1, v[4:5], v[6:7]",
       [](uint64_t o, uint64_t d, uint64_t d2) { return o == d ? d2 : o; }},
  };
  const char *body = R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_load_dwordx4 s[12:15], s[0:1], 0x10
      s_load_dwordx2 s[16:17], s[0:1], 0x20
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 3, v0
      global_load_dwordx2 v[2:3], v1, s[8:9]
      global_load_dwordx2 v[4:5], v1, s[10:11]
      global_load_dwordx2 v[6:7], v1, s[12:13]
      s_waitcnt vmcnt(0)
      ds_write_b64 v1, v[2:3]
      OP
      ds_read_b64 v[12:13], v1
      s_waitcnt lgkmcnt(0)
      global_store_dwordx2 v1, v[10:11], s[14:15]
      global_store_dwordx2 v1, v[12:13], s[16:17]
      s_waitcnt vmcnt(0)
      s_endpgm)";
  std::vector<uint64_t> init(64), data(64), data2(64);
  std::vector<uint32_t> a = lanes(4), b = lanes(5), c = lanes(6);
  for (unsigned l = 0; l < 64; ++l) {
    init[l] = uint64_t(a[l]) << 32 | b[l];
    data[l] = l % 3 ? uint64_t(b[l]) << 32 | c[l] : init[l];
    data2[l] = uint64_t(c[l]) << 32 | a[l];
  }
  for (const char *chip : kChips)
    for (const Case &cs : cases) {
      SCOPED_TRACE(std::string(chip) + " " + cs.op);
      std::vector<uint64_t> old(64), mem(64);
      launch(chip, with(body, "OP", cs.op),
             {ptr(init.data()), ptr(data.data()), ptr(data2.data()),
              ptr(old.data()), ptr(mem.data())},
             {{init.data(), 512},
              {data.data(), 512},
              {data2.data(), 512},
              {old.data(), 512},
              {mem.data(), 512}});
      for (unsigned l = 0; l < 64; ++l) {
        EXPECT_EQ(old[l], init[l]) << "lane " << l;
        EXPECT_EQ(mem[l], cs.f(init[l], data[l], data2[l])) << "lane " << l;
      }
    }
}

// Float DS atomics (CDNA3 ISA, "Float Memory Atomics"): adds round to
// nearest even; MIN/MAX take the other operand when one is a quiet NaN and
// order -0 below +0; DS_CMPST_F32 compares as floats (+0 == -0).
TEST(IsaMemory, DsFloatAtomics) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    // Per lane: memory, data, data2 (float bits).
    const float qnan = std::numeric_limits<float>::quiet_NaN();
    std::vector<uint32_t> init = {bits(1.0f), bits(qnan),        bits(-0.0f),
                                  bits(0.0f), bits(16777216.0f), bits(2.5f)};
    std::vector<uint32_t> data = {bits(0x1p-24f), bits(3.0f), bits(0.0f),
                                  bits(-0.0f),    bits(1.0f), bits(-1.0f)};
    init.resize(64, bits(1.0f));
    data.resize(64, bits(2.0f));
    std::vector<uint32_t> add(64), mn(64), mx(64), cmp(64);
    const char *body = R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_load_dwordx4 s[12:15], s[0:1], 0x10
      s_load_dwordx4 s[16:19], s[0:1], 0x20
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      global_load_dword v2, v1, s[8:9]
      global_load_dword v3, v1, s[10:11]
      s_waitcnt vmcnt(0)
      v_add_u32_e32 v9, 0x100, v1
      v_add_u32_e32 v10, 0x200, v1
      v_add_u32_e32 v11, 0x300, v1
      ds_write_b32 v1, v2
      ds_write_b32 v9, v2
      ds_write_b32 v10, v2
      ds_write_b32 v11, v2
      ds_add_f32 v1, v3
      ds_min_rtn_f32 v4, v9, v3
      ds_max_f32 v10, v3
      v_mov_b32_e32 v12, 0x40e00000
      ds_cmpst_f32 v11, v3, v12
      ds_read_b32 v5, v1
      ds_read_b32 v6, v9
      ds_read_b32 v7, v10
      ds_read_b32 v8, v11
      s_waitcnt lgkmcnt(0)
      global_store_dword v1, v5, s[12:13]
      global_store_dword v1, v6, s[14:15]
      global_store_dword v1, v7, s[16:17]
      global_store_dword v1, v8, s[18:19]
      s_waitcnt vmcnt(0)
      s_endpgm)";
    launch(chip, body,
           {ptr(init.data()), ptr(data.data()), ptr(add.data()), ptr(mn.data()),
            ptr(mx.data()), ptr(cmp.data())},
           {{init.data(), 256},
            {data.data(), 256},
            {add.data(), 256},
            {mn.data(), 256},
            {mx.data(), 256},
            {cmp.data(), 256}});
    // 1 + 2^-24 rounds to 1 (a tie, to even); 2^24 + 1 rounds to 2^24.
    EXPECT_EQ(add[0], bits(1.0f));
    EXPECT_TRUE(std::isnan(f32(add[1]))); // NaN + 3: the NaN
    EXPECT_EQ(add[2], bits(0.0f));        // -0 + +0 = +0
    EXPECT_EQ(add[4], bits(16777216.0f));
    EXPECT_EQ(add[5], bits(1.5f));
    EXPECT_EQ(mn[0], bits(0x1p-24f));
    EXPECT_EQ(mn[1], bits(3.0f)); // a quiet NaN loses
    EXPECT_EQ(mn[2], bits(-0.0f));
    EXPECT_EQ(mn[3], bits(-0.0f));
    EXPECT_EQ(mx[1], bits(3.0f));
    EXPECT_EQ(mx[2], bits(0.0f));
    EXPECT_EQ(mx[3], bits(0.0f));
    EXPECT_EQ(mx[5], bits(2.5f));
    // ds_cmpst_f32: DATA is the compare value, DATA2 (7.0) the value
    // stored; -0 == +0, NaN equals nothing.
    EXPECT_EQ(cmp[0], bits(1.0f));
    EXPECT_EQ(cmp[1], bits(qnan));
    EXPECT_EQ(cmp[2], bits(7.0f));
    EXPECT_EQ(cmp[3], bits(7.0f));
    EXPECT_EQ(cmp[6], bits(1.0f));
  }
}

// DS_PK_ADD_F16 / DS_PK_ADD_BF16 add two 16-bit floats per dword, rounding
// to nearest even; DS_ADD_RTN_F64 adds doubles.
TEST(IsaMemory, DsPackedAndDoubleAdds) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    // f16: 2048 + 1 = 2049, a tie between 2048 and 2050: 2048 (0x6800);
    // 2048 + 3 = 2051, a tie: 2052 (0x6802); 1.5 + 2.25 = 3.75 (0x4380).
    // bf16: 256 + 1: 256 (0x4380); 256 + 3: 260 (0x4382).
    std::vector<uint32_t> out(4);
    std::vector<uint64_t> dbl(2);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 0x68006800
      v_mov_b32_e32 v3, 0x3e004380
      ds_write_b64 v1, v[2:3]
      v_mov_b32_e32 v4, 0x42003c00
      v_mov_b32_e32 v5, 0x40804080
      ds_pk_add_f16 v1, v4
      ds_pk_add_rtn_f16 v6, v1, v5 offset:4
      v_mov_b32_e32 v7, 0x43804380
      v_mov_b32_e32 v8, 0x40403f80
      ds_write_b32 v1, v7 offset:8
      ds_pk_add_bf16 v1, v8 offset:8
      v_mov_b32_e32 v10, 0
      v_mov_b32_e32 v11, 0x3ff80000
      ds_write_b64 v1, v[10:11] offset:16
      v_mov_b32_e32 v12, 0
      v_mov_b32_e32 v13, 0x40040000
      ds_add_rtn_f64 v[14:15], v1, v[12:13] offset:16
      ds_read_b96 v[16:18], v1
      ds_read_b64 v[20:21], v1 offset:16
      s_waitcnt lgkmcnt(0)
      global_store_dwordx3 v1, v[16:18], s[8:9]
      global_store_dword v1, v6, s[8:9] offset:12
      global_store_dwordx2 v1, v[20:21], s[10:11]
      global_store_dwordx2 v1, v[14:15], s[10:11] offset:8
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(out.data()), ptr(dbl.data())},
           {{out.data(), 16}, {dbl.data(), 16}},
           /*lanes=*/1);
    EXPECT_EQ(out[0], 0x68026800u);
    // 3.75 + 2.25 = 6 (0x4600) low, 1.5 + 2.25 = 3.75 (0x4380) high.
    EXPECT_EQ(out[1], 0x43804600u);
    EXPECT_EQ(out[2], 0x43824380u);
    EXPECT_EQ(out[3], 0x3e004380u); // returned pre-op value
    EXPECT_EQ(dbl[0], bits(1.5 + 2.5));
    EXPECT_EQ(dbl[1], bits(1.5));
  }
}

// ds_write2st64_b32 / ds_read2st64_b64: the two values at ADDR + OFFSETk
// times the value size times 64 (CDNA3 ISA, DS_WRITE2ST64_B32: ADDR +
// OFFSET0 * 4 * 64); ds_write2_b64 / ds_read2_b32 with unit 1.
TEST(IsaMemory, DsRead2Write2St64) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(6 * 64, 0);
    launch(chip, R"(
      s_load_dwordx2 s[8:9], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v2, 100, v0
      v_add_u32_e32 v3, 200, v0
      ds_write2st64_b32 v1, v2, v3 offset0:1 offset1:3
      v_lshlrev_b32_e32 v4, 3, v0
      v_add_u32_e32 v4, 0x800, v4
      v_add_u32_e32 v6, 300, v0
      v_add_u32_e32 v7, 400, v0
      v_add_u32_e32 v8, 500, v0
      v_add_u32_e32 v9, 600, v0
      ds_write2_b64 v4, v[6:7], v[8:9] offset1:128
      s_waitcnt lgkmcnt(0)
      s_barrier
      ds_read_b32 v10, v1 offset:256
      ds_read_b32 v11, v1 offset:768
      ds_read2st64_b64 v[12:15], v4 offset1:2
      s_waitcnt lgkmcnt(0)
      v_mul_u32_u24_e32 v16, 24, v0
      global_store_dword v16, v10, s[8:9]
      global_store_dword v16, v11, s[8:9] offset:4
      global_store_dwordx4 v16, v[12:15], s[8:9] offset:8
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    for (unsigned l = 0; l < 64; ++l) {
      EXPECT_EQ(out[6 * l], 100 + l);
      EXPECT_EQ(out[6 * l + 1], 200 + l);
      // Written at ADDR = 2048 + 8l and ADDR + 128 * 8; read back at ADDR
      // and ADDR + 2 * 8 * 64.
      EXPECT_EQ(out[6 * l + 2], 300 + l);
      EXPECT_EQ(out[6 * l + 3], 400 + l);
      EXPECT_EQ(out[6 * l + 4], 500 + l);
      EXPECT_EQ(out[6 * l + 5], 600 + l);
    }
  }
}

// ds_wrxchg2st64_rtn_b32 returns the two old dwords and writes DATA and
// DATA2; ds_condxchg32_rtn_b64 writes each half whose bit 31 is set (with
// bit 31 cleared) and returns the old pair; ds_permute_b32 sends each
// lane's DATA to lane (ADDR / 4) % 64 (the highest sender wins, lanes
// receiving nothing get 0); ds_read_addtid_b32 / ds_write_addtid_b32
// address OFFSET + M0[15:0] + lane * 4; ds_append / ds_consume add or
// subtract the number of active lanes at M0 + OFFSET and return the old
// count to every lane.
TEST(IsaMemory, DsExchangePermuteAddtidAppend) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> out(16 * 64, 0);
    launch(chip, R"(
      s_load_dwordx2 s[8:9], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v2, 10, v0
      ds_write_b32 v1, v2
      ds_write_b32 v1, v2 offset:512
      v_add_u32_e32 v30, 1000, v0
      v_add_u32_e32 v31, 2000, v0
      ds_wrxchg2st64_rtn_b32 v[4:5], v1, v30, v31 offset1:2
      ds_read_b32 v6, v1
      ds_read_b32 v7, v1 offset:512
      v_mov_b32_e32 v20, 0xe00
      v_mov_b32_e32 v21, 5
      v_mov_b32_e32 v22, 6
      ds_write2_b32 v20, v21, v22 offset1:1
      v_mov_b32_e32 v22, 0x80000009
      v_mov_b32_e32 v23, 0x7fffffff
      ds_condxchg32_rtn_b64 v[24:25], v20, v[22:23]
      ds_read_b64 v[26:27], v20
      v_xor_b32_e32 v9, 1, v0
      v_lshlrev_b32_e32 v9, 2, v9
      v_and_b32_e32 v9, 0xf8, v9
      ds_permute_b32 v10, v9, v2
      s_mov_b32 m0, 0x800
      v_add_u32_e32 v11, 3000, v0
      ds_write_addtid_b32 v11 offset:0x40
      s_waitcnt lgkmcnt(0)
      s_barrier
      ds_read_addtid_b32 v12 offset:0x40
      v_mov_b32_e32 v13, 0x10
      ds_write_b32 v13, v13 offset:0xc00
      s_mov_b32 m0, 0xc00
      ds_append v14 offset:0x10
      s_mov_b64 exec, 0xff
      ds_consume v15 offset:0x10
      s_mov_b64 exec, -1
      ds_read_b32 v16, v13 offset:0xc00
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v17, 5, v0
      global_store_dwordx4 v17, v[4:7], s[8:9]
      global_store_dwordx4 v17, v[24:27], s[8:9] offset:16
      v_lshlrev_b32_e32 v18, 2, v0
      s_add_u32 s8, s8, 0x800
      s_addc_u32 s9, s9, 0
      global_store_dwordx4 v17, v[10:13], s[8:9]
      global_store_dwordx4 v17, v[14:17], s[8:9] offset:16
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(out.data())}, {{out.data(), 4 * out.size()}});
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *a = &out[8 * l], *b = &out[512 + 8 * l];
      EXPECT_EQ(a[0], 10 + l); // old at ADDR
      EXPECT_EQ(a[1], 10 + l); // old at ADDR + 2 * 256
      EXPECT_EQ(a[2], 1000 + l);
      EXPECT_EQ(a[3], 2000 + l);
      // Lane 0 exchanges first: it sees 5 and 6, writes 9 (bit 31 of
      // 0x80000009) and keeps 6 (bit 31 of 0x7fffffff clear); the others
      // see 9 and 6.
      EXPECT_EQ(a[4], l == 0 ? 5u : 9u);
      EXPECT_EQ(a[5], 6u);
      EXPECT_EQ(a[6], 9u);
      EXPECT_EQ(a[7], 6u);
      // Lanes 2k and 2k+1 both send to lane 2k (ADDR = (l ^ 1) * 4 &
      // 0xf8 = 8k); the highest, 2k + 1, wins; odd lanes get 0.
      EXPECT_EQ(b[0], l % 2 ? 0u : 10 + (l | 1));
      EXPECT_EQ(b[1], 3000 + l);
      EXPECT_EQ(b[2], 3000 + l); // read back through addtid
      EXPECT_EQ(b[4], 0x10u);    // append: every lane the old count
      if (l < 8)
        EXPECT_EQ(b[5], 0x10u + 64); // consume by the 8 lanes left on
      EXPECT_EQ(b[6], 0x10u + 64 - 8);
    }
  }
}

// D16 loads (CDNA3 ISA, "16-bit Memory Operations"): _D16 writes bits
// 15:0 and keeps 31:16, _D16_HI writes bits 31:16 and keeps 15:0; bytes
// are zero- (UBYTE) or sign-extended (SBYTE) to 16 bits. Two D16 loads
// into the halves of one register need no wait between them.
TEST(IsaMemory, D16LoadsMergeHalves) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint16_t> src = {0x1234, 0xabcd, 0x80f0, 0x7f01};
    src.resize(64, 0);
    std::vector<uint32_t> out(8 * 64, 0);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 0x55556666
      global_load_short_d16 v2, v1, s[8:9]
      global_load_short_d16_hi v2, v1, s[8:9] offset:2
      v_mov_b32_e32 v3, 0x55556666
      global_load_ubyte_d16_hi v3, v1, s[8:9] offset:5
      v_mov_b32_e32 v4, 0x55556666
      global_load_sbyte_d16 v4, v1, s[8:9] offset:5
      s_mov_b32 s4, s8
      s_mov_b32 s5, s9
      s_mov_b32 s6, 64
      s_mov_b32 s7, 0
      v_mov_b32_e32 v5, 0x55556666
      buffer_load_short_d16_hi v5, v1, s[4:7], 0 offen offset:6
      buffer_load_sbyte_d16 v5, v1, s[4:7], 0 offen offset:4
      s_waitcnt vmcnt(0)
      v_mov_b32_e32 v6, 0x11112222
      ds_write_b32 v1, v6
      v_mov_b32_e32 v7, 0x99998888
      ds_read_u16_d16_hi v7, v1
      ds_read_i8_d16 v7, v1 offset:3
      v_mov_b32_e32 v8, 0x99998888
      ds_read_u8_d16 v8, v1 offset:3
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v9, 5, v0
      global_store_dwordx4 v9, v[2:5], s[10:11]
      global_store_dwordx4 v9, v[6:9], s[10:11] offset:16
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(src.data()), ptr(out.data())},
           {{src.data(), 128}, {out.data(), 4 * out.size()}},
           /*lanes=*/1);
    // Bytes of src: 34 12 cd ab f0 80 01 7f.
    EXPECT_EQ(out[0], 0xabcd1234u);
    EXPECT_EQ(out[1], 0x00806666u); // byte 0x80 zero-extended, high half
    EXPECT_EQ(out[2], 0x5555ff80u); // byte 0x80 sign-extended, low half
    EXPECT_EQ(out[3], 0x7f01fff0u); // 0x7f01 high; byte 0xf0 sign-extended
    EXPECT_EQ(out[4], 0x11112222u);
    EXPECT_EQ(out[5], 0x22220011u); // 0x2222 high, byte 0x11 sign-extended
    EXPECT_EQ(out[6], 0x99990011u);
  }
}

// Global and scratch offsets are signed 13-bit immediates: a negative one
// subtracts from the address (CDNA3 ISA, "Global", Table "Flat, Global and
// Scratch Microcode Formats").
TEST(IsaMemory, NegativeOffsetsSubtract) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> src(2048), out(4 * 64, 0);
    for (size_t k = 0; k < src.size(); ++k)
      src[k] = uint32_t(k * 3 + 1);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v1, 0x1000, v1
      global_load_dword v2, v1, s[8:9] offset:-4096
      v_mov_b32_e32 v10, s8
      v_mov_b32_e32 v11, s9
      v_add_co_u32_e32 v10, vcc, v10, v1
      v_addc_co_u32_e32 v11, vcc, 0, v11, vcc
      global_load_dword v3, v[10:11], off offset:-8
      v_lshlrev_b32_e32 v12, 2, v0
      v_add_u32_e32 v12, 16, v12
      v_add_u32_e32 v13, 7, v0
      scratch_store_dword v12, v13, off offset:-12
      s_waitcnt vmcnt(0)
      scratch_load_dword v4, v12, off offset:-12
      scratch_load_dword v5, off, off offset:4
      s_waitcnt vmcnt(0)
      v_lshlrev_b32_e32 v14, 4, v0
      global_store_dwordx4 v14, v[2:5], s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(src.data()), ptr(out.data())},
           {{src.data(), 4 * src.size()}, {out.data(), 4 * out.size()}}, 64,
           /*privateBytes=*/512);
    for (unsigned l = 0; l < 64; ++l) {
      EXPECT_EQ(out[4 * l], src[l]);                // 0x1000 + 4l - 4096
      EXPECT_EQ(out[4 * l + 1], src[1024 + l - 2]); // 0x1000 + 4l - 8
      EXPECT_EQ(out[4 * l + 2], 7 + l);             // private 16 + 4l - 12
      EXPECT_EQ(out[4 * l + 3], l == 0 ? 7u : 0u);  // private 4 of lane l
    }
  }
}

// Global atomics with return (sc0): the pre-op value reaches vdst at the
// wait. GLOBAL_ATOMIC_CMPSWAP takes the value stored in DATA[31:0] and the
// compare value in DATA[63:32]; _X2 forms act on 64 bits; the SADDR form
// addresses SADDR + VADDR (32 bits) + offset.
TEST(IsaMemory, GlobalAtomicsReturn) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> mem(6 * 64), ret(6 * 64, 0xDEAD);
    for (unsigned l = 0; l < 64; ++l) {
      mem[6 * l] = 100 + l;           // add
      mem[6 * l + 1] = l % 2 ? 5 : 9; // cmpswap: compare with 5
      mem[6 * l + 2] = uint32_t(-3);  // smin
      mem[6 * l + 3] = l;             // dec with DATA 10
      mem[6 * l + 4] = 0xFFFFFFFF;    // cmpswap_x2 low
      mem[6 * l + 5] = l;             // cmpswap_x2 high
    }
    std::vector<uint32_t> expect = mem;
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mul_u32_u24_e32 v1, 24, v0
      v_mov_b32_e32 v2, 7
      global_atomic_add v3, v1, v2, s[8:9] sc0
      v_mov_b32_e32 v4, 42
      v_mov_b32_e32 v5, 5
      global_atomic_cmpswap v6, v1, v[4:5], s[8:9] offset:4 sc0
      v_sub_u32_e32 v7, 0, v0
      global_atomic_smin v8, v1, v7, s[8:9] offset:8 sc0
      v_mov_b32_e32 v9, 10
      v_mov_b32_e32 v20, s8
      v_mov_b32_e32 v21, s9
      v_add_co_u32_e32 v20, vcc, v20, v1
      v_addc_co_u32_e32 v21, vcc, 0, v21, vcc
      global_atomic_dec v10, v[20:21], v9, off offset:12 sc0
      v_mov_b32_e32 v12, 1
      v_mov_b32_e32 v13, 2
      v_mov_b32_e32 v14, 0xffffffff
      v_mov_b32_e32 v15, v0
      global_atomic_cmpswap_x2 v[16:17], v[20:21], v[12:15], off offset:16 sc0
      s_waitcnt vmcnt(0)
      global_store_dword v1, v3, s[10:11]
      global_store_dword v1, v6, s[10:11] offset:4
      global_store_dword v1, v8, s[10:11] offset:8
      global_store_dword v1, v10, s[10:11] offset:12
      global_store_dwordx2 v1, v[16:17], s[10:11] offset:16
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(mem.data()), ptr(ret.data())},
           {{mem.data(), 4 * mem.size()}, {ret.data(), 4 * ret.size()}});
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *m = &mem[6 * l], *r = &ret[6 * l], *e = &expect[6 * l];
      for (unsigned k = 0; k < 6; ++k)
        EXPECT_EQ(r[k], e[k]) << "lane " << l << " returned " << k;
      EXPECT_EQ(m[0], 107 + l);
      EXPECT_EQ(m[1], l % 2 ? 42u : 9u);
      EXPECT_EQ(m[2], uint32_t(std::min(-3, -int32_t(l))));
      EXPECT_EQ(m[3], l == 0 || l > 10 ? 10u : l - 1);
      // Compare value {0xffffffff, l} matches: {1, 2} stored.
      EXPECT_EQ(m[4], 1u);
      EXPECT_EQ(m[5], 2u);
    }
  }
}

// Float global and flat atomics: GLOBAL_ATOMIC_ADD_F64 and
// FLAT_ATOMIC_ADD_F32 with return add and round to nearest even;
// GLOBAL_ATOMIC_MAX_F64 takes the larger value; a flat atomic in the LDS
// aperture acts on LDS.
TEST(IsaMemory, FloatGlobalAndFlatAtomics) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<double> d = {1.25, -2.0};
    std::vector<float> f = {1.0f, 0.0f};
    std::vector<uint32_t> out(8, 0);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_load_dwordx2 s[12:13], s[0:1], 0x10
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 0
      v_mov_b32_e32 v3, 0x40040000
      global_atomic_add_f64 v[4:5], v1, v[2:3], s[8:9] sc0
      v_mov_b32_e32 v3, 0x3ff00000
      global_atomic_max_f64 v1, v[2:3], s[8:9] offset:8
      v_mov_b32_e32 v6, s10
      v_mov_b32_e32 v7, s11
      v_mov_b32_e32 v8, 0x33800000
      flat_atomic_add_f32 v9, v[6:7], v8 sc0
      s_mov_b64 s[14:15], src_shared_base
      v_mov_b32_e32 v10, 0x40
      v_mov_b32_e32 v11, s15
      v_mov_b32_e32 v12, 5
      ds_write_b32 v1, v12 offset:0x40
      flat_atomic_add v13, v[10:11], v12 sc0
      s_waitcnt vmcnt(0) lgkmcnt(0)
      ds_read_b32 v14, v1 offset:0x40
      s_waitcnt lgkmcnt(0)
      global_store_dwordx2 v1, v[4:5], s[12:13]
      global_store_dword v1, v9, s[12:13] offset:8
      global_store_dword v1, v13, s[12:13] offset:12
      global_store_dword v1, v14, s[12:13] offset:16
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(d.data()), ptr(f.data()), ptr(out.data())},
           {{d.data(), 16}, {f.data(), 8}, {out.data(), 32}},
           /*lanes=*/1);
    EXPECT_EQ(d[0], 1.25 + 2.5);
    EXPECT_EQ(d[1], 1.0);
    uint64_t old;
    memcpy(&old, out.data(), 8);
    EXPECT_EQ(old, bits(1.25));
    EXPECT_EQ(out[2], bits(1.0f)); // returned
    // 1 + 2^-24: a tie, rounded to even 1.
    EXPECT_EQ(f[0], 1.0f);
    EXPECT_EQ(out[3], 5u);
    EXPECT_EQ(out[4], 10u);
  }
}

// Buffer atomics: BUFFER_ATOMIC_CMPSWAP (DATA[0] the value stored, DATA[1]
// the compare value) and ADD with return, lanes in order on one address;
// an atomic out of range (checked as a whole: offset + 4 > num_records)
// changes nothing and returns 0. num_records = 262: the add at offset
// 256 is in range.
TEST(IsaMemory, BufferAtomics) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> mem(128, 0), ret(3 * 64, 0xDEAD);
    for (unsigned l = 0; l < 64; ++l)
      mem[l] = l % 3;
    mem[64] = 1000;
    std::vector<uint32_t> before = mem;
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_movk_i32 s6, 0x106
      s_mov_b32 s7, 0
      v_lshlrev_b32_e32 v1, 2, v0
      v_mov_b32_e32 v2, 77
      v_mov_b32_e32 v3, 1
      buffer_atomic_cmpswap v[2:3], v1, s[4:7], 0 offen sc0
      v_mov_b32_e32 v4, 0x100
      v_add_u32_e32 v5, 1, v0
      buffer_atomic_add v5, v4, s[4:7], 0 offen sc0
      v_add_u32_e32 v6, 0x100, v1
      v_mov_b32_e32 v7, 3
      buffer_atomic_add v7, v6, s[4:7], 0 offen offset:4 sc0
      s_waitcnt vmcnt(0)
      v_mul_u32_u24_e32 v8, 12, v0
      global_store_dword v8, v2, s[10:11]
      global_store_dword v8, v5, s[10:11] offset:4
      global_store_dword v8, v7, s[10:11] offset:8
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(mem.data()), ptr(ret.data())},
           {{mem.data(), 4 * mem.size()}, {ret.data(), 4 * ret.size()}});
    uint32_t sum = 1000;
    for (unsigned l = 0; l < 64; ++l) {
      EXPECT_EQ(ret[3 * l], before[l]);
      EXPECT_EQ(mem[l], before[l] == 1 ? 77u : before[l]);
      EXPECT_EQ(ret[3 * l + 1], sum) << "lane " << l;
      sum += l + 1;
      // Offsets 0x104 + 4l: bytes 260 to 263 of lane 0 straddle
      // num_records = 262, so even lane 0 is out of range.
      EXPECT_EQ(ret[3 * l + 2], 0u);
    }
    EXPECT_EQ(mem[64], sum);
    EXPECT_EQ(mem[65], 0u);
  }
}

// LDS DMA (buffer_load_dword ... lds) of a raw buffer with num_records =
// 4k + 2: lane l's dword (offset 4l) is in range when 4l + 4 <=
// num_records; the lanes out of range write zeros into LDS.
TEST(IsaMemory, LdsDmaOutOfRangeWritesZeros) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> src(64), out(64, 0xDEAD);
    for (unsigned l = 0; l < 64; ++l)
      src[l] = 5 * l + 3;
    const uint32_t numRecords = 4 * 20 + 2;
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_load_dword s6, s[0:1], 0x10
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      v_mov_b32_e32 v2, -1
      ds_write_b32 v1, v2 offset:0x100
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_mov_b32 s7, 0
      s_movk_i32 m0, 0x100
      buffer_load_dword v1, s[4:7], 0 offen lds
      s_waitcnt vmcnt(0)
      ds_read_b32 v3, v1 offset:0x100
      s_waitcnt lgkmcnt(0)
      global_store_dword v1, v3, s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(src.data()), ptr(out.data()), numRecords},
           {{src.data(), 256}, {out.data(), 256}});
    for (unsigned l = 0; l < 64; ++l)
      EXPECT_EQ(out[l], 4 * l + 4 <= numRecords ? src[l] : 0u) << l;
  }
}

// 8- and 16-bit loads to LDS write a whole dword per lane, at M0 +
// offset + 4 * lane, zero- (UBYTE) or sign-extended (SSHORT): the LDS
// address of "Memory Buffer Load to LDS" (TIDinWave * 4) and the data
// format the opcode implies (CDNA3 ISA).
TEST(IsaMemory, SubDwordLoadsToLds) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint8_t> src(256);
    for (size_t k = 0; k < src.size(); ++k)
      src[k] = uint8_t(0x81 + 3 * k);
    std::vector<uint32_t> out(2 * 64, 0xDEAD);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_movk_i32 s6, 0x100
      s_mov_b32 s7, 0
      s_movk_i32 m0, 0x100
      buffer_load_ubyte v0, s[4:7], 0 offen offset:4 lds
      v_lshlrev_b32_e32 v2, 1, v0
      s_movk_i32 m0, 0x2fe
      global_load_lds_sshort v2, s[8:9] offset:2
      s_waitcnt vmcnt(0)
      ds_read_b32 v4, v1 offset:0x104
      ds_read_b32 v5, v1 offset:0x300
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v6, 3, v0
      global_store_dwordx2 v6, v[4:5], s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(src.data()), ptr(out.data())},
           {{src.data(), src.size()}, {out.data(), 4 * out.size()}});
    for (unsigned l = 0; l < 64; ++l) {
      EXPECT_EQ(out[2 * l], uint32_t(src[l + 4])) << l;
      int16_t half = int16_t(src[2 * l + 2] | src[2 * l + 3] << 8);
      EXPECT_EQ(out[2 * l + 1], uint32_t(int32_t(half))) << l;
    }
  }
}

// A structured buffer (IDXEN, stride 12): lane l reads base + l * 12 +
// offset, in range while the index is below num_records (in records).
TEST(IsaMemory, StructuredBufferIndex) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> src(3 * 64), out(64, 0xDEAD);
    for (size_t k = 0; k < src.size(); ++k)
      src[k] = uint32_t(k + 11);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_or_b32 s5, s5, 0xc0000
      s_mov_b32 s6, 40
      s_mov_b32 s7, 0
      buffer_load_dword v2, v0, s[4:7], 0 idxen offset:4
      s_waitcnt vmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      global_store_dword v1, v2, s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(src.data()), ptr(out.data())},
           {{src.data(), 4 * src.size()}, {out.data(), 256}});
    for (unsigned l = 0; l < 64; ++l)
      EXPECT_EQ(out[l], l < 40 ? src[3 * l + 1] : 0u) << l;
  }
}

// Scratch addressing (CDNA3 ISA, Table "SVE Bit"): SVS = SADDR + VADDR +
// offset, SS = SADDR + offset, ST = offset, each in the lane's own private
// memory. Loads to LDS: global_load_lds_dword (SADDR form) and
// scratch_load_lds_dword write lane l's dword at M0 + offset + 4l.
TEST(IsaMemory, ScratchFormsAndLoadsToLds) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> src(80), out(5 * 64, 0xDEAD);
    for (size_t k = 0; k < src.size(); ++k)
      src[k] = uint32_t(7 * k + 5);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_lshlrev_b32_e32 v1, 2, v0
      v_add_u32_e32 v2, 50, v0
      s_mov_b32 s3, 16
      scratch_store_dword v1, v2, s3 offset:4
      v_mov_b32_e32 v3, 99
      scratch_store_dword off, v3, s3 offset:-8
      s_waitcnt vmcnt(0)
      scratch_load_dword v4, v1, s3 offset:4
      scratch_load_dword v5, off, s3 offset:-8
      scratch_load_dword v6, off, off offset:20
      s_movk_i32 m0, 0x200
      global_load_lds_dword v1, s[8:9] offset:8
      s_movk_i32 m0, 0x400
      scratch_load_lds_dword v1, s3 offset:4
      s_waitcnt vmcnt(0)
      ds_read_b32 v8, v1 offset:0x208
      ds_read_b32 v9, v1 offset:0x404
      s_waitcnt lgkmcnt(0)
      v_mul_u32_u24_e32 v10, 20, v0
      global_store_dwordx3 v10, v[4:6], s[10:11]
      global_store_dwordx2 v10, v[8:9], s[10:11] offset:12
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(src.data()), ptr(out.data())},
           {{src.data(), 4 * src.size()}, {out.data(), 4 * out.size()}}, 64,
           /*privateBytes=*/512);
    for (unsigned l = 0; l < 64; ++l) {
      const uint32_t *o = &out[5 * l];
      EXPECT_EQ(o[0], 50 + l);            // private 16 + 4l + 4
      EXPECT_EQ(o[1], 99u);               // private 8
      EXPECT_EQ(o[2], l == 0 ? 50u : 0u); // private 20: lane 0's store
      EXPECT_EQ(o[3], src[l + 2]);        // global 4l + 8
      EXPECT_EQ(o[4], 50 + l);            // private 16 + 4l + 4
    }
  }
}

// Float atomic denormals (CDNA3 ISA, Table "Denorm Handling Rules for
// Memory Ops"): GLOBAL_ATOMIC_ADD_F32 (L2) flushes its input denormals:
// 2^-127 + 2^-127 gives +0; DS_ADD_F32 follows MODE.FP_DENORM: allowed,
// the sum is 2^-126; flushed, +0. PK_ADD_F16 in the L2 keeps denormals:
// 2^-24 + 2^-24 = 2^-23 (0x0002).
TEST(IsaMemory, FloatAtomicDenormals) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> mem = {0x00400000, 0x00010001}, out(2, 0xDEAD);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 0x400000
      global_atomic_add_f32 v1, v2, s[8:9]
      v_mov_b32_e32 v3, 0x10001
      global_atomic_pk_add_f16 v1, v3, s[8:9] offset:4
      s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xf
      ds_write_b32 v1, v2
      ds_add_f32 v1, v2
      s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0
      ds_write_b32 v1, v2 offset:4
      ds_add_f32 v1, v2 offset:4
      ds_read_b64 v[4:5], v1
      s_waitcnt vmcnt(0) lgkmcnt(0)
      global_store_dwordx2 v1, v[4:5], s[10:11]
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(mem.data()), ptr(out.data())},
           {{mem.data(), 8}, {out.data(), 8}}, /*lanes=*/1);
    EXPECT_EQ(mem[0], 0u);
    EXPECT_EQ(mem[1], 0x00020002u);
    EXPECT_EQ(out[0], 0x00800000u);
    EXPECT_EQ(out[1], 0u);
  }
}

// ds_write2_b32 with both offsets equal writes DATA0 once (CDNA4 ISA,
// "LDS Access"); buffer_store_short_d16_hi stores bits 31:16 of its data,
// buffer_store_byte bits 7:0; buffer_atomic_umax_x2 compares 64 bits.
TEST(IsaMemory, Write2SameOffsetD16StoresAndX2Atomics) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::vector<uint32_t> mem = {0, 0, 5, 1}, out(1, 0xDEAD);
    std::vector<uint32_t> ret(2, 0xDEAD);
    launch(chip, R"(
      s_load_dwordx4 s[8:11], s[0:1], 0x0
      s_load_dwordx2 s[12:13], s[0:1], 0x10
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 0x11
      v_mov_b32_e32 v3, 0x22
      ds_write2_b32 v1, v2, v3 offset0:5 offset1:5
      ds_read_b32 v4, v1 offset:20
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_mov_b32 s6, 16
      s_mov_b32 s7, 0
      v_mov_b32_e32 v5, 0xabcd1234
      buffer_store_short_d16_hi v5, v1, s[4:7], 0 offen offset:2
      buffer_store_byte v5, v1, s[4:7], 0 offen offset:1
      v_mov_b32_e32 v6, 4
      v_mov_b32_e32 v7, 1
      buffer_atomic_umax_x2 v[6:7], v1, s[4:7], 0 offen offset:8 sc0
      s_waitcnt vmcnt(0) lgkmcnt(0)
      global_store_dword v1, v4, s[10:11]
      global_store_dwordx2 v1, v[6:7], s[12:13]
      s_waitcnt vmcnt(0)
      s_endpgm)",
           {ptr(mem.data()), ptr(out.data()), ptr(ret.data())},
           {{mem.data(), 16}, {out.data(), 4}, {ret.data(), 8}},
           /*lanes=*/1);
    EXPECT_EQ(out[0], 0x11u);
    EXPECT_EQ(mem[0], 0xabcd3400u); // byte 1 = 0x34, bytes 2-3 = 0xabcd
    // {5, 1} = 0x100000005 vs {4, 1} = 0x100000004: memory keeps 5.
    EXPECT_EQ(mem[2], 5u);
    EXPECT_EQ(ret[0], 5u);
    EXPECT_EQ(ret[1], 1u);
  }
}

// What is not simulated faults with a name: swizzled buffers, the gfx950
// transpose reads other than b64_tr_b16; an LDS access past the workgroup's LDS
// and a global access outside every buffer are faults too.
TEST(IsaMemory, UnsimulatedFormsFault) {
  const char *resource = R"(
      s_load_dwordx2 s[8:9], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      s_mov_b32 s4, s8
      s_and_b32 s5, s9, 0xffff
      s_mov_b32 s6, 256
      s_mov_b32 s7, 0
      v_mov_b32_e32 v1, 0
  )";
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    std::string f = faultOf(chip, std::string(resource) + R"(
      s_or_b32 s5, s5, 0x80000000
      buffer_load_dword v2, v1, s[4:7], 0 offen
      s_endpgm)");
    EXPECT_NE(f.find("SWIZZLE_ENABLE"), std::string::npos) << f;
    f = faultOf(chip, std::string(resource) + R"(
      s_mov_b32 s7, 0x800000
      buffer_load_dword v2, v1, s[4:7], 0 offen
      s_endpgm)");
    EXPECT_NE(f.find("ADD_TID_ENABLE"), std::string::npos) << f;
    f = faultOf(chip, R"(
      v_mov_b32_e32 v1, 4094
      ds_read_b32 v2, v1
      s_endpgm)");
    EXPECT_NE(f.find("outside the workgroup's 4096 bytes of LDS"),
              std::string::npos)
        << f;
    f = faultOf(chip, R"(
      v_mov_b32_e32 v2, -16
      v_mov_b32_e32 v3, -1
      global_load_dword v4, v[2:3], off offset:8
      s_endpgm)");
    EXPECT_NE(f.find("outside every buffer of the device"), std::string::npos)
        << f;
    f = faultOf(chip, R"(
      v_mov_b32_e32 v1, 0
      ds_wrxchg2_rtn_b32 v[2:3], v1, v4, v5 offset0:1 offset1:1
      s_endpgm)");
    EXPECT_NE(f.find("both offsets equal"), std::string::npos) << f;
  }
  std::string f = faultOf("gfx950", R"(
      v_mov_b32_e32 v1, 0
      ds_read_b64_tr_b8 v[2:3], v1
      s_endpgm)");
  EXPECT_NE(f.find("DS_READ_B64_TR_B8"), std::string::npos) << f;
  EXPECT_NE(f.find("not simulated"), std::string::npos) << f;
}

// An atomic that returns the pre-op value delivers it at the wait that
// covers it, like a load: reading the destination before is a fault naming
// its counter (vmcnt for global, lgkmcnt for LDS, both for flat, which
// needs waits on both).
TEST(IsaMemory, AtomicReturnsCountOnTheirCounters) {
  for (const char *chip : kChips) {
    SCOPED_TRACE(chip);
    const char *body = R"(
      s_load_dwordx2 s[8:9], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      v_mov_b32_e32 v2, 1
      OP
      WAIT
      v_add_u32_e32 v4, v3, v3
      s_endpgm)";
    struct Case {
      const char *op, *wait, *expect;
    } const cases[] = {
        {"global_atomic_add v3, v1, v2, s[8:9] sc0", "",
         "v3 read while a load into it is outstanding, vmcnt=1"},
        {"ds_add_rtn_u32 v3, v1, v2", "s_waitcnt vmcnt(0)",
         "v3 read while a load into it is outstanding, lgkmcnt=1"},
        {"v_mov_b32_e32 v6, s8\n      v_mov_b32_e32 v7, s9\n"
         "      flat_atomic_add v3, v[6:7], v2 sc0",
         "s_waitcnt vmcnt(0)",
         "v3 read while a load into it is outstanding, lgkmcnt=1"},
        {"buffer_atomic_add v2, v1, s[8:11], 0 offen sc0", "",
         "v2 read while a load into it is outstanding, vmcnt=1"},
    };
    for (const Case &c : cases) {
      std::string k = with(with(body, "OP", c.op), "WAIT", c.wait);
      if (std::string(c.op).find("buffer") != std::string::npos)
        k = with(k, "v_add_u32_e32 v4, v3, v3", "v_add_u32_e32 v4, v2, v2");
      std::string f = faultOf(chip, k);
      EXPECT_NE(f.find(c.expect), std::string::npos) << c.op << ": " << f;
      // With the waits the ISA asks for, the same kernel runs.
      std::string fixed =
          with(k, "v_add_u32_e32 v4",
               "s_waitcnt vmcnt(0) lgkmcnt(0)\n      v_add_u32_e32 v4");
      EXPECT_EQ(faultOf(chip, fixed), "") << c.op;
    }
  }
}

} // namespace
