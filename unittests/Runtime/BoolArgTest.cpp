//===- BoolArgTest.cpp - i1 scalar arguments through the runtime ----------===//
//
// An i1 kernel argument (the attention examples' `causal`) is the dtype
// "i1" in the metadata, a scalar only, checked like any other scalar, one
// byte holding 0 or 1 in the HIP kernel arguments (the AMDGPU code object
// gives an i1 argument .size 1 at its natural offset; the kernel tests bit
// 0), which the ISA simulator runs from an assembled code object.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

#include "hk/Base/Artifact.h"
#include "hk/Base/Error.h"
#include "hk/Runtime/hkrt.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace hk::rt;

namespace {

/// flag(x: memref<?xf32>, flag: i1, n: i32), one workgroup per 64 of x.
KernelInfo flagInfo() {
  KernelInfo k;
  k.name = "flag";
  k.waves = 1;
  k.workgroupSize = 64;
  k.args = {{"x", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 1},
            {"flag", HKRT_ARG_SCALAR, HKRT_DTYPE_BOOL, 0},
            {"n", HKRT_ARG_SCALAR, HKRT_DTYPE_I32, 0}};
  k.gridSymbols = {{0, 0}};
  k.grid = {GridExpr::parse("s0 ceildiv 64")};
  return k;
}

TEST(BoolDType, NameSizeAndJson) {
  EXPECT_STREQ(dtypeName(HKRT_DTYPE_BOOL), "i1");
  EXPECT_EQ(parseDType("i1"), HKRT_DTYPE_BOOL);
  EXPECT_EQ(dtypeBytes(HKRT_DTYPE_BOOL), 1);
  std::string json = kernelInfoToJson({flagInfo()});
  EXPECT_NE(json.find("\"dtype\": \"i1\""), std::string::npos) << json;
  std::vector<KernelInfo> back = kernelInfoFromJson(json);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].args[1].kind, HKRT_ARG_SCALAR);
  EXPECT_EQ(back[0].args[1].dtype, HKRT_DTYPE_BOOL);
}

TEST(BoolDType, MemrefOfBoolIsRejected) {
  KernelInfo k = flagInfo();
  k.args[0].dtype = HKRT_DTYPE_BOOL;
  try {
    k.validate();
    FAIL() << "a memref of i1 validated";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "metadata of kernel 'flag': argument 0 'x' is a "
                           "memref of i1; only scalar i1 is supported");
  }
}

TEST(BoolDType, NotAGridSymbol) {
  KernelInfo k = flagInfo();
  k.gridSymbols = {{1, -1}};
  k.grid = {GridExpr::parse("s0")};
  EXPECT_THROW(k.validate(), Error);
}

/// Kernel k: x[i] = the flag's byte + 10 * n, i = workgroup * 64 + lane.
/// The kernarg segment of (memref<?xf32>, i1, i32): the memref's aligned
/// pointer at 8, the i1's byte at 40, the i32 at 44. The workgroup id is in
/// s2, after the kernarg pointer.
const char *kFlagBody = R"(
  s_lshl_b32 s6, s2, 8
  s_load_dwordx2 s[8:9], s[0:1], 0x8
  s_load_dwordx2 s[10:11], s[0:1], 0x28
  v_lshlrev_b32 v1, 2, v0
  v_add_u32 v1, s6, v1
  s_waitcnt lgkmcnt(0)
  s_and_b32 s10, s10, 0xff
  s_mul_i32 s11, s11, 10
  s_add_u32 s10, s10, s11
  v_cvt_f32_u32 v2, s10
  global_store_dword v1, v2, s[8:9]
  s_endpgm)";

struct IsaBool : ::testing::Test {
  void SetUp() override {
    Artifact art;
    art.kernels = {flagInfo()};
    art.kernels[0].name = "k";
    art.codeObjects["gfx950"] = isatest::assemble("gfx950", kFlagBody);
    bytes = writeArtifact(art);
    mod = std::make_unique<hkrt::Module>(dev.load(bytes.data(), bytes.size()));
  }
  float run(int64_t flag) {
    hkrt::Buffer x = dev.alloc(128 * 4);
    mod->kernel("k").launch({x.memref(HKRT_DTYPE_F32, {128}),
                             hkrt_arg_int(HKRT_DTYPE_BOOL, flag),
                             hkrt_arg_int(HKRT_DTYPE_I32, 3)});
    std::vector<float> out(128);
    x.read(out.data(), 128 * 4);
    for (float v : out)
      EXPECT_EQ(v, out[0]);
    return out[0];
  }
  std::string bytes;
  hkrt::Device dev = hkrt::Device::isa("gfx950");
  std::unique_ptr<hkrt::Module> mod;
};

