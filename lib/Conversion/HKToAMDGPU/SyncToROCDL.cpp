//===- SyncToROCDL.cpp - barriers and scheduler hints ---------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace hk;

namespace {

/// amdgpu.lds_barrier: s_barrier plus a wait for the wave's outstanding LDS
/// operations, which is what hk.barrier promises (LDS writes before it are
/// seen by every wave after it). Not gpu.barrier: its workgroup release
/// fence also waits for every outstanding global access (vmcnt(0)), which
/// would end each asynchronous prefetch at the next barrier. Copies into
/// LDS are waited for by hk.wait on their tokens, before the barrier.
struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<amdgpu::LDSBarrierOp>(op);
    return success();
  }
};

struct SetPrioLowering : OpConversionPattern<SetPrioOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SetPrioOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ROCDL::SetPrioOp>(
        op, rewriter.getI16IntegerAttr(op.getPriority()));
    return success();
  }
};

struct SchedBarrierLowering : OpConversionPattern<SchedBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SchedBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ROCDL::SchedBarrier>(op, op.getMaskAttr());
    return success();
  }
};

struct SchedGroupLowering : OpConversionPattern<SchedGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SchedGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ROCDL::SchedGroupBarrier>(
        op, op.getMaskAttr(), op.getSizeAttr(), op.getSyncAttr());
    return success();
  }
};

} // namespace

void hk::populateSyncToROCDLPatterns(TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     LoweringState &state) {
  patterns.add<BarrierLowering, SetPrioLowering, SchedBarrierLowering,
               SchedGroupLowering>(converter, patterns.getContext());
  state.support.add<BarrierOp, SetPrioOp, SchedBarrierOp, SchedGroupOp>();
}
