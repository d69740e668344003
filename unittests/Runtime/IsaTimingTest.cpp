//===- IsaTimingTest.cpp - microbenchmarks of the timing mode
//---------------===//
//
// Small kernels in assembly whose time the documents fix, run through the
// cycle model (runtime/isa/Timing.h) and held against those figures: a
// chain of MFMAs accumulating into one register (the ISA guides' cycles
// per MFMA, back to back through the accumulation path), independent MFMA
// streams on every SIMD (the chips' peak FLOP/s at the modelled clock), an
// LDS pointer chase and a global load chain (the latencies of LLVM's
// scheduling model, include/hk/Base/Timing.h).
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"
#include "isa/Timing.h"

#include "hk/Base/Timing.h"

using namespace hk::rt;
using namespace hk::rt::isatest;

namespace {

/// Runs kernel k in timing mode: `groups` workgroups of `lanes` work-items,
/// one kernarg pointer to `buf`.
isa::TimingReport timed(const std::string &chip, const std::string &body,
                        uint32_t lanes, uint32_t groups,
                        std::vector<uint32_t> &buf) {
  auto code = isa::loadCodeObject(assembleWith(chip, body, ""), chip);
  isa::Launch l;
  l.kernel = "k";
  l.block = {lanes, 1, 1};
  l.grid = {groups, 1, 1};
  uint64_t p = ptr(buf.data());
  l.kernarg.resize(8);
  memcpy(l.kernarg.data(), &p, 8);
  l.memory.push_back({p, p + 4 * buf.size()});
  isa::TimingOptions options;
  options.maxSamples = 1;
  return isa::runTimed(*code, l, options);
}

std::string repeat(const std::string &line, unsigned n) {
  std::string s;
  for (unsigned i = 0; i < n; ++i)
    s += line + "\n";
  return s;
}

// 64 dependent v_mfma_f32_32x32x16_bf16, each accumulating into the last's
// result: the CDNA4 ISA's MFMA table gives 32 cycles each, and an MFMA may
// take the previous one's result as its C back to back (section 7.6), so
// the chain takes 64 x 32 cycles and little more.
TEST(IsaTiming, DependentMfmaChainRunsAtTheTableCycles) {
  std::vector<uint32_t> buf(64, 0);
  std::string body = "  v_mov_b32 v0, 0\n"
                     "  v_mov_b32 v1, 0\n  v_mov_b32 v2, 0\n"
                     "  v_mov_b32 v3, 0\n" +
                     repeat("  v_mfma_f32_32x32x16_bf16 a[0:15], v[0:3], "
                            "v[0:3], a[0:15]",
                            64) +
                     "  s_endpgm\n";
  isa::TimingReport r = timed("gfx950", body, 64, 1, buf);
  EXPECT_GE(r.batchCycles, 64 * 32);
  EXPECT_LE(r.batchCycles, 64 * 32 + 64);
  // One wave on one of four SIMDs: a quarter of the CU's matrix cores.
  EXPECT_NEAR(r.mfmaBusy, 0.25, 0.02);
}

// Each MFMA reading the previous one's result as A waits for it to be
// committed: the passes plus the wait states of section 7.6.
TEST(IsaTiming, MfmaResultAsSourceWaitsForTheCommit) {
  std::vector<uint32_t> buf(64, 0);
  std::string chain;
  for (unsigned i = 0; i < 16; ++i)
    chain += std::string("  v_mfma_f32_16x16x32_bf16 ") +
             (i % 2 ? "v[8:11], v[4:7]" : "v[4:7], v[8:11]") + ", v[0:3], 0\n";
  std::string body = "  v_mov_b32 v4, 0\n  v_mov_b32 v5, 0\n"
                     "  v_mov_b32 v6, 0\n  v_mov_b32 v7, 0\n"
                     "  v_mov_b32 v8, 0\n  v_mov_b32 v9, 0\n"
                     "  v_mov_b32 v10, 0\n  v_mov_b32 v11, 0\n"
                     "  v_mov_b32 v0, 0\n  v_mov_b32 v1, 0\n"
                     "  v_mov_b32 v2, 0\n  v_mov_b32 v3, 0\n" +
                     chain + "  s_endpgm\n";
  isa::TimingReport r = timed("gfx950", body, 64, 1, buf);
  const hk::ChipTiming &t = *hk::lookupChipTiming("gfx950");
  double perMfma = 16 + t.mfmaResultDelay;
  EXPECT_GE(r.batchCycles, 16 * perMfma);
  EXPECT_LE(r.batchCycles, 16 * (perMfma + t.issueTurn) + 64);
  EXPECT_GT(r.stalls.count("MFMA result"), 0u);
}

// Four waves, one per SIMD, each issuing independent 16x16x32 bf16 MFMAs
// (16 cycles, 16384 FLOP) on every CU of the chip: the matrix cores stay
// busy and the launch reaches the chip's peak: 1024 FLOP per clock per
// SIMD (MI355X: 2.5 PFLOP/s at 2400 MHz) at the modelled clock.
TEST(IsaTiming, IndependentMfmaStreamsReachPeak) {
  std::vector<uint32_t> buf(64, 0);
  std::string body = "  v_mov_b32 v0, 0\n  v_mov_b32 v1, 0\n"
                     "  v_mov_b32 v2, 0\n  v_mov_b32 v3, 0\n" +
                     repeat("  v_mfma_f32_16x16x32_bf16 a[0:3], v[0:3], "
                            "v[0:3], a[0:3]\n"
                            "  v_mfma_f32_16x16x32_bf16 a[4:7], v[0:3], "
                            "v[0:3], a[4:7]",
                            256) +
                     "  s_endpgm\n";
  const hk::ChipTiming &t = *hk::lookupChipTiming("gfx950");
  isa::TimingReport r =
      timed("gfx950", body, 256, uint32_t(t.computeUnits), buf);
  EXPECT_GT(r.mfmaBusy, 0.97);
  double seconds = r.cycles / (r.clockMHz * 1e6);
  double peak = double(t.computeUnits) * t.simdsPerCu * 1024 * r.clockMHz * 1e6;
  EXPECT_NEAR(r.flops / seconds / peak, 1.0, 0.03);
  EXPECT_NEAR(2.5e15 * r.clockMHz / 2400, peak, 0.02 * peak);
  // Fully loaded, the clock is the loaded one.
  EXPECT_NEAR(r.clockMHz, t.mfmaLoadMHz, 1.0);
}

// A pointer chase through LDS: each ds_read_b32 takes its address from the
// previous one's result. One hop costs the LDS latency of LLVM's model
// (WriteLDS), the two cycles of a conflict-free wave64 read (32 banks of 4
// bytes per clock) and the issue turns of the read and the wait.
TEST(IsaTiming, LdsPointerChase) {
  std::vector<uint32_t> buf(64, 0);
  std::string body =
      "  v_mov_b32 v1, 0\n  ds_write_b32 v1, v1\n"
      "  s_waitcnt lgkmcnt(0)\n" +
      repeat("  ds_read_b32 v1, v1\n  s_waitcnt lgkmcnt(0)", 32) +
      "  s_endpgm\n";
  for (const char *chip : {"gfx942", "gfx950"}) {
    const hk::ChipTiming &t = *hk::lookupChipTiming(chip);
    isa::TimingReport r = timed(chip, body, 64, 1, buf);
    double hop = t.ldsLatency + 1;
    EXPECT_GE(r.batchCycles, 32 * hop) << chip;
    EXPECT_LE(r.batchCycles, 32 * (hop + 3 * t.issueTurn) + 64) << chip;
  }
}

// A chain of dependent global loads: each hop costs the vector memory
// latency of LLVM's model (WriteVMEM) and one pass of the CU's memory port.
TEST(IsaTiming, GlobalLoadChain) {
  std::vector<uint32_t> buf(64, 0);
  std::string body = "  s_load_dwordx2 s[2:3], s[0:1], 0\n"
                     "  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v1, 0\n" +
                     repeat("  global_load_dword v1, v1, s[2:3]\n"
                            "  s_waitcnt vmcnt(0)",
                            16) +
                     "  s_endpgm\n";
  const hk::ChipTiming &t = *hk::lookupChipTiming("gfx950");
  isa::TimingReport r = timed("gfx950", body, 64, 1, buf);
  double hop = t.vmemLatency + t.issueTurn;
  EXPECT_GE(r.batchCycles, 16 * hop);
  EXPECT_LE(r.batchCycles, 16 * (hop + 3 * t.issueTurn) + 64);
  EXPECT_GT(r.stalls["s_waitcnt vmcnt"], 0);
}

// Bank conflicts come from the lanes' addresses: 64 lanes reading dwords
// 32 apart put them all in one bank of gfx942's 32 and serialise them; the
// same read of consecutive dwords is conflict-free.
TEST(IsaTiming, LdsBankConflictsFromAddresses) {
  std::vector<uint32_t> buf(64, 0);
  // Lane l reads dword (l mod 32) * stride (4 KiB of LDS).
  auto body = [](unsigned shift) {
    return "  v_and_b32 v1, 31, v0\n  v_lshlrev_b32 v1, " +
           std::to_string(shift) + ", v1\n" +
           repeat("  ds_read_b32 v2, v1", 8) + "  s_waitcnt lgkmcnt(0)\n" +
           "  s_endpgm\n";
  };
  isa::TimingReport spread = timed("gfx942", body(2), 64, 1, buf);
  isa::TimingReport same = timed("gfx942", body(7), 64, 1, buf);
  EXPECT_EQ(spread.ldsConflictCycles, 0);
  // 32 lanes of a phase in one bank: 32 cycles instead of 1, per phase.
  EXPECT_EQ(same.ldsConflictCycles, 8 * (2 * 32 - 2));
  // The conflicting reads hold the LDS 64 cycles each; the others issue
  // one per turn, the LDS two cycles each.
  EXPECT_GE(same.batchCycles, 8 * 64) << same.text();
  EXPECT_LE(spread.batchCycles, 8 * 4 + 48) << spread.text();
}

} // namespace
