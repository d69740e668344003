//===- AtomicAdd.cpp - hk.atomic_add as per-element buffer atomics --------===//
//
// Each lane adds each of its registers with one amdgpu.raw_buffer_atomic_fadd
// (the buffer atomic intrinsic, buffer_atomic_add_f32) over the same range
// as the memref's fat raw buffer. As for hk.store, an element outside the
// memref gets the buffer's extent as offset, and the buffer hardware drops
// the access: no branches.
//
// Not memref.atomic_rmw addf on the fat raw buffer: LLVM lowers that
// atomicrmw (system scope, no !amdgpu.no.fine.grained.memory, which MLIR
// cannot attach) to a buffer_atomic_cmpswap retry loop. The intrinsic is a
// relaxed agent-scope add, correct for the coarse-grained device memory
// hkrt allocates (docs/lowering.md, atomic_add).
//===----------------------------------------------------------------------===//

#include "LaneMap.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;

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
    // The buffer atomic builds its descriptor from a plain memref: the 1-D
    // view the fat raw buffer was cast from has the same base (offset
    // folded in) and the same range (extent elements).
    auto cast = buf.buffer.getDefiningOp<amdgpu::FatRawBufferCastOp>();
    if (!cast || !cast.getResetOffset() || cast.getValidBytes())
      return rewriter.notifyMatchFailure(
          op, "global buffer is not a resetOffset fat_raw_buffer_cast");
    Value flat = cast.getSource();
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
      // Buffer offsets are 32-bit, as on the fat raw buffer.
      Value off =
          arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                     offsetOrExtent(rewriter, loc, buf, pos));
      Value v = vector::ExtractOp::create(rewriter, loc, adaptor.getValue(),
                                          static_cast<int64_t>(reg));
      amdgpu::RawBufferAtomicFaddOp::create(rewriter, loc, v, flat, off,
                                            /*boundsCheck=*/true,
                                            /*indexOffset=*/nullptr,
                                            /*sgprOffset=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }

  LoweringState &state;
};

} // namespace

void hk::populateAtomicAddPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<AtomicAddLowering>(converter, patterns.getContext(), state);
  state.support.add<AtomicAddOp>();
}
