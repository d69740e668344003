//===- IsaSandboxTest.cpp - hostile code objects on the ISA simulator -----===//
//
// What a code object may not do to the host process (docs/isa-simulator.md,
// "What a code object can do to the host"): an access at the top of the
// address space is a fault, not a wrapped range check; a launch over a
// limit is refused, naming the limit, before anything is allocated; and a
// launch that runs forever ends with a fault naming its budget.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include <chrono>
#include <cstdlib>

using namespace hk::rt;
using namespace hk::rt::isatest;

namespace {

/// The error `launch` ends with (its status in `status`), "" if none.
std::string errorOf(const isa::CodeObject &code, const isa::Launch &launch,
                    hkrt_status &status) {
  try {
    isa::run(code, launch);
  } catch (const Error &e) {
    status = e.status();
    return e.what();
  }
  return "";
}

isa::Launch launchOf(const std::string &kernel = "k") {
  isa::Launch l;
  l.kernel = kernel;
  l.kernarg.resize(8);
  return l;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

// A global store to 2^64-4 (the range check never forms address + bytes):
// a fault naming the address, and the host is not written.
TEST(IsaSandbox, GlobalStoreAtTheTopOfTheAddressSpace) {
  std::string fault = faultOf("gfx942", R"(
      v_mov_b32_e32 v4, -4
      v_mov_b32_e32 v5, -1
      v_mov_b32_e32 v3, 7
      global_store_dword v[4:5], v3, off
      s_waitcnt vmcnt(0)
      s_endpgm)");
  EXPECT_TRUE(contains(fault, "store to 0xfffffffffffffffc (4 bytes) outside "
                              "every buffer"))
      << fault;
}

// s_load_dwordx16 from 2^64-16: its 64 bytes would wrap past 2^64.
TEST(IsaSandbox, ScalarLoadWrappingTheAddressSpace) {
  std::string fault = faultOf("gfx950", R"(
      s_mov_b32 s2, -16
      s_mov_b32 s3, -1
      s_load_dwordx16 s[4:19], s[2:3], 0x0
      s_waitcnt lgkmcnt(0)
      s_endpgm)");
  EXPECT_TRUE(contains(fault, "load from 0xfffffffffffffff0 wraps around the "
                              "address space"))
      << fault;
}

// A negative immediate offset on a global store subtracts (offset:-16
// writes dword 12 of a pointer to dword 16, not dword 2060).
TEST(IsaSandbox, NegativeGlobalStoreOffsetSubtracts) {
  std::vector<uint32_t> buf(4096, 0);
  launch("gfx942", R"(
      s_load_dwordx2 s[2:3], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 64
      v_mov_b32_e32 v2, 5
      global_store_dword v1, v2, s[2:3] offset:-16
      s_waitcnt vmcnt(0)
      s_endpgm)",
         {ptr(buf.data())}, {{buf.data(), 4 * buf.size()}}, 1);
  EXPECT_EQ(buf[12], 5u);
  EXPECT_EQ(buf[2060], 0u);
}

// 1 MiB of scratch per lane (4.3 GB for a 64-wave workgroup) is refused
// before anything is allocated, naming the limit.
TEST(IsaSandbox, PrivateSegmentIsCapped) {
  auto code = isa::loadCodeObject(
      assemble("gfx942", "s_endpgm", /*privateBytes=*/1 << 20), "gfx942");
  isa::Launch l = launchOf();
  l.block = {4096, 1, 1};
  hkrt_status status = HKRT_SUCCESS;
  std::string error = errorOf(*code, l, status);
  EXPECT_EQ(status, HKRT_ERROR_UNSUPPORTED);
  EXPECT_TRUE(contains(error, "a private segment of 1048576 bytes per lane "
                              "(the simulator's limit is 65536)"))
      << error;
}

// A grid whose work-items do not fit the dispatch packet's 32 bits.
TEST(IsaSandbox, GridOverTheDispatchPacketIsRefused) {
  auto code = isa::loadCodeObject(assemble("gfx942", "s_endpgm"), "gfx942");
  isa::Launch l = launchOf();
  l.grid = {1, 1u << 26, 1};
  l.block = {1, 64, 1};
  hkrt_status status = HKRT_SUCCESS;
  std::string error = errorOf(*code, l, status);
  EXPECT_EQ(status, HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(error, "in dimension 1 exceeds the 2^32-1 work-items"))
      << error;
}

const char *kLoop = R"(
    loop:
      s_add_u32 s4, s4, 1
      s_branch loop
      s_endpgm)";

