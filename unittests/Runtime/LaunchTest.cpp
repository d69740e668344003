//===- LaunchTest.cpp - hkrt on the ISA simulator: checks and small kernels
//===//
//
// Kernels written in assembly, assembled into code objects (llvm-mc and
// ld.lld), packed into artifacts with their metadata and launched through
// the C API like compiled ones.
//===----------------------------------------------------------------------===//

#include "TestTolerances.h"

#include "hk/Base/Artifact.h"
#include "hk/Base/KernelInfo.h"
#include "hk/Runtime/hkrt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace hk::rt;

namespace {

KernelInfo vaddInfo() {
  KernelInfo k;
  k.name = "vadd";
  k.waves = 1;
  k.workgroupSize = 64;
  k.args = {{"a", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 1},
            {"b", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 1},
            {"c", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 1}};
  k.gridSymbols = {{2, 0}};
  k.grid = {GridExpr::parse("s0 ceildiv 64")};
  return k;
}

/// vadd: c[i] = a[i] + b[i] for i = workgroup * 64 + lane < n, n being c's
/// size. Each rank-1 memref takes 40 bytes of the kernarg segment (two
/// pointers, offset, size, stride): the aligned pointers at 8, 48 and 88,
/// c's size at 104. The workgroup id is in s2, after the kernarg pointer.
const char *kVaddBody = R"(
  s_load_dwordx2 s[4:5], s[0:1], 0x8
  s_load_dwordx2 s[6:7], s[0:1], 0x30
  s_load_dwordx2 s[8:9], s[0:1], 0x58
  s_load_dword s10, s[0:1], 0x68
  s_lshl_b32 s11, s2, 6
  v_add_u32 v1, s11, v0
  s_waitcnt lgkmcnt(0)
  v_cmp_gt_u32 vcc, s10, v1
  s_and_saveexec_b64 s[12:13], vcc
  v_lshlrev_b32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_f32 v2, v2, v3
  global_store_dword v1, v2, s[8:9]
  s_endpgm)";

