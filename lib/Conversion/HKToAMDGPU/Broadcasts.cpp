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
/// A float add or sub carries `fm` (contract: LLVM may fuse it with the
/// multiply that produced x into one FMA, if that multiply allows it too).
static Value combineBroadcast(OpBuilder &b, Location loc, BroadcastKind kind,
                              Value x, Value y, arith::FastMathFlags fm) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(x.getType()));
  switch (kind) {
  case BroadcastKind::Add:
    return isFloat ? arith::AddFOp::create(b, loc, x, y, fm).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  case BroadcastKind::Sub:
    return isFloat ? arith::SubFOp::create(b, loc, x, y, fm).getResult()
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

/// The broadcast's tile comes from float arithmetic marked
/// `fastmath<contract>`: the kernel allows that op to be fused with its
/// users, so the broadcast's add or sub allows it too (`x * c - m` as one
/// FMA: attention's `exp2(s * scale - max)`). Without the mark nothing
/// fuses.
static arith::FastMathFlags contractionOf(Value tile) {
  auto producer =
      dyn_cast_or_null<arith::ArithFastMathInterface>(tile.getDefiningOp());
  arith::FastMathFlagsAttr flags =
      producer ? producer.getFastMathFlagsAttr() : nullptr;
  if (flags && arith::bitEnumContainsAll(flags.getValue(),
                                         arith::FastMathFlags::contract))
    return arith::FastMathFlags::contract;
  return arith::FastMathFlags::none;
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
                                            adaptor.getSource(), spread,
                                            contractionOf(op.getSource())));
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
