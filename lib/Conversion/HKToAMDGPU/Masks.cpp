//===- Masks.cpp - hk.tril, hk.triu, hk.bounds_mask -----------------------===//
//
// Whether an element is kept depends on its position, which LaneMap gives
// as a lane-dependent part (computed once) plus a constant per register. So
// a triangle mask compares the lane's base `col - row` plus each distinct
// per-register offset with the diagonal, once per offset, and selects the
// registers of that offset right after their compare; a bounds mask compares
// the row and the column of each distinct register offset with its limit, one
// scalar compare each, and selects. Positions are i32: tiles and tensors index
// far below 2^31.
//===----------------------------------------------------------------------===//

#include "LaneMap.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace hk;

namespace {

/// Positions of the running lane's registers: `base + offsets[reg]`.
struct Positions {
  Value rowBase, colBase; ///< i32, this lane's register-0 part plus offsets
  SmallVector<int32_t> rows, cols;
};

} // namespace

static Value toI32(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

static Value splat(OpBuilder &b, Location loc, int64_t n, Value scalar) {
  return vector::BroadcastOp::create(
      b, loc, VectorType::get({n}, scalar.getType()), scalar);
}

static FailureOr<Positions> positionsOf(OpBuilder &b, Location loc,
                                        Type tileType, Value rowOffset,
                                        Value colOffset) {
  std::optional<LaneMap> map =
      laneMapOf(getTileLayout(cast<RankedTensorType>(tileType)));
  if (!map)
    return failure();
  auto [laneRow, laneCol] = emitLaneOffset(b, loc, *map);
  Positions p;
  p.rowBase = toI32(b, loc, arith::AddIOp::create(b, loc, laneRow, rowOffset));
  p.colBase = toI32(b, loc, arith::AddIOp::create(b, loc, laneCol, colOffset));
  for (hk::Coord c : map->regs) {
    p.rows.push_back(static_cast<int32_t>(c.row));
    p.cols.push_back(static_cast<int32_t>(c.col));
  }
  return p;
}

/// Is `limit` the tile's own end, `offset + c` with `c` at least the tile's
/// `extent` along that axis? Then every position of the axis is in range
/// and needs no compare: a kernel whose rows past the end read zeros and
/// whose stores there are dropped masks only its columns this way
/// (`within [%q0 + 64, %n]`).
static bool covers(Value offset, Value limit, int64_t extent) {
  auto add = limit.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [base, other] : {std::pair(add.getLhs(), add.getRhs()),
                             std::pair(add.getRhs(), add.getLhs())}) {
    llvm::APInt c;
    if (base == offset && matchPattern(other, m_ConstantInt(&c)) &&
        c.getSExtValue() >= extent)
      return true;
  }
  return false;
}

namespace {

/// tril keeps `col - row <= diagonal`, triu `col - row >= diagonal`.
template <typename TriangleOp, arith::CmpIPredicate keep>
struct TriangleLowering : OpConversionPattern<TriangleOp> {
  using OpConversionPattern<TriangleOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TriangleOp op, typename TriangleOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Positions> p =
        positionsOf(rewriter, loc, op.getType(), adaptor.getRowOffset(),
                    adaptor.getColOffset());
    if (failed(p))
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    // Registers grouped by their `col - row` offset, in first-seen order:
    // one compare per group, then the group's selects. Each compare is a
    // 64-bit lane mask in SGPRs; emitted as one vector compare and one
    // vector select, LLVM computed all of a 64x32 score tile's 20 masks
    // before the first select, 40 SGPRs live at once in attention
    // backward's loop. The lane's `col - row` is frozen: as 20 scalar
    // compares of an induction variable plus a constant, LLVM's loop
    // strength reduction weighed each as a use of the loop's induction
    // variable and took 0.06 s longer on attention forward (gfx942).
    int64_t n = p->rows.size();
    llvm::MapVector<int32_t, SmallVector<int64_t>> groups;
    for (int64_t r = 0; r < n; ++r)
      groups[p->cols[r] - p->rows[r]].push_back(r);
    Type i32 = rewriter.getI32Type();
    Value base = LLVM::FreezeOp::create(
        rewriter, loc,
        arith::SubIOp::create(rewriter, loc, p->colBase, p->rowBase));
    Value diag =
        arith::ConstantIntOp::create(rewriter, loc, i32, op.getDiagonal());
    SmallVector<Value> elements(n);
    for (auto &[offset, regs] : groups) {
      Value diff = arith::AddIOp::create(
          rewriter, loc, base,
          arith::ConstantIntOp::create(rewriter, loc, i32, offset));
      Value kept = arith::CmpIOp::create(rewriter, loc, keep, diff, diag);
      for (int64_t r : regs) {
        Value element =
            vector::ExtractOp::create(rewriter, loc, adaptor.getSource(), r);
        elements[r] = arith::SelectOp::create(rewriter, loc, kept, element,
                                              adaptor.getFill());
      }
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, cast<VectorType>(adaptor.getSource().getType()), elements);
    return success();
  }
};

struct BoundsMaskLowering : OpConversionPattern<BoundsMaskOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BoundsMaskOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> shape = op.getType().getShape();
    bool allRows = covers(adaptor.getRowOffset(), adaptor.getRows(), shape[0]);
    bool allCols = covers(adaptor.getColOffset(), adaptor.getCols(), shape[1]);
    if (allRows && allCols) {
      rewriter.replaceOp(op, adaptor.getSource());
      return success();
    }
    FailureOr<Positions> p =
        positionsOf(rewriter, loc, op.getType(), adaptor.getRowOffset(),
                    adaptor.getColOffset());
    if (failed(p))
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    int64_t n = p->rows.size();
    // Unsigned: a negative position is out of range too. One scalar
    // compare per distinct offset, gathered into the mask: compared as a
    // vector against a splat of the limit, the limit (wave-uniform) became
    // one SGPR copy per element in LLVM, which attention backward spilled
    // one by one.
    auto inRange = [&](Value base, ArrayRef<int32_t> offsets,
                       Value limit) -> Value {
      Value limit32 = toI32(rewriter, loc, limit);
      llvm::SmallDenseMap<int32_t, Value> byOffset;
      SmallVector<Value> bits;
      for (int32_t offset : offsets) {
        Value &in = byOffset[offset];
        if (!in) {
          Value pos = arith::AddIOp::create(
              rewriter, loc, base,
              arith::ConstantIntOp::create(rewriter, loc, offset, 32));
          in = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     pos, limit32);
        }
        bits.push_back(in);
      }
      return vector::FromElementsOp::create(
          rewriter, loc, VectorType::get({n}, rewriter.getI1Type()), bits);
    };
    Value kept;
    if (!allRows)
      kept = inRange(p->rowBase, p->rows, adaptor.getRows());
    if (!allCols) {
      Value cols = inRange(p->colBase, p->cols, adaptor.getCols());
      kept = kept ? arith::AndIOp::create(rewriter, loc, kept, cols) : cols;
    }
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, kept, adaptor.getSource(),
        splat(rewriter, loc, n, adaptor.getFill()));
    return success();
  }
};

} // namespace

void hk::populateMaskPatterns(TypeConverter &converter,
                              RewritePatternSet &patterns,
                              LoweringState &state) {
  patterns.add<TriangleLowering<TrilOp, arith::CmpIPredicate::sle>,
               TriangleLowering<TriuOp, arith::CmpIPredicate::sge>,
               BoundsMaskLowering>(converter, patterns.getContext());
  state.support.add<TrilOp, TriuOp, BoundsMaskOp>();
}
