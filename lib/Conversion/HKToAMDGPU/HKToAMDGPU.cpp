//===- HKToAMDGPU.cpp - the convert-hk-to-amdgpu pass ---------------------===//
//
// Drives the lowering of hk tile kernels to lane-level IR: the type
// converter, the legality of what is left, and a check that names, before
// anything is rewritten, every op the lowering cannot handle yet.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "FetchAdd.h"
#include "hk/Conversion/HKToAMDGPU/Passes.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace hk {
#define GEN_PASS_DEF_CONVERTHKTOAMDGPU
#include "hk/Conversion/HKToAMDGPU/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

void hk::populateHKToAMDGPUTypeConversions(TypeConverter &converter) {
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

std::string LoweringSupport::reason(Operation *op,
                                    const hk::ChipInfo &chip) const {
  if (isa<HKDialect>(op->getDialect())) {
    auto it = checks.find(op->getName().getTypeID());
    if (it == checks.end())
      return "is not supported yet";
    for (const Check &check : it->second)
      if (std::string why = check ? check(op, chip) : ""; !why.empty())
        return why;
    return "";
  }
  bool handled = false;
  for (const ForeignCheck &check : foreign) {
    std::optional<std::string> why = check(op);
    if (why && !why->empty())
      return *why;
    handled |= why.has_value();
  }
  bool touches = llvm::any_of(op->getOperandTypes(), isRegister) ||
                 llvm::any_of(op->getResultTypes(), isRegister);
  return handled || !touches ? "" : "is not supported on register tiles yet";
}

namespace {

struct ConvertHKToAMDGPU : hk::impl::ConvertHKToAMDGPUBase<ConvertHKToAMDGPU> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const hk::ChipInfo *info = hk::lookupChip(chip);
    if (!info) {
      module.emitError("convert-hk-to-amdgpu: unknown chip '")
          << chip << "'; supported: " << hk::supportedChipNames();
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populateHKToAMDGPUTypeConversions(converter);
    LoweringState state(*info);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    populateKernelToGPUPatterns(converter, patterns, state);
    populateGlobalAccessPatterns(converter, patterns, state);
    populateMmaToMFMAPatterns(converter, patterns, state);
    populateElementwisePatterns(converter, patterns, state);
    populateFp8ConversionPatterns(converter, patterns, state);
    populateSyncToROCDLPatterns(converter, patterns, state);
    populateReductionPatterns(converter, patterns, state);
    populateBroadcastPatterns(converter, patterns, state);
    populateMaskPatterns(converter, patterns, state);
    populateLayoutChangePatterns(converter, patterns, state);
    populateAtomicAddPatterns(converter, patterns, state);
    populateFetchAddPatterns(converter, patterns, state);
    populateSharedMemoryPatterns(converter, patterns, state);
    populateAsyncCopyPatterns(converter, patterns, state);
    populateMathToROCDLPatterns(converter, patterns, target, state);
    populatePositionPatterns(converter, patterns, state);
    populateScanPatterns(converter, patterns, state);
    populateTrigPatterns(converter, patterns, target, state);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    state.support.addForeign([](Operation *op) -> std::optional<std::string> {
      if (isa<scf::ForOp, scf::IfOp, scf::YieldOp, scf::WhileOp,
              scf::ConditionOp>(op))
        return std::string();
      return std::nullopt;
    });
    // The grid remaps are index arithmetic whose formulas hk-expand-remaps
    // owns; it runs first in the hk-tile-to-lane pipeline.
    state.support.add<XcdRemapOp, GroupRemapOp>(
        [](Operation *, const hk::ChipInfo &) -> std::string {
          return "is expanded by hk-expand-remaps, which must run first (as "
                 "in the hk-tile-to-lane pipeline)";
        });
    if (failed(checkSupported(state)))
      return signalPassFailure();

    target.addIllegalDialect<HKDialect>();
    target.addLegalDialect<amdgpu::AMDGPUDialect, gpu::GPUDialect,
                           memref::MemRefDialect, ROCDL::ROCDLDialect,
                           vector::VectorDialect>();
    // The pair a v_permlane swap returns, the expected result of a vote
    // (Reductions.cpp), and the frozen limits of bounds checks
    // (GlobalAccess.cpp).
    target.addLegalOp<LLVM::ExtractValueOp, LLVM::ExpectOp, LLVM::FreezeOp>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<tensor::SplatOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
  }

  /// Names every op that cannot be lowered for the chip, before anything is
  /// rewritten, so that the pass never stops on a bare "failed to legalize".
  LogicalResult checkSupported(const LoweringState &state) {
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      std::string why = state.support.reason(op, state.chip);
      if (why.empty())
        return;
      op->emitError("convert-hk-to-amdgpu: '")
          << op->getName() << "' " << why << " (chip " << state.chip.name
          << ")";
      ok = false;
    });
    return success(ok);
  }
};

} // namespace
