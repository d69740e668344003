//===- SharedMemory.cpp - shared tiles: allocation, views, register access ===//
//
// A shared tile becomes a view of an LDS buffer, indexed [subtile row,
// subtile column, element inside the subtile] (see sharedTileMemRefType).
// Every address inside a subtile comes from SharedLayout.h: the lowering
// emits its XOR swizzle for the running lane and nothing else encodes it.
// hk.load / hk.store between registers and a shared tile move each lane's
// runs (sharedAccessRuns) as one vector access of up to 16 bytes; hk.load
// reads a shared tile of bytes (i8) as 8- or 4-bit floats by moving the
// bytes and bitcasting them.
//===----------------------------------------------------------------------===//

#include "LaneMap.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Dialect/HK/SharedLayout.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace hk;

/// memref<(R/SR) x (C/SC) x (SR*SC) x T, strided<[?, SR*SC, 1], offset: ?>>
/// in workgroup memory. The row pitch and offset are dynamic because a view
/// (hk.subtile) keeps its parent's pitch and starts inside it.
static MemRefType sharedTileMemRefType(SharedTileType t) {
  hk::SharedLayout l = sharedLayoutOf(t);
  int64_t sub = l.subRows * l.subCols;
  MLIRContext *ctx = t.getContext();
  auto layout = StridedLayoutAttr::get(ctx, ShapedType::kDynamic,
                                       {ShapedType::kDynamic, sub, 1});
  return MemRefType::get({l.rows / l.subRows, l.cols / l.subCols, sub},
                         t.getElementType(), layout,
                         gpu::AddressSpaceAttr::get(
                             ctx, gpu::GPUDialect::getWorkgroupAddressSpace()));
}

void hk::populateSharedMemoryTypeConversions(TypeConverter &converter) {
  converter.addConversion(
      [](SharedTileType t) -> Type { return sharedTileMemRefType(t); });
  // Waits are conservative (everything outstanding), so a token carries
  // nothing at run time.
  converter.addConversion(
      [](TokenType t) -> Type { return IntegerType::get(t.getContext(), 32); });
}

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value hk::emitSwizzleElems(OpBuilder &b, Location loc,
                           const hk::SharedLayout &l, Value row) {
  if (l.chunkMask() == 0)
    return cst(b, loc, 0);
  int64_t lo = l.swizzleShift();
  Value a = lo ? arith::ShRUIOp::create(b, loc, row, cst(b, loc, lo)) : row;
  Value c = arith::ShRUIOp::create(b, loc, row, cst(b, loc, lo + 1));
  Value f = arith::AndIOp::create(b, loc, arith::XOrIOp::create(b, loc, a, c),
                                  cst(b, loc, l.chunkMask()));
  return arith::MulIOp::create(
      b, loc, f, cst(b, loc, hk::SharedLayout::kChunkBytes / l.elemBytes));
}

/// row ^ ((row >> 1) & mask), or row when mask is 0.
static Value xorShiftedRow(OpBuilder &b, Location loc, Value row,
                           int64_t mask) {
  if (!mask)
    return row;
  Value moved = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, row, cst(b, loc, 1)),
      cst(b, loc, mask));
  return arith::XOrIOp::create(b, loc, row, moved);
}

Value hk::emitPlacedRow(OpBuilder &b, Location loc, const hk::SharedLayout &l,
                        Value row) {
  return xorShiftedRow(b, loc, row, l.rowMask());
}

Value hk::emitRowAt(OpBuilder &b, Location loc, const hk::SharedLayout &l,
                    Value pos) {
  // As SharedLayout::rowAt: bit 3 first, then bit 2.
  Value r = xorShiftedRow(b, loc, pos, l.rowMask() & 8);
  return xorShiftedRow(b, loc, r, l.rowMask() & 4);
}

SmallVector<Value> hk::emitSharedIndices(OpBuilder &b, Location loc,
                                         const hk::SharedLayout &l, Value row,
                                         Value col) {
  Value sr = cst(b, loc, l.subRows), sc = cst(b, loc, l.subCols);
  Value rr = arith::RemUIOp::create(b, loc, row, sr);
  Value cc = arith::RemUIOp::create(b, loc, col, sc);
  Value swz =
      arith::XOrIOp::create(b, loc, cc, emitSwizzleElems(b, loc, l, rr));
  Value inner = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, emitPlacedRow(b, loc, l, rr), sc),
      swz);
  return {arith::DivUIOp::create(b, loc, row, sr),
          arith::DivUIOp::create(b, loc, col, sc), inner};
}

