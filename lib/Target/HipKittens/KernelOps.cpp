//===- KernelOps.cpp - hk, arith and math ops as HipKittens calls ---------===//

#include "HipKittensTypes.h"
#include "KernelEmitter.h"

#include "hk/Dialect/HK/MfmaTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include "llvm/Support/Format.h"

#include <cstdlib>

using namespace mlir;
using namespace hk;

/// The wait after HipKittens' shared-tile loads and stores (inline-assembly
/// ds_read/ds_write, which the compiler does not count).
static const char kWaitLds[] = "asm volatile(\"s_waitcnt lgkmcnt(0)\");\n";

static LogicalResult noEquivalent(Operation *op, StringRef why = "") {
  InFlightDiagnostic diag =
      op->emitError("'") << op->getName() << "' has no HipKittens equivalent";
  if (!why.empty())
    diag << ": " << why;
  return diag;
}

/// The shortest decimal that reads back as the same float, as a C++ float
/// literal.
static std::string floatLiteral(const APFloat &value) {
  if (value.isInfinity())
    return value.isNegative() ? "-INFINITY" : "INFINITY";
  if (value.isNaN())
    return "NAN";
  APFloat single = value;
  bool lost;
  single.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  float f = single.convertToFloat();
  std::string out;
  for (int precision = 1; precision <= 9; ++precision) {
    out = llvm::formatv("{0}", llvm::format("%.*g", precision, f)).str();
    if (std::strtof(out.c_str(), nullptr) == f)
      break;
  }
  if (out.find_first_of(".en") == std::string::npos)
    out += ".0";
  return out + "f";
}

//===----------------------------------------------------------------------===//
// hk ops
//===----------------------------------------------------------------------===//

/// The template arguments of a global load or store: none for HipKittens'
/// default (tile rows along axis 2, the `gl`'s rows), `<1>` for a permuted
/// view, whose tile rows run along the `gl`'s depth. Shared-tile copies
/// (`G::load`, `store(gl, st, ..)`) also take `assume_aligned`, left false as
/// in their default.
static std::string axisArgs(MemRefType type, bool sharedTile) {
  if (!isPermutedView(type))
    return "";
  return sharedTile ? "<1, false>" : "<1>";
}

static const char *mmaName(MmaKind kind) {
  switch (kind) {
  case MmaKind::AB:
    return "mma_AB";
  case MmaKind::ABt:
    return "mma_ABt";
  case MmaKind::AtB:
    return "mma_AtB";
  case MmaKind::AtBt:
    return "mma_AtBt";
  }
  llvm_unreachable("unknown mma kind");
}

static const char *gridField(GridDim dim) {
  return dim == GridDim::X ? "x" : dim == GridDim::Y ? "y" : "z";
}

/// HipKittens' `tril`/`triu(dst, src, row_idx, fill)` keep `col - row <=
/// -row_idx` (resp. `>=`) in tile coordinates. hk's masks compare global
/// positions against `diagonal`, so `row_idx = colOffset - rowOffset -
/// diagonal`.
static std::string triangleRowIndex(KernelEmitter &, std::string rowOff,
                                    std::string colOff,
                                    std::optional<int64_t> rowConst,
                                    std::optional<int64_t> colConst,
                                    int64_t diagonal) {
  if (rowConst && colConst)
    return std::to_string(*colConst - *rowConst - diagonal);
  std::string expr = colOff + " - " + rowOff;
  if (diagonal > 0)
    expr += " - " + std::to_string(diagonal);
  else if (diagonal < 0)
    expr += " + " + std::to_string(-diagonal);
  return expr;
}

/// Why HipKittens cannot express a position op (dialect/HKPositionOps.td),
/// or nullopt for other ops.
static std::optional<StringRef> positionOpRefusal(Operation *op) {
  if (isa<IotaOp>(op))
    return StringRef("HipKittens has no tile of element positions (its "
                     "masks take a row index, not a tile of indices)");
  if (isa<RowScanOp, ColScanOp>(op))
    return StringRef("HipKittens has no prefix scan along a tile's rows or "
                     "columns");
  if (isa<RowArgOp, ColArgOp>(op))
    return StringRef("HipKittens' row_max and col_max give no position");
  return std::nullopt;
}

LogicalResult KernelEmitter::emitHKOp(Operation *op) {
  if (std::optional<StringRef> why = positionOpRefusal(op))
    return noEquivalent(op, *why);
  if (isa<LoadOp, StoreOp, LoadAsyncOp, WaitOp, AllocSharedOp, SubtileOp,
          AtomicAddOp>(op))
    return emitMemoryOp(op);
  if (isa<MmaOp, RowReduceOp, ColReduceOp, RowBroadcastOp, ColBroadcastOp,
          TrilOp, TriuOp, BoundsMaskOp, TransposeOp, SwapLayoutOp>(op))
    return emitComputeOp(op);
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](BlockIdOp id) {
        defineScalar(id, std::string("blockIdx.") + gridField(id.getDim()),
                     false);
        return success();
      })
      .Case([&](NumBlocksOp n) {
        defineScalar(n, std::string("gridDim.") + gridField(n.getDim()), false);
        return success();
      })
      .Case([&](WaveIdOp w) {
        // HipKittens' warpid() is threadIdx.x >> 6, which LLVM does not know
        // to be the same in every lane: buffer resources built from it would
        // live in VGPRs and each access would become a v_readfirstlane loop.
        // readfirstlane states that it is wave-uniform.
        defineScalar(w, "__builtin_amdgcn_readfirstlane(warpid())", false);
        return success();
      })
      .Case([&](XcdRemapOp remap) {
        defineScalar(remap,
                     llvm::formatv("chiplet_transform_chunked({0}, {1}, {2}, "
                                   "{3})",
                                   plain(remap.getId()),
                                   plain(remap.getCount()), remap.getXcds(),
                                   remap.getChunk())
                         .str(),
                     false);
        return success();
      })
      .Case([&](GroupRemapOp remap) {
        std::string row = nameFor(remap.getRow(), "tile_row");
        std::string col = nameFor(remap.getCol(), "tile_col");
        os << llvm::formatv("const auto [{0}, {1}] = group_remap({2}, {3}, "
                            "{4}, {5});\n",
                            row, col, plain(remap.getId()),
                            plain(remap.getRows()), plain(remap.getCols()),
                            remap.getGroup());
        names[remap.getRow()] = row;
        names[remap.getCol()] = col;
        return success();
      })
      .Case([&](AnyOp any) { return emitAny(any); })
      .Case([&](BarrierOp) {
        os << "__builtin_amdgcn_s_barrier();\n";
        return success();
      })
      .Case([&](SetPrioOp prio) {
        os << "__builtin_amdgcn_s_setprio(" << prio.getPriority() << ");\n";
        return success();
      })
      .Case([&](SchedBarrierOp fence) {
        os << "__builtin_amdgcn_sched_barrier(" << fence.getMask() << ");\n";
        return success();
      })
      .Case([&](SchedGroupOp group) {
        os << llvm::formatv("__builtin_amdgcn_sched_group_barrier({0}, {1}, "
                            "{2});\n",
                            group.getMask(), group.getSize(), group.getSync());
        return success();
      })
      .Default([&](Operation *other) { return noEquivalent(other); });
}

