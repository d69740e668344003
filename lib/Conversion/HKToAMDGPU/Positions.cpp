//===- Positions.cpp - hk.iota, hk.row_arg, hk.col_arg --------------------===//
//
// An element's position in its tile is LaneMap's lane part (computed once)
// plus a constant per register, so hk.iota is one add of a constant vector
// to a splat of the lane part. An arg reduction carries each element's
// position beside its value through the steps of a reduction (AxisMap: in
// the lane, then an xor butterfly over the lanes sharing the row), choosing
// by the total order "larger value first, then lower index, NaN last": any
// two lanes of a butterfly pair pick the same element whichever side they
// hold, so every lane ends with the same value and index.
//===----------------------------------------------------------------------===//

#include "AxisMap.h"
#include "LaneMap.h"
#include "XorLanes.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;

/// The position along `rows` (else columns) of every register of a lane,
/// as an i32 vector: the lane part of `map` plus its register offsets.
static Value positionsOf(OpBuilder &b, Location loc, const LaneMap &map,
                         bool rows) {
  auto [laneRow, laneCol] = emitLaneOffset(b, loc, map);
  Value base = arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                          rows ? laneRow : laneCol);
  SmallVector<int32_t> offsets;
  for (hk::Coord c : map.regs)
    offsets.push_back(static_cast<int32_t>(rows ? c.row : c.col));
  auto type = VectorType::get({int64_t(offsets.size())}, b.getI32Type());
  Value splat = vector::BroadcastOp::create(b, loc, type, base);
  Value constants = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<int32_t>(offsets)));
  return arith::AddIOp::create(b, loc, splat, constants);
}

namespace {

struct IotaLowering : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    // A vector's LaneMap puts its index in the column coordinate.
    std::optional<LaneMap> map = isRegTile(type)
                                     ? laneMapOf(getTileLayout(type))
                                     : laneMapOf(getVectorLayout(type));
    if (!map)
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    Location loc = op.getLoc();
    Value pos = positionsOf(rewriter, loc, *map, op.getAxis() == Axis::Row);
    if (type.getElementType().isF32())
      pos = arith::SIToFPOp::create(
          rewriter, loc,
          VectorType::get({int64_t(map->regs.size())}, rewriter.getF32Type()),
          pos);
    rewriter.replaceOp(op, pos);
    return success();
  }
};

/// A value and its position, both vectors of one element per vector
/// register (or, inside the lane, per tile register picked).
struct Candidate {
  Value value, index;
};

/// Whether `b` comes before `a` in the order of an arg reduction: the
/// larger (max) or smaller (min) value, then the lower index; a NaN comes
/// after every number, and NaNs among themselves by index.
static Value before(OpBuilder &b, Location loc, ReduceKind kind,
                    const Candidate &x, const Candidate &y) {
  Value lowerIndex = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           y.index, x.index);
  if (!isa<FloatType>(getElementTypeOrSelf(x.value.getType()))) {
    auto pred = kind == ReduceKind::Max ? arith::CmpIPredicate::sgt
                                        : arith::CmpIPredicate::slt;
    Value better = arith::CmpIOp::create(b, loc, pred, y.value, x.value);
    Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        y.value, x.value);
    return arith::OrIOp::create(
        b, loc, better, arith::AndIOp::create(b, loc, equal, lowerIndex));
  }
  auto pred = kind == ReduceKind::Max ? arith::CmpFPredicate::OGT
                                      : arith::CmpFPredicate::OLT;
  Value better = arith::CmpFOp::create(b, loc, pred, y.value, x.value);
  Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                      y.value, x.value);
  Value xNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x.value,
                                     x.value);
  Value yNumber = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD,
                                        y.value, y.value);
  // x is NaN: y wins when it is a number, or a NaN of lower index.
  Value overNaN = arith::AndIOp::create(
      b, loc, xNaN, arith::OrIOp::create(b, loc, yNumber, lowerIndex));
  Value tie = arith::AndIOp::create(b, loc, equal, lowerIndex);
  return arith::OrIOp::create(b, loc, arith::OrIOp::create(b, loc, better, tie),
                              overNaN);
}