namespace {

/// hk.alloc_shared -> a memref.global of the tile's bytes in workgroup
/// memory, in the kernel's gpu.module, seen through sharedTileMemRefType. The
/// gpu.func records the kernel's LDS bytes as `hk.lds_bytes`.
struct AllocSharedLowering : OpConversionPattern<AllocSharedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    if (!func || !module)
      return rewriter.notifyMatchFailure(op, "kernel not lowered yet");
    SharedTileType type = op.getType();
    hk::SharedLayout l = sharedLayoutOf(type);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();

    auto space = gpu::AddressSpaceAttr::get(
        ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
    auto flatType = MemRefType::get({l.rows * l.cols}, type.getElementType(),
                                    MemRefLayoutAttrInterface(), space);
    std::string name;
    for (int i = 0;; ++i) {
      name = (func.getName() + "_lds" + Twine(i)).str();
      if (!SymbolTable::lookupSymbolIn(module, name))
        break;
    }
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      // 16-byte alignment is what the widest LDS access needs; bank
      // conflicts depend only on offsets relative to each other.
      memref::GlobalOp::create(
          rewriter, loc, name, rewriter.getStringAttr("private"), flatType,
          Attribute(), /*constant=*/false, rewriter.getI64IntegerAttr(16));
    }
    Value flat = memref::GetGlobalOp::create(rewriter, loc, flatType, name);
    int64_t sub = l.subRows * l.subCols;
    SmallVector<OpFoldResult> sizes = {
        rewriter.getIndexAttr(l.rows / l.subRows),
        rewriter.getIndexAttr(l.subtilesPerRow()), rewriter.getIndexAttr(sub)};
    SmallVector<OpFoldResult> strides = {
        cst(rewriter, loc, l.subtilesPerRow() * sub),
        rewriter.getIndexAttr(sub), rewriter.getIndexAttr(1)};
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, sharedTileMemRefType(type), flat, cst(rewriter, loc, 0), sizes,
        strides);

    auto prev = func->getAttrOfType<IntegerAttr>(HKDialect::kLdsBytesAttrName);
    int64_t bytes = (prev ? prev.getInt() : 0) + l.sizeInBytes();
    rewriter.modifyOpInPlace(func, [&] {
      func->setAttr(HKDialect::kLdsBytesAttrName,
                    rewriter.getI64IntegerAttr(bytes));
    });
    return success();
  }
};

/// hk.subtile -> memref.subview over whole subtiles of the parent.
struct SubtileLowering : OpConversionPattern<SubtileOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SubtileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    hk::SharedLayout l = sharedLayoutOf(op.getType());
    Location loc = op.getLoc();
    int64_t subRowsPerView = l.rows / l.subRows,
            subColsPerView = l.cols / l.subCols;
    Value i = arith::MulIOp::create(rewriter, loc, adaptor.getRow(),
                                    cst(rewriter, loc, subRowsPerView));
    Value j = arith::MulIOp::create(rewriter, loc, adaptor.getCol(),
                                    cst(rewriter, loc, subColsPerView));
    SmallVector<OpFoldResult> offsets = {i, j, rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {
        rewriter.getIndexAttr(subRowsPerView),
        rewriter.getIndexAttr(subColsPerView),
        rewriter.getIndexAttr(l.subRows * l.subCols)};
    SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<memref::SubViewOp>(
        op, sharedTileMemRefType(op.getType()), adaptor.getSource(), offsets,
        sizes, strides);
    return success();
  }
};

/// Where the running lane's runs of a register tile lie in a shared tile.
struct SharedAccess {
  hk::SharedLayout shared;
  LaneMap map;
  std::vector<hk::SharedRun> runs;
  Value laneRow, laneCol;
  /// The bits any lane's row (column) has inside its subtile, when the
  /// subtile's sides are powers of two; -1 otherwise (see runIndices); and
  /// those of any lane's placed row (SharedLayout::placedRow).
  int64_t rowBits = -1, colBits = -1, placedBits = -1;
  /// The lane's row and column split into whole subtiles and the rest, the
  /// rest of the row placed, and the rest of the column XOR the swizzle of
  /// the rest of the row.
  Value laneRowSub, laneRowIn, laneColSub, laneColIn, laneRowPlaced, xorBase;
};

static bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// The layout of the bytes of a row-layout tile whose elements are packed
/// `pack` to a byte, the first in the low bits (globalLoadPacking): the same
/// lanes hold each byte's elements, so the byte tile has the columns, base
/// columns and group divided by `pack` (the verifier checks the group).
static hk::TileLayout packedTileLayout(hk::TileLayout tile, int64_t pack) {
  tile.cols /= pack;
  tile.base.cols /= pack;
  tile.base.group /= pack;
  return tile;
}

static FailureOr<SharedAccess> buildSharedAccess(OpBuilder &b, Location loc,
                                                 const hk::TileLayout &tile,
                                                 Type stType) {
  std::optional<LaneMap> map = laneMapOf(tile);
  if (!map)
    return failure();
  SharedAccess a;
  a.shared = sharedLayoutOf(stType);
  a.map = *map;
  a.runs = hk::sharedAccessRuns(tile, a.shared);
  std::tie(a.laneRow, a.laneCol) = emitLaneOffset(b, loc, *map);
  const hk::SharedLayout &l = a.shared;
  if (isPowerOfTwo(l.subRows) && isPowerOfTwo(l.subCols)) {
    a.rowBits = a.colBits = a.placedBits = 0;
    for (int64_t lane = 0; lane < hk::kWaveSize; ++lane) {
      int64_t i = lane % map->extent, g = lane / map->extent;
      int64_t row = (i * map->perLane.row + g * map->perGroup.row) % l.subRows;
      a.rowBits |= row;
      a.placedBits |= l.placedRow(row);
      a.colBits |= (i * map->perLane.col + g * map->perGroup.col) % l.subCols;
    }
    Value sr = cst(b, loc, l.subRows), sc = cst(b, loc, l.subCols);
    a.laneRowSub = arith::DivUIOp::create(b, loc, a.laneRow, sr);
    a.laneRowIn = arith::RemUIOp::create(b, loc, a.laneRow, sr);
    a.laneColSub = arith::DivUIOp::create(b, loc, a.laneCol, sc);
    a.laneColIn = arith::RemUIOp::create(b, loc, a.laneCol, sc);
    a.laneRowPlaced = emitPlacedRow(b, loc, l, a.laneRowIn);
    a.xorBase = arith::XOrIOp::create(b, loc, a.laneColIn,
                                      emitSwizzleElems(b, loc, l, a.laneRowIn));
  }
  return a;
}

/// The indices of register `reg`'s run. Its constant (row, col) is split
/// into whole subtiles and a remainder: adding whole subtiles changes only
/// the first two indices, by constants, and leaves the lane's position
/// inside the subtile (and so its swizzle) alone. Runs that differ by whole
/// subtiles then share one lane-dependent address and reach the others
/// through the LDS instruction's immediate offset, instead of each keeping
/// an address register.
///
/// When the remainder's bits are disjoint from those of every lane's
/// position in the subtile, adding it is an XOR on each side, and the
/// swizzle, an XOR of shifted row bits, is linear in the row: the column
/// inside the subtile is (lane's column XOR swizzle of lane's row) XOR a
/// constant, and the row only adds. Runs then share one address per
/// distinct constant (at most the swizzle's chunk count times the distinct
/// column remainders) and reach their rows through the offset, where each
/// remainder row would otherwise take an address register of its own.
/// placedRow is linear too: the placed row is the lane's placed row XOR the
/// constant's, an addition when their bits are disjoint as well.
static SmallVector<Value> runIndices(OpBuilder &b, Location loc,
                                     const SharedAccess &a, int64_t reg) {
  hk::Coord c = a.map.regs[reg];
  const hk::SharedLayout &l = a.shared;
  int64_t cRow = c.row % l.subRows, cCol = c.col % l.subCols;
  if (a.rowBits >= 0 && !(a.rowBits & cRow) && !(a.colBits & cCol) &&
      !(a.placedBits & l.placedRow(cRow))) {
    int64_t k = cCol ^ (l.swizzle(cRow) / l.elemBytes);
    Value col =
        k ? arith::XOrIOp::create(b, loc, a.xorBase, cst(b, loc, k)).getResult()
          : a.xorBase;
    Value inner = arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc,
                              arith::MulIOp::create(b, loc, a.laneRowPlaced,
                                                    cst(b, loc, l.subCols)),
                              col),
        cst(b, loc, l.placedRow(cRow) * l.subCols));
    return {arith::AddIOp::create(b, loc, a.laneRowSub,
                                  cst(b, loc, c.row / l.subRows)),
            arith::AddIOp::create(b, loc, a.laneColSub,
                                  cst(b, loc, c.col / l.subCols)),
            inner};
  }
  Value row = arith::AddIOp::create(b, loc, a.laneRow, cst(b, loc, cRow));
  Value col = arith::AddIOp::create(b, loc, a.laneCol, cst(b, loc, cCol));
  SmallVector<Value> idx = emitSharedIndices(b, loc, l, row, col);
  idx[0] =
      arith::AddIOp::create(b, loc, idx[0], cst(b, loc, c.row / l.subRows));
  idx[1] =
      arith::AddIOp::create(b, loc, idx[1], cst(b, loc, c.col / l.subCols));
  return idx;
}

