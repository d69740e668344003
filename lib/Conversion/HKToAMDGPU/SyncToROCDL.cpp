//===- SyncToROCDL.cpp - barriers and scheduler hints ---------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace mlir::hk;

namespace {

/// gpu.barrier, not a bare s_barrier: its workgroup fences make LDS writes
/// made before the barrier visible to the other waves after it, which is
/// what hk.barrier promises. Schedules that want the bare instruction will
/// get their own op.
struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
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

void mlir::hk::populateSyncToROCDLPatterns(TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<BarrierLowering, SetPrioLowering, SchedBarrierLowering,
               SchedGroupLowering>(converter, patterns.getContext());
}
