//===- Pipelines.h - the compiler's pass pipelines, by name ---------------===//
//
// Every MLIR stage of hkc is one of these registered pipelines, so that
// `hk-opt --<name>` replays exactly what the compiler runs:
//   hk-tile-to-lane{chip,schedule}  hk tile IR -> lane-level gpu.modules
//   hk-lane-to-rocdl{chip}          lane-level IR -> LLVM dialect (ROCDL)
// docs/hkc.md lists the passes of each.
//===----------------------------------------------------------------------===//

#ifndef HK_COMPILER_PIPELINES_H
#define HK_COMPILER_PIPELINES_H

#include "hk/Base/Chip.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace hk::compiler {

struct TileToLaneOptions : mlir::PassPipelineOptions<TileToLaneOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("the chip to lower for"),
                           llvm::cl::init(kDefaultChip)};
  Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("expand schedule regions with hk-schedule's stagger, "
                     "priorities and hints (false: the plain expansion)"),
      llvm::cl::init(true)};
};

struct LaneToROCDLOptions : mlir::PassPipelineOptions<LaneToROCDLOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("the chip to lower for"),
                           llvm::cl::init(kDefaultChip)};
};

/// hk-schedule, hk-verify-barriers, hk-check-target, hk-expand-remaps,
/// convert-hk-to-amdgpu, hk-compute-waits.
void buildTileToLanePipeline(mlir::OpPassManager &pm,
                             const TileToLaneOptions &options);

/// On each gpu.module: hk-lower-vector-for-llvm, canonicalize, cse,
/// amdgpu-resolve-strided-metadata, expand-strided-metadata, lower-affine,
/// convert-scf-to-cf, convert-gpu-to-rocdl; then
/// reconcile-unrealized-casts.
void buildLaneToROCDLPipeline(mlir::OpPassManager &pm,
                              const LaneToROCDLOptions &options);

/// Registers the two pipelines under their names.
void registerPipelines();

} // namespace hk::compiler

#endif // HK_COMPILER_PIPELINES_H
