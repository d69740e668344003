//===- GlobalAccess.cpp - hk.load / hk.store between registers and memrefs ===//
//
// Each lane moves its own registers. Layout.h (through LaneMap) says where
// register r of the running lane sits in the tile; registers holding
// consecutive elements of a memref row move as one vector of up to 16
// bytes. Memory is reached through a buffer descriptor over the memref's
// whole extent (plus the bytes that complete its last dword, see getBuffer),
// made once at kernel entry. A position outside the memref in any dimension
// is given the extent as offset, which the hardware answers with zero
// (loads) or ignores (stores): no branches on the common path. A load that
// reads a tile of 4- or 6-bit floats from an i8 memref (globalLoadPacking:
// OCP MX data, two elements per byte, or four in three) moves the bytes
// under the same map with its columns scaled to bytes, and reinterprets
// them.
//===----------------------------------------------------------------------===//

#include "LaneMap.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace hk;

/// Elements past a memref's last one that a dword access can reach: with
/// accesses starting at any element, the dword holding the last element may
/// extend 32 - (element bits) bits past it (2 bytes for bf16, 3 for fp8).
static int64_t tailPadElements(Type elt) {
  if (!elt.isIntOrFloat())
    return 0;
  int64_t bits = elt.getIntOrFloatBitWidth();
  return bits >= 32 ? 0 : llvm::divideCeil(32 - bits, bits);
}

const GlobalBuffer &LoweringState::getBuffer(OpBuilder &builder, Value memref) {
  auto it = buffers.find(memref);
  if (it != buffers.end())
    return it->second;
  OpBuilder::InsertionGuard guard(builder);
  // A kernel argument's buffer is set up at the kernel's start when its
  // first access is inside a loop, and otherwise just before the op of the
  // kernel's body that holds that access: a memref used only after the main
  // loop (an output) then does not keep its sizes, strides and descriptor
  // in SGPRs across the loop. Accesses are rewritten in program order, so
  // the later ones are dominated.
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    Block *entry = arg.getOwner();
    // An access in the kernel's body itself: right where it is.
    if (Block *at = builder.getInsertionBlock(); at != entry) {
      Operation *holder = entry->findAncestorOpInBlock(*at->getParentOp());
      bool inLoop = false;
      for (Operation *op = at->getParentOp(); op && !inLoop;
           op = op == holder ? nullptr : op->getParentOp())
        inLoop = isa<LoopLikeOpInterface>(op);
      if (holder && !inLoop)
        builder.setInsertionPoint(holder);
      else
        builder.setInsertionPointToStart(entry);
    }
  } else {
    builder.setInsertionPointAfter(memref.getDefiningOp());
  }

  Location loc = memref.getLoc();
  auto type = cast<MemRefType>(memref.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(builder, loc, memref);
  GlobalBuffer g;
  g.sizes.assign(meta.getSizes().begin(), meta.getSizes().end());
  g.strides.assign(meta.getStrides().begin(), meta.getStrides().end());
  g.baseBuffer = meta.getBaseBuffer();
  g.offset = meta.getOffset();
  // The first offset past the data: one past the last element,
  // 1 + sum over dimensions of (size - 1) * stride, or 0 if any size is 0.
  // (max of size * stride would reach past the last row of a view whose row
  // stride is longer than its row.)
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value last = zero, empty;
  for (auto [size, stride] : llvm::zip(g.sizes, g.strides)) {
    Value isEmpty = arith::CmpIOp::create(builder, loc,
                                          arith::CmpIPredicate::eq, size, zero);
    empty =
        empty ? arith::OrIOp::create(builder, loc, empty, isEmpty) : isEmpty;
    Value reach = arith::MulIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, size, one), stride);
    last = arith::AddIOp::create(builder, loc, last, reach);
  }
  g.extent = arith::AddIOp::create(builder, loc, last, one);
  if (empty)
    g.extent = arith::SelectOp::create(builder, loc, empty, zero, g.extent);
  // Buffer loads of several dwords are range checked per dword: a dword
  // holding the memref's last element and bytes past it would read 0. The
  // range therefore reaches the few elements that can complete such a dword
  // (their values are masked out by the row checks; the runtime keeps those
  // bytes readable), and the extent, the out-of-range offset, moves past
  // them so that no access at it reads or writes them.
  if (int64_t pad = tailPadElements(type.getElementType()))
    g.extent = arith::AddIOp::create(
        builder, loc, g.extent,
        arith::ConstantIndexOp::create(builder, loc, pad));
  auto flatType = MemRefType::get(
      {ShapedType::kDynamic}, type.getElementType(),
      StridedLayoutAttr::get(builder.getContext(), ShapedType::kDynamic, {1}),
      type.getMemorySpace());
  Value flat = memref::ReinterpretCastOp::create(
      builder, loc, flatType, meta.getBaseBuffer(),
      OpFoldResult(meta.getOffset()), {OpFoldResult(g.extent)},
      {builder.getIndexAttr(1)});
  g.buffer = amdgpu::FatRawBufferCastOp::create(
      builder, loc, flat, /*validBytes=*/Value(),
      /*cacheSwizzleStride=*/Value(), builder.getBoolAttr(true),
      builder.getUnitAttr());
  return buffers.try_emplace(memref, std::move(g)).first->second;
}

