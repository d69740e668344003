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
//
// A register vector keeps each element in several lanes (the lanes of one
// row or column of its tile layout); only one of them, the lowest, adds it:
// the others' offsets are the extent, which the hardware drops.
//
// A tile marked hk.cols_in_bounds (hk-peel-bounds: every column it covers
// is inside the memref) of a memref with unit column stride needs no column
// checks, and its registers that share a row offset share one offset
// register: the rows are checked once per distinct row offset (a compare
// and a select of the lane's offset or the extent), and the registers of
// that row differ only by their constant column offset, which the buffer
// instruction carries as its immediate offset (inside its range check, so
// the extent still drops them). A constant column tile index goes into
// that immediate too (when it fits its 12 bits), so the tiles of one row
// band share their row offsets. For attention backward's 64x64 f32 dQ
// tiles, 16 offsets for both tiles of a step and 64 atomics per tile
// instead of a row and column check, a select and a shift for each of the
// 64. The row checks and offsets are 32-bit (lowerColsInBounds).
//===----------------------------------------------------------------------===//

#include "LaneMap.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <map>

using namespace mlir;
using namespace hk;

/// Bytes a buffer instruction's immediate offset reaches (12 bits, below
/// hkrt's 4096 bytes of slack past every memref).
static constexpr int64_t kImmediateOffsetBytes = 4096;

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The buffer offset of `pos`, or the extent when it lies outside the
/// memref in any dimension: `limits` holds what each checked dimension is
/// compared against (null for the leading ones, which foldLeadingChecks
/// folds into the first checked one).
static Value offsetOrExtent(OpBuilder &b, Location loc, const GlobalBuffer &buf,
                            ArrayRef<Value> pos, ArrayRef<Value> limits) {
  Value off, valid;
  for (auto [p, limit, stride] : llvm::zip(pos, limits, buf.strides)) {
    Value term = arith::MulIOp::create(b, loc, p, stride);
    off = off ? arith::AddIOp::create(b, loc, off, term) : term;
    if (!limit)
      continue;
    Value in =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, p, limit);
    valid = valid ? arith::AndIOp::create(b, loc, valid, in) : in;
  }
  return arith::SelectOp::create(b, loc, valid, off, buf.extent);
}