LogicalResult KernelEmitter::emitMemoryOp(Operation *op) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AllocSharedOp alloc) -> LogicalResult {
        FailureOr<std::string> type =
            spellSharedTile(alloc.getType(), op, chip);
        if (failed(type))
          return failure();
        std::string name = nameFor(alloc, "smem");
        os << *type << " &" << name << " = al.allocate<" << *type << ">();\n";
        names[alloc] = name;
        return success();
      })
      .Case([&](SubtileOp sub) -> LogicalResult {
        auto type = cast<SharedTileType>(sub.getType());
        std::string name = nameFor(sub, plain(sub.getSource()) + "_sub");
        os << llvm::formatv("auto {0} = subtile_inplace<{1}, {2}>({3}, {{{4}, "
                            "{5}});\n",
                            name, type.getRows(), type.getCols(),
                            plain(sub.getSource()), plain(sub.getRow()),
                            plain(sub.getCol()));
        names[sub] = name;
        return success();
      })
      .Case([&](LoadAsyncOp load) { return emitLoadAsync(load); })
      .Case([&](WaitOp) {
        // HipKittens counts outstanding copies by hand; waiting for all of
        // them is always correct, if not always the fastest.
        os << "asm volatile(\"s_waitcnt vmcnt(0)\");\n";
        return success();
      })
      .Case([&](LoadOp load) { return emitLoad(load); })
      .Case([&](StoreOp store) { return emitStore(store); })
      .Case([&](AtomicAddOp add) { return emitAtomicAdd(add); })
      .Default([&](Operation *other) { return noEquivalent(other); });
}

/// cdna3's vectors in global memory go through the file's vec_load and
/// vec_store (see isGlobalVectorAccess).
bool KernelEmitter::usesVectorHelpers(Operation *access) {
  return !hipKittensApi(chip).baseShapes && isGlobalVectorAccess(access);
}

LogicalResult KernelEmitter::emitLoadAsync(LoadAsyncOp load) {
  if (failed(spellSharedTile(load.getDest().getType(), load, chip)))
    return failure();
  std::string group = "G";
  if (load.getWaves() && *load.getWaves() != kernel.getWaves())
    group = "kittens::group<" + std::to_string(*load.getWaves()) + ">";
  os << group << "::load" << axisArgs(load.getSource().getType(), true) << "("
     << plain(load.getDest()) << ", " << plain(load.getSource()) << ", "
     << coords(load.getSource().getType(), load.getIndices()) << ");\n";
  return success();
}

LogicalResult KernelEmitter::emitLoad(LoadOp load) {
  if (load.use_empty())
    return success();
  FailureOr<std::string> dst = defineStorage(load, {});
  if (failed(dst))
    return failure();
  auto memref = dyn_cast<MemRefType>(load.getSource().getType());
  os << (usesVectorHelpers(load)          ? "vec_load"
         : needsRowReadHelper(load, chip) ? "shared_load_rows"
         : needsColReadHelper(load, chip) ? "shared_load_cols"
                                          : "load")
     << (memref ? axisArgs(memref, false) : "") << "(" << *dst << ", "
     << plain(load.getSource());
  if (memref)
    os << ", " << coords(memref, load.getIndices());
  os << ");\n";
  // HipKittens reads shared tiles with inline-assembly ds_reads, which
  // the compiler's wait insertion does not see: the registers are
  // ready only after an explicit lgkmcnt wait, as in HipKittens' own
  // kernels.
  if (!memref)
    os << kWaitLds;
  return success();
}

LogicalResult KernelEmitter::emitStore(StoreOp store) {
  if (isa<RankedTensorType>(store.getValue().getType()) &&
      failed(spellType(store.getValue(), store)))
    return failure();
  auto memref = dyn_cast<MemRefType>(store.getDest().getType());
  // A shared tile's store to global memory takes HipKittens'
  // `assume_aligned` flag with the axis; a register tile's does not.
  bool fromShared = isa<SharedTileType>(store.getValue().getType());
  os << (usesVectorHelpers(store) ? "vec_store" : "store")
     << (memref ? axisArgs(memref, fromShared) : "") << "("
     << plain(store.getDest()) << ", " << plain(store.getValue());
  if (memref)
    os << ", " << coords(memref, store.getIndices());
  os << ");\n";
  // A register tile's store to a shared tile is inline-assembly
  // ds_writes likewise: done only after an lgkmcnt wait.
  if (!memref)
    os << kWaitLds;
  return success();
}

/// HipKittens has no atomic tile store: the file defines tile_atomic_add
/// (see atomicAddHelper()), HipKittens' own register tile store with each
/// element added atomically.
LogicalResult KernelEmitter::emitAtomicAdd(AtomicAddOp add) {
  if (isRegVec(add.getValue().getType()))
    return noEquivalent(add, "tile_atomic_add takes register tiles, not "
                             "vectors");
  if (failed(spellType(add.getValue(), add)))
    return failure();
  MemRefType memref = add.getDest().getType();
  os << "tile_atomic_add<" << (isPermutedView(memref) ? 1 : 2) << ">("
     << plain(add.getDest()) << ", " << plain(add.getValue()) << ", "
     << coords(memref, add.getIndices()) << ");\n";
  return success();
}