/// `v` behind an llvm.freeze. The limits below are selects of a size and 0;
/// LLVM's InstCombine rewrites a compare against such a select into the
/// select of the compare, that is, the AND of the leading checks again, and
/// a leading check whose position is loop-invariant (a batch from the block
/// id) then stays live across the loop as a 64-bit lane mask in SGPRs, one
/// per memref. The freeze (a no-op on these values, never poison) keeps the
/// limit a value, which LLVM hoists once out of the loop in its place.
static Value frozen(OpBuilder &b, Location loc, Value v) {
  Value i64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), v);
  Value f = LLVM::FreezeOp::create(b, loc, i64);
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), f);
}

Value hk::foldLeadingChecks(OpBuilder &b, Location loc, const GlobalBuffer &buf,
                            ArrayRef<Value> pos, int64_t dim, Value *leadOk) {
  Value limit = buf.sizes[0];
  if (leadOk)
    *leadOk = Value();
  for (int64_t d = 0; d < dim; ++d) {
    Value in =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos[d], limit);
    if (leadOk && d == dim - 1)
      *leadOk = in;
    limit = frozen(
        b, loc,
        arith::SelectOp::create(b, loc, in, buf.sizes[d + 1],
                                arith::ConstantIndexOp::create(b, loc, 0)));
  }
  return limit;
}

namespace {

/// `count` consecutive registers from `reg` that hold consecutive elements
/// along the memref's last dimension.
struct Run {
  int64_t reg, count;
};

/// Where one register tile or vector access lands in a memref.
struct Access {
  const GlobalBuffer *buf;
  LaneMap map;
  /// Position of the running lane's register 0 in each memref dimension,
  /// without the register part.
  SmallVector<Value> base;
  /// Dimensions the map's (row, col) add to: the last two for a tile, the
  /// last one (col) for a vector.
  int64_t rowDim, colDim;
  bool lastDimContiguous;
  /// The column of the tile's first element (wave-uniform when the indices
  /// are) and the running lane's column within the tile: base[colDim] is
  /// their sum.
  Value colOrigin, laneCol;
  /// For a tile: the row of its first element (wave-uniform when the
  /// indices are), and its rows and columns.
  Value rowOrigin;
  int64_t rows = 0, cols = 0;
  /// What rows (a tile) or columns (a vector) are compared against: the
  /// size, or 0 when a dimension before is out of range (foldLeadingChecks).
  /// A tile's columns are compared against their size.
  Value rowLimit, colLimit;
  /// For a vector: whether its leading positions are in range (null: no
  /// leading dimension), for the accesses that check no column.
  Value leadOk;
};

} // namespace

/// Splits the registers into runs of at most `maxCount` (a power of two),
/// each a power of two long.
static SmallVector<Run> splitRuns(const LaneMap &map, int64_t maxCount) {
  SmallVector<Run> runs;
  int64_t n = map.regs.size();
  for (int64_t r = 0; r < n;) {
    int64_t len = 1;
    while (r + len < n && len < maxCount &&
           map.regs[r + len].row == map.regs[r].row &&
           map.regs[r + len].col == map.regs[r].col + len)
      ++len;
    int64_t count = llvm::bit_floor(static_cast<uint64_t>(len));
    runs.push_back({r, count});
    r += count;
  }
  return runs;
}

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value addConst(OpBuilder &b, Location loc, Value v, int64_t c) {
  return c == 0 ? v : arith::AddIOp::create(b, loc, v, cst(b, loc, c));
}

