//===- TransposeShared.cpp - col-read shared tiles kept transposed --------===//
//
// A 16-bit shared tile read only in a col layout (attention's V, the A
// operand of O^T += V^T P^T) gives each lane runs down a column: without a
// transposing LDS read (gfx942), one ds_read_u16 per element, and a v_perm
// per pair to pack them for the MFMA. Stored transposed, the same registers
// are runs along rows of the transposed tile: one ds_read_b64 per 4
// elements, nothing to pack. LDS DMA cannot transpose (its LDS write is
// linear in the lane), so the copies into such a tile go through registers:
// at the hk.load_async, each wave loads its share of the tile (16-byte
// runs of 16x32 row base tiles), and at the hk.wait on the copy's token it
// writes them to the transposed tile (hk.transpose, then an element per
// ds_write_b16). Writing at the wait keeps the copy's contract: the tile is
// written between the copy and the wait, and only this wave's share, which
// the barrier after the wait makes visible to the others.
//
// Applied per shared allocation when every use is known: hk.subtile views,
// hk.load into a col-layout register tile that the transposed tile serves
// in fewer LDS accesses, and hk.load_async by all waves whose token has one
// use, an hk.wait later in the same block (the registers then reach the
// wait without crossing a loop iteration). Anything else keeps the tile as
// it is.
//===----------------------------------------------------------------------===//

#include "hk/Base/Chip.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Dialect/HK/SharedLayout.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace hk {
#define GEN_PASS_DEF_HKTRANSPOSESHARED
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// The base tile of the registers a copy goes through: 16x32 row, eight
/// consecutive 16-bit elements (16 bytes) per lane.
constexpr int64_t kPieceBaseRows = 16, kPieceBaseCols = 32;

SharedTileType transposedTile(SharedTileType t) {
  return SharedTileType::get(t.getContext(), {t.getCols(), t.getRows()},
                             t.getElementType(),
                             {t.getSubtileShape()[1], t.getSubtileShape()[0]});
}

/// Each wave's share of a copy into `dest`: `waves` pieces of rows x cols
/// (rows a multiple of 16, cols of 32), `perRow` of them per row of pieces,
/// whose transposes are whole subtiles of the transposed tile.
struct Piece {
  int64_t rows, cols, perRow;
};

std::optional<Piece> pieceOf(SharedTileType dest, int64_t waves) {
  int64_t rows = dest.getRows(), cols = dest.getCols();
  int64_t subRows = dest.getSubtileShape()[0];
  int64_t subCols = dest.getSubtileShape()[1];
  for (int64_t r = kPieceBaseRows; r <= rows; r *= 2) {
    if ((rows * cols) % (waves * r))
      continue;
    int64_t c = rows * cols / (waves * r);
    if (rows % r || c % kPieceBaseCols || cols % c || r % subRows ||
        c % subCols)
      continue;
    return Piece{r, c, cols / c};
  }
  return std::nullopt;
}

/// What uses a shared allocation, through its subtile views.
struct Uses {
  SmallVector<SubtileOp> subtiles;
  SmallVector<LoadOp> loads;
  SmallVector<LoadAsyncOp> copies;
};

/// Whether a load of `type` from a tile of `shared` takes fewer LDS
/// accesses from the transposed tile.
bool readsBetterTransposed(RankedTensorType type, SharedTileType shared) {
  if (!isRegTile(type))
    return false;
  auto attr = cast<RegTileLayoutAttr>(type.getEncoding());
  if (attr.isRow())
    return false;
  RankedTensorType t = transposedTileType(type);
  hk::TileLayout before = getTileLayout(type), after = getTileLayout(t);
  if (!before.validate().empty() || !after.validate().empty())
    return false;
  return hk::sharedAccessRuns(after, sharedLayoutOf(transposedTile(shared)))
             .size() <
         hk::sharedAccessRuns(before, sharedLayoutOf(shared)).size();
}

bool collect(Value tile, int64_t waves, Uses &uses) {
  for (OpOperand &use : tile.getUses()) {
    Operation *user = use.getOwner();
    if (auto subtile = dyn_cast<SubtileOp>(user)) {
      uses.subtiles.push_back(subtile);
      if (!collect(subtile.getResult(), waves, uses))
        return false;
      continue;
    }
    if (auto load = dyn_cast<LoadOp>(user)) {
      if (!readsBetterTransposed(cast<RankedTensorType>(load.getType()),
                                 cast<SharedTileType>(tile.getType())))
        return false;
      uses.loads.push_back(load);
      continue;
    }
    auto copy = dyn_cast<LoadAsyncOp>(user);
    if (!copy || use.get() != copy.getDest() ||
        (copy.getWaves() && *copy.getWaves() != waves) ||
        !pieceOf(copy.getDest().getType(), waves) ||
        !copy.getToken().hasOneUse())
      return false;
    auto wait = dyn_cast<WaitOp>(*copy.getToken().getUsers().begin());
    if (!wait || wait->getBlock() != copy->getBlock() ||
        !copy->isBeforeInBlock(wait))
      return false;
    uses.copies.push_back(copy);
  }
  return true;
}

