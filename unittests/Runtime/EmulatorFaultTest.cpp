//===- EmulatorFaultTest.cpp - planted kernel bugs are reported -----------===//
//
// Each kernel is a C++ lane function with one bug; the launch must fail with
// the right message (kernel, workgroup, wave and cause), quickly.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/Emulator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace {

struct Result {
  int status;
  std::string error;
  double seconds;
};

Result run(const char *name, hkemu_lane_fn fn, uint32_t waves,
           uint32_t ldsBytes, const char *chip = "gfx942") {
  hkemu_launch_desc desc{};
  desc.kernel = name;
  desc.chip = chip;
  desc.grid[0] = 2;
  desc.grid[1] = desc.grid[2] = 1;
  desc.waves = waves;
  desc.lds_bytes = ldsBytes;
  desc.fn = fn;
  char error[1024] = "";
  auto t0 = std::chrono::steady_clock::now();
  int status = hkemu_launch(&desc, error, sizeof(error));
  double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  return {status, error, s};
}

// Wave 1 skips the second barrier and leaves while wave 0 waits there.
void unbalancedBarrier(hkemu_lane *lane, void *const *) {
  hkemu_barrier(lane);
  if (hkemu_wave_id(lane) == 1)
    return;
  hkemu_barrier(lane);
}

TEST(EmulatorFaults, UnbalancedBarrier) {
  Result r = run("unbalanced", unbalancedBarrier, 2, 0);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error, "kernel 'unbalanced', workgroup (0, 0, 0), wave 0: "
                     "barrier count mismatch: this wave waits at its barrier "
                     "#2 but wave 1 finished after 1 barrier(s)");
  EXPECT_LT(r.seconds, 2.0);
}

// Lane 63 of wave 1 stores just past the end of 1 KiB of LDS.
void ldsOutOfRange(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane), w = hkemu_wave_id(lane);
  uint32_t addr = w == 1 && l == 63 ? 1024 : (w * 64 + l) * 4;
  uint32_t v = l;
  hkemu_lds_store(lane, 0, addr, 4, &v, 1);
}

TEST(EmulatorFaults, LdsOutOfRange) {
  Result r = run("lds_oob", ldsOutOfRange, 2, 1024);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error, "kernel 'lds_oob', workgroup (0, 0, 0), wave 1: "
                     "out-of-range LDS access: lane 63 writes 4 bytes at "
                     "address 1024, the workgroup has 1024 bytes of LDS");
  EXPECT_LT(r.seconds, 2.0);
}

// Wave 0 writes LDS; wave 1 reads it with no barrier in between.
void missingBarrier(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane);
  uint32_t v = l * 3, got = 0;
  if (hkemu_wave_id(lane) == 0)
    hkemu_lds_store(lane, 0, l * 4, 4, &v, 1);
  else
    hkemu_lds_load(lane, 0, l * 4, 4, &got, 1);
}

TEST(EmulatorFaults, MissingBarrierBetweenWriteAndRead) {
  Result r = run("race", missingBarrier, 2, 256);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(
      r.error,
      "kernel 'race', workgroup (0, 0, 0), wave 1: LDS race "
      "(read after write): lane 0 reads address 0, written by wave 0 with no "
      "barrier in between");
  EXPECT_LT(r.seconds, 2.0);
}

// The same exchange with the barrier is correct and reads what was written.
uint32_t exchanged[64];
void withBarrier(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane), w = hkemu_wave_id(lane);
  uint32_t v = l * 3;
  if (w == 0)
    hkemu_lds_store(lane, 0, l * 4, 4, &v, 1);
  hkemu_barrier(lane);
  if (w == 1)
    hkemu_lds_load(lane, 0, l * 4, 4, &exchanged[l], 1);
}

TEST(EmulatorFaults, BarrierMakesTheExchangeCorrect) {
  Result r = run("exchange", withBarrier, 2, 256);
  ASSERT_EQ(r.status, 0) << r.error;
  for (uint32_t l = 0; l < 64; ++l)
    EXPECT_EQ(exchanged[l], l * 3);
}

// Only the lower half of wave 0 takes part in a shuffle.
void halfWaveShuffle(hkemu_lane *lane, void *const *) {
  if (hkemu_lane_id(lane) < 32)
    hkemu_shuffle(lane, 1, 1, 64, 0, nullptr);
}

TEST(EmulatorFaults, ShuffleReachedByHalfAWave) {
  Result r = run("half_shuffle", halfWaveShuffle, 1, 0);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error, "kernel 'half_shuffle', workgroup (0, 0, 0), wave 0: "
                     "wave-collective op shuffle reached by only 32 of 64 "
                     "lanes (the other lanes: 32 finished)");
  EXPECT_LT(r.seconds, 2.0);
}

// Lanes of one wave reach different collectives.
void divergedCollectives(hkemu_lane *lane, void *const *) {
  if (hkemu_lane_id(lane) < 16)
    hkemu_readfirstlane(lane, 0);
  else
    hkemu_bpermute(lane, 0, 0);
}

TEST(EmulatorFaults, DifferentCollectivesInOneWave) {
  Result r = run("diverged", divergedCollectives, 1, 0);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error, "kernel 'diverged', workgroup (0, 0, 0), wave 0: lanes "
                     "of the wave reached different wave-collective ops: "
                     "lane 16 reached bpermute while 16 lanes wait at "
                     "readfirstlane");
}

// A fault in the second workgroup names it.
void faultInSecondWorkgroup(hkemu_lane *lane, void *const *) {
  uint32_t v = 0;
  hkemu_lds_store(lane, 0, hkemu_workgroup_id(lane, 0) * 4096, 4, &v, 1);
}

TEST(EmulatorFaults, NamesTheWorkgroup) {
  Result r = run("second", faultInSecondWorkgroup, 1, 64);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error.rfind("kernel 'second', workgroup (1, 0, 0), wave 0: "
                          "out-of-range LDS access",
                          0),
            0u)
      << r.error;
}

TEST(EmulatorFaults, LaunchChecks) {
  Result r = run("big", missingBarrier, 1, 70000);
  EXPECT_EQ(r.error, "kernel 'big': the kernel uses 70000 bytes of LDS, "
                     "gfx942 has 65536");
  r = run("chip", missingBarrier, 1, 0, "gfx90a");
  EXPECT_EQ(r.error, "kernel 'chip': unknown chip 'gfx90a' (supported: "
                     "gfx942, gfx950)");
}

} // namespace
