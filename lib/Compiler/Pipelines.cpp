//===- Pipelines.cpp - the compiler's pass pipelines ----------------------===//

#include "hk/Compiler/Pipelines.h"
#include "hk/Conversion/HKToAMDGPU/Passes.h"
#include "hk/Conversion/LaneToROCDL/Passes.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/AMDGPU/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace hk::compiler {

void buildTileToLanePipeline(OpPassManager &pm,
                             const TileToLaneOptions &options) {
  // The chip's 8-bit float formats first (every later pass sees builtin
  // types), then schedules (they insert barriers), then prove every wave
  // executes the same barriers, then the chip's limits, then the lowering, then
  // the vmcnt of each wait from the copies it leaves in flight. hk-peel-bounds
  // splits loops whose tile loads reach the last column only in their last
  // iterations, so the steady state carries no column checks.
  hk::HKScheduleOptions schedule;
  schedule.plain = !options.schedule;
  pm.addPass(hk::createHKResolveFp8({options.chip}));
  pm.addPass(hk::createHKSchedule(schedule));
  pm.addPass(hk::createHKVerifyBarriers());
  pm.addPass(hk::createHKCheckTarget({options.chip}));
  pm.addPass(hk::createHKStageSwaps({options.chip}));
  pm.addPass(hk::createHKTransposeShared({options.chip}));
  pm.addPass(hk::createHKExpandRemaps());
  pm.addPass(hk::createHKPeelBounds());
  pm.addPass(hk::createConvertHKToAMDGPU({options.chip}));
  pm.addPass(hk::createHKComputeWaits());
}

void buildLaneToROCDLPipeline(OpPassManager &pm,
                              const LaneToROCDLOptions &options) {
  // convert-gpu-to-rocdl carries the amdgpu, arith, cf, math, memref and
  // vector to LLVM patterns itself; what it does not handle (strided slices,
  // scf, affine, strided-metadata views) is lowered first. After it, the
  // constant parts of LDS addresses go into GEPs of their own, which LLVM
  // folds into the instructions' offset fields (hk-split-lds-offsets), and
  // vectors rounded to 16-bit floats stay packed (hk-fence-packed-truncs).
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(hk::createHKLowerVectorForLLVM());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  gpu.addPass(mlir::amdgpu::createAmdgpuResolveStridedMetadataPass());
  gpu.addPass(memref::createExpandStridedMetadataPass());
  gpu.addPass(createLowerAffinePass());
  gpu.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = options.chip;
  gpu.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  gpu.addPass(hk::createHKSplitLdsOffsets());
  gpu.addPass(hk::createHKFencePackedTruncs());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void registerPipelines() {
  PassPipelineRegistration<TileToLaneOptions>(
      "hk-tile-to-lane",
      "hk tile kernels to lane-level gpu.modules for one chip (what hkc "
      "runs first)",
      buildTileToLanePipeline);
  PassPipelineRegistration<LaneToROCDLOptions>(
      "hk-lane-to-rocdl",
      "lane-level gpu.modules to the LLVM dialect with ROCDL intrinsics",
      buildLaneToROCDLPipeline);
}

} // namespace hk::compiler
