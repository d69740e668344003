//===- AsyncCopy.cpp - copies between global memory and shared tiles ------===//
//
// hk.load_async (global -> shared), hk.wait and hk.store (shared -> global)
// walk the shared tile in its physical order: a wave instruction covers 64*w
// consecutive bytes of one subtile, lane l the w bytes at l*w. That is what
// LDS DMA forces (its LDS write is linear in the lane), so the swizzle of
// SharedLayout.h is applied on the global side: each lane asks
// SharedLayout::elementInSubtile, emitted for its running offset, which
// elements its bytes hold, and reads (writes) those in global memory. w
// never exceeds a 16-byte chunk or a row, so those elements are consecutive
// in one row.
//===----------------------------------------------------------------------===//

#include "Waits.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Dialect/HK/SharedLayout.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <array>
#include <tuple>

using namespace mlir;
using namespace hk;

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value ult(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
}

namespace {

/// How a copy walks the shared tile: `bytes` per lane per instruction,
/// `perSubtile` instructions per subtile, `count` in all.
struct CopyPlan {
  hk::SharedLayout shared;
  int64_t bytes, perSubtile, count;

  CopyPlan(const hk::SharedLayout &l, int64_t maxBytes) : shared(l) {
    bytes = std::min({maxBytes, hk::SharedLayout::kChunkBytes, l.rowBytes(),
                      l.subtileBytes() / hk::kWaveSize});
    perSubtile = l.subtileBytes() / (bytes * hk::kWaveSize);
    count = perSubtile * (l.rows / l.subRows) * l.subtilesPerRow();
  }
  int64_t elems() const { return bytes / shared.elemBytes; }
};

/// One lane's part of instruction `inst`: the LDS indices of the start of
/// the instruction (uniform) and of the lane's bytes, and the tile element
/// its first byte holds.
struct LanePiece {
  SmallVector<Value> ldsBase, ldsLane;
  Value row, col;
};

/// The global memref around a tile: the buffer and the tile's origin.
struct GlobalTile {
  const GlobalBuffer *buf;
  SmallVector<Value> origin; ///< per dimension, tile coordinates scaled
  /// What rows are compared against, the leading dimensions folded in
  /// (foldLeadingChecks).
  Value rowLimit;
  bool unitStride;
};

} // namespace

static LanePiece lanePiece(OpBuilder &b, Location loc, const CopyPlan &p,
                           Value inst, Value lane) {
  const hk::SharedLayout &l = p.shared;
  Value perSub = cst(b, loc, p.perSubtile);
  Value sub = arith::DivUIOp::create(b, loc, inst, perSub);
  Value part = arith::RemUIOp::create(b, loc, inst, perSub);
  Value spr = cst(b, loc, l.subtilesPerRow());
  Value si = arith::DivUIOp::create(b, loc, sub, spr);
  Value sj = arith::RemUIOp::create(b, loc, sub, spr);
  Value instElems = cst(b, loc, p.elems() * hk::kWaveSize);
  Value base = arith::MulIOp::create(b, loc, part, instElems);
  Value inSub = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, lane, cst(b, loc, p.elems())));
  // elementInSubtile, in elements: the row (its placement undone), then the
  // XOR undone on the column.
  Value sc = cst(b, loc, l.subCols);
  Value rr = emitRowAt(b, loc, l, arith::DivUIOp::create(b, loc, inSub, sc));
  Value cc =
      arith::XOrIOp::create(b, loc, arith::RemUIOp::create(b, loc, inSub, sc),
                            emitSwizzleElems(b, loc, l, rr));
  LanePiece piece;
  piece.ldsBase = {si, sj, base};
  piece.ldsLane = {si, sj, inSub};
  piece.row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, si, cst(b, loc, l.subRows)), rr);
  piece.col =
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, sj, sc), cc);
  return piece;
}

