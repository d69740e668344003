//===- ApiMisuseTest.cpp - the C API under misuse -------------------------===//
//
// Stale handles (freed, unloaded, closed), foreign pointers, null pointers
// and absurd sizes: each call must return a status with a message, never
// crash or touch memory it does not own.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include "hk/Base/Artifact.h"
#include "hk/Runtime/hkrt.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace hk::rt;

namespace {

/// Kernel k: out[lane] = 1.0f for the 64 lanes of its one wave, enough to
/// see a launch ran. The memref's aligned pointer is at kernarg offset 8.
const char *kOnesBody = R"(
  s_load_dwordx2 s[2:3], s[0:1], 0x8
  v_lshlrev_b32 v1, 2, v0
  v_mov_b32 v2, 1.0
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[2:3]
  s_endpgm)";

/// An artifact with kernel "k" (one f32 memref) for gfx942 and gfx950.
std::string onesArtifact() {
  static const std::string bytes = [] {
    KernelInfo k;
    k.name = "k";
    k.args = {{"out", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 1}};
    k.grid = {GridExpr::parse("1")};
    Artifact art;
    art.kernels = {k};
    for (const char *chip : {"gfx942", "gfx950"})
      art.codeObjects[chip] = isatest::assemble(chip, kOnesBody);
    return writeArtifact(art);
  }();
  return bytes;
}

/// An ISA simulator device with kernel k loaded.
struct Loaded {
  explicit Loaded(const char *chip = "gfx942") {
    EXPECT_EQ(hkrt_device_open_isa(chip, &dev), HKRT_SUCCESS);
    std::string bytes = onesArtifact();
    EXPECT_EQ(hkrt_module_load(dev, bytes.data(), bytes.size(), &mod),
              HKRT_SUCCESS);
    EXPECT_EQ(hkrt_kernel_get(mod, "k", &kernel), HKRT_SUCCESS);
    EXPECT_EQ(hkrt_buffer_alloc(dev, 256, &buf), HKRT_SUCCESS);
  }
  hkrt_status launch(hkrt_buffer b) {
    int64_t n = 64;
    hkrt_arg arg = hkrt_arg_memref(b, HKRT_DTYPE_F32, 1, &n, nullptr);
    return hkrt_launch(kernel, &arg, 1);
  }
  hkrt_device dev = nullptr;
  hkrt_module mod = nullptr;
  hkrt_kernel kernel = nullptr;
  hkrt_buffer buf = nullptr;
};

#define EXPECT_FAILS(call, status, message)                                    \
  do {                                                                         \
    EXPECT_EQ(call, status);                                                   \
    EXPECT_STREQ(hkrt_last_error(), message);                                  \
  } while (0)

TEST(ApiMisuse, HugeAllocationsAreRefused) {
  hkrt_device dev = nullptr;
  ASSERT_EQ(hkrt_device_open_isa("gfx942", &dev), HKRT_SUCCESS);
  for (size_t bytes : {SIZE_MAX, SIZE_MAX - 3, SIZE_MAX - 8, SIZE_MAX - 255,
                       (size_t(1) << 48) + 1}) {
    hkrt_buffer b = reinterpret_cast<hkrt_buffer>(&dev);
    EXPECT_EQ(hkrt_buffer_alloc(dev, bytes, &b), HKRT_ERROR_OUT_OF_MEMORY)
        << bytes;
    EXPECT_EQ(b, nullptr);
    EXPECT_EQ(std::string(hkrt_last_error()),
              "cannot allocate " + std::to_string(bytes) +
                  " bytes: more than the 2^48 bytes any device addresses");
  }
  // The device is still usable.
  hkrt_buffer b = nullptr;
  ASSERT_EQ(hkrt_buffer_alloc(dev, 0, &b), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_buffer_size(b), 0u);
  EXPECT_EQ(hkrt_buffer_free(b), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_device_close(dev), HKRT_SUCCESS);
}

