//===- CrossLaneTest.cpp - gfx950's lane swaps on the ISA simulator -------===//
//
// v_permlane16_swap_b32 and v_permlane32_swap_b32 (CDNA4, gfx950), which
// rmsnorm's row sums use on gfx950, run from assembled kernels. Each swaps
// 16-lane rows between its two operands: permlane16 the odd rows of VDST
// with the even rows of SRC0, permlane32 rows 2 and 3 of VDST with rows 0
// and 1 of SRC0 (LLVM's definition of the instructions, AMDGPU
// VOP1Instructions.td and the llvm.amdgcn.permlane*.swap intrinsics).
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace hk::rt;

namespace {

/// v1 = lane, v2 = lane + 100, then `swap v1, v2`; out[lane] = v1,
/// out[64 + lane] = v2.
std::vector<uint32_t> runSwap(const std::string &swap) {
  std::vector<uint32_t> out(128, 0xdeadbeef);
  std::string body = R"(
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32 v1, v0
  v_add_u32 v2, 100, v0
  )" + swap + R"( v1, v2
  v_lshlrev_b32 v3, 2, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword v3, v1, s[2:3]
  global_store_dword v3, v2, s[2:3] offset:256
  s_endpgm)";
  isatest::launch("gfx950", body, {isatest::ptr(out.data())},
                  {{out.data(), out.size() * 4}});
  return out;
}

TEST(CrossLane, Permlane32SwapExchangesHalves) {
  std::vector<uint32_t> out = runSwap("v_permlane32_swap_b32");
  for (uint32_t l = 0; l < 64; ++l) {
    // VDST keeps lanes 0-31 and takes SRC0's lanes 0-31 into 32-63; SRC0
    // takes VDST's old lanes 32-63 into 0-31 and keeps 32-63.
    EXPECT_EQ(out[l], l < 32 ? l : l - 32 + 100) << "vdst lane " << l;
    EXPECT_EQ(out[64 + l], l < 32 ? l + 32 : l + 100) << "src0 lane " << l;
  }
}

TEST(CrossLane, Permlane16SwapExchangesOddAndEvenRows) {
  std::vector<uint32_t> out = runSwap("v_permlane16_swap_b32");
  for (uint32_t l = 0; l < 64; ++l) {
    bool oddRow = (l / 16) % 2 == 1;
    // VDST's odd rows come from SRC0's even row below; SRC0's even rows
    // from VDST's odd row above.
    EXPECT_EQ(out[l], oddRow ? l - 16 + 100 : l) << "vdst lane " << l;
    EXPECT_EQ(out[64 + l], oddRow ? l + 100 : l + 16) << "src0 lane " << l;
  }
}

} // namespace