static GlobalTile globalTile(OpBuilder &b, Location loc, LoweringState &state,
                             Value memref, ValueRange indices,
                             const hk::SharedLayout &l) {
  GlobalTile g;
  g.buf = &state.getBuffer(b, memref);
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t scale = d == rank - 1 ? l.cols : d == rank - 2 ? l.rows : 1;
    g.origin.push_back(scale == 1 ? indices[d]
                                  : arith::MulIOp::create(b, loc, indices[d],
                                                          cst(b, loc, scale)));
  }
  g.rowLimit = foldLeadingChecks(b, loc, *g.buf, g.origin, rank - 2);
  SmallVector<int64_t> strides;
  int64_t offset;
  g.unitStride = succeeded(type.getStridesAndOffset(strides, offset)) &&
                 strides.back() == 1;
  return g;
}

/// Global offset of tile element (row, col + shift), and whether every
/// dimension but the last is in range (unless `checkRows` is false: no
/// check, the second value null; one compare of the row against
/// g.rowLimit) and (unless `checkCol` is false, for a copy whose columns
/// are known to be in range) the column is.
static std::pair<Value, Value> globalOffset(OpBuilder &b, Location loc,
                                            const GlobalTile &g, Value row,
                                            Value col, int64_t shift,
                                            bool checkCol = true,
                                            bool checkRows = true) {
  int64_t rank = g.origin.size();
  SmallVector<Value> pos(g.origin);
  pos[rank - 2] = arith::AddIOp::create(b, loc, pos[rank - 2], row);
  pos[rank - 1] = arith::AddIOp::create(
      b, loc, pos[rank - 1],
      arith::AddIOp::create(b, loc, col, cst(b, loc, shift)));
  Value off, ok;
  for (int64_t d = 0; d < rank; ++d) {
    Value term = arith::MulIOp::create(b, loc, pos[d], g.buf->strides[d]);
    off = off ? arith::AddIOp::create(b, loc, off, term) : term;
  }
  if (checkRows)
    ok = ult(b, loc, pos[rank - 2], g.rowLimit);
  if (checkCol) {
    Value in = ult(b, loc, pos[rank - 1], g.buf->sizes[rank - 1]);
    ok = ok ? arith::AndIOp::create(b, loc, ok, in) : in;
  }
  return {off, ok};
}

/// `off` when `ok`, else the extent (which the buffer answers with zero).
static Value guarded(OpBuilder &b, Location loc, const GlobalTile &g,
                     std::pair<Value, Value> offOk) {
  return arith::SelectOp::create(b, loc, offOk.second, offOk.first,
                                 g.buf->extent);
}

/// Emits `body(inst)` for the instructions of `plan` taken by wave `wave` of
/// `waves`: inst = k * waves + wave for k = 0, 1, ... Returns the loop.
static scf::ForOp
forEachInstruction(OpBuilder &b, Location loc, const CopyPlan &plan, Value wave,
                   int64_t waves, function_ref<void(OpBuilder &, Value)> body) {
  int64_t trips = (plan.count + waves - 1) / waves;
  auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0), cst(b, loc, trips),
                                 cst(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value inst = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, loop.getInductionVar(), cst(b, loc, waves)),
      wave);
  if (plan.count % waves) {
    auto inRange = scf::IfOp::create(
        b, loc, ult(b, loc, inst, cst(b, loc, plan.count)), false);
    b.setInsertionPointToStart(inRange.thenBlock());
  }
  body(b, inst);
  return loop;
}

/// Instructions of `plan` that wave w of `kernelWaves` issues when the first
/// `waves` split them (inst = k * waves + w < count): what hk-compute-waits
/// reads from the copy's `hk.copy_instructions` attribute.
static SmallVector<int64_t>
instructionsPerWave(const CopyPlan &plan, int64_t waves, int64_t kernelWaves) {
  SmallVector<int64_t> perWave;
  for (int64_t w = 0; w < kernelWaves; ++w)
    perWave.push_back(
        w < waves && w < plan.count ? (plan.count - w + waves - 1) / waves : 0);
  return perWave;
}

