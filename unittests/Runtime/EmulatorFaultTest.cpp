//===- EmulatorFaultTest.cpp - planted kernel bugs are reported -----------===//
//
// Each kernel is a C++ lane function with one bug; the launch must fail with
// the right message (kernel, workgroup, wave and cause), quickly.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/Emulator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
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

// Two allocations, 'a' at 0 and 'b' at 256 (256 bytes each); lane 63 of
// wave 0 stores one element past 'a', into 'b'.
void pastAllocation(hkemu_lane *lane, void *const *) {
  hkemu_lds_region(lane, "a", 0, 256);
  hkemu_lds_region(lane, "b", 256, 256);
  uint32_t l = hkemu_lane_id(lane), v = l;
  hkemu_lds_store(lane, 0, (l + 1) * 4, 4, &v, 1);
}

TEST(EmulatorFaults, AccessPastItsAllocation) {
  Result r = run("past", pastAllocation, 1, 512);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error, "kernel 'past', workgroup (0, 0, 0), wave 0: LDS access "
                     "outside its allocation: lane 63 writes 4 bytes at "
                     "address 256 through allocation 'a' (bytes 0 to 256); "
                     "address 256 is in allocation 'b'");
}

// Wave 0 reads what wave 1 then overwrites, with no barrier in between.
void writeAfterRead(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane), v = l, got = 0;
  if (hkemu_wave_id(lane) == 0)
    hkemu_lds_load(lane, 0, l * 4, 4, &got, 1);
  else
    hkemu_lds_store(lane, 0, l * 4, 4, &v, 1);
}

TEST(EmulatorFaults, WriteAfterReadWithoutBarrier) {
  Result r = run("war", writeAfterRead, 2, 256);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error, "kernel 'war', workgroup (0, 0, 0), wave 1: LDS race "
                     "(write after read): lane 0 writes address 0, read by "
                     "wave 0 with no barrier in between");
}

// Both waves store to the same words.
void writeWrite(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane), v = l;
  hkemu_lds_store(lane, 0, l * 4, 4, &v, 1);
}

// The same with a barrier between wave 0's stores and wave 1's.
void writeBarrierWrite(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane), v = l;
  if (hkemu_wave_id(lane) == 0)
    hkemu_lds_store(lane, 0, l * 4, 4, &v, 1);
  hkemu_barrier(lane);
  if (hkemu_wave_id(lane) == 1)
    hkemu_lds_store(lane, 0, l * 4, 4, &v, 1);
}

TEST(EmulatorFaults, WriteWriteWithoutBarrier) {
  Result r = run("waw", writeWrite, 2, 256);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.error, "kernel 'waw', workgroup (0, 0, 0), wave 1: LDS race "
                     "(write-write): lane 0 writes address 0, written by "
                     "wave 0 with no barrier in between");
  r = run("waw_ordered", writeBarrierWrite, 2, 256);
  EXPECT_EQ(r.status, 0) << r.error;
}

// LDS DMA: each lane copies its 4 bytes of `source` (words 0..63) to LDS
// word lane; `mode` says what happens between the copy and the read.
uint32_t source[128], landed[64];
int dmaMode;
void dmaThenRead(hkemu_lane *lane, void *const *) {
  uint32_t l = hkemu_lane_id(lane);
  hkemu_buffer src{source, sizeof(source)};
  hkemu_lds_dma(lane, src, l * 4, 0, 0, 4, 1, "copy 0");
  uint32_t scratch[2];
  switch (dmaMode) {
  case 0: // no wait
    break;
  case 1: // a wait for everything
    hkemu_wait_vmcnt(lane, 0, "wait 0");
    break;
  case 2: // 8 bytes loaded per lane after the copy: 1 instruction at least
    hkemu_buffer_load(lane, src, 256, 8, scratch);
    hkemu_wait_vmcnt(lane, 1, "wait 1");
    break;
  case 3: // the same load, but vmcnt(2) may leave the copy in flight
    hkemu_buffer_load(lane, src, 256, 8, scratch);
    hkemu_wait_vmcnt(lane, 2, "wait 2");
    break;
  case 4: // a second copy after the first: vmcnt(1) lands the first only
    hkemu_lds_dma(lane, src, 256 + l * 4, 0, 256, 4, 1, "copy 1");
    hkemu_wait_vmcnt(lane, 1, "wait 1");
    hkemu_lds_load(lane, 0, l * 4, 4, &landed[l], 1);
    hkemu_lds_load(lane, 0, 256 + l * 4, 4, &scratch[0], 1);
    return;
  }
  hkemu_lds_load(lane, 0, l * 4, 4, &landed[l], 1);
}

Result runDma(int mode) {
  for (uint32_t i = 0; i < 128; ++i)
    source[i] = 1000 + i;
  memset(landed, 0, sizeof(landed));
  dmaMode = mode;
  return run("dma", dmaThenRead, 1, 512);
}

TEST(EmulatorFaults, CopyLandsAtItsWait) {
  const std::string prefix = "kernel 'dma', workgroup (0, 0, 0), wave 0: ";
  Result r = runDma(0);
  EXPECT_EQ(r.error, prefix + "LDS read of a copy in flight: lane 0 reads "
                              "address 0 before the LDS DMA issued by wave 0 "
                              "at copy 0 has landed there: wave 0 has "
                              "executed no wait since it issued the copy");
  for (int mode : {1, 2}) {
    r = runDma(mode);
    ASSERT_EQ(r.status, 0) << r.error;
    for (uint32_t l = 0; l < 64; ++l)
      EXPECT_EQ(landed[l], 1000 + l);
  }
  r = runDma(3);
  EXPECT_EQ(r.error, prefix + "LDS read of a copy in flight: lane 0 reads "
                              "address 0 before the LDS DMA issued by wave 0 "
                              "at copy 0 has landed there: wave 0's last "
                              "wait, at wait 2 (vmcnt 2), leaves it "
                              "outstanding");
  r = runDma(4);
  EXPECT_EQ(r.error, prefix + "LDS read of a copy in flight: lane 0 reads "
                              "address 256 before the LDS DMA issued by wave "
                              "0 at copy 1 has landed there: wave 0's last "
                              "wait, at wait 1 (vmcnt 1), leaves it "
                              "outstanding");
  for (uint32_t l = 0; l < 64; ++l)
    EXPECT_EQ(landed[l], 1000 + l);
}

} // namespace