/// Whether `a`'s registers can be read with gfx950's ds_read_b64_tr_b16
/// (runtime/core/TransposeRead.h): lane l holds column l % E (E a multiple
/// of 16; plus a register constant) and a row that depends on l / E only,
/// so each group of 16 lanes holds 16 consecutive columns of the same rows,
/// and registers come in groups of 4 holding 4 consecutive rows of one
/// column, starting at a multiple of 16 inside one subtile row. Then lane
/// l, with i = l % E, reads row (its row + (i % 16) / 4), columns (its
/// group's first column 16 (i / 16) + 4 (i % 4)) .. + 3 (8 contiguous,
/// aligned bytes whatever the swizzle moves, which keeps aligned 16-byte
/// chunks whole), and receives its group's 4 registers: HipKittens'
/// col-layout load, for 16x16 (E = 16) and 32x32 group-4 (E = 32) bases.
static bool transposeReadable(const SharedAccess &a, Type elt) {
  const LaneMap &m = a.map;
  if (elt.getIntOrFloatBitWidth() != 16 || m.extent % 16 != 0 ||
      !(m.perLane == hk::Coord{0, 1}) || m.perGroup.col != 0 ||
      m.regs.size() % 4 != 0 || a.shared.subCols % 16 != 0)
    return false;
  for (size_t r = 0; r < m.regs.size(); r += 4) {
    hk::Coord first = m.regs[r];
    if (first.col % 16 != 0)
      return false;
    for (int64_t j = 1; j < 4; ++j)
      if (!(m.regs[r + j] == hk::Coord{first.row + j, first.col}))
        return false;
  }
  return true;
}