/// Lane id and wave id (uniform, through readfirstlane), at the builder's
/// insertion point or, given the kernel's `entry` block, at its start. The
/// readfirstlane is convergent: LLVM hoists neither it nor what derives
/// from the wave id out of a loop.
static std::pair<Value, Value> laneAndWave(OpBuilder &b, Location loc,
                                           Block *entry = nullptr) {
  OpBuilder::InsertionGuard guard(b);
  if (entry)
    b.setInsertionPointToStart(entry);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value size = cst(b, loc, hk::kWaveSize);
  Value lane = arith::RemUIOp::create(b, loc, tid, size);
  Type i32 = b.getI32Type();
  Value wave32 = arith::IndexCastUIOp::create(
      b, loc, i32, arith::DivUIOp::create(b, loc, tid, size));
  Value uniform = ROCDL::ReadfirstlaneOp::create(b, loc, i32, wave32);
  return {lane,
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), uniform)};
}

/// Reads the lane's elements one by one (each zero when out of range) and
/// writes them to its place in LDS: for chunks that cross the right edge of
/// the memref and memrefs whose rows are not contiguous.
static void stagedCopy(OpBuilder &b, Location loc, const CopyPlan &plan,
                       const GlobalTile &g, const LanePiece &piece, Value lds,
                       Type elt) {
  SmallVector<Value> elems;
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elt));
  for (int64_t j = 0; j < plan.elems(); ++j) {
    auto offOk = globalOffset(b, loc, g, piece.row, piece.col, j);
    Value v = memref::LoadOp::create(b, loc, g.buf->buffer,
                                     guarded(b, loc, g, offOk));
    // Inside the buffer but past the row: the next row's data, not zero.
    elems.push_back(arith::SelectOp::create(b, loc, offOk.second, v, zero));
  }
  auto vecType = VectorType::get({plan.elems()}, elt);
  Value vec = vector::FromElementsOp::create(b, loc, vecType, elems);
  vector::StoreOp::create(b, loc, vec, lds, piece.ldsLane);
}

/// Whether copy instruction inst = k * waves + w of `p` lands in subtile
/// (si, sj) and part of the subtile that split as those of k * waves plus
/// those of w, with k adding no part: then the lane's tile element (and
/// its swizzle) is that of instruction w moved by whole subtiles, a
/// constant once k is.
static bool splitsByWave(const CopyPlan &p, int64_t waves) {
  int64_t spr = p.shared.subtilesPerRow();
  auto fields = [&](int64_t inst) {
    int64_t sub = inst / p.perSubtile;
    return std::array<int64_t, 3>{sub / spr, sub % spr, inst % p.perSubtile};
  };
  for (int64_t k = 0; k * waves < p.count; ++k) {
    std::array<int64_t, 3> fk = fields(k * waves);
    if (fk[2] != 0)
      return false;
    for (int64_t w = 0; w < waves && k * waves + w < p.count; ++w) {
      std::array<int64_t, 3> f = fields(k * waves + w), fw = fields(w);
      if (f[0] != fk[0] + fw[0] || f[1] != fk[1] + fw[1] || f[2] != fw[2])
        return false;
    }
  }
  return true;
}

namespace {

/// The instructions of one hk.load_async: each lane DMAs its w bytes from
/// the global position of the elements they hold, or copies them through
/// registers when its chunk crosses the right edge of the memref.
class LoadAsyncEmitter {
public:
  /// Reads the copy's plan, global tile and lane and wave ids, emitting what
  /// they need at the rewriter's insertion point (or, for the ids of a copy
  /// that splits by wave, at the start of `func`).
  LoadAsyncEmitter(ConversionPatternRewriter &rewriter, LoweringState &state,
                   LoadAsyncOp op, LoadAsyncOp::Adaptor adaptor,
                   gpu::GPUFuncOp func, int64_t waves);

  /// Instruction `inst` of the copy.
  void emit(OpBuilder &b, Value inst) {
    if (byWave)
      return emitByWave(b, inst);
    LanePiece piece = lanePiece(b, loc, plan, inst, lane);
    if (!g.unitStride)
      return stagedCopy(b, loc, plan, g, piece, lds, elt);
    if (colsInBounds)
      return emitColsInBounds(b, piece);
    emitChecked(b, piece);
  }

  const CopyPlan plan;
  Value wave;

private:
  void emitByWave(OpBuilder &b, Value inst);
  void emitColsInBounds(OpBuilder &b, const LanePiece &piece);
  void emitChecked(OpBuilder &b, const LanePiece &piece);