/// True when `value` is built from block and wave ids, sizes, non-negative
/// constants and counters of loops that start at one by sums, products,
/// quotients, remainders, minima and maxima that keep it non-negative: a
/// tile offset built this way needs no check against 0 (the hk.bounds_mask
/// offsets of the examples). Anything else, or a chain deeper than a few
/// ops, is not known to be non-negative.
static bool isKnownNonNegative(Value value, int depth = 0) {
  if (depth > 8)
    return false;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c >= 0;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    // scf.for steps are positive: the counter never goes below its start.
    return loop && arg == loop.getInductionVar() &&
           isKnownNonNegative(loop.getLowerBound(), depth + 1);
  }
  Operation *def = value.getDefiningOp();
  if (isa<BlockIdOp, NumBlocksOp, WaveIdOp, memref::DimOp>(def))
    return true;
  auto known = [&](Value operand) {
    return isKnownNonNegative(operand, depth + 1);
  };
  // Unsigned quotients, remainders and minima are at most their dividend
  // (resp. either operand); signed remainders take the dividend's sign.
  if (isa<arith::DivUIOp, arith::CeilDivUIOp, arith::RemUIOp, arith::RemSIOp,
          arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return known(def->getOperand(0));
  if (isa<arith::MinUIOp, arith::MaxSIOp>(def))
    return llvm::any_of(def->getOperands(), known);
  if (isa<arith::AddIOp, arith::MulIOp, arith::DivSIOp, arith::CeilDivSIOp,
          arith::MinSIOp, arith::MaxUIOp>(def))
    return llvm::all_of(def->getOperands(), known);
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return isKnownNonNegative(select.getTrueValue(), depth + 1) &&
           isKnownNonNegative(select.getFalseValue(), depth + 1);
  return false;
}

/// `limit - offset` as C++, folded when both are constants.
static std::string tileLimit(StringRef limit, std::optional<int64_t> limitConst,
                             StringRef offset,
                             std::optional<int64_t> offsetConst) {
  if (limitConst && offsetConst)
    return std::to_string(*limitConst - *offsetConst);
  if (offsetConst && *offsetConst == 0)
    return limit.str();
  return (limit + " - " + offset).str();
}

/// hk.bounds_mask keeps element (i, j) iff 0 <= row0 + i < rows and
/// 0 <= col0 + j < cols. HipKittens' rectangular fills take tile-relative
/// indices: `lower_fill(dst, src, r, v)` fills rows i >= r, `right_fill`
/// columns j >= c, `upper_fill` rows i < r, `left_fill` columns j < c
/// (include/ops/warp/register/tile/conversions.cuh). So the mask is
/// lower_fill at rows - row0 and right_fill at cols - col0, plus upper_fill
/// at -row0 and left_fill at -col0 when an offset may be negative. The
/// row-layout fills return early, without writing dst, when there is
/// nothing to fill, so they always run in place: a result that cannot take
/// the source's variable starts as a copy of it.
LogicalResult KernelEmitter::emitBoundsMask(BoundsMaskOp op) {
  Value src = op.getSource();
  FailureOr<std::string> dstOr = defineStorage(op.getResult(), ValueRange(src));
  if (failed(dstOr))
    return failure();
  std::string dst = *dstOr;
  if (dst != plain(src))
    os << "copy(" << dst << ", " << plain(src) << ");\n";
  std::string fill = plain(op.getFill());
  auto call = [&](StringRef fn, const std::string &index) {
    os << fn << "(" << dst << ", " << dst << ", " << index << ", " << fill
       << ");\n";
  };
  Value rowOff = op.getRowOffset(), colOff = op.getColOffset();
  std::optional<int64_t> rowConst = getConstantIntValue(rowOff);
  std::optional<int64_t> colConst = getConstantIntValue(colOff);
  call("lower_fill",
       tileLimit(operand(op.getRows()), getConstantIntValue(op.getRows()),
                 operand(rowOff), rowConst));
  call("right_fill",
       tileLimit(operand(op.getCols()), getConstantIntValue(op.getCols()),
                 operand(colOff), colConst));
  if (!isKnownNonNegative(rowOff))
    call("upper_fill",
         rowConst ? std::to_string(-*rowConst) : "-" + operand(rowOff));
  if (!isKnownNonNegative(colOff))
    call("left_fill",
         colConst ? std::to_string(-*colConst) : "-" + operand(colOff));
  return success();
}

LogicalResult KernelEmitter::emitComputeOp(Operation *op) {
  if (op->getResult(0).use_empty())
    return success();
  if (auto mask = dyn_cast<BoundsMaskOp>(op))
    return emitBoundsMask(mask);
  if (auto mma = dyn_cast<MmaOp>(op)) {
    Type elt = cast<RankedTensorType>(mma.getA().getType()).getElementType();
    if (elt.isF32() || elt.isSignlessInteger(8))
      return noEquivalent(op, elt.isF32() ? "its mma takes no f32 tiles"
                                          : "its mma takes no i8 tiles");
  }

  // The operands the result may overwrite, then the call.
  SmallVector<Value> reusable;
  if (auto mma = dyn_cast<MmaOp>(op))
    reusable.push_back(mma.getC());
  else if (auto red = dyn_cast<RowReduceOp>(op); red && red.getInit())
    reusable.push_back(red.getInit());
  else if (auto red = dyn_cast<ColReduceOp>(op); red && red.getInit())
    reusable.push_back(red.getInit());
  else if (isa<RowBroadcastOp, ColBroadcastOp, TrilOp, TriuOp>(op))
    reusable.push_back(op->getOperand(0));
  FailureOr<std::string> dstOr = defineStorage(op->getResult(0), reusable);
  if (failed(dstOr))
    return failure();
  std::string dst = *dstOr;

  auto reduceCall = [&](StringRef axis, ReduceKind kind, Value src,
                        Value init) {
    os << axis << "_" << stringifyReduceKind(kind) << "(" << dst << ", "
       << plain(src);
    if (init)
      os << ", " << plain(init);
    os << ");\n";
  };
  auto broadcastCall = [&](StringRef axis, BroadcastKind kind, Value src,
                           Value vec) {
    if (kind == BroadcastKind::Copy)
      os << "broadcast_" << axis << "(" << dst << ", " << plain(vec) << ");\n";
    else if (kind == BroadcastKind::Max || kind == BroadcastKind::Min)
      // No named wrapper: HipKittens' generic map with its own base op,
      // which is fmax/fmin (NaN-ignoring), as hk's maxnum/minnum.
      os << axis << "_map<base_ops::" << stringifyBroadcastKind(kind) << ">("
         << dst << ", " << plain(src) << ", " << plain(vec) << ");\n";
    else
      os << stringifyBroadcastKind(kind) << "_" << axis << "(" << dst << ", "
         << plain(src) << ", " << plain(vec) << ");\n";
  };
  auto triangleCall = [&](StringRef fn, Value src, Value rowOff, Value colOff,
                          Value fill, int64_t diagonal) {
    std::string rowIdx = triangleRowIndex(
        *this, operand(rowOff), operand(colOff), getConstantIntValue(rowOff),
        getConstantIntValue(colOff), diagonal);
    os << fn << "(" << dst << ", " << plain(src) << ", " << rowIdx << ", "
       << plain(fill) << ");\n";
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](MmaOp mma) { return emitMma(mma, dst); })
      .Case([&](RowReduceOp red) {
        reduceCall("row", red.getKind(), red.getSource(), red.getInit());
        return success();
      })
      .Case([&](ColReduceOp red) {
        reduceCall("col", red.getKind(), red.getSource(), red.getInit());
        return success();
      })
      .Case([&](RowBroadcastOp b) {
        broadcastCall("row", b.getKind(), b.getSource(), b.getVector());
        return success();
      })
      .Case([&](ColBroadcastOp b) {
        broadcastCall("col", b.getKind(), b.getSource(), b.getVector());
        return success();
      })
      .Case([&](TrilOp m) {
        triangleCall("tril", m.getSource(), m.getRowOffset(), m.getColOffset(),
                     m.getFill(), m.getDiagonal());
        return success();
      })
      .Case([&](TriuOp m) {
        triangleCall("triu", m.getSource(), m.getRowOffset(), m.getColOffset(),
                     m.getFill(), m.getDiagonal());
        return success();
      })
      .Case([&](TransposeOp t) {
        // cdna3 has no tile-level transpose: the file defines one.
        os << (hipKittensApi(chip).tileTranspose ? "transpose("
                                                 : "tile_transpose(")
           << dst << ", " << plain(t.getSource()) << ");\n";
        return success();
      })
      .Case([&](SwapLayoutOp s) { return emitSwapLayout(s, dst); })
      .Default([&](Operation *other) { return noEquivalent(other); });
}

