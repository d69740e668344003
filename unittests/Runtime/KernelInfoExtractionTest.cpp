//===- KernelInfoExtractionTest.cpp - metadata from real hk kernels -------===//
//
// Parses the library's kernels (kernels/) and checks the metadata read from
// them against what their sources say (signature, waves, LDS stages, #hk.grid),
// then evaluates the extracted grid.
//===----------------------------------------------------------------------===//

#include "hk/Target/KernelInfo/KernelInfoExtraction.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using hk::extractKernelInfo;
using hk::HKDialect;
using hk::KernelOp;

namespace {

struct Extraction : ::testing::Test {
  Extraction() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<HKDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  /// The hk.kernel of kernels/<name>/<name>.mlir.
  KernelOp kernel(const std::string &name) {
    module = parseSourceFile<ModuleOp>(std::string(HK_KERNELS_SOURCE_DIR) +
                                           "/" + name + "/" + name + ".mlir",
                                       &ctx);
    if (!module)
      return nullptr;
    KernelOp k;
    module->walk([&](KernelOp op) { k = op; });
    return k;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(Extraction, GemmExample) {
  KernelOp k = kernel("gemm_bf16");
  ASSERT_TRUE(k);
  FailureOr<hk::rt::KernelInfo> info = extractKernelInfo(k);
  ASSERT_TRUE(succeeded(info));
  EXPECT_EQ(info->name, "gemm_bf16");
  EXPECT_EQ(info->waves, 8);
  EXPECT_EQ(info->workgroupSize, 512);
  // Two stages of 256x64 bf16 (A and B).
  EXPECT_EQ(info->ldsBytes, 2 * 256 * 64 * 2);
  ASSERT_EQ(info->args.size(), 3u);
  for (const auto &a : info->args) {
    EXPECT_EQ(a.kind, HKRT_ARG_MEMREF);
    EXPECT_EQ(a.dtype, HKRT_DTYPE_BF16);
    EXPECT_EQ(a.rank, 2);
  }
  ASSERT_EQ(info->gridSymbols.size(), 2u);
  EXPECT_EQ(info->gridSymbols[0].arg, 2);
  EXPECT_EQ(info->gridSymbols[0].dim, 0);
  EXPECT_EQ(info->gridSymbols[1].dim, 1);
  ASSERT_EQ(info->grid.size(), 1u);
  // (s0 ceildiv 256) * (s1 ceildiv 256): 1000 x 300 -> 4 * 2.
  EXPECT_EQ(info->grid[0].evaluate({1000, 300}), 8);
  EXPECT_EQ(info->grid[0].evaluate({256, 256}), 1);
  // The JSON form reads back to the same grid.
  auto back = hk::rt::kernelInfoFromJson(hk::rt::kernelInfoToJson({*info}));
  EXPECT_EQ(back[0].grid[0].evaluate({1000, 300}), 8);
}

TEST_F(Extraction, ScalarArgumentsAndStaticShapes) {
  KernelOp k = kernel("rmsnorm");
  ASSERT_TRUE(k);
  FailureOr<hk::rt::KernelInfo> info = extractKernelInfo(k);
  ASSERT_TRUE(succeeded(info));
  EXPECT_EQ(info->waves, 4);
  ASSERT_EQ(info->args.size(), 4u);
  EXPECT_EQ(info->args[1].rank, 1);
  EXPECT_EQ(info->args[3].kind, HKRT_ARG_SCALAR);
  EXPECT_EQ(info->args[3].dtype, HKRT_DTYPE_F32);
  EXPECT_EQ(info->grid[0].evaluate({1000}), 8); // 1000 ceildiv 128
  // x: memref<?x128xbf16>, weight: memref<128xbf16>: the static sizes the
  // kernel's code has built in, and the identity layout.
  using hk::rt::kDynamic;
  using hk::rt::MemrefLayout;
  EXPECT_EQ(info->args[0].shape, (std::vector<int64_t>{kDynamic, 128}));
  EXPECT_EQ(info->args[0].layout, MemrefLayout::RowMajor);
  EXPECT_EQ(info->args[1].shape, (std::vector<int64_t>{128}));
  EXPECT_TRUE(info->args[3].shape.empty());
  EXPECT_EQ(info->args[3].layout, MemrefLayout::Unknown);
  EXPECT_EQ(hk::rt::argTypeText(info->args[0]), "memref<?x128xbf16>");
}

TEST_F(Extraction, AttentionViewsAreStrided) {
  KernelOp k = kernel("attention_fwd");
  ASSERT_TRUE(k);
  FailureOr<hk::rt::KernelInfo> info = extractKernelInfo(k);
  ASSERT_TRUE(succeeded(info));
  using hk::rt::kDynamic;
  // The file's last kernel, attention_fwd_d64.
  // Q: memref<?x?x?x64xbf16, strided<[?, ?, ?, 1]>>; L: memref<?x?x?xf32>.
  EXPECT_EQ(info->args[0].layout, hk::rt::MemrefLayout::Strided);
  EXPECT_EQ(info->args[0].strides,
            (std::vector<int64_t>{kDynamic, kDynamic, kDynamic, 1}));
  EXPECT_EQ(hk::rt::argTypeText(info->args[0]),
            "memref<?x?x?x64xbf16, strided<[?, ?, ?, 1]>>");
  EXPECT_EQ(info->args[0].shape,
            (std::vector<int64_t>{kDynamic, kDynamic, kDynamic, 64}));
  EXPECT_EQ(info->args[4].layout, hk::rt::MemrefLayout::RowMajor);
  auto back = hk::rt::kernelInfoFromJson(hk::rt::kernelInfoToJson({*info}));
  EXPECT_EQ(back[0].args[0].strides, info->args[0].strides);
  EXPECT_EQ(back[0].args[4].shape, info->args[4].shape);
}

TEST_F(Extraction, LayoutsTheRuntimeCannotPass) {
  auto error = [&](const std::string &type) {
    std::string src = "hk.kernel @k(%m: " + type +
                      ") attributes {waves = 1 : i32, grid = "
                      "#hk.grid<[] -> (1)>} {\n  hk.return\n}";
    module = parseSourceString<ModuleOp>(src, &ctx);
    if (!module)
      return std::string("does not parse");
    KernelOp k;
    module->walk([&](KernelOp op) { k = op; });
    std::string message;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      message = d.str();
      return success();
    });
    if (succeeded(extractKernelInfo(k)))
      return std::string();
    return message;
  };
  EXPECT_EQ(error("memref<?x?xf32, strided<[?, 1], offset: 4>>"),
            "'hk.kernel' op argument 0 has type 'memref<?x?xf32, "
            "strided<[?, 1], offset: 4>>': the runtime passes memrefs at "
            "offset 0, not 4");
  EXPECT_EQ(error("memref<?x?xf32, strided<[?, -1]>>"),
            "'hk.kernel' op argument 0 has type 'memref<?x?xf32, "
            "strided<[?, -1]>>': the runtime does not support negative "
            "strides");
  EXPECT_EQ(error("memref<4x4xf32, affine_map<(i, j) -> (j, i)>>"),
            "'hk.kernel' op argument 0 has type 'memref<4x4xf32, "
            "affine_map<(d0, d1) -> (d1, d0)>>', whose layout is not "
            "strided; the runtime cannot pass it");
  // A dynamic offset is the runtime's 0.
  EXPECT_EQ(error("memref<?x?xf32, strided<[?, 1], offset: ?>>"), "");
}

TEST_F(Extraction, NamesFromArgumentAttributes) {
  const char *src = R"mlir(
    hk.kernel @k(%x: memref<?xf32> {hk.name = "input"}, %n: i32, %arg9: i32)
        attributes {waves = 1 : i32,
                    grid = #hk.grid<[arg(1)] -> (s0 floordiv 2 - 1)>} {
      hk.return
    })mlir";
  module = parseSourceString<ModuleOp>(src, &ctx);
  ASSERT_TRUE(module);
  KernelOp k;
  module->walk([&](KernelOp op) { k = op; });
  FailureOr<hk::rt::KernelInfo> info = extractKernelInfo(k);
  ASSERT_TRUE(succeeded(info));
  EXPECT_EQ(info->args[0].name, "input");
  // The source's own name, kept by the parser.
  EXPECT_EQ(info->args[1].name, "n");
  // No name in the source (arg<N> is what the printer makes up): by position.
  EXPECT_EQ(info->args[2].name, "arg2");
  EXPECT_TRUE(info->gridSymbols[0].isScalar());
  EXPECT_EQ(info->grid[0].evaluate({10}), 4);
}