// The instruction budget is launch-wide: a looping wave, and many
// workgroups that each end, both run out of it.
TEST(IsaSandbox, InstructionBudgetEndsTheLaunch) {
  auto loop = isa::loadCodeObject(assemble("gfx942", kLoop), "gfx942");
  isa::Launch l = launchOf();
  l.maxInstructions = 100000;
  hkrt_status status = HKRT_SUCCESS;
  std::string error = errorOf(*loop, l, status);
  EXPECT_EQ(status, HKRT_ERROR_KERNEL_FAULT);
  EXPECT_TRUE(contains(error, "budget of 100000 instructions over all its "
                              "waves (HK_ISA_MAX_INSTRUCTIONS)"))
      << error;

  // 1000 workgroups of 4 waves, 3 instructions each: 12000 in all.
  auto small = isa::loadCodeObject(
      assemble("gfx942", "s_nop 0\ns_nop 0\ns_endpgm"), "gfx942");
  isa::Launch many = launchOf();
  many.grid = {1000, 1, 1};
  many.block = {256, 1, 1};
  many.maxInstructions = 12000;
  status = HKRT_SUCCESS;
  EXPECT_EQ(errorOf(*small, many, status), "");
  many.maxInstructions = 11999;
  error = errorOf(*small, many, status);
  EXPECT_EQ(status, HKRT_ERROR_KERNEL_FAULT);
  EXPECT_TRUE(contains(error, "workgroup (999,0,0)")) << error;
}

// The host-time budget ends a loop that the instruction budget would let
// run for hours.
TEST(IsaSandbox, TimeBudgetEndsTheLaunch) {
  auto loop = isa::loadCodeObject(assemble("gfx950", kLoop), "gfx950");
  isa::Launch l = launchOf();
  l.maxSeconds = 0.2;
  auto start = std::chrono::steady_clock::now();
  hkrt_status status = HKRT_SUCCESS;
  std::string error = errorOf(*loop, l, status);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(status, HKRT_ERROR_KERNEL_FAULT);
  EXPECT_TRUE(contains(error, "host seconds (HK_ISA_MAX_SECONDS)")) << error;
  EXPECT_LT(seconds, 5.0);
}

// The environment sets the budget of launches that do not; a value that is
// not a positive number is an error naming the variable.
TEST(IsaSandbox, BudgetFromTheEnvironment) {
  auto loop = isa::loadCodeObject(assemble("gfx942", kLoop), "gfx942");
  isa::Launch l = launchOf();
  hkrt_status status = HKRT_SUCCESS;
  setenv("HK_ISA_MAX_INSTRUCTIONS", "5000", 1);
  std::string error = errorOf(*loop, l, status);
  EXPECT_TRUE(contains(error, "budget of 5000 instructions")) << error;
  for (const char *bad : {"0", "-3", "1.5", "lots", ""}) {
    setenv("HK_ISA_MAX_INSTRUCTIONS", bad, 1);
    error = errorOf(*loop, l, status);
    EXPECT_EQ(status, HKRT_ERROR_INVALID_ARGUMENT) << bad;
    EXPECT_TRUE(contains(error, "HK_ISA_MAX_INSTRUCTIONS='" + std::string(bad) +
                                    "' is not a positive integer"))
        << error;
  }
  unsetenv("HK_ISA_MAX_INSTRUCTIONS");
  setenv("HK_ISA_MAX_SECONDS", "0.1", 1);
  error = errorOf(*loop, l, status);
  EXPECT_TRUE(contains(error, "host seconds")) << error;
  unsetenv("HK_ISA_MAX_SECONDS");
}

// A VOP3 word with a literal source (255), which CDNA's 64-bit encodings do
// not have, crashed LLVM's gfx942 disassembler while the code object was
// loaded (found by hk-fuzz-isa): it is now an undecodable word, a fault
// only if it is reached.
TEST(IsaSandbox, Vop3LiteralSourceIsUndecodable) {
  for (const char *chip : {"gfx942", "gfx950"}) {
    std::string fault = faultOf(chip, "  .long 0xd1010000, 0x000000ff\n"
                                      "  s_endpgm");
    EXPECT_TRUE(contains(fault, "cannot decode the word")) << fault;
    EXPECT_TRUE(contains(fault, "pc 0x")) << fault;
  }
}
