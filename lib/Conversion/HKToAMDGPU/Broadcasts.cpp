//===- Broadcasts.cpp - hk.row_broadcast / hk.col_broadcast ---------------===//
//
// Layout.h gives a row (column) vector's value to every lane holding
// elements of that row (column), so a broadcast moves no data between
// lanes: each tile register combines with the vector register holding its
// row (AxisMap). One vector.shuffle spreads the vector over the tile's
// registers; one elementwise op combines.
//===----------------------------------------------------------------------===//

#include "AxisMap.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;

/// `x <kind> y`; max and min are IEEE maxNum / minNum as in HK (fmaxf).
static Value combineBroadcast(OpBuilder &b, Location loc, BroadcastKind kind,
                              Value x, Value y) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(x.getType()));
  switch (kind) {
  case BroadcastKind::Add:
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  case BroadcastKind::Sub:
    return isFloat ? arith::SubFOp::create(b, loc, x, y).getResult()
                   : arith::SubIOp::create(b, loc, x, y).getResult();
  case BroadcastKind::Mul:
    return isFloat ? arith::MulFOp::create(b, loc, x, y).getResult()
                   : arith::MulIOp::create(b, loc, x, y).getResult();
  case BroadcastKind::Div:
    return isFloat ? arith::DivFOp::create(b, loc, x, y).getResult()
                   : arith::DivSIOp::create(b, loc, x, y).getResult();
  case BroadcastKind::Max:
    return isFloat ? arith::MaxNumFOp::create(b, loc, x, y).getResult()
                   : arith::MaxSIOp::create(b, loc, x, y).getResult();
  case BroadcastKind::Min:
    return isFloat ? arith::MinNumFOp::create(b, loc, x, y).getResult()
                   : arith::MinSIOp::create(b, loc, x, y).getResult();
  case BroadcastKind::Copy:
    return y;
  }
  llvm_unreachable("unknown broadcast kind");
}

namespace {

template <typename BroadcastOp>
struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern<BroadcastOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, typename BroadcastOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tileType = cast<RankedTensorType>(op.getSource().getType());
    auto vecType = cast<RankedTensorType>(op.getVector().getType());
    std::optional<AxisMap> map =
        axisMapOf(getTileLayout(tileType), getVectorLayout(vecType));
    if (!map)
      return rewriter.notifyMatchFailure(op, "no lane-local axis map");
    Location loc = op.getLoc();
    Value vec = adaptor.getVector();
    Value spread =
        vector::ShuffleOp::create(rewriter, loc, vec, vec, map->vectorReg);
    rewriter.replaceOp(op, combineBroadcast(rewriter, loc, op.getKind(),
                                            adaptor.getSource(), spread));
    return success();
  }
};

} // namespace

void hk::populateBroadcastPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<BroadcastLowering<RowBroadcastOp>,
               BroadcastLowering<ColBroadcastOp>>(converter,
                                                  patterns.getContext());
  state.support.add<RowBroadcastOp, ColBroadcastOp>();
}