/// A store to address 0, which no buffer holds.
const char *kWildStoreBody = R"(
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  global_store_dword v[2:3], v2, off
  s_endpgm)";

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A code object for `chip` holding the given kernels (symbol, body ending
/// with s_endpgm), each with the kernarg pointer in s[0:1], the workgroup
/// id in s2 and the work-item id in v0.
std::string
codeObject(const std::string &chip,
           const std::vector<std::pair<std::string, std::string>> &kernels) {
  char dir[] = "/tmp/hk-launch-test-XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  std::string base = std::string(dir) + "/k";
  std::ofstream src(base + ".s");
  src << ".amdgcn_target \"amdgcn-amd-amdhsa--" << chip << "\"\n";
  for (const auto &[name, body] : kernels)
    src << ".text\n.globl " << name << "\n.p2align 8\n.type " << name
        << ",@function\n"
        << name << ":\n"
        << body << "\n.rodata\n.p2align 6\n.amdhsa_kernel " << name << "\n"
        << "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
        << "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 16\n"
        << "  .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n";
  src.close();
  std::string tools = HK_LLVM_TOOLS_DIR;
  std::string cmd = tools + "/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=" + chip +
                    " -filetype=obj " + base + ".s -o " + base + ".o && " +
                    tools + "/ld.lld -shared " + base + ".o -o " + base +
                    ".hsaco";
  EXPECT_EQ(system(cmd.c_str()), 0) << cmd;
  std::string elf = readFile(base + ".hsaco");
  EXPECT_EQ(system(("rm -rf " + std::string(dir)).c_str()), 0);
  return elf;
}

KernelInfo argsInfo() {
  KernelInfo k;
  k.name = "args";
  k.waves = 1;
  k.workgroupSize = 64;
  k.args = {{"A", HKRT_ARG_MEMREF, HKRT_DTYPE_BF16, 2},
            {"B", HKRT_ARG_MEMREF, HKRT_DTYPE_BF16, 2},
            {"C", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 2},
            {"alpha", HKRT_ARG_SCALAR, HKRT_DTYPE_F32, 0}};
  k.gridSymbols = {{2, 0}, {2, 1}};
  k.grid = {GridExpr::parse("s0 ceildiv 64"), GridExpr::parse("s1 ceildiv 64")};
  return k;
}

struct IsaFixture : ::testing::Test {
  void SetUp() override {
    Artifact art;
    art.kernels = {vaddInfo(), argsInfo()};
    art.codeObjects["gfx942"] =
        codeObject("gfx942", {{"vadd", kVaddBody}, {"args", "s_endpgm"}});
    bytes = writeArtifact(art);
    mod = std::make_unique<hkrt::Module>(dev.load(bytes.data(), bytes.size()));
  }
  std::string bytes;
  hkrt::Device dev = hkrt::Device::isa("gfx942");
  std::unique_ptr<hkrt::Module> mod;
};

TEST_F(IsaFixture, VectorAddRaggedLength) {
  const int64_t n = 1000; // 16 workgroups, the last one 40 lanes short
  std::vector<float> a(n), b(n);
  std::mt19937 rng(7);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = std::uniform_real_distribution<float>(-1, 1)(rng);
    b[i] = std::uniform_real_distribution<float>(-1, 1)(rng);
  }
  hkrt::Buffer ba = dev.alloc(n * 4), bb = dev.alloc(n * 4);
  // c has room for a whole last workgroup; a sentinel shows the dropped
  // stores never landed.
  hkrt::Buffer bc = dev.alloc(1024 * 4);
  std::vector<float> sentinel(1024, -7.0f);
  ba.write(a.data(), n * 4);
  bb.write(b.data(), n * 4);
  bc.write(sentinel.data(), 1024 * 4);
  mod->kernel("vadd").launch({ba.memref(HKRT_DTYPE_F32, {n}),
                              bb.memref(HKRT_DTYPE_F32, {n}),
                              bc.memref(HKRT_DTYPE_F32, {n})});
  std::vector<float> c(1024);
  bc.read(c.data(), 1024 * 4);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_NEAR(c[i], a[i] + b[i], hk::test::kVectorAddAbsTol) << i;
  for (int64_t i = n; i < 1024; ++i)
    ASSERT_EQ(c[i], -7.0f) << "store past the memref at " << i;
}

std::string launchError(hkrt::Kernel k, const std::vector<hkrt_arg> &args) {
  try {
    k.launch(args);
  } catch (const hkrt::Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_INVALID_ARGUMENT);
    return e.what();
  }
  return "";
}