struct SharedLoadLowering : OpConversionPattern<LoadOp> {
  SharedLoadLowering(TypeConverter &converter, MLIRContext *ctx,
                     LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<SharedTileType>(op.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a shared load");
    auto type = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return failure();
    Location loc = op.getLoc();
    // A tile of 8- or 4-bit floats read from a shared tile of bytes moves
    // the bytes under the byte tile's layout, then is bitcast.
    Type stElt =
        cast<SharedTileType>(op.getSource().getType()).getElementType();
    int64_t pack = globalLoadPacking(stElt, type.getElementType());
    hk::TileLayout tile = getTileLayout(cast<RankedTensorType>(op.getType()));
    if (stElt != type.getElementType()) {
      tile = packedTileLayout(tile, pack);
      type = VectorType::get({type.getNumElements() / pack}, stElt);
    }
    FailureOr<SharedAccess> a =
        buildSharedAccess(rewriter, loc, tile, op.getSource().getType());
    if (failed(a))
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    Type elt = type.getElementType();
    Value result =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
    if (state.chip.hasTransposeLoad && transposeReadable(*a, elt)) {
      // a.laneRow is the lane's row, a.laneCol = i = l % E its column.
      Value i16 = arith::RemUIOp::create(rewriter, loc, a->laneCol,
                                         cst(rewriter, loc, 16));
      Value row = arith::AddIOp::create(
          rewriter, loc, a->laneRow,
          arith::DivUIOp::create(rewriter, loc, i16, cst(rewriter, loc, 4)));
      Value col = arith::AddIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, a->laneCol, i16),
          arith::MulIOp::create(rewriter, loc,
                                arith::RemUIOp::create(rewriter, loc,
                                                       a->laneCol,
                                                       cst(rewriter, loc, 4)),
                                cst(rewriter, loc, 4)));
      SharedAccess reading = *a;
      reading.laneRow = row;
      reading.laneCol = col;
      reading.rowBits = -1; // the split below is of a->laneRow, not row
      auto vecType = VectorType::get({4}, elt);
      for (int64_t reg = 0; reg < static_cast<int64_t>(a->map.regs.size());
           reg += 4) {
        SmallVector<Value> idx = runIndices(rewriter, loc, reading, reg);
        Value v = amdgpu::TransposeLoadOp::create(rewriter, loc, vecType,
                                                  adaptor.getSource(), idx);
        result = vector::InsertStridedSliceOp::create(rewriter, loc, v, result,
                                                      ArrayRef<int64_t>{reg},
                                                      ArrayRef<int64_t>{1});
      }
      rewriter.replaceOp(op, result);
      return success();
    }
    for (hk::SharedRun run : a->runs) {
      SmallVector<Value> idx = runIndices(rewriter, loc, *a, run.reg);
      auto vecType = VectorType::get({run.count}, elt);
      Value v = vector::LoadOp::create(rewriter, loc, vecType,
                                       adaptor.getSource(), idx);
      result = vector::InsertStridedSliceOp::create(rewriter, loc, v, result,
                                                    ArrayRef<int64_t>{run.reg},
                                                    ArrayRef<int64_t>{1});
    }
    Type tileType = getTypeConverter()->convertType(op.getType());
    if (type != tileType)
      result = vector::BitCastOp::create(rewriter, loc, tileType, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  LoweringState &state;
};

struct SharedStoreLowering : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<SharedTileType>(op.getDest().getType()))
      return rewriter.notifyMatchFailure(op, "not a store to a shared tile");
    Location loc = op.getLoc();
    FailureOr<SharedAccess> a = buildSharedAccess(
        rewriter, loc,
        getTileLayout(cast<RankedTensorType>(op.getValue().getType())),
        op.getDest().getType());
    if (failed(a))
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    Value value = adaptor.getValue();
    for (hk::SharedRun run : a->runs) {
      SmallVector<Value> idx = runIndices(rewriter, loc, *a, run.reg);
      Value part = vector::ExtractStridedSliceOp::create(
          rewriter, loc, value, ArrayRef<int64_t>{run.reg},
          ArrayRef<int64_t>{run.count}, ArrayRef<int64_t>{1});
      vector::StoreOp::create(rewriter, loc, part, adaptor.getDest(), idx);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

/// Why this hk.alloc_shared cannot be lowered on `chip`, or "".
static std::string allocSharedReason(Operation *op, const hk::ChipInfo &chip) {
  auto kernel = op->getParentOfType<KernelOp>();
  int64_t bytes = kernel ? kernel.getSharedMemoryBytes() : 0;
  if (bytes > chip.ldsBytes)
    return "needs more LDS than the chip has: the kernel allocates " +
           std::to_string(bytes) + " bytes, the chip " +
           std::to_string(chip.ldsBytes);
  return "";
}

/// Why this hk.load or hk.store of a register tile cannot be lowered, or "".
static std::string registerAccessReason(Operation *op, const hk::ChipInfo &) {
  Type tile = isa<LoadOp>(op) ? cast<LoadOp>(op).getType()
                              : cast<StoreOp>(op).getValue().getType();
  if (isRegTile(tile) &&
      !laneMapOf(getTileLayout(cast<RankedTensorType>(tile))))
    return "with a register layout that is not affine in the lane id";
  return "";
}

void hk::populateSharedMemoryPatterns(TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  patterns.add<AllocSharedLowering, SubtileLowering, SharedStoreLowering>(
      converter, patterns.getContext());
  patterns.add<SharedLoadLowering>(converter, patterns.getContext(), state);
  state.support.add<AllocSharedOp>(allocSharedReason);
  state.support.add<SubtileOp>();
  state.support.add<LoadOp, StoreOp>(registerAccessReason);
}