TEST_F(IsaBool, FlagReachesTheKernelAsOneByte) {
  EXPECT_EQ(run(0), 30.0f);
  EXPECT_EQ(run(1), 31.0f);
  // Any nonzero value is true, passed as 1 (not truncated to its low byte).
  EXPECT_EQ(run(256), 31.0f);
  EXPECT_EQ(run(-1), 31.0f);
}

TEST_F(IsaBool, ArgumentChecks) {
  hkrt::Buffer x = dev.alloc(64 * 4);
  hkrt_arg args[] = {x.memref(HKRT_DTYPE_F32, {64}),
                     hkrt_arg_int(HKRT_DTYPE_I32, 1),
                     hkrt_arg_int(HKRT_DTYPE_I32, 3)};
  hkrt_kernel k;
  ASSERT_EQ(hkrt_kernel_get(mod->get(), "k", &k), HKRT_SUCCESS);
  EXPECT_EQ(hkrt_launch(k, args, 3), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(hkrt_last_error(),
               "argument 1 'flag': expected scalar i1, got scalar i32");
  args[1] = hkrt_arg_int(HKRT_DTYPE_BOOL, 1);
  args[2] = hkrt_arg_int(HKRT_DTYPE_BOOL, 1);
  EXPECT_EQ(hkrt_launch(k, args, 3), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(hkrt_last_error(),
               "argument 2 'n': expected scalar i32, got scalar i1");
}

/// The kernel arguments of flag(memref<?xf32>, i1, i32) as the HIP device
/// packs them, read back from the fake HIP runtime. The offsets are those of
/// the code object hkc makes for such a kernel (llvm-readelf --notes: the
/// i1 at .offset 40, .size 1; the i32 at .offset 44, .size 4; kernarg
/// segment 48 bytes; test/Compiler/bool-arg.test checks them).
std::string hipPacked(int64_t flag) {
  setenv("HKRT_HIP_LIBRARY", HK_FAKE_HIP, 1);
  setenv("FAKE_HIP_DEVICES", "1", 1);
  setenv("FAKE_HIP_ARCH", "gfx942:sramecc+:xnack-", 1);
  Artifact art;
  art.kernels = {flagInfo()};
  art.codeObjects["gfx942"] = "\x7f"
                              "ELF-gfx942";
  std::string bytes = writeArtifact(art);
  std::string packed;
  {
    hkrt::Device dev = hkrt::Device::open(HKRT_DEVICE_HIP);
    hkrt::Module m = dev.load(bytes.data(), bytes.size());
    hkrt::Buffer x = dev.alloc(100 * 4);
    m.kernel("flag").launch({x.memref(HKRT_DTYPE_F32, {100}),
                             hkrt_arg_int(HKRT_DTYPE_BOOL, flag),
                             hkrt_arg_int(HKRT_DTYPE_I32, 0x01020304)});
    dev.synchronize();
    void *lib = dlopen(HK_FAKE_HIP, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_TRUE(lib);
    auto last =
        reinterpret_cast<const char *(*)(unsigned *, unsigned *, size_t *)>(
            dlsym(lib, "fake_hip_last_launch"));
    unsigned grid[3], block[3];
    size_t n = 0;
    const char *args = last(grid, block, &n);
    EXPECT_EQ(grid[0], 2u); // 100 ceildiv 64
    packed.assign(args, n);
    dlclose(lib);
  }
  unsetenv("HKRT_HIP_LIBRARY");
  return packed;
}

TEST(HipBool, PackedAsOneByteAtItsOffset) {
  for (int64_t flag : {0, 1, 2, 256}) {
    std::string p = hipPacked(flag);
    // memref<?xf32>: ptr, ptr, offset, size, stride (40 bytes); the i1 at
    // 40; the i32 at 44; 48 in all.
    ASSERT_EQ(p.size(), 48u) << flag;
    int64_t size, stride;
    memcpy(&size, p.data() + 24, 8);
    memcpy(&stride, p.data() + 32, 8);
    EXPECT_EQ(size, 100);
    EXPECT_EQ(stride, 1);
    EXPECT_EQ(uint8_t(p[40]), flag ? 1u : 0u) << flag;
    // The padding between the flag and n is zero (deterministic).
    EXPECT_EQ(p[41], 0);
    EXPECT_EQ(p[42], 0);
    EXPECT_EQ(p[43], 0);
    int32_t n;
    memcpy(&n, p.data() + 44, 4);
    EXPECT_EQ(n, 0x01020304);
  }
}

} // namespace