//===----------------------------------------------------------------------===//
// Base-tile shapes HipKittens' calls take
//===----------------------------------------------------------------------===//

static RegTileLayoutAttr tileLayout(Value value) {
  return cast<RegTileLayoutAttr>(
      cast<RankedTensorType>(value.getType()).getEncoding());
}

/// HipKittens main's mma on bf16 operands (include/ops/warp/register/tile/
/// mma.cuh, mma_*_base): a D base tile of 16x16 takes the 16x16x32 MFMA, with
/// A and B base tiles 16x32 along their rows and 32x16 along their columns
/// as the kind reads them (AB: A 16x32, B 32x16; ABt: both 16x32; AtB: both
/// 32x16; AtBt: A 32x16, B 16x32); a D of 32x32 the 32x32x16 MFMA, with the
/// shapes transposed. Every one of these base tiles holds runs of 8
/// elements. Returns the (rows, cols) of A's and B's base tiles.
static std::pair<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>>
mainMmaOperandBases(MmaKind kind, int64_t dBase) {
  // Along K: 32 elements for the 16x16 D, 16 for the 32x32 D.
  int64_t m = dBase, k = dBase == 16 ? 32 : 16;
  std::pair<int64_t, int64_t> byRows{m, k}, byCols{k, m};
  switch (kind) {
  case MmaKind::AB:
    return {byRows, byCols};
  case MmaKind::ABt:
    return {byRows, byRows};
  case MmaKind::AtB:
    return {byCols, byCols};
  case MmaKind::AtBt:
    return {byCols, byRows};
  }
  llvm_unreachable("unknown mma kind");
}

/// The base tile HipKittens main takes for operand `index` (0 = A, 1 = B)
/// of a bf16 `mma` when it differs from the operand's own.
static std::optional<RegTileLayoutAttr>
mainMmaOperandTarget(MmaOp mma, unsigned index, const ChipInfo &chip) {
  if (!hipKittensApi(chip).baseShapes ||
      !mma.getA().getType().getElementType().isBF16())
    return std::nullopt;
  // hk's verifier allows only col 16x16 and 32x32 accumulators.
  auto bases = mainMmaOperandBases(mma.getKind(),
                                   tileLayout(mma.getResult()).getBaseRows());
  std::pair<int64_t, int64_t> base = index == 0 ? bases.first : bases.second;
  RegTileLayoutAttr layout = tileLayout(mma->getOperand(index));
  if (layout.getBaseRows() == base.first &&
      layout.getBaseCols() == base.second && layout.getGroup() == 8)
    return std::nullopt;
  return RegTileLayoutAttr::get(mma.getContext(), layout.getLayout(),
                                base.first, base.second, /*group=*/8);
}

std::optional<RegTileLayoutAttr>
hk::hipKittensLoadLayout(Value value, const ChipInfo &chip) {
  auto load = value.getDefiningOp<LoadOp>();
  if (!load || value.use_empty())
    return std::nullopt;
  std::optional<RegTileLayoutAttr> target;
  for (OpOperand &use : value.getUses()) {
    auto mma = dyn_cast<MmaOp>(use.getOwner());
    if (!mma || use.getOperandNumber() > 1)
      return std::nullopt;
    std::optional<RegTileLayoutAttr> wanted =
        mainMmaOperandTarget(mma, use.getOperandNumber(), chip);
    if (!wanted || (target && *target != *wanted))
      return std::nullopt;
    target = wanted;
  }
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getDimSize(0) % target->getBaseRows() != 0 ||
      type.getDimSize(1) % target->getBaseCols() != 0)
    return std::nullopt;
  // HipKittens main loads a register tile from a shared tile whose subtiles
  // cover whole base tiles or lie within one
  // (include/ops/warp/memory/tile/shared_to_register.cuh); from global
  // memory, any bf16 tile.
  if (auto shared = dyn_cast<SharedTileType>(load.getSource().getType())) {
    ArrayRef<int64_t> sub = shared.getSubtileShape();
    int64_t rows = target->getBaseRows(), cols = target->getBaseCols();
    if (!(sub[0] >= rows && sub[1] >= cols) &&
        !(sub[0] <= rows && sub[1] <= cols))
      return std::nullopt;
  }
  return target;
}

/// The operands of `mma` to move through LDS into the base tile HipKittens
/// main takes (operand 0 = A, 1 = B): those that differ from it and are not
/// loaded in it directly (hipKittensLoadLayout).
static SmallVector<std::pair<unsigned, RegTileLayoutAttr>>
mmaRelayouts(MmaOp mma, const ChipInfo &chip) {
  SmallVector<std::pair<unsigned, RegTileLayoutAttr>> moves;
  for (unsigned index : {0u, 1u}) {
    std::optional<RegTileLayoutAttr> target =
        mainMmaOperandTarget(mma, index, chip);
    if (target && !hipKittensLoadLayout(mma->getOperand(index), chip))
      moves.push_back({index, *target});
  }
  return moves;
}

