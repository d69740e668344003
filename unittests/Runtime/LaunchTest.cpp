//===- LaunchTest.cpp - hkrt on the emulator: checks and small kernels ----===//
//
// Kernels are C++ lane functions registered as the lane code of an
// artifact's kernels, launched through the C API like compiled ones.
//===----------------------------------------------------------------------===//

#include "TestTolerances.h"

#include "hk/Runtime/Artifact.h"
#include "hk/Runtime/Emulator.h"
#include "hk/Runtime/KernelInfo.h"
#include "hk/Runtime/hkrt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

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

KernelInfo gemmInfo() {
  KernelInfo k;
  k.name = "gemm64";
  k.waves = 4;
  k.workgroupSize = 256;
  k.ldsBytes = 64 * 64 * 2;
  k.args = {{"A", HKRT_ARG_MEMREF, HKRT_DTYPE_BF16, 2},
            {"B", HKRT_ARG_MEMREF, HKRT_DTYPE_BF16, 2},
            {"C", HKRT_ARG_MEMREF, HKRT_DTYPE_F32, 2},
            {"alpha", HKRT_ARG_SCALAR, HKRT_DTYPE_F32, 0}};
  k.gridSymbols = {{2, 0}, {2, 1}};
  k.grid = {GridExpr::parse("s0 ceildiv 64"), GridExpr::parse("s1 ceildiv 64")};
  return k;
}

hkemu_buffer rsrc(void *arg) {
  auto *m = static_cast<hkemu_memref *>(arg);
  return {m->base, uint32_t(m->num_records)};
}

/// c[i] = a[i] + b[i], one element per lane; the tail of the last workgroup
/// relies on buffer range checks (loads read 0, stores are dropped).
void vaddLane(hkemu_lane *lane, void *const *args) {
  uint32_t i = hkemu_workgroup_id(lane, 0) * 64 + hkemu_lane_id(lane);
  float x, y;
  hkemu_buffer_load(lane, rsrc(args[0]), i * 4, 4, &x);
  hkemu_buffer_load(lane, rsrc(args[1]), i * 4, 4, &y);
  float z = x + y;
  hkemu_buffer_store(lane, rsrc(args[2]), i * 4, 4, &z);
}

/// C = alpha * A * B (A: MxK, B: KxN bf16 row-major, C f32), one 64x64 tile
/// per workgroup, K = 64. B's 64 x 64 tile is copied into LDS with LDS DMA
/// (4 bytes per lane, all four waves), then each wave w computes rows
/// [16w, 16w+16) as four 16x16 tiles with v_mfma_f32_16x16x16_bf16:
/// lane l holds A[l%16][4*(l/16)+i], B[4*(l/16)+i][l%16] and
/// D[4*(l/16)+r][l%16].
void gemmLane(hkemu_lane *lane, void *const *args) {
  auto *A = static_cast<hkemu_memref *>(args[0]);
  auto *B = static_cast<hkemu_memref *>(args[1]);
  float alpha = *static_cast<float *>(args[3]);
  uint32_t l = hkemu_lane_id(lane), w = hkemu_wave_id(lane);
  uint32_t row0 = hkemu_workgroup_id(lane, 0) * 64;
  uint32_t col0 = hkemu_workgroup_id(lane, 1) * 64;
  uint32_t lda = uint32_t(A->strides[0]), ldb = uint32_t(B->strides[0]);
  // B tile rows k in [0, 64), columns [col0, col0 + 64): 128 bytes a row,
  // 32 lanes a row; each DMA call of a wave covers two rows.
  for (uint32_t j = 0; j < 8; ++j) {
    uint32_t rowPair = j * 4 + w;
    uint32_t k = rowPair * 2 + l / 32, c = col0 + (l % 32) * 2;
    hkemu_lds_dma(lane, rsrc(B), (k * ldb + c) * 2, 0, rowPair * 256, 4, 1,
                  "B tile");
  }
  // The copies land at the wait; the barrier makes them every wave's.
  hkemu_wait_vmcnt(lane, 0, "before the barrier");
  hkemu_barrier(lane);
  float acc[4][4] = {};
  for (uint32_t kk = 0; kk < 64; kk += 16) {
    uint16_t a[4];
    for (uint32_t i = 0; i < 4; ++i)
      hkemu_buffer_load(
          lane, rsrc(A),
          ((row0 + 16 * w + l % 16) * lda + kk + 4 * (l / 16) + i) * 2, 2,
          &a[i]);
    for (uint32_t t = 0; t < 4; ++t) {
      uint16_t b[4];
      for (uint32_t i = 0; i < 4; ++i)
        hkemu_lds_load(lane, 0,
                       ((kk + 4 * (l / 16) + i) * 64 + 16 * t + l % 16) * 2, 2,
                       &b[i], 1);
      hkemu_mfma(lane, 16, 16, 16, HKEMU_BF16, HKEMU_BF16, a, b, acc[t],
                 acc[t]);
    }
  }
  for (uint32_t t = 0; t < 4; ++t)
    for (uint32_t r = 0; r < 4; ++r) {
      float v = alpha * acc[t][r];
      uint32_t row = row0 + 16 * w + 4 * (l / 16) + r;
      uint32_t col = col0 + 16 * t + l % 16;
      auto *C = static_cast<hkemu_memref *>(args[2]);
      hkemu_buffer_store(lane, rsrc(C), (row * C->strides[0] + col) * 4, 4, &v);
    }
}

