//===- FetchAdd.cpp - hk.fetch_add as one atomic of the wave's first lane -===//
//
// The first active lane of the wave (the lane whose id readfirstlane
// returns) makes the atomic add, a memref.atomic_rmw addi on the argument's
// memref, which upstream lowers to an LLVM atomicrmw add and LLVM to
// global_atomic_add_u32 (flat_ on a generic pointer) with its return bit
// set; the old value goes from that lane to the whole wave with a second
// readfirstlane, so it lives in an SGPR. The other lanes make no access.
//===----------------------------------------------------------------------===//

#include "FetchAdd.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace hk;

namespace {

struct FetchAddLowering : OpConversionPattern<FetchAddOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FetchAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value lane = gpu::LaneIdOp::create(rewriter, loc, IntegerAttr());
    Value lane32 = arith::IndexCastUIOp::create(rewriter, loc, i32, lane);
    Value first = ROCDL::ReadfirstlaneOp::create(rewriter, loc, i32, lane32);
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane32, first);
    auto ifOp = scf::IfOp::create(
        rewriter, loc, isFirst,
        [&](OpBuilder &b, Location l) {
          Value old = memref::AtomicRMWOp::create(
              b, l, arith::AtomicRMWKind::addi, adaptor.getValue(),
              adaptor.getDest(), adaptor.getIndices());
          scf::YieldOp::create(b, l, old);
        },
        [&](OpBuilder &b, Location l) {
          Value none = arith::ConstantIntOp::create(b, l, 0, 32);
          scf::YieldOp::create(b, l, none);
        });
    rewriter.replaceOpWithNewOp<ROCDL::ReadfirstlaneOp>(op, i32,
                                                        ifOp.getResult(0));
    return success();
  }
};

} // namespace

void hk::populateFetchAddPatterns(TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringState &state) {
  patterns.add<FetchAddLowering>(converter, patterns.getContext());
  state.support.add<FetchAddOp>();
}
