//===- HipDeviceTest.cpp - the HIP device's paths without a GPU ----------===//
//
// HKRT_HIP_LIBRARY points the device at a missing file, at a library that
// is not HIP, or at the fake runtime built next to this test.
//===----------------------------------------------------------------------===//

#include "hk/Base/Artifact.h"
#include "hk/Runtime/hkrt.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace hk::rt;

namespace {

struct HipEnv : ::testing::Test {
  void use(const char *library, const char *devices = "1",
           const char *arch = "gfx942:sramecc+:xnack-") {
    setenv("HKRT_HIP_LIBRARY", library, 1);
    setenv("FAKE_HIP_DEVICES", devices, 1);
    setenv("FAKE_HIP_ARCH", arch, 1);
  }
  void TearDown() override { unsetenv("HKRT_HIP_LIBRARY"); }
  hkrt_status open(hkrt_device *d) {
    return hkrt_device_open(HKRT_DEVICE_HIP, 0, d);
  }
};

std::string artifactFor(std::initializer_list<const char *> chips) {
  Artifact a;
  KernelInfo k;
  k.name = "scale";
  k.waves = 4;
  k.workgroupSize = 256;
  k.args = {{"x", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 2},
            {"n", HKRT_ARG_SCALAR, HKRT_DTYPE_I32, 0}};
  k.gridSymbols = {{0, 0}, {1, -1}};
  k.grid = {GridExpr::parse("s0 ceildiv 64"), GridExpr::parse("s1")};
  a.kernels = {k};
  for (const char *c : chips)
    a.codeObjects[c] = std::string("\x7f"
                                   "ELF-") +
                       c;
  return writeArtifact(a);
}

TEST_F(HipEnv, MissingLibrary) {
  use("/nonexistent/libamdhip64.so");
  hkrt_device d = nullptr;
  EXPECT_EQ(open(&d), HKRT_ERROR_NO_RUNTIME);
  EXPECT_EQ(d, nullptr);
  std::string msg = hkrt_last_error();
  EXPECT_EQ(msg.rfind("no HIP runtime library (libamdhip64.so) found; tried:"
                      "\n  /nonexistent/libamdhip64.so: ",
                      0),
            0u)
      << msg;
  // AUTO falls back to the ISA simulator, of $HKRT_ISA_CHIP's chip.
  setenv("HKRT_ISA_CHIP", "gfx942", 1);
  ASSERT_EQ(hkrt_device_open(HKRT_DEVICE_AUTO, 0, &d), HKRT_SUCCESS);
  unsetenv("HKRT_ISA_CHIP");
  EXPECT_EQ(hkrt_device_get_kind(d), HKRT_DEVICE_ISA);
  EXPECT_STREQ(hkrt_device_chip(d), "gfx942");
  hkrt_device_close(d);
  ASSERT_EQ(hkrt_device_open(HKRT_DEVICE_AUTO, 0, &d), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_device_get_kind(d), HKRT_DEVICE_ISA);
  EXPECT_STREQ(hkrt_device_chip(d), "gfx950");
  hkrt_device_close(d);
}

TEST_F(HipEnv, LibraryWithoutHip) {
  use("libm.so.6");
  hkrt_device d = nullptr;
  EXPECT_EQ(open(&d), HKRT_ERROR_NO_RUNTIME);
  EXPECT_STREQ(hkrt_last_error(), "the HIP runtime has no symbol hipInit");
}

TEST_F(HipEnv, NoDevice) {
  use(HK_FAKE_HIP, "0");
  hkrt_device d = nullptr;
  EXPECT_EQ(open(&d), HKRT_ERROR_NO_DEVICE);
  EXPECT_STREQ(hkrt_last_error(),
               "no HIP device: the runtime reports 0 devices");
  use(HK_FAKE_HIP, "1");
  EXPECT_EQ(hkrt_device_open(HKRT_DEVICE_HIP, 3, &d), HKRT_ERROR_NO_DEVICE);
  EXPECT_STREQ(hkrt_last_error(), "no HIP device 3 (1 present)");
}

TEST_F(HipEnv, NoCodeObjectForTheDevice) {
  use(HK_FAKE_HIP, "1", "gfx90a:sramecc+:xnack-");
  hkrt::Device dev = hkrt::Device::open(HKRT_DEVICE_HIP);
  EXPECT_EQ(dev.chip(), "gfx90a");
  std::string bytes = artifactFor({"gfx942", "gfx950"});
  hkrt_module m = nullptr;
  EXPECT_EQ(hkrt_module_load(dev.get(), bytes.data(), bytes.size(), &m),
            HKRT_ERROR_NO_DEVICE);
  EXPECT_STREQ(hkrt_last_error(),
               "the artifact has no code object for gfx90a (device "
               "gfx90a:sramecc+:xnack-); it has: gfx942, gfx950");
}

TEST_F(HipEnv, LaunchPacksArgumentsAndGrid) {
  use(HK_FAKE_HIP, "1", "gfx950:sramecc+:xnack-");
  hkrt::Device dev = hkrt::Device::open(HKRT_DEVICE_AUTO);
  ASSERT_EQ(dev.kind(), HKRT_DEVICE_HIP);
  EXPECT_EQ(dev.chip(), "gfx950");
  std::string bytes = artifactFor({"gfx942", "gfx950"});
  hkrt::Module m = dev.load(bytes.data(), bytes.size());
  hkrt::Buffer x = dev.alloc(130 * 8 * 4);
  m.kernel("scale").launch(
      {x.memref(HKRT_DTYPE_F32, {130, 8}), hkrt_arg_int(HKRT_DTYPE_I32, 5)});
  dev.synchronize();
  void *lib = dlopen(HK_FAKE_HIP, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_TRUE(lib);
  auto last =
      reinterpret_cast<const char *(*)(unsigned *, unsigned *, size_t *)>(
          dlsym(lib, "fake_hip_last_launch"));
  ASSERT_TRUE(last);
  unsigned grid[3], block[3];
  size_t n;
  const char *args = last(grid, block, &n);
  EXPECT_EQ(grid[0], 3u); // 130 ceildiv 64
  EXPECT_EQ(grid[1], 5u); // n
  EXPECT_EQ(grid[2], 1u);
  EXPECT_EQ(block[0], 256u);
  // memref<?x?xf32>: ptr, ptr, offset, 2 sizes, 2 strides; then i32 n,
  // padded to 8 bytes.
  ASSERT_EQ(n, 7 * 8 + 8u);
  int64_t f[7];
  memcpy(f, args, sizeof(f));
  EXPECT_EQ(f[2], 0);
  EXPECT_EQ(f[3], 130);
  EXPECT_EQ(f[4], 8);
  EXPECT_EQ(f[5], 8);
  EXPECT_EQ(f[6], 1);
  EXPECT_EQ(f[0], f[1]);
  int32_t scalar;
  memcpy(&scalar, args + 56, 4);
  EXPECT_EQ(scalar, 5);
  dlclose(lib);
}

} // namespace
