//===- HKToAMDGPU.cpp - the convert-hk-to-amdgpu pass ---------------------===//
//
// Drives the lowering of hk tile kernels to lane-level IR: the type
// converter, the legality of what is left, and a check that names, before
// anything is rewritten, every op the lowering cannot handle yet.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::hk {
#define GEN_PASS_DEF_CONVERTHKTOAMDGPU
#include "hk/Dialect/HK/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

void mlir::hk::populateHKToAMDGPUTypeConversions(TypeConverter &converter) {
  converter.addConversion([](Type t) { return t; });
  converter.addConversion([](RankedTensorType t) -> std::optional<Type> {
    if (isRegTile(t))
      return VectorType::get({getTileLayout(t).regsPerLane()},
                             t.getElementType());
    if (isRegVec(t))
      return VectorType::get({getVectorLayout(t).regsPerLane()},
                             t.getElementType());
    return std::nullopt;
  });
  populateSharedMemoryTypeConversions(converter);
}

static bool isRegister(Type t) { return isRegTile(t) || isRegVec(t); }

/// Ops of other dialects that may carry register tiles: elementwise math,
/// splat constants, and the structured control flow that moves them around.
static std::string unsupportedOnRegisters(Operation *op) {
  bool touches = llvm::any_of(op->getOperandTypes(), isRegister) ||
                 llvm::any_of(op->getResultTypes(), isRegister);
  if (!touches || OpTrait::hasElementwiseMappableTraits(op) ||
      isa<scf::ForOp, scf::IfOp, scf::YieldOp, scf::WhileOp, scf::ConditionOp,
          tensor::SplatOp>(op))
    return "";
  if (auto cst = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(cst.getValue())
               ? ""
               : "non-splat register tile constants are not supported yet";
  return "is not supported on register tiles yet";
}

std::string mlir::hk::unsupportedReason(Operation *op,
                                        const ::hk::ChipInfo &chip) {
  if (!isa<HKDialect>(op->getDialect())) {
    std::string why = unsupportedMathReason(op);
    return why.empty() ? unsupportedOnRegisters(op) : why;
  }
  if (isa<KernelOp, ReturnOp, BlockIdOp, NumBlocksOp, WaveIdOp, BarrierOp,
          SetPrioOp, SchedBarrierOp, SchedGroupOp>(op))
    return "";
  if (isa<RowReduceOp, ColReduceOp, RowBroadcastOp, ColBroadcastOp, TrilOp,
          TriuOp, BoundsMaskOp, TransposeOp, AtomicAddOp>(op))
    return "";
  if (isa<SwapLayoutOp>(op))
    return unsupportedSwapLayoutReason(op);
  if (isa<AllocSharedOp, SubtileOp, LoadAsyncOp, WaitOp, LoadOp, StoreOp>(op))
    return unsupportedSharedMemoryReason(op, chip);
  if (isa<MmaOp>(op))
    return unsupportedMmaReason(op, chip);
  if (isa<XcdRemapOp, GroupRemapOp>(op))
    return "is expanded by hk-expand-remaps, which must run first (as in the "
           "hk-tile-to-lane pipeline)";
  return "is not supported yet";
}

namespace {

struct ConvertHKToAMDGPU
    : mlir::hk::impl::ConvertHKToAMDGPUBase<ConvertHKToAMDGPU> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const ::hk::ChipInfo *info = ::hk::lookupChip(chip);
    if (!info) {
      module.emitError("convert-hk-to-amdgpu: unknown chip '")
          << chip << "'; supported: " << ::hk::supportedChipNames();
      return signalPassFailure();
    }
    if (failed(checkSupported(*info)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populateHKToAMDGPUTypeConversions(converter);
    LoweringState state(*info);
    RewritePatternSet patterns(ctx);
    populateKernelToGPUPatterns(converter, patterns, state);
    populateGlobalAccessPatterns(converter, patterns, state);
    populateMmaToMFMAPatterns(converter, patterns, state);
    populateElementwisePatterns(converter, patterns);
    populateSyncToROCDLPatterns(converter, patterns);
    populateReductionPatterns(converter, patterns, state);
    populateBroadcastPatterns(converter, patterns);
    populateMaskPatterns(converter, patterns);
    populateLayoutChangePatterns(converter, patterns);
    populateAtomicAddPatterns(converter, patterns, state);
    populateSharedMemoryPatterns(converter, patterns, state);
    populateAsyncCopyPatterns(converter, patterns, state);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<HKDialect>();
    target.addLegalDialect<amdgpu::AMDGPUDialect, gpu::GPUDialect,
                           memref::MemRefDialect, ROCDL::ROCDLDialect,
                           vector::VectorDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<tensor::SplatOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    populateMathToROCDLPatterns(converter, patterns, target);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
  }

  /// Names every op that cannot be lowered for `info`, so that the pass
  /// never stops on a bare "failed to legalize".
  LogicalResult checkSupported(const ::hk::ChipInfo &info) {
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      std::string why = unsupportedReason(op, info);
      if (why.empty())
        return;
      op->emitError("convert-hk-to-amdgpu: '")
          << op->getName() << "' " << why << " (chip " << info.name << ")";
      ok = false;
    });
    return success(ok);
  }
};

} // namespace