struct EmulatorFixture : ::testing::Test {
  void SetUp() override {
    Artifact art;
    art.kernels = {vaddInfo(), gemmInfo()};
    art.emulatorModule = "// lane-level IR";
    bytes = writeArtifact(art);
    mod = std::make_unique<hkrt::Module>(dev.load(bytes.data(), bytes.size()));
    ASSERT_EQ(hkrt_emulator_set_lane_code(mod->get(), "vadd", vaddLane),
              HKRT_SUCCESS);
    ASSERT_EQ(hkrt_emulator_set_lane_code(mod->get(), "gemm64", gemmLane),
              HKRT_SUCCESS);
  }
  std::string bytes;
  hkrt::Device dev = hkrt::Device::emulator("gfx942");
  std::unique_ptr<hkrt::Module> mod;
};

uint16_t toBF16(float f) {
  uint32_t w;
  memcpy(&w, &f, 4);
  return uint16_t(w >> 16);
}
double fromBF16(uint16_t b) {
  uint32_t w = uint32_t(b) << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}

TEST_F(EmulatorFixture, VectorAddRaggedLength) {
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

TEST_F(EmulatorFixture, MfmaGemm64AgainstFloat64) {
  const int64_t M = 128, N = 64, K = 64; // two workgroups along M
  std::vector<uint16_t> A(M * K), B(K * N);
  std::mt19937 rng(11);
  for (auto &x : A)
    x = toBF16(std::uniform_real_distribution<float>(-1, 1)(rng));
  for (auto &x : B)
    x = toBF16(std::uniform_real_distribution<float>(-1, 1)(rng));
  hkrt::Buffer bA = dev.alloc(A.size() * 2), bB = dev.alloc(B.size() * 2),
               bC = dev.alloc(M * N * 4);
  bA.write(A.data(), A.size() * 2);
  bB.write(B.data(), B.size() * 2);
  const float alpha = 0.5f;
  mod->kernel("gemm64").launch({bA.memref(HKRT_DTYPE_BF16, {M, K}),
                                bB.memref(HKRT_DTYPE_BF16, {K, N}),
                                bC.memref(HKRT_DTYPE_F32, {M, N}),
                                hkrt_arg_float(HKRT_DTYPE_F32, alpha)});
  std::vector<float> C(M * N);
  bC.read(C.data(), C.size() * 4);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double ref = 0, scale = 0;
      for (int64_t k = 0; k < K; ++k) {
        double p = fromBF16(A[i * K + k]) * fromBF16(B[k * N + j]);
        ref += p;
        scale += std::fabs(p);
      }
      ASSERT_NEAR(C[i * N + j], alpha * ref,
                  alpha * hk::test::kGemmRelTol * scale)
          << "C[" << i << "][" << j << "]";
    }
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

TEST_F(EmulatorFixture, ArgumentChecksNameTheArgument) {
  hkrt::Buffer b = dev.alloc(64 * 64 * 4);
  hkrt::Kernel g = mod->kernel("gemm64");
  hkrt_arg A = b.memref(HKRT_DTYPE_BF16, {64, 64});
  hkrt_arg C = b.memref(HKRT_DTYPE_F32, {64, 64});
  hkrt_arg alpha = hkrt_arg_float(HKRT_DTYPE_F32, 1.0);
  EXPECT_EQ(launchError(g, {A, A, C}),
            "kernel 'gemm64' takes 4 arguments, got 3");
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
  hkrt::Device other = hkrt::Device::emulator("gfx942");
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
    std::string bytes = writeArtifact(art);
    mod = std::make_unique<hkrt::Module>(dev.load(bytes.data(), bytes.size()));
    for (const char *k : {"typed", "untyped"})
      ASSERT_EQ(hkrt_emulator_set_lane_code(mod->get(), k,
                                            [](hkemu_lane *, void *const *) {}),
                HKRT_SUCCESS);
  }
  /// A 2-D f32 memref over `buf` with the given sizes and strides.
  static hkrt_arg view(const hkrt::Buffer &buf, int64_t rows, int64_t cols,
                       int64_t rowStride, int64_t colStride) {
    int64_t sizes[2] = {rows, cols}, strides[2] = {rowStride, colStride};
    return hkrt_arg_memref(buf.get(), HKRT_DTYPE_F32, 2, sizes, strides);
  }
  hkrt::Device dev = hkrt::Device::emulator("gfx942");
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

TEST_F(EmulatorFixture, KernelFaultReachesTheLaunch) {
  Artifact art;
  KernelInfo k = vaddInfo();
  k.waves = 2;
  k.workgroupSize = 128;
  art.kernels = {k};
  std::string bytes2 = writeArtifact(art);
  hkrt::Module m = dev.load(bytes2.data(), bytes2.size());
  ASSERT_EQ(hkrt_emulator_set_lane_code(m.get(), "vadd",
                                        [](hkemu_lane *lane, void *const *) {
                                          if (hkemu_wave_id(lane) == 0)
                                            hkemu_barrier(lane);
                                        }),
            HKRT_SUCCESS);
  hkrt::Buffer b = dev.alloc(256);
  hkrt_kernel kernel;
  ASSERT_EQ(hkrt_kernel_get(m.get(), "vadd", &kernel), HKRT_SUCCESS);
  hkrt_arg args[3] = {b.memref(HKRT_DTYPE_F32, {64}),
                      b.memref(HKRT_DTYPE_F32, {64}),
                      b.memref(HKRT_DTYPE_F32, {64})};
  EXPECT_EQ(hkrt_launch(kernel, args, 3), HKRT_ERROR_KERNEL_FAULT);
  EXPECT_STREQ(hkrt_last_error(),
               "kernel 'vadd', workgroup (0, 0, 0), wave 0: barrier count "
               "mismatch: this wave waits at its barrier #1 but wave 1 "
               "finished after 0 barrier(s)");
}

TEST(Hkrt, LookupAndLoadErrors) {
  hkrt::Device dev = hkrt::Device::emulator("gfx950");
  EXPECT_EQ(dev.chip(), "gfx950");
  EXPECT_EQ(dev.kind(), HKRT_DEVICE_EMULATOR);
  Artifact art;
  art.kernels = {vaddInfo()};
  std::string bytes = writeArtifact(art);
  hkrt::Module m = dev.load(bytes.data(), bytes.size());
  try {
    m.kernel("gemm");
    FAIL();
  } catch (const hkrt::Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_NOT_FOUND);
    EXPECT_STREQ(e.what(), "no kernel 'gemm' in the module (it has: vadd)");
  }
  // No lane code and no emulator entry: a clear "unsupported".
  hkrt::Buffer b = dev.alloc(256);
  try {
    m.kernel("vadd").launch({b.memref(HKRT_DTYPE_F32, {64}),
                             b.memref(HKRT_DTYPE_F32, {64}),
                             b.memref(HKRT_DTYPE_F32, {64})});
    FAIL();
  } catch (const hkrt::Error &e) {
    EXPECT_EQ(e.status(), HKRT_ERROR_UNSUPPORTED);
    EXPECT_STREQ(e.what(), "kernel 'vadd' has no lane code on the emulator: "
                           "the artifact has no emulator entry");
  }
  hkrt_module out = nullptr;
  EXPECT_EQ(hkrt_module_load(dev.get(), "junk", 4, &out),
            HKRT_ERROR_INVALID_ARTIFACT);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(hkrt_module_load_file(dev.get(), "/nonexistent.hkrt", &out),
            HKRT_ERROR_NOT_FOUND);
  EXPECT_STREQ(hkrt_last_error(), "cannot open artifact '/nonexistent.hkrt'");
  hkrt_device d = nullptr;
  EXPECT_EQ(hkrt_device_open_emulator("gfx90a", &d),
            HKRT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(hkrt_last_error(),
               "the emulator models gfx942, gfx950, not 'gfx90a'");
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
