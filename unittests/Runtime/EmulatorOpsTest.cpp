//===- EmulatorOpsTest.cpp - cross-lane ops and buffer semantics ----------===//
//
// Each op's expected result is written from the instruction's definition,
// lane by lane.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/Emulator.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

uint32_t out[64][4];
int32_t valid[64];
float global[8];

void run(hkemu_lane_fn fn, const char *chip = "gfx942") {
  hkemu_launch_desc desc{};
  desc.kernel = "ops";
  desc.chip = chip;
  desc.grid[0] = desc.grid[1] = desc.grid[2] = 1;
  desc.waves = 1;
  desc.lds_bytes = 1024;
  desc.fn = fn;
  char error[512] = "";
  ASSERT_EQ(hkemu_launch(&desc, error, sizeof(error)), 0) << error;
}

TEST(EmulatorOps, ShuffleBpermuteReadfirstlane) {
  memset(out, 0, sizeof(out));
  run([](hkemu_lane *lane, void *const *) {
    uint32_t l = hkemu_lane_id(lane);
    out[l][0] = hkemu_shuffle(lane, 100 + l, 5, 64, 0, &valid[l]); // xor 5
    out[l][1] = hkemu_shuffle(lane, 100 + l, 3, 16, 2, nullptr);   // down 3
    out[l][2] = hkemu_bpermute(lane, 4 * (63 - l), 100 + l);
    out[l][3] = hkemu_readfirstlane(lane, 100 + l);
  });
  for (uint32_t l = 0; l < 64; ++l) {
    EXPECT_EQ(out[l][0], 100 + (l ^ 5));
    EXPECT_EQ(valid[l], 1);
    // Down within 16-lane segments: invalid sources keep the own value.
    EXPECT_EQ(out[l][1], l % 16 + 3 < 16 ? 100 + l + 3 : 100 + l);
    EXPECT_EQ(out[l][2], 100 + (63 - l));
    EXPECT_EQ(out[l][3], 100u);
  }
}

TEST(EmulatorOps, Ballot) {
  static uint64_t masks[64];
  run([](hkemu_lane *lane, void *const *) {
    uint32_t l = hkemu_lane_id(lane);
    // Lanes 3, 40 and 63 vote 1 (any nonzero value counts).
    masks[l] = hkemu_ballot(lane, l == 3 ? 1 : l == 40 ? 7 : l == 63 ? 2 : 0);
    out[l][0] = uint32_t(hkemu_ballot(lane, 0) != 0);
  });
  const uint64_t expected = (1ull << 3) | (1ull << 40) | (1ull << 63);
  for (uint32_t l = 0; l < 64; ++l) {
    EXPECT_EQ(masks[l], expected) << "lane " << l;
    EXPECT_EQ(out[l][0], 0u);
  }
}

TEST(EmulatorOps, Dpp) {
  run([](hkemu_lane *lane, void *const *) {
    uint32_t l = hkemu_lane_id(lane);
    // quad_perm [3, 2, 1, 0] = 0b00011011
    out[l][0] = hkemu_dpp(lane, 7, l, 0x1B, 0xF, 0xF, 0);
    out[l][1] = hkemu_dpp(lane, 7, l, 0x111, 0xF, 0xF, 1); // row_shr:1, zero
    out[l][2] = hkemu_dpp(lane, 7, l, 0x140, 0x5, 0xF, 0); // row_mirror,
                                                           // rows 0, 2
    out[l][3] = hkemu_dpp(lane, 7, l, 0x142, 0xF, 0xF, 0); // row_bcast:15
  });
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t row = l / 16, rl = l % 16;
    EXPECT_EQ(out[l][0], (l & ~3u) | (3 - (l & 3)));
    EXPECT_EQ(out[l][1], rl == 0 ? 0 : l - 1);
    EXPECT_EQ(out[l][2], row % 2 == 0 ? row * 16 + 15 - rl : 7);
    EXPECT_EQ(out[l][3], row == 0 ? 7 : row * 16 - 1);
  }
}

TEST(EmulatorOps, PermlaneSwapOnGfx950) {
  run(
      [](hkemu_lane *lane, void *const *) {
        uint32_t l = hkemu_lane_id(lane);
        uint32_t x = l, y = 100 + l;
        hkemu_permlane_swap(lane, 32, &x, &y);
        out[l][0] = x, out[l][1] = y;
        x = l, y = 100 + l;
        hkemu_permlane_swap(lane, 16, &x, &y);
        out[l][2] = x, out[l][3] = y;
      },
      "gfx950");
  for (uint32_t l = 0; l < 64; ++l) {
    // 32: upper half of x <-> lower half of y.
    EXPECT_EQ(out[l][0], l < 32 ? l : 100 + l - 32);
    EXPECT_EQ(out[l][1], l < 32 ? l + 32 : 100 + l);
    // 16: odd rows of x <-> even rows of y.
    bool odd = (l / 16) % 2;
    EXPECT_EQ(out[l][2], odd ? 100 + l - 16 : l);
    EXPECT_EQ(out[l][3], odd ? 100 + l : l + 16);
  }
}

TEST(EmulatorOps, BufferRangeChecksPerDword) {
  for (int i = 0; i < 8; ++i)
    global[i] = float(i + 1);
  memset(out, 0xFF, sizeof(out));
  run([](hkemu_lane *lane, void *const *) {
    uint32_t l = hkemu_lane_id(lane);
    hkemu_buffer r{global, 20}; // 5 floats visible
    if (l == 0) {
      // 16 bytes at 8: dwords 2, 3, 4 in range, dword 5 out.
      hkemu_buffer_load(lane, r, 8, 16, out[0]);
      float v[4] = {-1, -2, -3, -4};
      hkemu_buffer_store(lane, r, 12, 16, v); // dwords 3, 4 land
      hkemu_buffer_load(lane, r, 1u << 31, 4, out[1]);
    }
  });
  float got[4];
  memcpy(got, out[0], 16);
  EXPECT_EQ(got[0], 3.0f);
  EXPECT_EQ(got[1], 4.0f);
  EXPECT_EQ(got[2], 5.0f);
  EXPECT_EQ(got[3], 0.0f);
  EXPECT_EQ(out[1][0], 0u);
  EXPECT_EQ(global[3], -1.0f);
  EXPECT_EQ(global[4], -2.0f);
  EXPECT_EQ(global[5], 6.0f); // dropped
  EXPECT_EQ(global[6], 7.0f);
}

} // namespace