TEST_F(Extraction, AttentionCausalFlagIsABoolScalar) {
  // The last kernel of the file: attention_fwd_d64(Q, K, V, O, L, causal).
  KernelOp k = kernel("attention_fwd");
  ASSERT_TRUE(k);
  FailureOr<hk::rt::KernelInfo> info = extractKernelInfo(k);
  ASSERT_TRUE(succeeded(info));
  EXPECT_EQ(info->name, "attention_fwd_d64");
  ASSERT_EQ(info->args.size(), 6u);
  EXPECT_EQ(info->args[4].dtype, HKRT_DTYPE_F32);
  EXPECT_EQ(info->args[5].name, "causal");
  EXPECT_EQ(info->args[5].kind, HKRT_ARG_SCALAR);
  EXPECT_EQ(info->args[5].dtype, HKRT_DTYPE_BOOL);
  auto back = hk::rt::kernelInfoFromJson(hk::rt::kernelInfoToJson({*info}));
  EXPECT_EQ(back[0].args[5].dtype, HKRT_DTYPE_BOOL);
}

TEST_F(Extraction, MemrefOfBoolIsAnError) {
  const char *src = R"mlir(
    hk.kernel @k(%m: memref<?xi1>) attributes {waves = 1 : i32,
                                               grid = #hk.grid<[] -> (1)>} {
      hk.return
    })mlir";
  module = parseSourceString<ModuleOp>(src, &ctx);
  ASSERT_TRUE(module);
  KernelOp k;
  module->walk([&](KernelOp op) { k = op; });
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  EXPECT_TRUE(failed(extractKernelInfo(k)));
  // Diagnostics quote types.
  EXPECT_EQ(message, "'hk.kernel' op argument 0 has type 'memref<?xi1>': the "
                     "runtime passes i1 as a scalar only");
}

} // namespace