static Candidate choose(OpBuilder &b, Location loc, ReduceKind kind,
                        const Candidate &x, const Candidate &y) {
  Value takeY = before(b, loc, kind, x, y);
  return {arith::SelectOp::create(b, loc, takeY, y.value, x.value),
          arith::SelectOp::create(b, loc, takeY, y.index, x.index)};
}

template <typename ArgOp> struct ArgLowering : OpConversionPattern<ArgOp> {
  ArgLowering(TypeConverter &converter, MLIRContext *ctx, LoweringState &state)
      : OpConversionPattern<ArgOp>(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(ArgOp op, typename ArgOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tileType = cast<RankedTensorType>(op.getSource().getType());
    auto vecType = cast<RankedTensorType>(op.getValue().getType());
    TileLayout tile = getTileLayout(tileType);
    VectorLayout vec = getVectorLayout(vecType);
    std::optional<AxisMap> axis = axisMapOf(tile, vec);
    std::optional<LaneMap> lanes = laneMapOf(tile);
    if (!axis || !lanes)
      return rewriter.notifyMatchFailure(op, "no lane-local axis map");
    Location loc = op.getLoc();
    // A row's candidates are indexed by column, a column's by row.
    bool byRow = vec.axis == Major::Col;
    Value positions = positionsOf(rewriter, loc, *lanes, byRow);
    SmallVector<SmallVector<int64_t>> sources(vec.regsPerLane());
    for (auto [reg, v] : llvm::enumerate(axis->vectorReg))
      sources[v].push_back(reg);
    Value tileValues = adaptor.getSource();
    std::optional<Candidate> best;
    for (size_t j = 0; j < sources.front().size(); ++j) {
      SmallVector<int64_t> mask;
      for (const auto &s : sources)
        mask.push_back(s[j]);
      Candidate part{
          vector::ShuffleOp::create(rewriter, loc, tileValues, tileValues,
                                    mask),
          vector::ShuffleOp::create(rewriter, loc, positions, positions, mask)};
      best = best ? choose(rewriter, loc, op.getKind(), *best, part) : part;
    }
    for (int64_t d : axis->laneXors) {
      Candidate other{xorLanes(rewriter, loc, best->value, d, state.chip),
                      xorLanes(rewriter, loc, best->index, d, state.chip)};
      best = choose(rewriter, loc, op.getKind(), *best, other);
    }
    rewriter.replaceOp(op, {best->value, best->index});
    return success();
  }

  LoweringState &state;
};

} // namespace

/// Every vector register must gather as many tile registers (AxisMap's
/// pairing is the same in all lanes; Layout.h gives each lane whole rows).
static std::string argCheck(Operation *op, const hk::ChipInfo &) {
  auto tileType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto vecType = cast<RankedTensorType>(op->getResult(0).getType());
  VectorLayout vec = getVectorLayout(vecType);
  std::optional<AxisMap> axis = axisMapOf(getTileLayout(tileType), vec);
  if (!axis || !laneMapOf(getTileLayout(tileType)))
    return "has no lane-local map between the tile and its vectors";
  SmallVector<int64_t> count(vec.regsPerLane(), 0);
  for (int64_t v : axis->vectorReg)
    ++count[v];
  if (llvm::any_of(count, [&](int64_t c) { return c != count.front(); }) ||
      count.front() == 0)
    return "gives the lanes uneven registers per row";
  return "";
}

void hk::populatePositionPatterns(TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringState &state) {
  patterns.add<IotaLowering>(converter, patterns.getContext());
  patterns.add<ArgLowering<RowArgOp>, ArgLowering<ColArgOp>>(
      converter, patterns.getContext(), state);
  state.support.add<IotaOp>();
  state.support.add<RowArgOp, ColArgOp>(argCheck);
}
