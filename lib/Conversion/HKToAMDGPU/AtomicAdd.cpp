//===- AtomicAdd.cpp - hk.atomic_add as per-element buffer atomics --------===//
//
// Each lane adds each of its registers with one f32 atomic add
// (memref.atomic_rmw addf on the fat raw buffer of the memref, which the
// backend emits as buffer_atomic_add_f32). As for hk.store, an element
// outside the memref gets the buffer's extent as offset, and the buffer
// hardware drops the access: no branches.
//===----------------------------------------------------------------------===//

#include "LaneMap.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::hk;

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The buffer offset of `pos`, or the extent when it lies outside the
/// memref in any dimension.
static Value offsetOrExtent(OpBuilder &b, Location loc, const GlobalBuffer &buf,
                            ArrayRef<Value> pos) {
  Value off, valid;
  for (auto [p, size, stride] : llvm::zip(pos, buf.sizes, buf.strides)) {
    Value term = arith::MulIOp::create(b, loc, p, stride);
    off = off ? arith::AddIOp::create(b, loc, off, term) : term;
    Value in =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, p, size);
    valid = valid ? arith::AndIOp::create(b, loc, valid, in) : in;
  }
  return arith::SelectOp::create(b, loc, valid, off, buf.extent);
}

namespace {

struct AtomicAddLowering : OpConversionPattern<AtomicAddOp> {
  AtomicAddLowering(TypeConverter &converter, MLIRContext *ctx,
                    LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(AtomicAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tileType = cast<RankedTensorType>(op.getValue().getType());
    std::optional<LaneMap> map = laneMapOf(getTileLayout(tileType));
    if (!map)
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    Location loc = op.getLoc();
    const GlobalBuffer &buf = state.getBuffer(rewriter, adaptor.getDest());
    auto [laneRow, laneCol] = emitLaneOffset(rewriter, loc, *map);
    // Tile indices count tiles in the last two dimensions.
    SmallVector<Value> base(adaptor.getIndices());
    int64_t rowDim = base.size() - 2, colDim = base.size() - 1;
    base[rowDim] = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, base[rowDim],
                              cst(rewriter, loc, tileType.getDimSize(0))),
        laneRow);
    base[colDim] = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, base[colDim],
                              cst(rewriter, loc, tileType.getDimSize(1))),
        laneCol);
    for (auto [reg, c] : llvm::enumerate(map->regs)) {
      SmallVector<Value> pos(base);
      pos[rowDim] = arith::AddIOp::create(rewriter, loc, pos[rowDim],
                                          cst(rewriter, loc, c.row));
      pos[colDim] = arith::AddIOp::create(rewriter, loc, pos[colDim],
                                          cst(rewriter, loc, c.col));
      Value off = offsetOrExtent(rewriter, loc, buf, pos);
      Value v = vector::ExtractOp::create(rewriter, loc, adaptor.getValue(),
                                          static_cast<int64_t>(reg));
      memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::addf, v,
                                  buf.buffer, off);
    }
    rewriter.eraseOp(op);
    return success();
  }

  LoweringState &state;
};

} // namespace

void mlir::hk::populateAtomicAddPatterns(TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         LoweringState &state) {
  patterns.add<AtomicAddLowering>(converter, patterns.getContext(), state);
}