TEST_F(IsaFixture, ArgumentChecksNameTheArgument) {
  hkrt::Buffer b = dev.alloc(64 * 64 * 4);
  hkrt::Kernel g = mod->kernel("args");
  hkrt_arg A = b.memref(HKRT_DTYPE_BF16, {64, 64});
  hkrt_arg C = b.memref(HKRT_DTYPE_F32, {64, 64});
  hkrt_arg alpha = hkrt_arg_float(HKRT_DTYPE_F32, 1.0);
  EXPECT_EQ(launchError(g, {A, A, C}),
            "kernel 'args' takes 4 arguments, got 3");
  EXPECT_EQ(launchError(g, {A, A, A, alpha}),
            "argument 2 'C': expected memref of rank 2 with dtype f32, got "
            "bf16");
  EXPECT_EQ(
      launchError(g, {A, b.memref(HKRT_DTYPE_BF16, {64, 64, 1}), C, alpha}),
      "argument 1 'B': expected memref of rank 2 with dtype bf16, got "
      "rank 3");
  EXPECT_EQ(launchError(g, {A, b.memref(HKRT_DTYPE_F16, {64}), C, alpha}),
            "argument 1 'B': expected memref of rank 2 with dtype bf16, got "
            "memref of rank 1 with dtype f16");
  EXPECT_EQ(launchError(g, {A, A, C, hkrt_arg_float(HKRT_DTYPE_F64, 1.0)}),
            "argument 3 'alpha': expected scalar f32, got scalar f64");
  EXPECT_EQ(launchError(g, {alpha, A, C, alpha}),
            "argument 0 'A': expected memref of rank 2 with dtype bf16, got "
            "scalar f32");
  EXPECT_EQ(launchError(g, {A, A, b.memref(HKRT_DTYPE_F32, {64, 65}), alpha}),
            "argument 2 'C': a 64x65 memref of f32 with strides (65, 1) at "
            "offset 0 needs 16640 bytes, but its buffer has 16384 bytes");
  hkrt_arg shifted = C;
  shifted.offset_bytes = 4;
  EXPECT_EQ(launchError(g, {A, A, shifted, alpha}),
            "argument 2 'C': a 64x64 memref of f32 with strides (64, 1) at "
            "offset 4 needs 16384 bytes, but its buffer has 16384 bytes");
  // Element 0 of an f32 memref off its 4-byte alignment, in a buffer large
  // enough: refused, not launched.
  hkrt::Buffer roomy = dev.alloc(64 * 64 * 4 + 8);
  hkrt_arg unaligned = roomy.memref(HKRT_DTYPE_F32, {64, 64});
  unaligned.offset_bytes = 1;
  EXPECT_EQ(launchError(g, {A, A, unaligned, alpha}),
            "argument 2 'C': offset 1 is not a multiple of the size of f32 "
            "(4 bytes)");
  hkrt::Device other = hkrt::Device::isa("gfx942");
  hkrt::Buffer foreign = other.alloc(64 * 64 * 4);
  EXPECT_EQ(
      launchError(g, {foreign.memref(HKRT_DTYPE_BF16, {64, 64}), A, C, alpha}),
      "argument 0 'A': buffer belongs to another device");
  // A zero-sized output gives an empty grid: nothing runs, no error.
  EXPECT_EQ(launchError(g, {A, A, b.memref(HKRT_DTYPE_F32, {0, 64}), alpha}),
            "");
}

/// Metadata as hkc records it for
///   typed(%x: memref<?x128xf32>, %v: memref<?x?xf32, strided<[?, 1]>>)
/// and, as "untyped", the same kernel described by metadata written before
/// sizes and layouts were recorded.
const char *kTypedMetadata = R"({"version": 1, "kernels": [
  {"name": "typed", "waves": 1, "workgroup_size": 64, "lds_bytes": 0,
   "args": [{"name": "x", "kind": "memref", "dtype": "f32", "rank": 2,
             "shape": [null, 128], "layout": "row-major"},
            {"name": "v", "kind": "memref", "dtype": "f32", "rank": 2,
             "shape": [null, null], "layout": "strided",
             "strides": [null, 1]}],
   "grid": {"symbols": [], "results": ["1"]}},
  {"name": "untyped", "waves": 1, "workgroup_size": 64, "lds_bytes": 0,
   "args": [{"name": "x", "kind": "memref", "dtype": "f32", "rank": 2},
            {"name": "v", "kind": "memref", "dtype": "f32", "rank": 2}],
   "grid": {"symbols": [], "results": ["1"]}}]})";

/// Kernels whose code has static sizes and strides built in: a launch
/// giving other values is refused before the kernel could address memory
/// the buffer checks did not cover.
struct TypedFixture : ::testing::Test {
  void SetUp() override {
    Artifact art;
    art.kernels = kernelInfoFromJson(kTypedMetadata);
    art.codeObjects["gfx942"] =
        codeObject("gfx942", {{"typed", "s_endpgm"}, {"untyped", "s_endpgm"}});
    std::string bytes = writeArtifact(art);
    mod = std::make_unique<hkrt::Module>(dev.load(bytes.data(), bytes.size()));
  }
  /// A 2-D f32 memref over `buf` with the given sizes and strides.
  static hkrt_arg view(const hkrt::Buffer &buf, int64_t rows, int64_t cols,
                       int64_t rowStride, int64_t colStride) {
    int64_t sizes[2] = {rows, cols}, strides[2] = {rowStride, colStride};
    return hkrt_arg_memref(buf.get(), HKRT_DTYPE_F32, 2, sizes, strides);
  }
  hkrt::Device dev = hkrt::Device::isa("gfx942");
  std::unique_ptr<hkrt::Module> mod;
  hkrt::Buffer big = dev.alloc(64 * 256 * 4);
};