TEST(ApiMisuse, BufferDoubleFreeAndUseAfterFree) {
  Loaded s;
  ASSERT_EQ(hkrt_buffer_free(s.buf), HKRT_SUCCESS);
  const char *stale = "unknown or already freed buffer handle";
  EXPECT_FAILS(hkrt_buffer_free(s.buf), HKRT_ERROR_INVALID_ARGUMENT, stale);
  char bytes[4] = {};
  EXPECT_FAILS(hkrt_buffer_write(s.buf, 0, bytes, 4),
               HKRT_ERROR_INVALID_ARGUMENT, stale);
  EXPECT_FAILS(hkrt_buffer_read(s.buf, 0, bytes, 4),
               HKRT_ERROR_INVALID_ARGUMENT, stale);
  EXPECT_EQ(hkrt_buffer_size(s.buf), 0u);
  EXPECT_STREQ(hkrt_last_error(), stale);
  EXPECT_FAILS(s.launch(s.buf), HKRT_ERROR_INVALID_ARGUMENT,
               "argument 0 'out': unknown or already freed buffer handle");
  // A new buffer (possibly at the old one's address) is not reachable
  // through the old handle: freeing that again leaves the new one alone.
  hkrt_buffer fresh = nullptr;
  ASSERT_EQ(hkrt_buffer_alloc(s.dev, 256, &fresh), HKRT_SUCCESS);
  EXPECT_NE(fresh, s.buf);
  EXPECT_EQ(hkrt_buffer_free(s.buf), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hkrt_buffer_size(fresh), 256u);
  EXPECT_EQ(s.launch(fresh), HKRT_SUCCESS) << hkrt_last_error();
  float out[64];
  ASSERT_EQ(hkrt_buffer_read(fresh, 0, out, sizeof(out)), HKRT_SUCCESS);
  EXPECT_EQ(out[63], 1.0f);
  EXPECT_EQ(hkrt_device_close(s.dev), HKRT_SUCCESS);
}

TEST(ApiMisuse, ModuleDoubleUnloadAndKernelAfterUnload) {
  Loaded s;
  ASSERT_EQ(s.launch(s.buf), HKRT_SUCCESS) << hkrt_last_error();
  ASSERT_EQ(hkrt_module_unload(s.mod), HKRT_SUCCESS);
  EXPECT_FAILS(hkrt_module_unload(s.mod), HKRT_ERROR_INVALID_ARGUMENT,
               "unknown or already unloaded module handle");
  hkrt_kernel k = nullptr;
  EXPECT_FAILS(hkrt_kernel_get(s.mod, "k", &k), HKRT_ERROR_INVALID_ARGUMENT,
               "unknown or already unloaded module handle");
  EXPECT_EQ(k, nullptr);
  // The kernel handle went with its module.
  EXPECT_FAILS(s.launch(s.buf), HKRT_ERROR_INVALID_ARGUMENT,
               "unknown kernel handle, or its module was unloaded");
  // The device and its buffers are unaffected.
  EXPECT_EQ(hkrt_buffer_size(s.buf), 256u);
  EXPECT_EQ(hkrt_buffer_free(s.buf), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_device_close(s.dev), HKRT_SUCCESS);
}