struct HKTransposeShared : hk::impl::HKTransposeSharedBase<HKTransposeShared> {
  using HKTransposeSharedBase::HKTransposeSharedBase;

  void runOnOperation() override {
    const hk::ChipInfo *info = hk::lookupChip(chip);
    if (!info) {
      getOperation().emitError("hk-transpose-shared: unknown chip '")
          << chip << "'; supported: " << hk::supportedChipNames();
      return signalPassFailure();
    }
    if (info->hasTransposeLoad)
      return;
    getOperation().walk([&](KernelOp kernel) {
      SmallVector<AllocSharedOp> allocs(
          kernel.getBody().getOps<AllocSharedOp>());
      for (AllocSharedOp alloc : allocs) {
        if (alloc.getType().getElementType().getIntOrFloatBitWidth() != 16)
          continue;
        Uses uses;
        if (collect(alloc.getResult(), kernel.getWaves(), uses) &&
            !uses.loads.empty())
          transpose(kernel, alloc, uses);
      }
    });
  }

  void transpose(KernelOp kernel, AllocSharedOp alloc, Uses &uses) {
    OpBuilder b(alloc);
    DenseMap<Value, Value> transposed;
    transposed[alloc.getResult()] = AllocSharedOp::create(
        b, alloc.getLoc(), transposedTile(alloc.getType()));
    // Views in program order: a view's source is mapped before it.
    for (SubtileOp view : uses.subtiles) {
      b.setInsertionPoint(view);
      transposed[view.getResult()] = SubtileOp::create(
          b, view.getLoc(), transposedTile(view.getType()),
          transposed.lookup(view.getSource()), view.getCol(), view.getRow());
    }
    for (LoadOp load : uses.loads) {
      b.setInsertionPoint(load);
      auto type = cast<RankedTensorType>(load.getType());
      Value rows =
          LoadOp::create(b, load.getLoc(), transposedTileType(type),
                         transposed.lookup(load.getSource()), ValueRange{});
      load.replaceAllUsesWith(
          TransposeOp::create(b, load.getLoc(), type, rows).getResult());
      load.erase();
    }
    int64_t waves = kernel.getWaves();
    // The wave's piece, computed at the kernel's start (loop invariant, as
    // hk-peel-bounds needs to see the columns) once per pieces per row.
    Block &entry = kernel.getBody().front();
    DenseMap<int64_t, Value> constants;
    DenseMap<int64_t, std::pair<Value, Value>> pieceOfWave;
    Value wave;
    auto index = [&](int64_t v, Location loc) {
      Value &c = constants[v];
      if (!c) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&entry);
        c = arith::ConstantIndexOp::create(b, loc, v);
      }
      return c;
    };
    for (LoadAsyncOp copy : uses.copies) {
      Location loc = copy.getLoc();
      SharedTileType dest = copy.getDest().getType();
      Piece piece = *pieceOf(dest, waves);
      Value perRow = index(piece.perRow, loc);
      Value rowScale = index(dest.getRows() / piece.rows, loc);
      auto &[pieceRow, pieceCol] = pieceOfWave[piece.perRow];
      if (!pieceRow) {
        if (!wave) {
          b.setInsertionPointAfterValue(perRow);
          wave = WaveIdOp::create(b, loc);
        }
        b.setInsertionPointAfterValue(wave);
        pieceRow = arith::DivUIOp::create(b, loc, wave, perRow);
        pieceCol = arith::RemUIOp::create(b, loc, wave, perRow);
      }
      b.setInsertionPoint(copy);
      SmallVector<Value> indices(copy.getIndices());
      size_t n = indices.size();
      indices[n - 2] = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, indices[n - 2], rowScale),
          pieceRow);
      indices[n - 1] = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, indices[n - 1], perRow),
          pieceCol);
      auto pieceType = RankedTensorType::get(
          {piece.rows, piece.cols}, dest.getElementType(),
          RegTileLayoutAttr::get(b.getContext(), Layout::Row, kPieceBaseRows,
                                 kPieceBaseCols));
      Value regs = LoadOp::create(b, loc, pieceType, copy.getSource(), indices);
      Value regsT =
          TransposeOp::create(b, loc, transposedTileType(pieceType), regs);

      auto wait = cast<WaitOp>(*copy.getToken().getUsers().begin());
      b.setInsertionPoint(wait);
      auto pieceTile = SharedTileType::get(
          b.getContext(), {piece.cols, piece.rows}, dest.getElementType(),
          transposedTile(dest).getSubtileShape());
      Value mine = SubtileOp::create(b, loc, pieceTile,
                                     transposed.lookup(copy.getDest()),
                                     pieceCol, pieceRow);
      StoreOp::create(b, loc, regsT, mine, ValueRange{});
      for (unsigned i = 0, e = wait.getTokens().size(); i < e; ++i)
        if (wait.getTokens()[i] == copy.getToken()) {
          wait.getTokensMutable().erase(i);
          break;
        }
      if (wait.getTokens().empty())
        wait.erase();
      copy.erase();
    }
    for (SubtileOp view : llvm::reverse(uses.subtiles))
      view.erase();
    alloc.erase();
  }
};

} // namespace
