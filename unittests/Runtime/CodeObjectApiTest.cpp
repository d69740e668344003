//===- CodeObjectApiTest.cpp - raw code objects through hkrt.h ------------===//
//
// hkrt_module_load_code_object, hkrt_code_object_kernel_info and
// hkrt_launch_code_object on the ISA simulator, with a kernel assembled
// here: what the descriptor says, a launch that writes its buffer, a
// launch whose kernel touches a buffer it was not given, and the misuses
// the API refuses.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include "hk/Runtime/hkrt.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace hk::rt::isatest;

namespace {

const char *const kChip = "gfx942";

/// Stores 7 to dword `lane` of the buffer whose address is the kernarg
/// segment's 8 bytes.
const char *const kStoreSevens = R"(
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 7
  v_lshlrev_b32 v2, 2, v0
  global_store_dword v2, v1, s[2:3]
  s_endpgm
)";

std::string storeSevens() {
  return assembleWith(kChip, kStoreSevens, "  .amdhsa_kernarg_size 8\n");
}

std::vector<char> kernargOf(uint64_t address) {
  std::vector<char> k(8);
  std::memcpy(k.data(), &address, 8);
  return k;
}

hkrt_dispatch oneWave() { return hkrt_dispatch{{1, 1, 1}, {64, 1, 1}, 0}; }

hkrt_status statusOf(const std::function<void()> &f, std::string &message) {
  try {
    f();
  } catch (const hkrt::Error &e) {
    message = e.what();
    return e.status();
  }
  return HKRT_SUCCESS;
}

} // namespace

TEST(CodeObjectApi, DescriptorFigures) {
  std::string elf = storeSevens();
  hkrt::Device dev = hkrt::Device::isa(kChip);
  hkrt::CodeObject code = dev.loadCodeObject(elf.data(), elf.size());
  hkrt_code_object_kernel k = code.kernelInfo("k");
  EXPECT_EQ(k.kernarg_bytes, 8u);
  EXPECT_EQ(k.lds_bytes, 4096u);
  EXPECT_EQ(k.scratch_bytes, 0u);
  // .amdhsa_next_free_vgpr 64 with .amdhsa_accum_offset 32: 64 registers
  // per lane, the AGPRs from 32 on; 32 SGPRs round up to 2 blocks of 16.
  EXPECT_EQ(k.vgprs, 32u);
  EXPECT_EQ(k.agprs, 32u);
  EXPECT_EQ(k.sgprs % 16, 0u);
  EXPECT_GE(k.sgprs, 32u);
  std::string message;
  EXPECT_EQ(statusOf([&] { code.kernelInfo("nosuch"); }, message),
            HKRT_ERROR_NOT_FOUND);
  EXPECT_NE(message.find("nosuch.kd"), std::string::npos) << message;
}

TEST(CodeObjectApi, LaunchWritesItsBuffer) {
  std::string elf = storeSevens();
  hkrt::Device dev = hkrt::Device::isa(kChip);
  hkrt::CodeObject code = dev.loadCodeObject(elf.data(), elf.size());
  hkrt::Buffer out = dev.alloc(64 * 4);
  code.launch("k", oneWave(), kernargOf(out.address()), {out.get()});
  std::vector<uint32_t> got(64);
  out.read(got.data(), 64 * 4);
  for (uint32_t v : got)
    EXPECT_EQ(v, 7u);
}

// The kernel may touch the buffers it was given and nothing else: a store
// to another buffer of the same device is a fault, and leaves it alone.
TEST(CodeObjectApi, UnlistedBufferFaults) {
  std::string elf = storeSevens();
  hkrt::Device dev = hkrt::Device::isa(kChip);
  hkrt::CodeObject code = dev.loadCodeObject(elf.data(), elf.size());
  hkrt::Buffer listed = dev.alloc(64 * 4), other = dev.alloc(64 * 4);
  std::string message;
  EXPECT_EQ(statusOf(
                [&] {
                  code.launch("k", oneWave(), kernargOf(other.address()),
                              {listed.get()});
                },
                message),
            HKRT_ERROR_KERNEL_FAULT);
  EXPECT_NE(message.find("global_store_dword"), std::string::npos) << message;
  std::vector<uint32_t> got(64, 1);
  other.read(got.data(), 64 * 4);
  for (uint32_t v : got)
    EXPECT_EQ(v, 0u);
}