/// `count` elements of `buffer` from `index`: a scalar for one, else a
/// vector.
static Value loadAt(OpBuilder &b, Location loc, Value buffer, Value index,
                    int64_t count, Type elt) {
  if (count == 1)
    return memref::LoadOp::create(b, loc, buffer, index);
  return vector::LoadOp::create(b, loc, VectorType::get({count}, elt), buffer,
                                index);
}

/// Stores `value` (a scalar, or a vector of consecutive elements) at
/// `index` of `buffer`.
static void storeAt(OpBuilder &b, Location loc, Value value, Value buffer,
                    Value index) {
  if (isa<VectorType>(value.getType()))
    vector::StoreOp::create(b, loc, value, buffer, index);
  else
    memref::StoreOp::create(b, loc, value, buffer, index);
}

/// The map of the bytes of a tile of `pack` elements per `units` bytes:
/// every group of `pack` registers holding consecutive elements of a row,
/// the first at a multiple of `pack`, becomes `units` registers of
/// consecutive bytes; nothing when a lane's elements do not fill whole
/// groups that way.
static std::optional<LaneMap> packLaneMap(const LaneMap &map, int64_t pack,
                                          int64_t units) {
  if (pack == 1)
    return map;
  int64_t n = map.regs.size();
  if (n % pack || map.perLane.col % pack || map.perGroup.col % pack)
    return std::nullopt;
  LaneMap bytes = map;
  bytes.perLane.col = map.perLane.col / pack * units;
  bytes.perGroup.col = map.perGroup.col / pack * units;
  bytes.regs.clear();
  for (int64_t r = 0; r < n; r += pack) {
    Coord first = map.regs[r];
    if (first.col % pack)
      return std::nullopt;
    for (int64_t j = 1; j < pack; ++j)
      if (map.regs[r + j].row != first.row ||
          map.regs[r + j].col != first.col + j)
        return std::nullopt;
    for (int64_t u = 0; u < units; ++u)
      bytes.regs.push_back({first.row, first.col / pack * units + u});
  }
  return bytes;
}

/// Builds the access of a register type at tile `indices` of `memref`,
/// whose groups of `units` elements each hold `pack` of the tile's
/// (globalLoadPacking, globalLoadPackedUnits).
static FailureOr<Access> buildAccess(OpBuilder &b, Location loc,
                                     LoweringState &state, Type regType,
                                     Value memref, ValueRange indices,
                                     int64_t pack = 1, int64_t units = 1) {
  auto t = cast<RankedTensorType>(regType);
  std::optional<LaneMap> map = isRegTile(t) ? laneMapOf(getTileLayout(t))
                                            : laneMapOf(getVectorLayout(t));
  if (map)
    map = packLaneMap(*map, pack, units);
  if (!map)
    return failure();
  Access a;
  a.buf = &state.getBuffer(b, memref);
  a.map = *map;
  auto memrefType = cast<MemRefType>(memref.getType());
  int64_t rank = memrefType.getRank();
  a.colDim = rank - 1;
  a.rowDim = isRegTile(t) ? rank - 2 : -1;
  auto [laneRow, laneCol] = emitLaneOffset(b, loc, *map);
  for (int64_t d = 0; d < rank; ++d) {
    Value idx = indices[d];
    if (d == a.colDim || d == a.rowDim) {
      int64_t extent = d == a.colDim
                           ? t.getDimSize(t.getRank() - 1) / pack * units
                           : t.getDimSize(0);
      Value origin = arith::MulIOp::create(b, loc, idx, cst(b, loc, extent));
      idx = arith::AddIOp::create(b, loc, origin,
                                  d == a.colDim ? laneCol : laneRow);
      if (d == a.colDim) {
        a.colOrigin = origin;
        a.laneCol = laneCol;
        a.cols = extent;
      } else {
        a.rowOrigin = origin;
        a.rows = extent;
      }
    }
    a.base.push_back(idx);
  }
  if (a.rowDim >= 0) {
    a.rowLimit = foldLeadingChecks(b, loc, *a.buf, a.base, a.rowDim);
    a.colLimit = a.buf->sizes[a.colDim];
  } else {
    a.colLimit = foldLeadingChecks(b, loc, *a.buf, a.base, a.colDim, &a.leadOk);
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  a.lastDimContiguous =
      succeeded(memrefType.getStridesAndOffset(strides, offset)) &&
      strides.back() == 1;
  return a;
}

/// Position of register `reg` in every dimension, column shifted by `shift`.
static SmallVector<Value> positionOf(OpBuilder &b, Location loc,
                                     const Access &a, int64_t reg,
                                     int64_t shift = 0) {
  SmallVector<Value> pos(a.base);
  if (a.rowDim >= 0)
    pos[a.rowDim] = addConst(b, loc, pos[a.rowDim], a.map.regs[reg].row);
  pos[a.colDim] = addConst(b, loc, pos[a.colDim], a.map.regs[reg].col + shift);
  return pos;
}

/// Whether every dimension but the last is in range: for a tile, its row
/// against the limit that folds the dimensions before it in; for a vector,
/// its leading positions (which colInRange checks too).
static Value leadingInRange(OpBuilder &b, Location loc, const Access &a,
                            ArrayRef<Value> pos) {
  if (a.rowDim >= 0)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                 pos[a.rowDim], a.rowLimit);
  if (a.leadOk)
    return a.leadOk;
  return arith::ConstantIntOp::create(b, loc, 1, 1);
}