TEST_F(TypedFixture, StaticSizesAreChecked) {
  hkrt::Kernel k = mod->kernel("typed");
  hkrt_arg v = view(big, 64, 128, 128, 1);
  EXPECT_EQ(launchError(k, {big.memref(HKRT_DTYPE_F32, {64, 64}), v}),
            "argument 0 'x': dimension 1 of memref<?x128xf32> must be 128, "
            "got 64");
  EXPECT_EQ(launchError(k, {big.memref(HKRT_DTYPE_F32, {64, 256}), v}),
            "argument 0 'x': dimension 1 of memref<?x128xf32> must be 128, "
            "got 256");
  EXPECT_EQ(launchError(k, {big.memref(HKRT_DTYPE_F32, {64, 128}), v}), "");
  EXPECT_EQ(launchError(k, {big.memref(HKRT_DTYPE_F32, {0, 128}), v}), "");
}

TEST_F(TypedFixture, RowMajorStridesAreRequired) {
  hkrt::Kernel k = mod->kernel("typed");
  hkrt_arg v = view(big, 64, 128, 128, 1);
  // A zero row stride fits in any buffer, but the kernel would still step
  // 128 elements a row.
  EXPECT_EQ(launchError(k, {view(big, 64, 128, 0, 1), v}),
            "argument 0 'x': memref<?x128xf32> is contiguous row-major: its "
            "strides must be (128, 1) for sizes 64x128, got (0, 1)");
  EXPECT_EQ(launchError(k, {view(big, 32, 128, 256, 2), v}),
            "argument 0 'x': memref<?x128xf32> is contiguous row-major: its "
            "strides must be (128, 1) for sizes 32x128, got (256, 2)");
  EXPECT_EQ(launchError(k, {view(big, 64, 128, 256, 1), v}),
            "argument 0 'x': memref<?x128xf32> is contiguous row-major: its "
            "strides must be (128, 1) for sizes 64x128, got (256, 1)");
  EXPECT_EQ(launchError(k, {view(big, 64, 128, 128, 1), v}), "");
}

TEST_F(TypedFixture, StaticStridesOfAStridedLayoutAreRequired) {
  hkrt::Kernel k = mod->kernel("typed");
  hkrt_arg x = big.memref(HKRT_DTYPE_F32, {64, 128});
  EXPECT_EQ(launchError(k, {x, view(big, 64, 100, 200, 2)}),
            "argument 1 'v': stride of dimension 1 of memref<?x?xf32, "
            "strided<[?, 1]>> must be 1, got 2");
  // The dynamic row stride is the caller's: a pitched view runs.
  EXPECT_EQ(launchError(k, {x, view(big, 64, 100, 256, 1)}), "");
  EXPECT_EQ(launchError(k, {x, view(big, 64, 100, 100, 1)}), "");
}

TEST_F(TypedFixture, MemrefsBeyondABufferDescriptorAreRefused) {
  hkrt::Kernel k = mod->kernel("untyped");
  hkrt_arg v = view(big, 8, 8, 8, 1);
  // Rows 2^30 elements apart: 2^32 + 8 bytes, past any 32-bit range.
  EXPECT_EQ(launchError(k, {view(big, 2, 2, int64_t(1) << 30, 1), v}),
            "argument 0 'x': a 2x2 memref of f32 with strides (1073741824, "
            "1) reaches 4294967304 bytes; a kernel addresses at most "
            "4294967292 (HKRT_MAX_MEMREF_BYTES) through its 32-bit buffer "
            "descriptor");
}