  Location loc;
  GlobalTile g;
  Type elt;
  Value lds;
  bool colsInBounds, inBounds;
  /// What one lane moves per instruction: an element or a vector of them.
  Type transfer;
  Value lane;
  /// A copy whose columns are in range and whose instructions split by
  /// wave (splitsByWave): the lane's offsets are those of instruction
  /// `wave`, computed once, plus whole subtiles, constants per instruction
  /// once the copy loop is unrolled. The global offset is kept as (uniform
  /// part) + (lane part), so the lane part stays one register across the
  /// copy's instructions instead of a multiply per instruction. Its lane
  /// and wave ids are read at the kernel's start, so that the lane part,
  /// and the wave's share of M0, leave the loop the copy sits in. Unless
  /// hk.in_bounds, each instruction compares its row, the lane's row of
  /// instruction `wave` plus whole subtiles, with the row limit.
  bool byWave;
  /// With byWave: instruction `wave`'s piece, the lane part of its global
  /// offset and the offset of the tile's origin.
  LanePiece first;
  Value laneOff, originOff;
};

LoadAsyncEmitter::LoadAsyncEmitter(ConversionPatternRewriter &rewriter,
                                   LoweringState &state, LoadAsyncOp op,
                                   LoadAsyncOp::Adaptor adaptor,
                                   gpu::GPUFuncOp func, int64_t waves)
    : plan(sharedLayoutOf(op.getDest().getType()), state.chip.ldsDmaBytes),
      loc(op.getLoc()), g(globalTile(rewriter, loc, state, adaptor.getSource(),
                                     adaptor.getIndices(), plan.shared)),
      elt(op.getDest().getType().getElementType()), lds(adaptor.getDest()),
      colsInBounds(op->hasAttr(HKDialect::kColsInBoundsAttrName)),
      inBounds(op->hasAttr(HKDialect::kInBoundsAttrName)),
      transfer(plan.elems() == 1 ? elt : VectorType::get({plan.elems()}, elt)),
      byWave(g.unitStride && colsInBounds && splitsByWave(plan, waves)) {
  std::tie(lane, wave) =
      laneAndWave(rewriter, loc, byWave ? &func.getBody().front() : nullptr);
  if (!byWave)
    return;
  int64_t rank = g.origin.size();
  first = lanePiece(rewriter, loc, plan, wave, lane);
  laneOff = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, first.row, g.buf->strides[rank - 2]),
      first.col);
  Value zero = cst(rewriter, loc, 0);
  originOff = globalOffset(rewriter, loc, g, zero, zero, 0,
                           /*checkCol=*/false, /*checkRows=*/false)
                  .first;
}

void LoadAsyncEmitter::emitByWave(OpBuilder &b, Value inst) {
  int64_t rank = g.origin.size();
  const hk::SharedLayout &l = plan.shared;
  Value instK = arith::SubIOp::create(b, loc, inst, wave);
  Value sub =
      arith::DivUIOp::create(b, loc, instK, cst(b, loc, plan.perSubtile));
  Value si =
      arith::DivUIOp::create(b, loc, sub, cst(b, loc, l.subtilesPerRow()));
  Value sj =
      arith::RemUIOp::create(b, loc, sub, cst(b, loc, l.subtilesPerRow()));
  SmallVector<Value> ldsIdx = {
      arith::AddIOp::create(b, loc, first.ldsBase[0], si),
      arith::AddIOp::create(b, loc, first.ldsBase[1], sj), first.ldsBase[2]};
  // The rows the instruction is moved down by: whole subtiles.
  Value down = arith::MulIOp::create(b, loc, si, cst(b, loc, l.subRows));
  Value rows = arith::MulIOp::create(b, loc, down, g.buf->strides[rank - 2]);
  Value cols = arith::MulIOp::create(b, loc, sj, cst(b, loc, l.subCols));
  Value uniform = arith::AddIOp::create(
      b, loc, originOff, arith::AddIOp::create(b, loc, rows, cols));
  Value off = arith::AddIOp::create(b, loc, uniform, laneOff);
  if (!inBounds) {
    Value row =
        arith::AddIOp::create(b, loc, g.origin[rank - 2],
                              arith::AddIOp::create(b, loc, first.row, down));
    off = guarded(b, loc, g, {off, ult(b, loc, row, g.rowLimit)});
  }
  amdgpu::GatherToLDSOp::create(b, loc, g.buf->buffer, ValueRange{off}, lds,
                                ldsIdx, TypeAttr::get(transfer));
}