TEST(CodeObjectApi, Misuse) {
  std::string elf = storeSevens();
  hkrt::Device dev = hkrt::Device::isa(kChip);
  hkrt::CodeObject code = dev.loadCodeObject(elf.data(), elf.size());
  hkrt::Buffer out = dev.alloc(64 * 4);
  std::string message;
  // The kernarg segment must be the descriptor's size.
  EXPECT_EQ(statusOf(
                [&] {
                  code.launch("k", oneWave(), std::vector<char>(16),
                              {out.get()});
                },
                message),
            HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(message.find("16 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("is 8 bytes"), std::string::npos) << message;
  // No workgroups or work-items of 0.
  hkrt_dispatch empty = oneWave();
  empty.block[1] = 0;
  EXPECT_EQ(statusOf(
                [&] {
                  code.launch("k", empty, kernargOf(out.address()),
                              {out.get()});
                },
                message),
            HKRT_ERROR_INVALID_ARGUMENT);
  // A buffer of another device.
  hkrt::Device dev2 = hkrt::Device::isa(kChip);
  hkrt::Buffer foreign = dev2.alloc(64 * 4);
  EXPECT_EQ(statusOf(
                [&] {
                  code.launch("k", oneWave(), kernargOf(foreign.address()),
                              {foreign.get()});
                },
                message),
            HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(message.find("another device"), std::string::npos) << message;
  // A raw module has no kernel handles; hkrt_kernel_get says what to use.
  hkrt_kernel k = nullptr;
  EXPECT_EQ(hkrt_kernel_get(code.get(), "k", &k), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(hkrt_last_error()).find("hkrt_launch_code_object"),
            std::string::npos);
  EXPECT_EQ(k, nullptr);
  // Null pointers are refused, not followed.
  EXPECT_EQ(
      hkrt_launch_code_object(code.get(), "k", nullptr, nullptr, 0, nullptr, 0),
      HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hkrt_code_object_kernel_info(code.get(), "k", nullptr),
            HKRT_ERROR_INVALID_ARGUMENT);
  // Bytes that are no code object.
  hkrt_module m = nullptr;
  EXPECT_NE(hkrt_module_load_code_object(dev.get(), "junk", 4, &m),
            HKRT_SUCCESS);
  EXPECT_EQ(m, nullptr);
}

// A kernel without arguments has an empty kernarg segment, passed as a null
// pointer: the launch copies nothing from it (a null memcpy source was
// undefined behaviour, which the sanitizer build reported).
TEST(CodeObjectApi, LaunchWithoutArguments) {
  std::string elf =
      assembleWith(kChip, "  s_endpgm\n", "  .amdhsa_kernarg_size 0\n");
  hkrt::Device dev = hkrt::Device::isa(kChip);
  hkrt::CodeObject code = dev.loadCodeObject(elf.data(), elf.size());
  EXPECT_EQ(code.kernelInfo("k").kernarg_bytes, 0u);
  hkrt_dispatch dispatch = oneWave();
  EXPECT_EQ(hkrt_launch_code_object(code.get(), "k", &dispatch, nullptr, 0,
                                    nullptr, 0),
            HKRT_SUCCESS)
      << hkrt_last_error();
}

// In the timing mode the launch runs the cycle model and keeps its report,
// as JSON and as text.
TEST(CodeObjectApi, TimedLaunchKeepsItsReport) {
  std::string elf = storeSevens();
  hkrt::Device dev = hkrt::Device::isa(kChip);
  hkrt::CodeObject code = dev.loadCodeObject(elf.data(), elf.size());
  hkrt::Buffer out = dev.alloc(64 * 4);
  std::string message;
  EXPECT_EQ(statusOf([&] { dev.timingText(); }, message),
            HKRT_ERROR_INVALID_ARGUMENT);
  dev.setTiming(true);
  code.launch("k", oneWave(), kernargOf(out.address()), {out.get()});
  std::string json = dev.timingReport(), text = dev.timingText();
  EXPECT_EQ(json.rfind("{\"chip\": \"gfx942\"", 0), 0u) << json;
  EXPECT_NE(json.find("\"workgroups\": 1"), std::string::npos) << json;
  EXPECT_FALSE(text.empty());
  EXPECT_EQ(text.find("{\"chip\""), std::string::npos) << text;
}