/// For a register vector: which lanes add their registers. The vector map
/// gives index (lane % extent) * perLane + (lane / extent) * perGroup +
/// regs[reg]; a lane part with factor 0 only replicates. The lowest lane
/// holding an element adds it, so the owners are the lanes whose replicating
/// parts are 0. Checked against Layout.h for every lane and register; null
/// when every lane owns its registers, failure when the layout replicates in
/// another way.
static FailureOr<Value> emitVectorOwner(OpBuilder &b, Location loc,
                                        const hk::VectorLayout &layout,
                                        const LaneMap &map) {
  bool byLane = map.perLane.col == 0, byGroup = map.perGroup.col == 0;
  auto owns = [&](int64_t lane) {
    return (!byLane || lane % map.extent == 0) &&
           (!byGroup || lane / map.extent == 0);
  };
  for (int64_t reg = 0; reg < layout.regsPerLane(); ++reg)
    for (int64_t lane = 0; lane < hk::kWaveSize; ++lane) {
      int64_t index = layout.indexOf(lane, reg);
      int64_t lowest = lane;
      for (int64_t other = 0; other < lane; ++other)
        if (layout.regOf(other, index) >= 0) {
          lowest = other;
          break;
        }
      if (owns(lane) != (lowest == lane))
        return failure();
    }
  if (!byLane && !byGroup)
    return Value();
  Value lane = arith::RemUIOp::create(
      b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
      cst(b, loc, hk::kWaveSize));
  Value zero = cst(b, loc, 0), extent = cst(b, loc, map.extent);
  Value owner;
  auto require = [&](Value part) {
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, zero);
    owner = owner ? arith::AndIOp::create(b, loc, owner, isZero) : isZero;
  };
  if (byLane)
    require(arith::RemUIOp::create(b, loc, lane, extent));
  if (byGroup)
    require(arith::DivUIOp::create(b, loc, lane, extent));
  return owner;
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
    bool isVector = isRegVec(tileType);
    std::optional<LaneMap> map = isVector ? laneMapOf(getVectorLayout(tileType))
                                          : laneMapOf(getTileLayout(tileType));
    if (!map)
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    Location loc = op.getLoc();
    Value owner;
    if (isVector) {
      FailureOr<Value> ownerOr =
          emitVectorOwner(rewriter, loc, getVectorLayout(tileType), *map);
      if (failed(ownerOr))
        return rewriter.notifyMatchFailure(
            op, "vector layout replicates elements across lanes in a way "
                "the owner test does not cover");
      owner = *ownerOr;
    }
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
    // Tile indices count tiles in the last two dimensions (vectors in the
    // last one).
    SmallVector<Value> base(adaptor.getIndices());
    int64_t colDim = base.size() - 1;
    int64_t rowDim = isVector ? -1 : colDim - 1;
    Value rowOrigin;
    if (!isVector) {
      rowOrigin =
          arith::MulIOp::create(rewriter, loc, base[rowDim],
                                cst(rewriter, loc, tileType.getDimSize(0)));
      base[rowDim] = arith::AddIOp::create(rewriter, loc, rowOrigin, laneRow);
    }
    base[colDim] = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(
            rewriter, loc, base[colDim],
            cst(rewriter, loc, tileType.getDimSize(tileType.getRank() - 1))),
        laneCol);
    if (!isVector && op->hasAttr(HKDialect::kColsInBoundsAttrName) &&
        hasUnitColumnStride(op.getDest().getType())) {
      int64_t colOrigin = immediateColumnOrigin(
          adaptor.getIndices()[colDim], tileType, laneCol, base[colDim]);
      lowerColsInBounds(rewriter, loc, buf, flat, *map, base, rowDim, rowOrigin,
                        laneRow, tileType.getDimSize(0), colOrigin,
                        adaptor.getValue());
    } else {
      lowerChecked(rewriter, loc, buf, flat, *map, base, isVector, owner,
                   adaptor.getValue());
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// A constant column tile goes into the immediate offset with the
  /// register's column, when they fit its 12 bits: the tiles of one row
  /// band (attention backward's two dQ halves) then share their row
  /// offsets, selects and shifts. Returns the column origin the immediate
  /// carries (0 when the tile index is not such a constant), leaving in
  /// `colBase` the column the lane's offset starts from.
  static int64_t immediateColumnOrigin(Value colTileIndex,
                                       RankedTensorType tileType, Value laneCol,
                                       Value &colBase) {
    int64_t tileCols = tileType.getDimSize(tileType.getRank() - 1);
    int64_t elementBytes =
        llvm::divideCeil(tileType.getElementTypeBitWidth(), 8);
    llvm::APInt colTile;
    if (!matchPattern(colTileIndex, m_ConstantInt(&colTile)) ||
        (colTile.getSExtValue() + 1) * tileCols * elementBytes >
            kImmediateOffsetBytes)
      return 0;
    colBase = laneCol;
    return colTile.getSExtValue() * tileCols;
  }

  /// The checked form: each register adds at its own offset, the extent
  /// when out of range or (with `owner`) not the lane's to add. The row (a
  /// tile) or the column (a vector) checks the leading dimensions too; a
  /// tile's column is checked against its size.
  static void lowerChecked(OpBuilder &b, Location loc, const GlobalBuffer &buf,
                           Value flat, const LaneMap &map, ArrayRef<Value> base,
                           bool isVector, Value owner, Value value) {
    int64_t colDim = base.size() - 1;
    int64_t rowDim = isVector ? -1 : colDim - 1;
    SmallVector<Value> limits(base.size());
    int64_t first = isVector ? colDim : rowDim;
    limits[first] = foldLeadingChecks(b, loc, buf, base, first);
    if (!isVector)
      limits[colDim] = buf.sizes[colDim];
    for (auto [reg, c] : llvm::enumerate(map.regs)) {
      SmallVector<Value> pos(base);
      if (!isVector)
        pos[rowDim] =
            arith::AddIOp::create(b, loc, pos[rowDim], cst(b, loc, c.row));
      pos[colDim] =
          arith::AddIOp::create(b, loc, pos[colDim], cst(b, loc, c.col));
      Value offset = offsetOrExtent(b, loc, buf, pos, limits);
      if (owner)
        offset = arith::SelectOp::create(b, loc, owner, offset, buf.extent);
      // Buffer offsets are 32-bit, as on the fat raw buffer.
      Value off = arith::IndexCastOp::create(b, loc, b.getI32Type(), offset);
      Value v =
          vector::ExtractOp::create(b, loc, value, static_cast<int64_t>(reg));
      amdgpu::RawBufferAtomicFaddOp::create(b, loc, v, flat, off,
                                            /*boundsCheck=*/true,
                                            /*indexOffset=*/nullptr,
                                            /*sgprOffset=*/Value());
    }
  }

  static bool hasUnitColumnStride(Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    SmallVector<int64_t> strides;
    int64_t offset;
    return memref && succeeded(memref.getStridesAndOffset(strides, offset)) &&
           !strides.empty() && strides.back() == 1;
  }

  /// The hk.cols_in_bounds form: `base` holds the lane's position (row and
  /// column parts included) in every dimension. One offset per distinct
  /// register row: the lane's offset there when the row (and every leading
  /// dimension) is in range, else the extent; each register adds at that
  /// offset plus its column as the immediate index offset.
  static void lowerColsInBounds(OpBuilder &b, Location loc,
                                const GlobalBuffer &buf, Value flat,
                                const LaneMap &map, ArrayRef<Value> base,
                                int64_t rowDim, Value rowOrigin, Value laneRow,
                                int64_t tileRows, int64_t colOrigin,
                                Value value) {
    Value offset;
    for (auto [d, p] : llvm::enumerate(base)) {
      Value term = arith::MulIOp::create(b, loc, p, buf.strides[d]);
      offset = offset ? arith::AddIOp::create(b, loc, offset, term) : term;
    }
    // The column is in range by the mark. The rows are checked per register
    // row, in 32 bits, against how many of the tile's rows are in range
    // below this lane's row 0: the limit (which folds the leading dimensions
    // in) past the tile's first row, at most the tile's rows, 0 when the
    // tile starts past it. Offsets are 32-bit too (the buffer's are), and
    // wrap as the 64-bit ones would once truncated. 64-bit row compares and
    // offsets cost about twice the instructions and kept a 64-bit product
    // of the row stride per distinct row live across attention backward's
    // loop. The freeze keeps LLVM from rewriting `lane rows - c > 0` into
    // `rows > lane row + c` with one loop-invariant VGPR per row.
    Type i32 = b.getI32Type();
    auto toI32 = [&](Value v) {
      return arith::IndexCastUIOp::create(b, loc, i32, v).getResult();
    };
    auto c32 = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
    };
    Value rowLimit = foldLeadingChecks(b, loc, buf, base, rowDim);
    Value starts = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         rowOrigin, rowLimit);
    Value left = arith::MinUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, rowLimit, rowOrigin),
        cst(b, loc, tileRows));
    Value rowsIn =
        toI32(arith::SelectOp::create(b, loc, starts, left, cst(b, loc, 0)));
    Value laneRowsIn = LLVM::FreezeOp::create(
        b, loc, arith::SubIOp::create(b, loc, rowsIn, toI32(laneRow)));
    Value offset32 = toI32(offset);
    Value stride32 = toI32(buf.strides[rowDim]);
    Value extent32 = toI32(buf.extent);
    // Each row's offset steps from the nearest row below it whose offset
    // is known (the lane's row 0 at first), frozen so that LLVM keeps the
    // steps: folded into `offset + c * stride`, the products were one SGPR
    // per distinct row, hoisted and live across attention backward's loop.
    std::map<int64_t, Value> unchecked = {{0, offset32}};
    llvm::SmallDenseMap<int64_t, Value> rowOffsets;
    for (auto [reg, c] : llvm::enumerate(map.regs)) {
      Value &rowOffset = rowOffsets[c.row];
      if (!rowOffset) {
        Value &shifted = unchecked[c.row];
        if (!shifted) {
          auto below = std::prev(unchecked.find(c.row));
          int64_t step = c.row - below->first;
          Value by = step == 1
                         ? stride32
                         : arith::MulIOp::create(b, loc, c32(step), stride32);
          shifted = LLVM::FreezeOp::create(
              b, loc, arith::AddIOp::create(b, loc, below->second, by));
        }
        Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                         laneRowsIn, c32(c.row));
        rowOffset = arith::SelectOp::create(b, loc, in, shifted, extent32);
      }
      Value v =
          vector::ExtractOp::create(b, loc, value, static_cast<int64_t>(reg));
      amdgpu::RawBufferAtomicFaddOp::create(
          b, loc, v, flat, rowOffset, /*boundsCheck=*/true,
          /*indexOffset=*/
          b.getI32IntegerAttr(static_cast<int32_t>(colOrigin + c.col)),
          /*sgprOffset=*/Value());
    }
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