/// HipKittens main's swap_layout (include/ops/warp/register/tile/
/// conversions.cuh) only changes the base shape of bf16 col tiles: 16x16 to
/// 16x32, and 32x32 to 16x32 with runs of 4.
static bool mainHasSwapLayout(SwapLayoutOp op) {
  RegTileLayoutAttr src = tileLayout(op.getSource());
  RegTileLayoutAttr dst = tileLayout(op.getResult());
  if (!op.getSource().getType().getElementType().isBF16() || !src.isCol() ||
      !dst.isCol())
    return false;
  auto is = [](RegTileLayoutAttr l, int64_t r, int64_t c, int64_t g) {
    return l.getBaseRows() == r && l.getBaseCols() == c && l.getGroup() == g;
  };
  return (is(src, 16, 16, 4) && is(dst, 16, 32, 8)) ||
         (is(src, 32, 32, 4) && is(dst, 16, 32, 4));
}

bool hk::isGlobalVectorAccess(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return isa<MemRefType>(load.getSource().getType()) &&
           isRegVec(load.getResult().getType());
  if (auto store = dyn_cast<StoreOp>(op))
    return isa<MemRefType>(store.getDest().getType()) &&
           isRegVec(store.getValue().getType());
  return false;
}

bool hk::needsRowReadHelper(Operation *op, const ChipInfo &chip) {
  auto load = dyn_cast<LoadOp>(op);
  if (!load || hipKittensApi(chip).baseShapes ||
      !isa<SharedTileType>(load.getSource().getType()))
    return false;
  auto type = cast<RankedTensorType>(load.getResult().getType());
  auto layout = dyn_cast<RegTileLayoutAttr>(type.getEncoding());
  if (!layout || !layout.isRow() ||
      type.getElementType().getIntOrFloatBitWidth() != 16)
    return false;
  // HipKittens' subtiles index their allocation: its width decides.
  Value root = load.getSource();
  while (auto sub = root.getDefiningOp<SubtileOp>())
    root = sub.getSource();
  int64_t cols = cast<SharedTileType>(root.getType()).getCols();
  return cols != 16 && cols != 32 && cols != 64;
}

bool hk::needsColReadHelper(Operation *op, const ChipInfo &chip) {
  auto load = dyn_cast<LoadOp>(op);
  if (!load || !hipKittensApi(chip).baseShapes ||
      !isa<SharedTileType>(load.getSource().getType()))
    return false;
  auto type = cast<RankedTensorType>(load.getResult().getType());
  auto layout = dyn_cast<RegTileLayoutAttr>(type.getEncoding());
  return layout && !layout.isRow() &&
         type.getElementType().getIntOrFloatBitWidth() == 16;
}

bool hk::needsLdsRelayout(Operation *op, const ChipInfo &chip) {
  if (!hipKittensApi(chip).baseShapes)
    return false;
  if (auto mma = dyn_cast<MmaOp>(op))
    return !mmaRelayouts(mma, chip).empty();
  if (auto swap = dyn_cast<SwapLayoutOp>(op))
    return !mainHasSwapLayout(swap);
  return false;
}

/// Bytes of one wave's LDS scratch for the relayouts of `op`: the largest
/// tile it moves.
static int64_t relayoutBytes(Operation *op, const ChipInfo &chip) {
  auto bytes = [](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return type.getNumElements() * type.getElementTypeBitWidth() / 8;
  };
  if (auto mma = dyn_cast<MmaOp>(op)) {
    int64_t most = 0;
    for (auto [index, layout] : mmaRelayouts(mma, chip))
      most = std::max(most, bytes(mma->getOperand(index)));
    return most;
  }
  if (isa<SwapLayoutOp>(op) && needsLdsRelayout(op, chip))
    return bytes(op->getOperand(0));
  return 0;
}

/// Checks that the kernel's shared tiles fit the chip's LDS, and declares the
/// LDS its relayouts go through: one scratch per wave, as large as the
/// largest tile moved, beside the shared tiles.
LogicalResult KernelEmitter::emitRelayoutScratch() {
  // The shared allocator aligns every tile to 16 bytes.
  int64_t sharedBytes = 0;
  kernel.walk([&](AllocSharedOp alloc) {
    sharedBytes += llvm::alignTo(alloc.getType().getSizeInBytes(), 16);
  });
  if (sharedBytes > chip.ldsBytes)
    return kernel.emitError("the shared tiles need ")
           << sharedBytes << " bytes of LDS, more than the " << chip.ldsBytes
           << " bytes of " << chip.name;
  int64_t perWave = 0;
  Operation *first = nullptr;
  kernel.walk([&](Operation *op) {
    int64_t bytes = relayoutBytes(op, chip);
    if (bytes > 0 && !first)
      first = op;
    perWave = std::max(perWave, bytes);
  });
  if (perWave == 0)
    return success();
  perWave = llvm::alignTo(perWave, 16);
  int64_t waves = kernel.getWaves();
  if (sharedBytes + waves * perWave > chip.ldsBytes)
    return first->emitError("HipKittens (")
           << chip.family << ") has no call for these base tiles, and moving "
           << "them through LDS needs " << waves * perWave
           << " bytes beside the kernel's " << sharedBytes
           << " bytes of shared tiles, more than the " << chip.ldsBytes
           << " bytes of LDS of " << chip.name;
  os << "// LDS for moving tiles into base-tile shapes HipKittens' calls "
        "take.\n";
  os << "__shared__ alignas(16) char relayout_lds[" << waves * perWave
     << "];\n";
  os << "char *const relayout_scratch = relayout_lds + "
        "__builtin_amdgcn_readfirstlane(warpid()) * "
     << perWave << ";\n";
  return success();
}