TEST(ApiMisuse, DeviceDoubleCloseAndUseAfterClose) {
  hkrt_device dev = nullptr;
  ASSERT_EQ(hkrt_device_open_isa("gfx950", &dev), HKRT_SUCCESS);
  EXPECT_STREQ(hkrt_device_chip(dev), "gfx950");
  ASSERT_EQ(hkrt_device_close(dev), HKRT_SUCCESS);
  const char *stale = "unknown or already closed device handle";
  EXPECT_FAILS(hkrt_device_close(dev), HKRT_ERROR_INVALID_ARGUMENT, stale);
  EXPECT_EQ(hkrt_device_get_kind(dev), HKRT_DEVICE_AUTO);
  EXPECT_STREQ(hkrt_last_error(), stale);
  EXPECT_STREQ(hkrt_device_chip(dev), "");
  EXPECT_STREQ(hkrt_last_error(), stale);
  hkrt_buffer b = nullptr;
  EXPECT_FAILS(hkrt_buffer_alloc(dev, 16, &b), HKRT_ERROR_INVALID_ARGUMENT,
               stale);
  EXPECT_EQ(b, nullptr);
  std::string bytes = onesArtifact();
  hkrt_module m = nullptr;
  EXPECT_FAILS(hkrt_module_load(dev, bytes.data(), bytes.size(), &m),
               HKRT_ERROR_INVALID_ARGUMENT, stale);
  EXPECT_EQ(m, nullptr);
  EXPECT_FAILS(hkrt_synchronize(dev), HKRT_ERROR_INVALID_ARGUMENT, stale);
}

TEST(ApiMisuse, ClosingADeviceReleasesWhatItHolds) {
  Loaded s;
  ASSERT_EQ(hkrt_device_close(s.dev), HKRT_SUCCESS);
  EXPECT_FAILS(hkrt_buffer_free(s.buf), HKRT_ERROR_INVALID_ARGUMENT,
               "unknown or already freed buffer handle");
  EXPECT_FAILS(hkrt_module_unload(s.mod), HKRT_ERROR_INVALID_ARGUMENT,
               "unknown or already unloaded module handle");
  EXPECT_FAILS(s.launch(s.buf), HKRT_ERROR_INVALID_ARGUMENT,
               "unknown kernel handle, or its module was unloaded");
}

TEST(ApiMisuse, BuffersOfAnotherDevice) {
  Loaded a, b;
  EXPECT_FAILS(a.launch(b.buf), HKRT_ERROR_INVALID_ARGUMENT,
               "argument 0 'out': buffer belongs to another device");
  EXPECT_EQ(a.launch(a.buf), HKRT_SUCCESS) << hkrt_last_error();
  // Once B is closed its buffer is stale rather than foreign.
  ASSERT_EQ(hkrt_device_close(b.dev), HKRT_SUCCESS);
  EXPECT_FAILS(a.launch(b.buf), HKRT_ERROR_INVALID_ARGUMENT,
               "argument 0 'out': unknown or already freed buffer handle");
  EXPECT_EQ(hkrt_device_close(a.dev), HKRT_SUCCESS);
}

TEST(ApiMisuse, ForeignPointersAreNotHandles) {
  Loaded s;
  int local = 0;
  std::vector<char> heap(4096);
  for (void *p : {static_cast<void *>(&local), static_cast<void *>(heap.data()),
                  reinterpret_cast<void *>(uintptr_t(0x1000)),
                  reinterpret_cast<void *>(uintptr_t(-16))}) {
    EXPECT_FAILS(hkrt_buffer_free(static_cast<hkrt_buffer>(p)),
                 HKRT_ERROR_INVALID_ARGUMENT,
                 "unknown or already freed buffer handle");
    EXPECT_EQ(hkrt_buffer_size(static_cast<hkrt_buffer>(p)), 0u);
    EXPECT_FAILS(hkrt_device_close(static_cast<hkrt_device>(p)),
                 HKRT_ERROR_INVALID_ARGUMENT,
                 "unknown or already closed device handle");
    EXPECT_EQ(hkrt_device_get_kind(static_cast<hkrt_device>(p)),
              HKRT_DEVICE_AUTO);
    EXPECT_FAILS(hkrt_module_unload(static_cast<hkrt_module>(p)),
                 HKRT_ERROR_INVALID_ARGUMENT,
                 "unknown or already unloaded module handle");
    EXPECT_FAILS(hkrt_launch(static_cast<hkrt_kernel>(p), nullptr, 0),
                 HKRT_ERROR_INVALID_ARGUMENT,
                 "unknown kernel handle, or its module was unloaded");
  }
  EXPECT_EQ(heap, std::vector<char>(4096));
  // A live handle of one kind is not a handle of another.
  EXPECT_EQ(hkrt_buffer_free(reinterpret_cast<hkrt_buffer>(s.dev)),
            HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hkrt_device_close(reinterpret_cast<hkrt_device>(s.buf)),
            HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hkrt_module_unload(reinterpret_cast<hkrt_module>(s.kernel)),
            HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.launch(s.buf), HKRT_SUCCESS) << hkrt_last_error();
  EXPECT_EQ(hkrt_device_close(s.dev), HKRT_SUCCESS);
}