/// leadingInRange where a column check follows, which for a vector covers
/// the leading dimensions already: null then.
static Value rowsInRange(OpBuilder &b, Location loc, const Access &a,
                         ArrayRef<Value> pos) {
  return a.rowDim >= 0 ? leadingInRange(b, loc, a, pos) : Value();
}

static Value andIfAny(OpBuilder &b, Location loc, Value x, Value y) {
  return x ? arith::AndIOp::create(b, loc, x, y).getResult() : y;
}

/// The buffer offset of `pos`, or the extent (answered as out of range)
/// when `valid` is false.
static Value offsetOf(OpBuilder &b, Location loc, const Access &a,
                      ArrayRef<Value> pos, Value valid) {
  Value off;
  for (auto [p, stride] : llvm::zip(pos, a.buf->strides)) {
    Value term = arith::MulIOp::create(b, loc, p, stride);
    off = off ? arith::AddIOp::create(b, loc, off, term) : term;
  }
  if (!valid) // known in range
    return off;
  return arith::SelectOp::create(b, loc, valid, off, a.buf->extent);
}

/// Whether column `pos[colDim] + shift` is in range.
static Value colInRange(OpBuilder &b, Location loc, const Access &a,
                        ArrayRef<Value> pos, int64_t shift) {
  Value col = addConst(b, loc, pos[a.colDim], shift);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                               a.colLimit);
}

static int64_t maxRunLength(const Access &a, Type elt) {
  if (!a.lastDimContiguous)
    return 1;
  int64_t bytes = std::max<int64_t>(1, elt.getIntOrFloatBitWidth() / 8);
  return std::max<int64_t>(1, 16 / bytes);
}

