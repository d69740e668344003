//===- ReportOption.cpp - hkc --report and --no-schedule ------------------===//

#include "ReportOption.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Target/AMDGPU/Report.h"
#include "hk/Target/AMDGPU/ResourceUsage.h"
#include "hk/Target/Chip.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ::hk::target;

namespace hk::hkc {

/// A copy of `module` that compiles to the same code. CloneModule does not
/// keep the order of each value's uses, which the backend's choices (register
/// assignment among them) depend on; a bitcode round trip that preserves it
/// does, so the report sees the instructions `--emit=asm` prints.
static FailureOr<std::unique_ptr<llvm::Module>>
copyModule(const llvm::Module &module, Location loc) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(module, stream, /*ShouldPreserveUseListOrder=*/true);
  auto copy = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                            module.getModuleIdentifier()),
      module.getContext());
  if (!copy)
    return emitError(loc) << "cannot copy the LLVM module for the report: "
                          << llvm::toString(copy.takeError());
  return std::move(*copy);
}

LogicalResult printCodeQualityReport(const llvm::Module &llvmModule,
                                     const TargetOptions &options,
                                     bool toStderr, Location loc) {
  // Code generation changes the module it runs on: each output gets a copy.
  auto forAssembly = copyModule(llvmModule, loc);
  auto forObject = copyModule(llvmModule, loc);
  if (failed(forAssembly) || failed(forObject))
    return failure();
  auto assembly =
      emitMachineCode(**forAssembly, options, CodeGenFileKind::Assembly, loc);
  if (failed(assembly))
    return failure();
  auto object =
      emitMachineCode(**forObject, options, CodeGenFileKind::Object, loc);
  if (failed(object))
    return failure();
  auto codeObject = linkCodeObject(*object, loc);
  if (failed(codeObject))
    return failure();

  auto kernels =
      analyzeAssembly(llvm::StringRef(assembly->data(), assembly->size()));
  if (!kernels)
    return emitError(loc) << "cannot analyse the assembly for the report: "
                          << llvm::toString(kernels.takeError());
  auto resources = readKernelResources(*codeObject);
  if (!resources)
    return emitError(loc) << "cannot read the code object's metadata: "
                          << llvm::toString(resources.takeError());
  const ::hk::ChipInfo *info = ::hk::lookupChip(options.chip);
  llvm::raw_ostream &os = toStderr ? llvm::errs() : llvm::outs();
  printReport(os, options.chip, *kernels, *resources, info->ldsBytes);
  os.flush();
  return success();
}

/// Replaces `op` (a schedule region or cluster) by the ops of its body; its
/// results become the values its hk.yield returned (as hk-schedule does).
static void inlineBody(RewriterBase &rewriter, Operation *op) {
  Block &body = op->getRegion(0).front();
  Operation *yield = body.getTerminator();
  SmallVector<Value> values(yield->getOperands());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, op);
  rewriter.replaceOp(op, values);
}

/// The schedule regions without the schedule: every cluster of a ping-pong
/// still ends with hk.barrier, the synchronisation the region's accesses
/// rely on (with all waves in step it orders cluster i before cluster i+1
/// of the other waves, more than the staggered schedule does), but there is
/// no stagger, no hk.set_prio and no hk.sched_barrier; an interleave, which
/// adds no barrier, loses its fences and hk.sched_group hints.
static LogicalResult expandSchedulesPlainly(ModuleOp module) {
  SmallVector<Operation *> regions;
  module.walk([&](Operation *op) {
    if (isa<mlir::hk::PingPongOp, mlir::hk::InterleaveOp>(op))
      regions.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (Operation *region : regions) {
    bool pingPong = isa<mlir::hk::PingPongOp>(region);
    SmallVector<mlir::hk::ClusterOp> clusters;
    WalkResult walk = region->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto cluster = dyn_cast<mlir::hk::ClusterOp>(op))
        clusters.push_back(cluster);
      if (pingPong && isa<mlir::hk::BarrierOp>(op)) {
        op->emitError("hk.barrier inside hk.ping_pong: the schedule inserts "
                      "a barrier after every cluster");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    for (mlir::hk::ClusterOp cluster : clusters) {
      if (pingPong) {
        rewriter.setInsertionPointAfter(cluster);
        mlir::hk::BarrierOp::create(rewriter, cluster.getLoc());
      }
      inlineBody(rewriter, cluster);
    }
    inlineBody(rewriter, region);
  }
  return success();
}

LogicalResult lowerTileUnscheduled(ModuleOp module,
                                   const TargetOptions &options) {
  if (failed(expandSchedulesPlainly(module)))
    return failure();
  // lowerTileToLaneLevel's pipeline (lib/Target/AMDGPU/Pipeline.cpp) without
  // its first pass, hk-schedule.
  std::string pipeline =
      "hk-verify-barriers,hk-check-target{chip=" + options.chip +
      "},convert-hk-to-amdgpu{chip=" + options.chip + "}";
  PassManager pm(module.getContext());
  std::string parseError;
  llvm::raw_string_ostream errorStream(parseError);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return module.emitError() << "cannot build the hk lowering pipeline '"
                              << pipeline << "': " << parseError;
  return pm.run(module);
}

} // namespace hk::hkc