/// A copy of `value` in the layout `target`, moved through LDS.
FailureOr<std::string> KernelEmitter::relayout(Value value,
                                               RegTileLayoutAttr target,
                                               Operation *user) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getDimSize(0) % target.getBaseRows() != 0 ||
      type.getDimSize(1) % target.getBaseCols() != 0)
    return user->emitError("HipKittens (")
           << chip.family << ") takes this operand only in "
           << target.getBaseRows() << "x" << target.getBaseCols()
           << " base tiles, which a " << type.getDimSize(0) << "x"
           << type.getDimSize(1) << " tile is not made of";
  // A copy made earlier in the same block still holds the value: SSA values
  // do not change, and a variable is reused only once its value is dead.
  auto cached = relayouts.find({value, target});
  if (cached != relayouts.end() && cached->second.second == user->getBlock())
    return cached->second.first;
  auto moved =
      RankedTensorType::get(type.getShape(), type.getElementType(), target);
  FailureOr<std::string> spelled = spellRegisterType(moved, user, chip);
  if (failed(spelled))
    return failure();
  std::string name = freshName(plain(value) + "_hk");
  os << *spelled << " " << name << ";\n";
  os << "tile_relayout(" << name << ", " << plain(value)
     << ", relayout_scratch);\n";
  relayouts[{value, target}] = {name, user->getBlock()};
  return name;
}

LogicalResult KernelEmitter::emitMma(MmaOp mma, StringRef dst) {
  // hk's verifier has already fixed the operand layouts HipKittens' mma
  // calls take (A row for AB/ABt, B row for ABt/AtBt, col otherwise) and an
  // f32 accumulator in col 16x16 or 32x32 base tiles with runs of 4.
  Type elem = mma.getA().getType().getElementType();
  bool fp8 = mfmaInputOf(elem, chip) == MfmaInput::FP8;
  if (hipKittensApi(chip).baseShapes) {
    // main: bf16 operands (mma_*_base), fp8 for mma_ABt only.
    if (!elem.isBF16() && !(fp8 && mma.getKind() == MmaKind::ABt))
      return mma.emitError("HipKittens (")
             << chip.family << ") has no " << mmaName(mma.getKind()) << " of "
             << elem << " into f32 (its MFMAs take bf16, and fp8 for "
             << "mma_ABt)";
  } else if (!elem.isBF16()) {
    // cdna3: the 16x16x16 MFMA; of its bf16 and half forms only the bf16
    // one accumulates in f32.
    return mma.emitError("HipKittens (")
           << chip.family << ") has no " << mmaName(mma.getKind()) << " of "
           << elem << " into f32 (its MFMAs take bf16 into f32)";
  }
  std::string operands[2] = {plain(mma.getA()), plain(mma.getB())};
  for (auto [index, target] : mmaRelayouts(mma, chip)) {
    FailureOr<std::string> moved =
        relayout(mma->getOperand(index), target, mma);
    if (failed(moved))
      return failure();
    operands[index] = *moved;
  }
  os << mmaName(mma.getKind()) << "(" << dst << ", " << operands[0] << ", "
     << operands[1] << ", " << plain(mma.getC()) << ");\n";
  return success();
}

LogicalResult KernelEmitter::emitSwapLayout(SwapLayoutOp op, StringRef dst) {
  std::string src = plain(op.getSource());
  if (!hipKittensApi(chip).baseShapes) {
    // cdna3: one base tile, so only a change between row and col moves data
    // (swap_layout); otherwise both spell the same type.
    if (tileLayout(op.getSource()).getLayout() ==
        tileLayout(op.getResult()).getLayout())
      os << "copy(" << dst << ", " << src << ");\n";
    else
      os << "swap_layout(" << dst << ", " << src << ");\n";
    return success();
  }
  if (mainHasSwapLayout(op)) {
    os << "swap_layout(" << dst << ", " << src << ");\n";
    return success();
  }
  os << "tile_relayout(" << dst << ", " << src << ", relayout_scratch);\n";
  return success();
}

//===----------------------------------------------------------------------===//
// arith and math
//===----------------------------------------------------------------------===//

/// The scalar a splat tile holds, when it is one: such tiles are passed to
/// HipKittens' maps as their scalar (`mul(t, t, 0.125f)`).
std::optional<std::string> KernelEmitter::splatScalar(Value value) {
  if (!isa<RankedTensorType>(value.getType()))
    return std::nullopt;
  if (auto splat = value.getDefiningOp<tensor::SplatOp>())
    return plain(splat.getInput());
  SplatElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  Type elem = attr.getElementType();
  if (isa<FloatType>(elem))
    return floatLiteral(attr.getSplatValue<APFloat>());
  return std::to_string(attr.getSplatValue<APInt>().getSExtValue());
}

