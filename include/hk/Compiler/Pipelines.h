//===- Pipelines.h - the compiler's pass pipelines, by name ---------------===//
//
// Every MLIR stage of hkc is one of these registered pipelines, so that
// `hk-opt --<name>` replays exactly what the compiler runs:
//   hk-tile-to-lane{chip,schedule}  hk tile IR -> lane-level gpu.modules
//   hk-lane-to-rocdl{chip}          lane-level IR -> LLVM dialect (ROCDL)
// Their passes are what the builders below add, in order:
// `hk-opt --<name> --dump-pass-pipeline` prints them, and
// docs/reference/HKPipelines.md is generated from that output.
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

/// Adds the passes that take hk tile kernels to lane-level IR for one chip:
/// schedules, target checks, the lowering and the waits it needs.
void buildTileToLanePipeline(mlir::OpPassManager &pm,
                             const TileToLaneOptions &options);

/// Adds the passes that take lane-level IR to the LLVM dialect with ROCDL
/// intrinsics, module by module.
void buildLaneToROCDLPipeline(mlir::OpPassManager &pm,
                              const LaneToROCDLOptions &options);

/// Registers the two pipelines under their names.
void registerPipelines();

} // namespace hk::compiler

#endif // HK_COMPILER_PIPELINES_H