/// With hk.cols_in_bounds: one DMA, its rows checked unless hk.in_bounds
/// says the rows and leading indices are in range too.
void LoadAsyncEmitter::emitColsInBounds(OpBuilder &b, const LanePiece &piece) {
  auto start = globalOffset(b, loc, g, piece.row, piece.col, 0,
                            /*checkCol=*/false, /*checkRows=*/!inBounds);
  Value off = inBounds ? start.first : guarded(b, loc, g, start);
  amdgpu::GatherToLDSOp::create(b, loc, g.buf->buffer, ValueRange{off}, lds,
                                piece.ldsBase, TypeAttr::get(transfer));
}

/// A chunk whose start is in range and end is not goes through registers;
/// any other is one DMA (of zeros when out of range).
void LoadAsyncEmitter::emitChecked(OpBuilder &b, const LanePiece &piece) {
  auto start = globalOffset(b, loc, g, piece.row, piece.col, 0);
  auto last = globalOffset(b, loc, g, piece.row, piece.col, plan.elems() - 1);
  Value partial = arith::AndIOp::create(
      b, loc, start.second,
      arith::XOrIOp::create(b, loc, last.second,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  auto ifOp = scf::IfOp::create(b, loc, partial, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  stagedCopy(b, loc, plan, g, piece, lds, elt);
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value off = guarded(b, loc, g, {start.first, last.second});
  amdgpu::GatherToLDSOp::create(b, loc, g.buf->buffer, ValueRange{off}, lds,
                                piece.ldsBase, TypeAttr::get(transfer));
}

/// hk.load_async: the first `waves` waves split the instructions; each
/// lane DMAs its w bytes (gfx950: 16, gfx942: 4; Chip.h's ldsDmaBytes) from
/// the global position of the elements they hold, or zeros when the chunk
/// is out of range. A chunk crossing the right edge of the memref is copied
/// through registers, element by element; with hk.cols_in_bounds
/// (hk-peel-bounds) no chunk does, and only the leading dimensions are
/// checked.
struct LoadAsyncLowering : OpConversionPattern<LoadAsyncOp> {
  LoadAsyncLowering(TypeConverter &converter, MLIRContext *ctx,
                    LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(LoadAsyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    auto kernelWaves =
        func ? func->getAttrOfType<IntegerAttr>(HKDialect::kWavesAttrName)
             : IntegerAttr();
    if (!kernelWaves)
      return rewriter.notifyMatchFailure(op, "kernel not lowered yet");
    int64_t kernelWaveCount = kernelWaves.getInt();
    int64_t waves = op.getWaves() ? *op.getWaves() : kernelWaveCount;
    Location loc = op.getLoc();
    LoadAsyncEmitter copy(rewriter, state, op, adaptor, func, waves);
    auto emit = [&](OpBuilder &b, Value inst) { copy.emit(b, inst); };
    Operation *loop;
    if (waves < kernelWaveCount) {
      auto mine = scf::IfOp::create(
          rewriter, loc,
          ult(rewriter, loc, copy.wave, cst(rewriter, loc, waves)), false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(mine.thenBlock());
      forEachInstruction(rewriter, loc, copy.plan, copy.wave, waves, emit);
      loop = mine;
    } else {
      loop =
          forEachInstruction(rewriter, loc, copy.plan, copy.wave, waves, emit);
    }
    // Every instruction of the copy, on either path (one DMA, or the
    // staged loads of at most 16 bytes per lane), issues at least one
    // vector-memory load: hk-compute-waits counts the copy as a whole.
    loop->setAttr(kCopyInstructionsAttr,
                  rewriter.getDenseI64ArrayAttr(
                      instructionsPerWave(copy.plan, waves, kernelWaveCount)));
    // The token is the point where the copy has been issued.
    auto token = rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(op, 0, 32);
    token->setAttr(kCopyTokenAttr, rewriter.getUnitAttr());
    return success();
  }

  LoweringState &state;
};

/// hk.wait: every global load (vmcnt, which LDS DMA also counts) and every
/// LDS access (lgkmcnt, for the staged writes) of the wave has completed.
/// Zero counts are safe on their own; hk-compute-waits raises the vmcnt to
/// what the named copies allow. It finds them through the marker placed
/// just before the wait: the tokens gathered in a vector, which it erases
/// (and which the canonicalizer drops as dead when the pass does not run).
struct WaitLowering : OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tokens = adaptor.getTokens();
    auto marker = vector::FromElementsOp::create(
        rewriter, op.getLoc(),
        VectorType::get({int64_t(tokens.size())}, rewriter.getI32Type()),
        tokens);
    marker->setAttr(kWaitTokensAttr, rewriter.getUnitAttr());
    IntegerAttr zero = rewriter.getI32IntegerAttr(0);
    rewriter.replaceOpWithNewOp<amdgpu::MemoryCounterWaitOp>(
        op, /*load=*/zero, /*store=*/IntegerAttr(), /*ds=*/zero,
        /*exp=*/IntegerAttr(), /*tensor=*/IntegerAttr());
    return success();
  }
};

/// hk.store of a shared tile to global memory. The op is per wave, so each
/// wave that runs it stores the whole tile (right under any control flow);
/// each lane reads its 16 bytes of LDS in physical order (conflict free) and
/// writes them where they belong; out-of-range parts are dropped.
struct SharedToGlobalLowering : OpConversionPattern<StoreOp> {
  SharedToGlobalLowering(TypeConverter &converter, MLIRContext *ctx,
                         LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto st = dyn_cast<SharedTileType>(op.getValue().getType());
    if (!st)
      return rewriter.notifyMatchFailure(op, "not a shared-to-global store");
    Location loc = op.getLoc();
    CopyPlan plan(sharedLayoutOf(st), hk::SharedLayout::kChunkBytes);
    GlobalTile g = globalTile(rewriter, loc, state, adaptor.getDest(),
                              adaptor.getIndices(), plan.shared);
    Type elt = st.getElementType();
    Value lds = adaptor.getValue();
    Value lane = laneAndWave(rewriter, loc).first;
    forEachInstruction(rewriter, loc, plan, cst(rewriter, loc, 0), 1,
                       [&](OpBuilder &b, Value inst) {
                         LanePiece piece = lanePiece(b, loc, plan, inst, lane);
                         auto vecType = VectorType::get({plan.elems()}, elt);
                         Value v = vector::LoadOp::create(b, loc, vecType, lds,
                                                          piece.ldsLane);
                         storePiece(b, loc, plan, g, piece, v);
                       });
    rewriter.eraseOp(op);
    return success();
  }

  /// Whole when the last element is in range and the row contiguous, else
  /// element by element (the right edge, or strided rows).
  static void storePiece(OpBuilder &b, Location loc, const CopyPlan &plan,
                         const GlobalTile &g, const LanePiece &piece, Value v) {
    auto last = globalOffset(b, loc, g, piece.row, piece.col, plan.elems() - 1);
    Value whole = last.second;
    if (!g.unitStride)
      whole = arith::ConstantIntOp::create(b, loc, 0, 1);
    auto ifOp = scf::IfOp::create(b, loc, whole, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    auto first = globalOffset(b, loc, g, piece.row, piece.col, 0);
    vector::StoreOp::create(b, loc, v, g.buf->buffer, ValueRange{first.first});
    b.setInsertionPointToStart(ifOp.elseBlock());
    for (int64_t j = 0; j < plan.elems(); ++j) {
      auto offOk = globalOffset(b, loc, g, piece.row, piece.col, j);
      Value e = vector::ExtractOp::create(b, loc, v, j);
      memref::StoreOp::create(b, loc, e, g.buf->buffer,
                              ValueRange{guarded(b, loc, g, offOk)});
    }
  }

  LoweringState &state;
};

} // namespace

void hk::populateAsyncCopyPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<LoadAsyncLowering, SharedToGlobalLowering>(
      converter, patterns.getContext(), state);
  patterns.add<WaitLowering>(converter, patterns.getContext());
  state.support.add<LoadAsyncOp, WaitOp, StoreOp>();
}