TEST(ApiMisuse, NullPointers) {
  Loaded s;
  // Releasing nothing succeeds, as free(NULL) does.
  EXPECT_EQ(hkrt_buffer_free(nullptr), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_module_unload(nullptr), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_device_close(nullptr), HKRT_SUCCESS);
  EXPECT_FAILS(hkrt_device_open(HKRT_DEVICE_ISA, 0, nullptr),
               HKRT_ERROR_INVALID_ARGUMENT, "null output handle");
  hkrt_device d = nullptr;
  EXPECT_FAILS(hkrt_device_open_isa(nullptr, &d), HKRT_ERROR_INVALID_ARGUMENT,
               "null chip name");
  EXPECT_FAILS(hkrt_device_open(hkrt_device_kind(7), 0, &d),
               HKRT_ERROR_INVALID_ARGUMENT, "unknown device kind 7");
  EXPECT_EQ(hkrt_device_get_kind(nullptr), HKRT_DEVICE_AUTO);
  EXPECT_STREQ(hkrt_last_error(), "null device");
  EXPECT_STREQ(hkrt_device_chip(nullptr), "");
  EXPECT_FAILS(hkrt_module_load(s.dev, nullptr, 10, nullptr),
               HKRT_ERROR_INVALID_ARGUMENT, "null output handle");
  hkrt_module m = nullptr;
  EXPECT_FAILS(hkrt_module_load(s.dev, nullptr, 10, &m),
               HKRT_ERROR_INVALID_ARGUMENT, "null artifact data");
  EXPECT_FAILS(hkrt_module_load_file(s.dev, nullptr, &m),
               HKRT_ERROR_INVALID_ARGUMENT, "null path");
  hkrt_kernel k = nullptr;
  EXPECT_FAILS(hkrt_kernel_get(s.mod, nullptr, &k), HKRT_ERROR_INVALID_ARGUMENT,
               "null kernel name");
  EXPECT_FAILS(hkrt_kernel_get(nullptr, "k", &k), HKRT_ERROR_INVALID_ARGUMENT,
               "null module");
  EXPECT_FAILS(hkrt_buffer_alloc(s.dev, 16, nullptr),
               HKRT_ERROR_INVALID_ARGUMENT, "null output handle");
  EXPECT_FAILS(hkrt_buffer_write(s.buf, 0, nullptr, 4),
               HKRT_ERROR_INVALID_ARGUMENT, "null source");
  EXPECT_FAILS(hkrt_buffer_read(s.buf, 0, nullptr, 4),
               HKRT_ERROR_INVALID_ARGUMENT, "null destination");
  EXPECT_FAILS(hkrt_buffer_read(nullptr, 0, &k, 4), HKRT_ERROR_INVALID_ARGUMENT,
               "null buffer");
  EXPECT_EQ(hkrt_buffer_size(nullptr), 0u);
  EXPECT_FAILS(hkrt_launch(s.kernel, nullptr, 1), HKRT_ERROR_INVALID_ARGUMENT,
               "null argument array");
  EXPECT_FAILS(hkrt_launch(nullptr, nullptr, 0), HKRT_ERROR_INVALID_ARGUMENT,
               "null kernel");
  EXPECT_FAILS(s.launch(nullptr), HKRT_ERROR_INVALID_ARGUMENT,
               "argument 0 'out': null buffer");
  EXPECT_FAILS(hkrt_synchronize(nullptr), HKRT_ERROR_INVALID_ARGUMENT,
               "null device");
  EXPECT_EQ(hkrt_device_close(s.dev), HKRT_SUCCESS);
}

