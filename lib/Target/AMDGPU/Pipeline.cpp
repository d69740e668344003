//===- Pipeline.cpp - MLIR passes of the direct path ----------------------===//
//
// Two stages: the hk lowering (tile IR to lane-level IR), looked up by name so
// that this library does not depend on it, and the upstream passes from
// lane-level IR to the LLVM dialect.
//===----------------------------------------------------------------------===//

#include "hk/Target/AMDGPU/Compiler.h"
#include "hk/Target/Chip.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/AMDGPU/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace hk::target {

/// The hk lowering pass, as its name is registered.
static constexpr llvm::StringLiteral kTileLoweringPass = "convert-hk-to-amdgpu";

bool containsTileKernels(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    return op->getName().getStringRef() == "hk.kernel" ? WalkResult::interrupt()
                                                       : WalkResult::advance();
  });
  return result.wasInterrupted();
}

static LogicalResult checkChip(ModuleOp module, const TargetOptions &options) {
  if (lookupChip(options.chip))
    return success();
  return module.emitError() << "unsupported chip '" << options.chip
                            << "'; expected one of " << supportedChipNames();
}

LogicalResult lowerTileToLaneLevel(ModuleOp module,
                                   const TargetOptions &options) {
  if (failed(checkChip(module, options)))
    return failure();
  // Schedules first (they insert barriers), then prove every wave executes
  // the same barriers, then the chip's limits, then the lowering, then the
  // vmcnt of each wait from the copies it leaves in flight.
  std::string schedule = options.schedule ? "hk-schedule" : "hk-schedule{plain=true}";
  std::string pipeline = schedule + ",hk-verify-barriers,hk-check-target{chip=" +
                         options.chip + "}," + kTileLoweringPass.str() +
                         "{chip=" + options.chip + "},hk-compute-waits";
  PassManager pm(module.getContext());
  std::string parseError;
  llvm::raw_string_ostream errorStream(parseError);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return module.emitError() << "cannot build the hk lowering pipeline '"
                              << pipeline << "': " << parseError;
  return pm.run(module);
}

/// Rewrites the vector ops that convert-gpu-to-rocdl has no LLVM pattern for
/// (strided slices, n-D shape casts and broadcasts, steps) into ones it has,
/// as convert-vector-to-llvm does before its own conversion.
static LogicalResult lowerVectorOpsForLLVM(gpu::GPUModuleOp gpuModule) {
  RewritePatternSet patterns(gpuModule.getContext());
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorStepLoweringPatterns(patterns);
  return applyPatternsGreedily(gpuModule, std::move(patterns));
}

/// The passes for one gpu.module. convert-gpu-to-rocdl carries the
/// amdgpu, arith, cf, math, memref and vector to LLVM patterns itself; what
/// it does not handle (scf, affine, strided-metadata views) is lowered first.
static void addGpuModulePasses(OpPassManager &pm,
                               const TargetOptions &options) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(mlir::amdgpu::createAmdgpuResolveStridedMetadataPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = options.chip;
  pm.addPass(createConvertGpuOpsToROCDLOps(rocdl));
}

LogicalResult lowerLaneLevelToLLVMDialect(ModuleOp module,
                                          const TargetOptions &options) {
  if (failed(checkChip(module, options)))
    return failure();
  if (module.getOps<gpu::GPUModuleOp>().empty())
    return module.emitError()
           << "no gpu.module to compile; hkc compiles the gpu.func kernels "
              "of the gpu.modules at the top level of the input";

  // Some upstream patterns report an op the chip cannot run (an MFMA shape,
  // a transpose load) and leave it to the partial conversion, which then
  // succeeds: any error reported on the way is a failure.
  bool reportedError = false;
  ScopedDiagnosticHandler errorWatch(module.getContext(), [&](Diagnostic &d) {
    reportedError |= d.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // let the enclosing handler print it
  });
  for (gpu::GPUModuleOp gpuModule : module.getOps<gpu::GPUModuleOp>())
    if (failed(lowerVectorOpsForLLVM(gpuModule)))
      return gpuModule.emitError() << "vector lowering did not converge";
  PassManager pm(module.getContext());
  addGpuModulePasses(pm.nest<gpu::GPUModuleOp>(), options);
  pm.addPass(createReconcileUnrealizedCastsPass());
  return failure(failed(pm.run(module)) || reportedError);
}

} // namespace hk::target
