//===- KernelOps.cpp - hk, arith and math ops as HipKittens calls ---------===//

#include "HipKittensTypes.h"
#include "KernelEmitter.h"

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

LogicalResult KernelEmitter::emitHKOp(Operation *op) {
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
        defineScalar(w, "warpid()", false);
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
      .Case([&](LoadAsyncOp load) -> LogicalResult {
        if (failed(spellSharedTile(load.getDest().getType(), op, chip)))
          return failure();
        std::string group = "G";
        if (load.getWaves() && *load.getWaves() != kernel.getWaves())
          group = "kittens::group<" + std::to_string(*load.getWaves()) + ">";
        os << group << "::load" << axisArgs(load.getSource().getType(), true)
           << "(" << plain(load.getDest()) << ", " << plain(load.getSource())
           << ", " << coords(load.getSource().getType(), load.getIndices())
           << ");\n";
        return success();
      })
      .Case([&](WaitOp) {
        // HipKittens counts outstanding copies by hand; waiting for all of
        // them is always correct, if not always the fastest.
        os << "asm volatile(\"s_waitcnt vmcnt(0)\");\n";
        return success();
      })
      .Case([&](LoadOp load) -> LogicalResult {
        if (load.use_empty())
          return success();
        FailureOr<std::string> dst = defineStorage(load, {});
        if (failed(dst))
          return failure();
        auto memref = dyn_cast<MemRefType>(load.getSource().getType());
        os << "load" << (memref ? axisArgs(memref, false) : "") << "(" << *dst
           << ", " << plain(load.getSource());
        if (memref)
          os << ", " << coords(memref, load.getIndices());
        os << ");\n";
        return success();
      })
      .Case([&](StoreOp store) -> LogicalResult {
        if (isa<RankedTensorType>(store.getValue().getType()) &&
            failed(spellType(store.getValue(), op)))
          return failure();
        auto memref = dyn_cast<MemRefType>(store.getDest().getType());
        // A shared tile's store to global memory takes HipKittens'
        // `assume_aligned` flag with the axis; a register tile's does not.
        bool fromShared = isa<SharedTileType>(store.getValue().getType());
        os << "store" << (memref ? axisArgs(memref, fromShared) : "") << "("
           << plain(store.getDest()) << ", " << plain(store.getValue());
        if (memref)
          os << ", " << coords(memref, store.getIndices());
        os << ");\n";
        return success();
      })
      .Case([&](AtomicAddOp add) -> LogicalResult {
        // HipKittens has no atomic tile store: the file defines
        // tile_atomic_add (see atomicAddHelper()), HipKittens' own register
        // tile store with each element added atomically.
        if (isRegVec(add.getValue().getType()))
          return noEquivalent(op, "tile_atomic_add takes register tiles, not "
                                  "vectors");
        if (failed(spellType(add.getValue(), op)))
          return failure();
        MemRefType memref = add.getDest().getType();
        os << "tile_atomic_add<" << (isPermutedView(memref) ? 1 : 2) << ">("
           << plain(add.getDest()) << ", " << plain(add.getValue()) << ", "
           << coords(memref, add.getIndices()) << ");\n";
        return success();
      })
      .Default([&](Operation *other) { return noEquivalent(other); });
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
      .Case([&](MmaOp mma) {
        os << mmaName(mma.getKind()) << "(" << dst << ", " << plain(mma.getA())
           << ", " << plain(mma.getB()) << ", " << plain(mma.getC()) << ");\n";
        return success();
      })
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
        os << "transpose(" << dst << ", " << plain(t.getSource()) << ");\n";
        return success();
      })
      .Case([&](SwapLayoutOp s) {
        os << "swap_layout(" << dst << ", " << plain(s.getSource()) << ");\n";
        return success();
      })
      .Default([&](Operation *other) { return noEquivalent(other); });
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

/// A splat used only as the scalar side of tile maps needs no tile.
static bool onlyUsedAsScalar(Value splat) {
  return llvm::all_of(splat.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (!tileBinaryName(user))
      return false;
    return use.getOperandNumber() == 1 || isCommutative(user);
  });
}

LogicalResult KernelEmitter::emitTileArith(Operation *op) {
  Value result = op->getResult(0);
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

/// HipKittens' fill for a splat tile constant: zero, ones, neg_infty or
/// pos_infty.
std::optional<std::string> hk::fillCall(Value value) {
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
    return std::string("ones");
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
    if (fillCall(op) && llvm::all_of(op->getUses(), [](OpOperand &use) {
          return isa<scf::ForOp>(use.getOwner());
        }))
      return success();
    FailureOr<std::string> dst = defineStorage(op, {});
    if (failed(dst))
      return failure();
    if (std::optional<std::string> fill = fillCall(op)) {
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