/// Device kind 2 was the CPU emulator: asking for it names its removal and
/// what replaces it, and opens nothing.
TEST(ApiMisuse, TheRemovedEmulatorKindIsRefused) {
  hkrt_device d = reinterpret_cast<hkrt_device>(&d);
  EXPECT_FAILS(hkrt_device_open(hkrt_device_kind(2), 0, &d),
               HKRT_ERROR_INVALID_ARGUMENT,
               "device kind 2 was the CPU emulator, which was removed: the "
               "ISA simulator (HKRT_DEVICE_ISA) replaces it");
  EXPECT_EQ(d, nullptr);
}

/// hkrt.h's enums come from C callers as any integer: values outside the
/// enumerators are refused (or named unknown) before anything reads them as
/// the C++ enums, which the sanitizer build reported as undefined.
TEST(ApiMisuse, EnumValuesOutsideTheEnumerators) {
  EXPECT_STREQ(hkrt_status_name(hkrt_status(99)), "unknown status");
  Loaded s;
  int64_t n = 64;
  hkrt_arg arg = hkrt_arg_memref(s.buf, hkrt_dtype(99), 1, &n, nullptr);
  EXPECT_FAILS(hkrt_launch(s.kernel, &arg, 1), HKRT_ERROR_INVALID_ARGUMENT,
               "argument 0 'out': unknown dtype 99");
  arg = hkrt_arg_int(hkrt_dtype(-1), 1);
  EXPECT_FAILS(hkrt_launch(s.kernel, &arg, 1), HKRT_ERROR_INVALID_ARGUMENT,
               "argument 0 'out': unknown dtype -1");
  arg = hkrt_arg_memref(s.buf, HKRT_DTYPE_F32, 1, &n, nullptr);
  int kind = 7;
  std::memcpy(&arg.kind, &kind, sizeof kind);
  EXPECT_FAILS(hkrt_launch(s.kernel, &arg, 1), HKRT_ERROR_INVALID_ARGUMENT,
               "argument 0 'out': unknown argument kind 7");
  arg = hkrt_arg_memref(s.buf, HKRT_DTYPE_F32, 1, &n, nullptr);
  EXPECT_EQ(hkrt_launch(s.kernel, &arg, 1), HKRT_SUCCESS) << hkrt_last_error();
}

/// Threads racing to free the same buffers: each is freed exactly once,
/// the other attempts are refused, and launches racing with the frees
/// either run or are refused.
TEST(ApiMisuse, ConcurrentFreesAndLaunches) {
  Loaded s;
  constexpr int kBuffers = 200, kThreads = 4;
  std::vector<hkrt_buffer> buffers(kBuffers);
  for (hkrt_buffer &b : buffers)
    ASSERT_EQ(hkrt_buffer_alloc(s.dev, 256, &b), HKRT_SUCCESS);
  std::atomic<int> freed{0}, refused{0}, launched{0}, failedLaunches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kBuffers; ++i) {
        hkrt_buffer b = buffers[(i * 7 + t * 13) % kBuffers];
        if (t % 2 == 0) {
          (s.launch(b) == HKRT_SUCCESS ? launched : failedLaunches)++;
          continue;
        }
        hkrt_status st = hkrt_buffer_free(b);
        (st == HKRT_SUCCESS ? freed : refused)++;
        if (st != HKRT_SUCCESS && std::string(hkrt_last_error()) !=
                                      "unknown or already freed buffer handle")
          ADD_FAILURE() << hkrt_last_error();
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(freed.load(), kBuffers);
  EXPECT_EQ(refused.load(), kBuffers * (kThreads / 2 - 1));
  EXPECT_EQ(launched + failedLaunches, kBuffers * (kThreads / 2));
  EXPECT_EQ(hkrt_device_close(s.dev), HKRT_SUCCESS);
}

} // namespace