TEST_F(TypedFixture, OutOfRangeOffsetsMustNotWrap) {
  hkrt::Kernel k = mod->kernel("untyped");
  hkrt_arg v = view(big, 8, 8, 8, 1);
  // 2 rows of 2^29 f32, 2^29 - 1 elements apart: 2^30 - 1 elements, 2^32 - 4
  // bytes of reach, within HKRT_MAX_MEMREF_BYTES; a row's span past it
  // would pass 2^32.
  int64_t half = int64_t(1) << 29, gig = int64_t(1) << 30;
  EXPECT_EQ(launchError(k, {view(big, 2, half, half - 1, 1), v}),
            "argument 0 'x': a 2x536870912 memref of f32 with strides "
            "(536870911, 1) reaches 4294967292 bytes; with its last "
            "dimension's span (2147483644 bytes) and 4096 more, the offsets "
            "a kernel gives positions out of range must stay within "
            "4294967292 (HKRT_MAX_MEMREF_BYTES)");
  // Rows of 64: 2^32 - 4 bytes of reach, 252 of span, refused too.
  std::string full = launchError(k, {view(big, 2, 64, gig - 65, 1), v});
  EXPECT_NE(full.find("must stay within"), std::string::npos) << full;
  // 2^32 - 7744 bytes of reach leave room for the span and 4096 bytes: only
  // the buffer, far too small, is then refused.
  std::string room = launchError(k, {view(big, 2, 64, gig - 2000, 1), v});
  EXPECT_NE(room.find("but its buffer has"), std::string::npos) << room;
}

TEST_F(TypedFixture, OlderMetadataChecksOnlyTheBuffer) {
  hkrt::Kernel k = mod->kernel("untyped");
  EXPECT_EQ(launchError(k, {view(big, 64, 64, 0, 1), view(big, 8, 8, 9, 2)}),
            "");
  EXPECT_EQ(launchError(k, {view(big, 64, 257, 257, 1), view(big, 8, 8, 9, 2)}),
            "argument 0 'x': a 64x257 memref of f32 with strides (257, 1) at "
            "offset 0 needs 65792 bytes, but its buffer has 65536 bytes");
}

