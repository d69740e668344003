//===- LowerVectorForLLVM.cpp - vector ops the LLVM conversions can take --===//
//
// The lowerings to LLVM (convert-gpu-to-rocdl on the GPU side,
// convert-vector-to-llvm on the host side) have no pattern for strided
// slices, n-D shape casts and broadcasts, or steps. convert-vector-to-llvm
// rewrites them first inside its own run, convert-gpu-to-rocdl does not;
// this pass does it for both, as a pass of their pipelines.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/LaneToROCDL/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace hk {
#define GEN_PASS_DEF_HKLOWERVECTORFORLLVM
#include "hk/Conversion/LaneToROCDL/Passes.h.inc"
} // namespace hk

using namespace mlir;

namespace {

struct LowerVectorForLLVM
    : hk::impl::HKLowerVectorForLLVMBase<LowerVectorForLLVM> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorStepLoweringPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError("vector lowering did not converge");
      signalPassFailure();
    }
  }
};

} // namespace