/// Loads one run. A run that starts in range but crosses the end of the row
/// reads its tail from the next row, so those elements are zeroed here.
/// Element j is in its row when j < size - col: one subtraction per run and
/// compares against constants, rather than an index (64 bits wide, so two
/// registers per lane) for every element that the loop would keep live.
/// The compare only matters when the run starts in range (else the load
/// already reads zeros), where size - col is in (0, size]: it is made on
/// 32 bits, unsigned.
/// The offset of a run whose columns are all in range (hk.cols_in_bounds):
/// the lane's offset within the tile, or the extent when a leading position
/// is out of range, plus the tile origin's column offset. The check and the
/// select depend on rows and lanes only, so in a loop that moves along the
/// columns they are invariant, and what changes per iteration is one add of
/// a wave-uniform value. Out-of-range lanes land at or past the extent and
/// read zeros, as long as extent plus origin stays within the 32-bit byte
/// offset, which hkrt checks at launch (outOfRangeOffsetsFit).
static Value inBoundsOffsetOf(OpBuilder &b, Location loc, const Access &a,
                              Run run, bool rowsKnownInRange) {
  SmallVector<Value> pos = positionOf(b, loc, a, run.reg);
  Value lead = rowsKnownInRange ? Value() : leadingInRange(b, loc, a, pos);
  pos[a.colDim] = addConst(b, loc, a.laneCol, a.map.regs[run.reg].col);
  Value inner = offsetOf(b, loc, a, pos, lead);
  Value origin =
      arith::MulIOp::create(b, loc, a.colOrigin, a.buf->strides[a.colDim]);
  return arith::AddIOp::create(b, loc, inner, origin);
}

/// With `colsInBounds` (hk.cols_in_bounds, hk-peel-bounds) every column of
/// the tile is known to be in range: only the leading dimensions are
/// checked, and runs are loaded whole; with `inBounds` (hk.in_bounds) the
/// leading dimensions are in range too, and nothing is checked.
static Value loadRun(OpBuilder &b, Location loc, const Access &a, Run run,
                     Type elt, bool colsInBounds, bool inBounds) {
  SmallVector<Value> pos = positionOf(b, loc, a, run.reg);
  Value off;
  if (colsInBounds) {
    off = inBoundsOffsetOf(b, loc, a, run, inBounds);
  } else {
    Value valid = andIfAny(b, loc, rowsInRange(b, loc, a, pos),
                           colInRange(b, loc, a, pos, 0));
    off = offsetOf(b, loc, a, pos, valid);
  }
  Value v = loadAt(b, loc, a.buf->buffer, off, run.count, elt);
  if (run.count == 1 || colsInBounds)
    return v;
  auto vecType = cast<VectorType>(v.getType());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(vecType));
  // In 32 bits: where it matters, 0 < size - col <= size, and a run is
  // only longer than 1 on a unit column stride, so size is at most the
  // memref's reach, below 2^32 (hkrt refuses larger memrefs: one buffer
  // descriptor's range). Unsigned then, as i8 sizes may pass 2^31.
  Value left = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::SubIOp::create(b, loc, a.buf->sizes[a.colDim], pos[a.colDim]));
  SmallVector<Value> inRow = {arith::ConstantIntOp::create(b, loc, 1, 1)};
  for (int64_t j = 1; j < run.count; ++j)
    inRow.push_back(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, left,
                              arith::ConstantIntOp::create(b, loc, j, 32)));
  Value mask = vector::FromElementsOp::create(
      b, loc, VectorType::get({run.count}, b.getI1Type()), inRow);
  return arith::SelectOp::create(b, loc, mask, v, zero);
}

/// Whether a vector access goes through rowBuffer: along a unit-stride
/// last dimension, of elements of whole dwords (the range check is per
/// dword, so a dword never holds an element past the row's end).
static bool usesRowBuffer(const Access &a, Type elt) {
  return a.rowDim < 0 && a.lastDimContiguous && elt.isIntOrFloat() &&
         elt.getIntOrFloatBitWidth() % 32 == 0;
}

/// A buffer over the row of a vector access from the vector's first
/// element: its leading positions and column origin (tile indices, so
/// wave-uniform) go into the buffer's base, and its range is what is left of
/// the row, or 0 when the origin or a leading position is out of range.
/// The per-dword range check then reads zeros past the row's end, where a
/// buffer over the whole memref needs a compare and a select per element
/// (the next row's elements are in its range); the lanes' offsets are their
/// columns within the vector, the same for every access.
static Value rowBuffer(OpBuilder &b, Location loc, const Access &a, Type elt) {
  SmallVector<Value> first(a.base);
  first[a.colDim] = a.colOrigin;
  Value off = arith::AddIOp::create(b, loc, a.buf->offset,
                                    offsetOf(b, loc, a, first, Value()));
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        a.colOrigin, a.colLimit);
  Value left = arith::SelectOp::create(
      b, loc, inRange, arith::SubIOp::create(b, loc, a.colLimit, a.colOrigin),
      cst(b, loc, 0));
  Value bytes = arith::MulIOp::create(
      b, loc, left, cst(b, loc, elt.getIntOrFloatBitWidth() / 8));
  auto memType = cast<MemRefType>(a.buf->baseBuffer.getType());
  auto rowType = MemRefType::get(
      {ShapedType::kDynamic}, elt,
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}),
      memType.getMemorySpace());
  Value row = memref::ReinterpretCastOp::create(
      b, loc, rowType, a.buf->baseBuffer, OpFoldResult(off),
      {OpFoldResult(left)}, {b.getIndexAttr(1)});
  return amdgpu::FatRawBufferCastOp::create(
      b, loc, row, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), bytes),
      /*cacheSwizzleStride=*/Value(), b.getBoolAttr(true), b.getUnitAttr());
}