/// A fault the ISA simulator catches is the launch's error, naming the
/// kernel, workgroup, wave and instruction.
TEST_F(IsaFixture, KernelFaultReachesTheLaunch) {
  Artifact art;
  art.kernels = {vaddInfo()};
  art.codeObjects["gfx942"] = codeObject("gfx942", {{"vadd", kWildStoreBody}});
  std::string bytes2 = writeArtifact(art);
  hkrt::Module m = dev.load(bytes2.data(), bytes2.size());
  hkrt::Buffer b = dev.alloc(256);
  hkrt_kernel kernel;
  ASSERT_EQ(hkrt_kernel_get(m.get(), "vadd", &kernel), HKRT_SUCCESS);
  hkrt_arg args[3] = {b.memref(HKRT_DTYPE_F32, {64}),
                      b.memref(HKRT_DTYPE_F32, {64}),
                      b.memref(HKRT_DTYPE_F32, {64})};
  EXPECT_EQ(hkrt_launch(kernel, args, 3), HKRT_ERROR_KERNEL_FAULT);
  std::string message = hkrt_last_error();
  EXPECT_EQ(message.rfind("kernel vadd (gfx942 code object), workgroup "
                          "(0,0,0), wave 0, pc ",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("global_store_dword"), std::string::npos) << message;
}

TEST(Hkrt, LookupAndLoadErrors) {
  hkrt::Device dev = hkrt::Device::isa("gfx950");
  EXPECT_EQ(dev.chip(), "gfx950");
  EXPECT_EQ(dev.kind(), HKRT_DEVICE_ISA);
  Artifact art;
  art.kernels = {vaddInfo()};
  art.codeObjects["gfx950"] = codeObject("gfx950", {{"vadd", kVaddBody}});
  std::string bytes = writeArtifact(art);
  hkrt::Module m = dev.load(bytes.data(), bytes.size());
  try {
    m.kernel("gemm");
    FAIL();
  } catch (const hkrt::Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_NOT_FOUND);
    EXPECT_STREQ(e.what(), "no kernel 'gemm' in the module (it has: vadd)");
  }
  // An artifact without a code object for the device's chip.
  art.codeObjects.clear();
  art.codeObjects["gfx942"] = codeObject("gfx942", {{"vadd", kVaddBody}});
  std::string other = writeArtifact(art);
  hkrt_module out = nullptr;
  EXPECT_EQ(hkrt_module_load(dev.get(), other.data(), other.size(), &out),
            HKRT_ERROR_NO_DEVICE);
  EXPECT_EQ(out, nullptr);
  EXPECT_NE(std::string(hkrt_last_error()).find("gfx950"), std::string::npos)
      << hkrt_last_error();
  EXPECT_EQ(hkrt_module_load(dev.get(), "junk", 4, &out),
            HKRT_ERROR_INVALID_ARTIFACT);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(hkrt_module_load_file(dev.get(), "/nonexistent.hkrt", &out),
            HKRT_ERROR_NOT_FOUND);
  EXPECT_STREQ(hkrt_last_error(), "cannot open artifact '/nonexistent.hkrt'");
  hkrt_device d = nullptr;
  EXPECT_EQ(hkrt_device_open_isa("gfx90a", &d), HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(hkrt_last_error(),
               "the ISA simulator models gfx942, gfx950, not 'gfx90a'");
  hkrt::Buffer b = dev.alloc(256);
  EXPECT_EQ(hkrt_buffer_write(b.get(), 200, "0123456789", 100),
            HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(hkrt_last_error(),
               "copy of 100 bytes at offset 200 overruns a buffer of 256 "
               "bytes");
}

} // namespace

// The rule hk-run's --shape and --args apply to a contiguous tensor before
// allocating it, the one hkrt applies at launch (OutOfRangeOffsetsMustNotWrap
// above): within HKRT_MAX_MEMREF_BYTES (2^32 - 4), and from rank 2 with room
// for the last dimension's span and 4096 bytes past it.
TEST(ContiguousBytes, FollowsTheLaunchRule) {
  using hk::rt::contiguousBytes;
  // 2^30 - 1 f32 in one dimension: 2^32 - 4 bytes, no out-of-range offsets.
  hk::rt::ContiguousBytes flat = contiguousBytes({(1 << 30) - 1}, 4);
  EXPECT_EQ(flat.bytes, 4294967292u);
  EXPECT_FALSE(flat.hasOutOfRangeOffsets);
  EXPECT_TRUE(flat.fits());
  EXPECT_FALSE(contiguousBytes({1 << 30}, 4).fits());
  // Rank 2: 2^32 - 7936 bytes of rows of 64 f32 (span 252) fit, 2^32 - 256
  // bytes do not; a last dimension of 1 (span 0) still needs the
  // 4096 bytes.
  hk::rt::ContiguousBytes room = contiguousBytes({(1 << 24) - 31, 64}, 4);
  EXPECT_EQ(room.bytes, 4294959360u);
  EXPECT_EQ(room.lastSpanBytes, 252u);
  EXPECT_TRUE(room.fits());
  EXPECT_FALSE(contiguousBytes({(1 << 24) - 1, 64}, 4).fits());
  hk::rt::ContiguousBytes column = contiguousBytes({(1 << 30) - 1, 1}, 4);
  EXPECT_EQ(column.lastSpanBytes, 0u);
  EXPECT_TRUE(column.hasOutOfRangeOffsets);
  EXPECT_FALSE(column.fits());
  EXPECT_TRUE(contiguousBytes({(1 << 30) - 1025, 1}, 4).fits());
  // Empty tensors fit; products past 64 bits overflow.
  EXPECT_TRUE(contiguousBytes({0, 1 << 30, 1 << 30}, 4).fits());
  hk::rt::ContiguousBytes huge =
      contiguousBytes({int64_t(1) << 40, int64_t(1) << 40}, 2);
  EXPECT_TRUE(huge.overflow);
  EXPECT_FALSE(huge.fits());
}