static const char *tileBinaryName(Operation *op) {
  return TypeSwitch<Operation *, const char *>(op)
      .Case<arith::AddFOp>([](auto) { return "add"; })
      .Case<arith::SubFOp>([](auto) { return "sub"; })
      .Case<arith::MulFOp>([](auto) { return "mul"; })
      .Case<arith::DivFOp>([](auto) { return "div"; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([](auto) { return "max"; })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([](auto) { return "min"; })
      .Default([](Operation *) { return nullptr; });
}

static const char *tileUnaryName(Operation *op) {
  return TypeSwitch<Operation *, const char *>(op)
      .Case<math::Exp2Op>([](auto) { return "exp2"; })
      .Case<math::ExpOp>([](auto) { return "exp"; })
      .Case<math::LogOp>([](auto) { return "log"; })
      .Case<math::Log2Op>([](auto) { return "log2"; })
      .Case<math::AbsFOp>([](auto) { return "abs"; })
      .Case<arith::TruncFOp, arith::ExtFOp>([](auto) { return "copy"; })
      .Default([](Operation *) { return nullptr; });
}

static bool isCommutative(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MaxNumFOp,
             arith::MinimumFOp, arith::MinNumFOp>(op);
}

static bool isVoteComparison(Operation *op);

/// A splat used only as the scalar side of tile maps (or of a comparison
/// hk.any spells) needs no tile.
static bool onlyUsedAsScalar(Value splat) {
  return llvm::all_of(splat.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (isVoteComparison(user))
      return true;
    if (!tileBinaryName(user))
      return false;
    return use.getOperandNumber() == 1 || isCommutative(user);
  });
}

/// The C++ operator of a float comparison, when it has C++'s NaN rule:
/// <, <=, >, >= and == are false with a NaN operand (ordered), != is true
/// (unordered).
static const char *floatPredicateOperator(arith::CmpFPredicate pred) {
  switch (pred) {
  case arith::CmpFPredicate::OGT:
    return ">";
  case arith::CmpFPredicate::OGE:
    return ">=";
  case arith::CmpFPredicate::OLT:
    return "<";
  case arith::CmpFPredicate::OLE:
    return "<=";
  case arith::CmpFPredicate::OEQ:
    return "==";
  case arith::CmpFPredicate::UNE:
    return "!=";
  default:
    return nullptr;
  }
}

/// An f32 vector comparison whose only users are hk.any ops: hk.any
/// spells it (HipKittens has no vectors of bool).
static bool isVoteComparison(Operation *op) {
  auto cmp = dyn_cast<arith::CmpFOp>(op);
  return cmp && isRegVec(cmp.getLhs().getType()) &&
         getElementTypeOrSelf(cmp.getLhs().getType()).isF32() &&
         !cmp->use_empty() && llvm::all_of(cmp->getUsers(), [](Operation *u) {
           return isa<AnyOp>(u);
         });
}

/// hk.any of an f32 vector comparison: each lane compares the vector
/// elements it holds (HipKittens' rv `data[outer][inner]`, as its attention
/// kernels' rescale test reads them), and a ballot combines the lanes.
LogicalResult KernelEmitter::emitAny(AnyOp any) {
  auto cmp = any.getMask().getDefiningOp<arith::CmpFOp>();
  if (!cmp || !isVoteComparison(cmp))
    return noEquivalent(any, "HipKittens has no vectors of bool: the mask "
                             "must be an f32 vector comparison used only by "
                             "hk.any");
  const char *op = floatPredicateOperator(cmp.getPredicate());
  if (!op)
    return noEquivalent(any, "C++ has no operator for this float predicate");
  if (failed(spellType(cmp.getLhs(), any)))
    return failure();
  // Fresh index names: a kernel value may be called o or i.
  std::string o = freshName("vo"), i = freshName("vi");
  auto element = [&](Value v) {
    if (std::optional<std::string> scalar = splatScalar(v))
      return *scalar;
    return plain(v) + ".data[" + o + "][" + i + "]";
  };
  Value vec = splatScalar(cmp.getLhs()) ? cmp.getRhs() : cmp.getLhs();
  if (splatScalar(vec))
    return noEquivalent(any, "both sides of the comparison are splats");
  std::string lane = freshName("lane_any");
  std::string dims = "std::remove_reference_t<decltype(" + plain(vec) + ")>";
  os << "int " << lane << " = 0;\n"
     << "#pragma unroll\n"
     << "for (int " << o << " = 0; " << o << " < " << dims << "::outer_dim; ++"
     << o << ")\n"
     << "  #pragma unroll\n"
     << "  for (int " << i << " = 0; " << i << " < " << dims
     << "::inner_dim; ++" << i << ")\n"
     << "    " << lane << " |= " << element(cmp.getLhs()) << " " << op << " "
     << element(cmp.getRhs()) << ";\n";
  std::string vote = "__builtin_amdgcn_ballot_w64(" + lane + ") != 0";
  if (std::optional<bool> expected = any.getExpected())
    vote = "__builtin_expect(" + vote + ", " + (*expected ? "1" : "0") + ")";
  defineScalar(any, vote, true);
  return success();
}

LogicalResult KernelEmitter::emitTileArith(Operation *op) {
  Value result = op->getResult(0);
  if (isVoteComparison(op))
    return success(); // spelled by its hk.any users
  if (isa<tensor::SplatOp>(op)) {
    if (onlyUsedAsScalar(result))
      return success();
    FailureOr<std::string> dst = defineStorage(result, {});
    if (failed(dst))
      return failure();
    os << "zero(" << *dst << ");\n"
       << "add(" << *dst << ", " << *dst << ", " << *splatScalar(result)
       << ");\n";
    return success();
  }
  if (result.use_empty())
    return success();
  if (const char *name = tileUnaryName(op)) {
    bool sameType = op->getOperand(0).getType() == result.getType();
    FailureOr<std::string> dst =
        defineStorage(result, sameType ? op->getOperands() : ValueRange{});
    if (failed(dst))
      return failure();
    if (failed(spellType(op->getOperand(0), op)))
      return failure();
    os << name << "(" << *dst << ", " << plain(op->getOperand(0)) << ");\n";
    return success();
  }
  if (isa<arith::NegFOp>(op)) {
    FailureOr<std::string> dst = defineStorage(result, op->getOperands());
    if (failed(dst))
      return failure();
    os << "mul(" << *dst << ", " << plain(op->getOperand(0)) << ", -1.0f);\n";
    return success();
  }
  if (isa<math::RsqrtOp>(op)) {
    // Not among HipKittens' base ops: the file defines `rsqrt_op` (see
    // rsqrtHelper()) for HipKittens' generic maps, unary_map on tiles and
    // unary_op on vectors.
    auto type = cast<RankedTensorType>(result.getType());
    if (!type.getElementType().isF32())
      return noEquivalent(op, "the rsqrt functor is defined for f32 only");
    FailureOr<std::string> dst = defineStorage(result, op->getOperands());
    if (failed(dst))
      return failure();
    os << (isRegVec(type) ? "unary_op" : "unary_map") << "<rsqrt_op>(" << *dst
       << ", " << plain(op->getOperand(0)) << ");\n";
    return success();
  }
  if (isa<math::SinOp, math::CosOp>(op))
    return noEquivalent(op, "HipKittens' base ops have no sin or cos");
  const char *name = tileBinaryName(op);
  if (!name)
    return noEquivalent(op);
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  std::optional<std::string> scalar = splatScalar(rhs);
  if (!scalar && isCommutative(op)) {
    if ((scalar = splatScalar(lhs)))
      std::swap(lhs, rhs);
  }
  SmallVector<Value> reusable{lhs};
  if (!scalar)
    reusable.push_back(rhs);
  FailureOr<std::string> dst = defineStorage(result, reusable);
  if (failed(dst))
    return failure();
  os << name << "(" << *dst << ", " << plain(lhs) << ", "
     << (scalar ? *scalar : plain(rhs)) << ");\n";
  return success();
}

/// HipKittens' fill for a splat tile constant: zero, ones (`one` in the
/// cdna3 tree), neg_infty or pos_infty.
std::optional<std::string> hk::fillCall(Value value, const ChipInfo &chip) {
  SplatElementsAttr attr;
  if (!isa<RankedTensorType>(value.getType()) ||
      !matchPattern(value, m_Constant(&attr)) ||
      !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  APFloat v = attr.getSplatValue<APFloat>();
  if (v.isZero())
    return std::string("zero");
  if (v.isInfinity())
    return std::string(v.isNegative() ? "neg_infty" : "pos_infty");
  if (v.isExactlyValue(1.0))
    return std::string(hipKittensApi(chip).baseShapes ? "ones" : "one");
  return std::nullopt;
}

LogicalResult KernelEmitter::emitConstant(arith::ConstantOp op) {
  Attribute value = op.getValue();
  if (auto tensor = dyn_cast<RankedTensorType>(op.getType())) {
    auto splat = dyn_cast<SplatElementsAttr>(value);
    if (!splat || !isa<FloatType>(tensor.getElementType()))
      return op.emitError("only splat float tiles have a HipKittens "
                          "equivalent (zero, ones, neg_infty, ...)");
    if (onlyUsedAsScalar(op) || op.use_empty())
      return success();
    // Loops fill their carried variables themselves.
    if (fillCall(op, chip) && llvm::all_of(op->getUses(), [](OpOperand &use) {
          return isa<scf::ForOp>(use.getOwner());
        }))
      return success();
    FailureOr<std::string> dst = defineStorage(op, {});
    if (failed(dst))
      return failure();
    if (std::optional<std::string> fill = fillCall(op, chip)) {
      os << *fill << "(" << *dst << ");\n";
      return success();
    }
    os << "zero(" << *dst << ");\nadd(" << *dst << ", " << *dst << ", "
       << floatLiteral(splat.getSplatValue<APFloat>()) << ");\n";
    return success();
  }
  std::string literal;
  if (auto f = dyn_cast<FloatAttr>(value))
    literal = floatLiteral(f.getValue());
  else if (auto b = dyn_cast<BoolAttr>(value))
    literal = b.getValue() ? "true" : "false";
  else if (auto i = dyn_cast<IntegerAttr>(value))
    literal = i.getType().isInteger(1)
                  ? (i.getValue().isZero() ? "false" : "true")
                  : std::to_string(i.getValue().getSExtValue());
  else
    return op.emitError("unsupported constant ") << value;
  // Literals are spelled at every use.
  names[op] = literal;
  if (literal.front() == '-')
    composite.insert(op);
  return success();
}

static const char *scalarBinaryOperator(Operation *op) {
  return TypeSwitch<Operation *, const char *>(op)
      .Case<arith::AddIOp, arith::AddFOp>([](auto) { return "+"; })
      .Case<arith::SubIOp, arith::SubFOp>([](auto) { return "-"; })
      .Case<arith::MulIOp, arith::MulFOp>([](auto) { return "*"; })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::DivFOp>(
          [](auto) { return "/"; })
      .Case<arith::RemSIOp, arith::RemUIOp>([](auto) { return "%"; })
      .Case<arith::AndIOp>([](auto) { return "&"; })
      .Case<arith::OrIOp>([](auto) { return "|"; })
      .Case<arith::XOrIOp>([](auto) { return "^"; })
      .Case<arith::ShLIOp>([](auto) { return "<<"; })
      .Case<arith::ShRSIOp, arith::ShRUIOp>([](auto) { return ">>"; })
      .Default([](Operation *) { return nullptr; });
}

static const char *predicateOperator(arith::CmpIPredicate pred) {
  switch (pred) {
  case arith::CmpIPredicate::eq:
    return "==";
  case arith::CmpIPredicate::ne:
    return "!=";
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return "<";
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    return "<=";
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    return ">";
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    return ">=";
  }
  llvm_unreachable("unknown predicate");
}

/// The C++ accessor of the gl dimension that holds dimension `dim` of `type`.
static const char *glDimAccessor(MemRefType type, int64_t dim) {
  static const char *const accessors[] = {"batch()", "depth()", "rows()",
                                          "cols()"};
  return accessors[glDim(type, dim)];
}

LogicalResult KernelEmitter::emitScalarOp(Operation *op) {
  if (op->getNumResults() == 1 &&
      isa<RankedTensorType>(op->getResult(0).getType()) &&
      !isa<arith::ConstantOp>(op))
    return emitTileArith(op);
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return emitConstant(constant);
  if (op->getNumResults() != 1)
    return noEquivalent(op);
  Value result = op->getResult(0);
  if (const char *sym = scalarBinaryOperator(op)) {
    defineScalar(result,
                 operand(op->getOperand(0)) + " " + sym + " " +
                     operand(op->getOperand(1)),
                 true);
    return success();
  }
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::CeilDivSIOp, arith::CeilDivUIOp>([&](Operation *div) {
        defineScalar(result,
                     "ceil_div(" + plain(div->getOperand(0)) + ", " +
                         plain(div->getOperand(1)) + ")",
                     false);
        return success();
      })
      .Case<arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp>(
          [&](Operation *minmax) {
            bool isMin = isa<arith::MinSIOp, arith::MinUIOp>(minmax);
            defineScalar(result,
                         std::string(isMin ? "std::min(" : "std::max(") +
                             plain(minmax->getOperand(0)) + ", " +
                             plain(minmax->getOperand(1)) + ")",
                         false);
            return success();
          })
      .Case([&](arith::CmpIOp cmp) {
        defineScalar(result,
                     operand(cmp.getLhs()) + " " +
                         predicateOperator(cmp.getPredicate()) + " " +
                         operand(cmp.getRhs()),
                     true);
        return success();
      })
      .Case([&](arith::SelectOp select) {
        defineScalar(result,
                     operand(select.getCondition()) + " ? " +
                         operand(select.getTrueValue()) + " : " +
                         operand(select.getFalseValue()),
                     true);
        return success();
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>([&](Operation *cast) {
        // Every integer here is a C++ int.
        names[result] = names.lookup(cast->getOperand(0));
        if (composite.contains(cast->getOperand(0)))
          composite.insert(result);
        return success();
      })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](Operation *cast) {
        defineScalar(result, "float(" + plain(cast->getOperand(0)) + ")",
                     false);
        return success();
      })
      .Case([&](math::Exp2Op e) {
        defineScalar(result, "exp2f(" + plain(e.getOperand()) + ")", false);
        return success();
      })
      .Case([&](arith::NegFOp n) {
        defineScalar(result, "-" + operand(n.getOperand()), true);
        return success();
      })
      .Case([&](memref::DimOp dim) -> LogicalResult {
        auto type = cast<MemRefType>(dim.getSource().getType());
        std::optional<int64_t> index = dim.getConstantIndex();
        if (!index)
          return dim.emitError("the dimension must be a constant");
        if (!type.isDynamicDim(*index)) {
          names[result] = std::to_string(type.getDimSize(*index));
          return success();
        }
        defineScalar(result,
                     plain(dim.getSource()) + "." + glDimAccessor(type, *index),
                     false);
        return success();
      })
      .Default([&](Operation *other) { return noEquivalent(other); });
}