/// A run's index in its rowBuffer: the lane's column within the vector.
static Value rowIndex(OpBuilder &b, Location loc, const Access &a, Run run) {
  return addConst(b, loc, a.laneCol, a.map.regs[run.reg].col);
}

/// Stores one run: whole when it lies in its row, else element by element
/// (only at the right edge of a memref whose row length is not a multiple
/// of the run, so the branch is not taken elsewhere).
static void storeRun(OpBuilder &b, Location loc, const Access &a, Run run,
                     Value value) {
  SmallVector<Value> pos = positionOf(b, loc, a, run.reg);
  Value lead = rowsInRange(b, loc, a, pos);
  Value whole =
      andIfAny(b, loc, lead, colInRange(b, loc, a, pos, run.count - 1));
  storeAt(b, loc, value, a.buf->buffer, offsetOf(b, loc, a, pos, whole));
  if (run.count == 1)
    return;
  Value starts = andIfAny(b, loc, lead, colInRange(b, loc, a, pos, 0));
  Value partial = arith::AndIOp::create(
      b, loc, starts,
      arith::XOrIOp::create(b, loc, whole,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  auto ifOp = scf::IfOp::create(b, loc, partial, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  for (int64_t j = 0; j < run.count; ++j) {
    SmallVector<Value> p = positionOf(b, loc, a, run.reg, j);
    Value ok = andIfAny(b, loc, lead, colInRange(b, loc, a, p, 0));
    Value elem = vector::ExtractOp::create(b, loc, value, j);
    memref::StoreOp::create(b, loc, elem, a.buf->buffer,
                            offsetOf(b, loc, a, p, ok));
  }
}

/// Whether every element of a tile access lies inside the memref: its last
/// row and column below their limits (a row limit of 0 when a leading
/// dimension is out of range). From tile indices and sizes only, so
/// wave-uniform when the indices are: a scalar branch.
static Value tileInRange(OpBuilder &b, Location loc, const Access &a) {
  Value rowsFit =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                            addConst(b, loc, a.rowOrigin, a.rows), a.rowLimit);
  Value colsFit =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                            addConst(b, loc, a.colOrigin, a.cols), a.colLimit);
  return arith::AndIOp::create(b, loc, rowsFit, colsFit);
}

/// Stores the runs of a tile, `parts[i]` the value of `runs[i]`. A tile
/// that lies inside the memref (the usual case: every tile but those on a
/// ragged edge) is stored without a check per element, behind one
/// wave-uniform branch; an edge tile takes the checked path (storeRun).
static void storeTileRuns(OpBuilder &b, Location loc, const Access &a,
                          ArrayRef<Run> runs, ArrayRef<Value> parts) {
  auto ifOp = scf::IfOp::create(b, loc, tileInRange(b, loc, a),
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  for (auto [run, part] : llvm::zip(runs, parts))
    storeAt(b, loc, part, a.buf->buffer,
            offsetOf(b, loc, a, positionOf(b, loc, a, run.reg), Value()));
  b.setInsertionPointToStart(ifOp.elseBlock());
  for (auto [run, part] : llvm::zip(runs, parts))
    storeRun(b, loc, a, run, part);
}

namespace {

struct GlobalLoadLowering : OpConversionPattern<LoadOp> {
  GlobalLoadLowering(TypeConverter &converter, MLIRContext *ctx,
                     LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a global load");
    auto tileType = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!tileType)
      return failure();
    // Bytes read as the tile's elements: load the bytes, then bitcast.
    Type memElt = cast<MemRefType>(op.getSource().getType()).getElementType();
    Type tileElt = cast<RankedTensorType>(op.getType()).getElementType();
    int64_t pack = globalLoadPacking(memElt, tileElt);
    int64_t units = globalLoadPackedUnits(memElt, tileElt);
    VectorType type =
        memElt == tileElt
            ? tileType
            : VectorType::get({tileType.getNumElements() / pack * units},
                              memElt);
    Location loc = op.getLoc();
    FailureOr<Access> access =
        buildAccess(rewriter, loc, state, op.getType(), adaptor.getSource(),
                    adaptor.getIndices(), pack, units);
    if (failed(access))
      return rewriter.notifyMatchFailure(
          op, "layout is not affine in lanes, or a lane's elements do not "
              "fill whole bytes");
    Type elt = type.getElementType();
    bool colsInBounds = op->hasAttr(HKDialect::kColsInBoundsAttrName);
    bool inBounds = op->hasAttr(HKDialect::kInBoundsAttrName);
    Value result =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
    Value row;
    if (!inBounds && usesRowBuffer(*access, elt))
      row = rowBuffer(rewriter, loc, *access, elt);
    for (Run run : splitRuns(access->map, maxRunLength(*access, elt))) {
      Value v =
          row ? loadAt(rewriter, loc, row,
                       rowIndex(rewriter, loc, *access, run), run.count, elt)
              : loadRun(rewriter, loc, *access, run, elt, colsInBounds,
                        inBounds);
      result = run.count == 1
                   ? vector::InsertOp::create(rewriter, loc, v, result, run.reg)
                         .getResult()
                   : vector::InsertStridedSliceOp::create(
                         rewriter, loc, v, result, ArrayRef<int64_t>{run.reg},
                         ArrayRef<int64_t>{1})
                         .getResult();
    }
    if (type != tileType)
      result = vector::BitCastOp::create(rewriter, loc, tileType, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  LoweringState &state;
};

struct GlobalStoreLowering : OpConversionPattern<StoreOp> {
  GlobalStoreLowering(TypeConverter &converter, MLIRContext *ctx,
                      LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type valueType = op.getValue().getType();
    if (!isa<MemRefType>(op.getDest().getType()) ||
        isa<SharedTileType>(valueType))
      return rewriter.notifyMatchFailure(op, "not a register-to-global store");
    Location loc = op.getLoc();
    FailureOr<Access> access =
        buildAccess(rewriter, loc, state, valueType, adaptor.getDest(),
                    adaptor.getIndices());
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "layout is not affine in lanes");
    Value value = adaptor.getValue();
    Type elt = cast<VectorType>(value.getType()).getElementType();
    Value row;
    if (usesRowBuffer(*access, elt))
      row = rowBuffer(rewriter, loc, *access, elt);
    SmallVector<Run> runs = splitRuns(access->map, maxRunLength(*access, elt));
    SmallVector<Value> parts;
    for (Run run : runs)
      parts.push_back(
          run.count == 1
              ? vector::ExtractOp::create(rewriter, loc, value, run.reg)
                    .getResult()
              : vector::ExtractStridedSliceOp::create(
                    rewriter, loc, value, ArrayRef<int64_t>{run.reg},
                    ArrayRef<int64_t>{run.count}, ArrayRef<int64_t>{1})
                    .getResult());
    if (access->rowDim >= 0 && !row) {
      storeTileRuns(rewriter, loc, *access, runs, parts);
    } else {
      for (auto [run, part] : llvm::zip(runs, parts))
        if (row)
          storeAt(rewriter, loc, part, row,
                  rowIndex(rewriter, loc, *access, run));
        else
          storeRun(rewriter, loc, *access, run, part);
    }
    rewriter.eraseOp(op);
    return success();
  }

  LoweringState &state;
};

} // namespace

void hk::populateGlobalAccessPatterns(TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  patterns.add<GlobalLoadLowering, GlobalStoreLowering>(
      converter, patterns.getContext(), state);
  state.support.add<LoadOp, StoreOp>();
}
