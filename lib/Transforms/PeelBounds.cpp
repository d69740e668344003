//===- PeelBounds.cpp - loops split where tile loads reach the last column ===//
//
// A global tile load checks every lane's column against the memref's last
// dimension and zeroes the elements of a 16-byte run that cross it: a
// compare and a select per element, on every iteration of a K loop,
// although only the last iterations can reach the edge. This pass splits
// such a loop in two at the first iteration where a load could cross, and
// marks the loads of the first loop hk.cols_in_bounds, which the lowering
// (GlobalAccess.cpp) compiles without column checks. The split point is
// computed at run time from the memref's size, so any shape still works:
// a K that the tiles divide runs everything in the first loop, a ragged K
// runs its last iterations in the second, checked one.
//
// Masks that only matter at the start of the loop (a sliding window's
// left edge, whose keys move away from the queries as the loop advances)
// peel the other end: the loop then runs in three parts, a checked head up
// to the last iteration such a mask still cuts, the unchecked middle, and
// the checked tail.
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace hk {
#define GEN_PASS_DEF_HKPEELBOUNDS
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

/// `coefficient * iv + offset`, with `offset` a value defined before the
/// loop (null for 0).
struct Linear {
  int64_t coefficient = 0;
  Value offset;
};

/// Reads `value` as a linear function of the loop's induction variable,
/// building the offset's arithmetic before the loop with `b`. Fails on
/// anything but the induction variable, values defined outside the loop,
/// and addi, subi and muli by a constant of those.
class LinearForm {
public:
  LinearForm(scf::ForOp loop, OpBuilder &b) : loop(loop), b(b) {}

  std::optional<Linear> of(Value value) {
    if (value == loop.getInductionVar())
      return Linear{1, Value()};
    if (isInvariant(value))
      return Linear{0, value};
    Operation *op = value.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (auto add = dyn_cast<arith::AddIOp>(op)) {
      auto l = of(add.getLhs()), r = of(add.getRhs());
      if (!l || !r)
        return std::nullopt;
      return Linear{l->coefficient + r->coefficient, sum(l->offset, r->offset)};
    }
    if (auto sub = dyn_cast<arith::SubIOp>(op)) {
      auto l = of(sub.getLhs()), r = of(sub.getRhs());
      if (!l || !r || r->coefficient != 0)
        return std::nullopt;
      Value offset = r->offset;
      if (offset)
        offset = l->offset
                     ? arith::SubIOp::create(b, loc(), l->offset, offset)
                     : arith::SubIOp::create(b, loc(), constant(0), offset);
      else
        offset = l->offset;
      return Linear{l->coefficient, offset};
    }
    if (auto mul = dyn_cast<arith::MulIOp>(op)) {
      APInt factor;
      Value other;
      if (matchPattern(mul.getRhs(), m_ConstantInt(&factor)))
        other = mul.getLhs();
      else if (matchPattern(mul.getLhs(), m_ConstantInt(&factor)))
        other = mul.getRhs();
      else
        return std::nullopt;
      auto l = of(other);
      if (!l)
        return std::nullopt;
      int64_t f = factor.getSExtValue();
      Value offset =
          l->offset ? arith::MulIOp::create(b, loc(), l->offset, constant(f))
                          .getResult()
                    : Value();
      return Linear{l->coefficient * f, offset};
    }
    return std::nullopt;
  }

  bool isInvariant(Value value) {
    return !loop->isAncestor(value.getParentRegion()->getParentOp()) &&
           value.getParentRegion() != &loop.getRegion();
  }

  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc(), v);
  }

private:
  Location loc() { return loop.getLoc(); }
  Value sum(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return arith::AddIOp::create(b, loc(), x, y);
  }

  scf::ForOp loop;
  OpBuilder &b;
};

/// Whether `op` belongs to `loop` itself, not to a loop nested in it.
bool isDirectlyIn(Operation *op, scf::ForOp loop) {
  return op->getParentOfType<LoopLikeOpInterface>() ==
         cast<LoopLikeOpInterface>(loop.getOperation());
}

/// The loads of `loop` (not of loops nested in it) the split can mark.
SmallVector<LoadOp> candidateLoads(scf::ForOp loop) {
  SmallVector<LoadOp> loads;
  loop.getBody()->walk([&](LoadOp load) {
    if (!isDirectlyIn(load, loop))
      return;
    auto memref = dyn_cast<MemRefType>(load.getSource().getType());
    if (memref && memref.getRank() >= 2 && isRegTile(load.getType()) &&
        !load->hasAttr(HKDialect::kColsInBoundsAttrName))
      loads.push_back(load);
  });
  return loads;
}

/// Where an op stops needing its bounds work: every iteration below `value`
/// (a prefix of the loop), or with `suffix`, every iteration from `value`
/// on.
struct SafeBound {
  Value value;
  bool suffix = false;
};

/// Computes, before `loop`, the iterations on which the ops it is asked
/// about need no bounds checks or masks: a prefix `[lb, s)` for what grows
/// towards a limit, a suffix `[s, ub)` for what grows away from one.
class SafeRange {
public:
  SafeRange(scf::ForOp loop, OpBuilder &b, LinearForm &linear)
      : loop(loop), b(b), linear(linear) {}

  /// `pos(iv) >= 0` and `pos(iv) + extent <= limit`, with `pos` growing
  /// (or constant) in iv and `limit` invariant: a safe.
  Value inRange(const Linear &pos, int64_t extent, Value limit) {
    Value offset = offsetOf(pos);
    if (pos.coefficient == 0) {
      Value nonNegative = cmp(arith::CmpIPredicate::sge, offset, cst(0));
      Value end = arith::AddIOp::create(b, loc(), offset, cst(extent));
      Value fits = cmp(arith::CmpIPredicate::sle, end, limit);
      return always(arith::AndIOp::create(b, loc(), nonNegative, fits));
    }
    // a * iv + c + extent <= limit: iv <= (limit - extent - c) floordiv a.
    Value room = arith::SubIOp::create(b, loc(), limit, cst(extent));
    room = arith::SubIOp::create(b, loc(), room, offset);
    return upTo(room, pos.coefficient, atLowerBound(pos));
  }

  /// `d(iv) <= most`, `d` a linear form: a prefix when `d` grows or is
  /// invariant, a suffix when it shrinks.
  SafeBound atMost(const Linear &d, Value most) {
    Value offset = offsetOf(d);
    if (d.coefficient == 0)
      return {always(cmp(arith::CmpIPredicate::sle, offset, most))};
    if (d.coefficient > 0)
      return {upTo(arith::SubIOp::create(b, loc(), most, offset), d.coefficient,
                   Value())};
    // -a * iv + c <= most: iv >= (c - most) ceildiv a.
    return {from(arith::SubIOp::create(b, loc(), offset, most), -d.coefficient),
            /*suffix=*/true};
  }

  /// `d(iv) >= least`: a prefix when `d` shrinks or is invariant, a suffix
  /// when it grows.
  SafeBound atLeast(const Linear &d, Value least) {
    Value offset = offsetOf(d);
    if (d.coefficient == 0)
      return {always(cmp(arith::CmpIPredicate::sge, offset, least))};
    if (d.coefficient < 0)
      return {upTo(arith::SubIOp::create(b, loc(), offset, least),
                   -d.coefficient, Value())};
    // a * iv + c >= least: iv >= (least - c) ceildiv a.
    return {from(arith::SubIOp::create(b, loc(), least, offset), d.coefficient),
            /*suffix=*/true};
  }

  /// `bound`, for an op that runs only on one side of invariant `scf.if`s
  /// between it and the loop: iterations that take the other side need
  /// nothing (the whole loop is then safe: `ub` for a prefix, `lb` for a
  /// suffix). Null when a region between them is not an `scf.if`.
  Value underConditions(Operation *op, Value bound, bool suffix = false) {
    Value whole = suffix ? loop.getLowerBound() : loop.getUpperBound();
    for (Operation *parent = op->getParentOp(); parent != loop.getOperation();
         parent = parent->getParentOp()) {
      auto ifOp = dyn_cast<scf::IfOp>(parent);
      if (!ifOp)
        return Value();
      Value cond = ifOp.getCondition();
      if (!linear.isInvariant(cond))
        continue;
      bool inThen = ifOp.getThenRegion().isAncestor(op->getParentRegion());
      bound = inThen ? arith::SelectOp::create(b, loc(), cond, bound, whole)
                     : arith::SelectOp::create(b, loc(), cond, whole, bound);
    }
    return bound;
  }

  Value cst(int64_t v) { return linear.constant(v); }

private:
  Location loc() { return loop.getLoc(); }
  Value offsetOf(const Linear &l) { return l.offset ? l.offset : cst(0); }
  Value cmp(arith::CmpIPredicate pred, Value x, Value y) {
    return arith::CmpIOp::create(b, loc(), pred, x, y);
  }
  /// Every iteration when `cond`, none otherwise.
  Value always(Value cond) {
    return arith::SelectOp::create(b, loc(), cond, loop.getUpperBound(),
                                   loop.getLowerBound());
  }
  /// `a * lb + c >= 0`: a growing position is then never negative.
  Value atLowerBound(const Linear &pos) {
    Value first = arith::MulIOp::create(b, loc(), loop.getLowerBound(),
                                        cst(pos.coefficient));
    first = arith::AddIOp::create(b, loc(), first, offsetOf(pos));
    return cmp(arith::CmpIPredicate::sge, first, cst(0));
  }
  /// The iterations `iv` with `a * iv <= room` (a > 0), if `valid`.
  Value upTo(Value room, int64_t a, Value valid) {
    Value last = arith::FloorDivSIOp::create(b, loc(), room, cst(a));
    Value bound = arith::AddIOp::create(b, loc(), last, cst(1));
    if (valid)
      bound =
          arith::SelectOp::create(b, loc(), valid, bound, loop.getLowerBound());
    return bound;
  }
  /// The first iteration `iv` with `a * iv >= room` (a > 0).
  Value from(Value room, int64_t a) {
    return arith::CeilDivSIOp::create(b, loc(), room, cst(a));
  }

  scf::ForOp loop;
  OpBuilder &b;
  LinearForm &linear;
};

/// `colOffset - rowOffset` as a linear form of the loop's induction
/// variable (what a triangle mask compares with its diagonal), or nothing
/// when either offset is not linear.
std::optional<Linear> difference(LinearForm &linear, OpBuilder &b, Location loc,
                                 Value colOffset, Value rowOffset) {
  auto col = linear.of(colOffset), row = linear.of(rowOffset);
  if (!col || !row)
    return std::nullopt;
  Value offset;
  if (col->offset || row->offset)
    offset = arith::SubIOp::create(
        b, loc, col->offset ? col->offset : linear.constant(0),
        row->offset ? row->offset : linear.constant(0));
  return Linear{col->coefficient - row->coefficient, offset};
}

/// Only loops of matrix products are split: duplicating a loop costs
/// registers (softmax's two row loops, split, spill SGPRs), which an MFMA
/// loop's saved checks pay for and a loop of loads and element-wise work
/// does not.
bool isMatrixProductLoop(scf::ForOp loop) {
  bool hasMma = false;
  loop.getBody()->walk(
      [&](Operation *op) { hasMma |= isa<MmaOp, MmaScaledOp>(op); });
  return hasMma && matchPattern(loop.getStep(), m_One()) &&
         loop.getInductionVar().getType().isIndex();
}

/// Splits one loop: collects, before it, the iteration from which each op
/// of the loop needs its bounds work (the split is the least of them) and,
/// for masks that matter only in the first iterations, the iteration from
/// which they stop mattering (the start is the greatest of those), and then
/// clones the loop for the unchecked iterations between the two, and for
/// the checked head before them when there is a start.
class Peeler {
public:
  explicit Peeler(scf::ForOp loop)
      : loop(loop), b(loop), loc(loop.getLoc()), linear(loop, b),
        safe(loop, b, linear) {}

  /// Splits the loop if it has loads to mark or masks to drop.
  void run() {
    markColumnLoads();
    markInvariantCopies();
    dropMasks();
    if (!marked.empty() || !dropped.empty())
      split();
  }

private:
  /// Lowers the split to `bound`.
  void meet(Value bound) {
    splitAt = splitAt ? arith::MinSIOp::create(b, loc, splitAt, bound) : bound;
  }
  /// Raises the start to `bound`.
  void meetFrom(Value bound) {
    startAt = startAt ? arith::MaxSIOp::create(b, loc, startAt, bound) : bound;
  }

  void markColumnLoads();
  bool markInvariantColumns(Operation *op, Value source, ValueRange indices,
                            int64_t width);
  void markRows(Operation *op, Value source, ValueRange indices, int64_t rows);
  void markInvariantCopies();
  void drop(Operation *op, SafeBound bound);
  void dropMask(Operation *op);
  void dropMasks();
  void split();
  scf::ForOp cloneFor(Value lb, Value ub, IRMapping &mapping);
  void markClone(const IRMapping &mapping);

  scf::ForOp loop;
  OpBuilder b;
  Location loc;
  LinearForm linear;
  SafeRange safe;
  /// The first iteration that needs bounds work (null: none asked yet).
  Value splitAt;
  /// The first iteration from which the masks of the loop's first
  /// iterations are no longer needed (null: there are none).
  Value startAt;
  /// Ops marked hk.cols_in_bounds in the first loop.
  SmallVector<Operation *> marked;
  /// Ops marked hk.in_bounds in the first loop.
  SmallVector<Operation *> allInRange;
  /// Masks the first loop goes without.
  SmallVector<Operation *> dropped;
};

/// Global tile loads: iteration iv keeps load l's columns in range when
/// 0 <= a * iv + c and (a * iv + c + 1) * width <= size, i.e.
/// iv < (size / width - c - 1) / a + 1 with floor divisions, given the
/// first holds at lb: iterations below the minimum of those bounds keep
/// every marked load in range.
void Peeler::markColumnLoads() {
  for (LoadOp load : candidateLoads(loop)) {
    Value source = load.getSource();
    if (!linear.isInvariant(source))
      continue;
    std::optional<Linear> col = linear.of(load.getIndices().back());
    if (!col || col->coefficient <= 0)
      continue;
    auto tile = cast<RankedTensorType>(load.getType());
    auto memref = cast<MemRefType>(source.getType());
    // In the memref's columns: a byte of an i8 memref read as E2M1 holds
    // two of the tile's, three bytes read as f6 four (globalLoadPacking).
    Type memElt = memref.getElementType(), tileElt = tile.getElementType();
    int64_t width = tile.getDimSize(tile.getRank() - 1);
    if (int64_t pack = globalLoadPacking(memElt, tileElt))
      width = width / pack * globalLoadPackedUnits(memElt, tileElt);
    int64_t lastDim = memref.getRank() - 1;
    Value size = memref::DimOp::create(b, loc, source, lastDim);
    Value tiles = arith::DivUIOp::create(b, loc, size, linear.constant(width));
    Value room = arith::SubIOp::create(b, loc, tiles, linear.constant(1));
    if (col->offset)
      room = arith::SubIOp::create(b, loc, room, col->offset);
    Value last = arith::FloorDivSIOp::create(b, loc, room,
                                             linear.constant(col->coefficient));
    Value bound = arith::AddIOp::create(b, loc, last, linear.constant(1));
    // The index grows with iv, so it is never negative in the first loop
    // when it is not at lb; otherwise every iteration stays checked.
    Value first = arith::MulIOp::create(b, loc, loop.getLowerBound(),
                                        linear.constant(col->coefficient));
    if (col->offset)
      first = arith::AddIOp::create(b, loc, first, col->offset);
    Value nonNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              first, linear.constant(0));
    bound = arith::SelectOp::create(b, loc, nonNegative, bound,
                                    loop.getLowerBound());
    meet(bound);
    marked.push_back(load);
  }
}

/// Asynchronous copies, global tile loads and atomic adds of register
/// tiles at a column tile index that does not change in the loop
/// (attention's K and V blocks, all D columns, copied directly or, by
/// hk-transpose-shared, through registers; attention backward's dQ
/// halves): in range in every iteration or in none. Returns whether it
/// marked `op`.
bool Peeler::markInvariantColumns(Operation *op, Value source,
                                  ValueRange indices, int64_t width) {
  if (!isDirectlyIn(op, loop) ||
      op->hasAttr(HKDialect::kColsInBoundsAttrName) ||
      !linear.isInvariant(source))
    return false;
  auto memref = dyn_cast<MemRefType>(source.getType());
  std::optional<Linear> col = linear.of(indices.back());
  if (!memref || memref.getRank() < 2 || !col || col->coefficient != 0)
    return false;
  Value size = memref::DimOp::create(b, loc, source, memref.getRank() - 1);
  Value tiles = arith::DivUIOp::create(b, loc, size, safe.cst(width));
  Value bound =
      safe.underConditions(op, safe.inRange(*col, /*extent=*/1, tiles));
  if (!bound)
    return false;
  meet(bound);
  marked.push_back(op);
  return true;
}

/// A copy whose row tile index grows with the loop (attention's blocks j
/// and its prefetches of j + 1, j + 2) and whose leading indices do not
/// change: every index in range in a prefix of the iterations, which then
/// copies with no check at all (the rows past the end that the checked
/// loop still reads as zeros lie in its last iterations).
/// The same for a global tile load (hk-transpose-shared's copies).
void Peeler::markRows(Operation *op, Value source, ValueRange indices,
                      int64_t rows) {
  auto memref = cast<MemRefType>(source.getType());
  int64_t rank = memref.getRank();
  Value bound;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    std::optional<Linear> pos = linear.of(indices[d]);
    if (!pos || pos->coefficient < 0)
      return;
    Value limit = memref::DimOp::create(b, loc, source, d);
    if (d == rank - 2)
      limit = arith::DivUIOp::create(b, loc, limit, safe.cst(rows));
    Value in = safe.inRange(*pos, /*extent=*/1, limit);
    bound = bound ? arith::MinSIOp::create(b, loc, bound, in) : in;
  }
  bound = safe.underConditions(op, bound);
  if (!bound)
    return;
  meet(bound);
  allInRange.push_back(op);
}

/// The copies, loads and atomic adds at invariant column tile indices.
void Peeler::markInvariantCopies() {
  loop.getBody()->walk([&](Operation *op) {
    if (auto copy = dyn_cast<LoadAsyncOp>(op))
      if (markInvariantColumns(op, copy.getSource(), copy.getIndices(),
                               copy.getDest().getType().getCols()))
        markRows(op, copy.getSource(), copy.getIndices(),
                 copy.getDest().getType().getRows());
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto tile = dyn_cast<RankedTensorType>(load.getType());
      if (tile && isRegTile(tile) &&
          isa<MemRefType>(load.getSource().getType()) &&
          markInvariantColumns(op, load.getSource(), load.getIndices(),
                               tile.getDimSize(1)))
        markRows(op, load.getSource(), load.getIndices(), tile.getDimSize(0));
    }
    if (auto add = dyn_cast<AtomicAddOp>(op)) {
      auto tile = cast<RankedTensorType>(add.getValue().getType());
      if (isRegTile(tile))
        markInvariantColumns(op, add.getDest(), add.getIndices(),
                             tile.getDimSize(1));
    }
  });
}

/// Drops the mask `op` from the unchecked loop if `bound` says in which
/// iterations it keeps everything.
void Peeler::drop(Operation *op, SafeBound bound) {
  if (!bound.value)
    return;
  Value guarded = safe.underConditions(op, bound.value, bound.suffix);
  if (!guarded)
    return;
  if (bound.suffix)
    meetFrom(guarded);
  else
    meet(guarded);
  dropped.push_back(op);
}

void Peeler::dropMask(Operation *op) {
  if (auto mask = dyn_cast<BoundsMaskOp>(op)) {
    if (!linear.isInvariant(mask.getRows()) ||
        !linear.isInvariant(mask.getCols()))
      return;
    auto row = linear.of(mask.getRowOffset());
    auto col = linear.of(mask.getColOffset());
    if (!row || !col || row->coefficient < 0 || col->coefficient < 0)
      return;
    ArrayRef<int64_t> shape = cast<RankedTensorType>(mask.getType()).getShape();
    Value rows = safe.inRange(*row, shape[0], mask.getRows());
    Value cols = safe.inRange(*col, shape[1], mask.getCols());
    return drop(op, {arith::MinSIOp::create(b, loc, rows, cols).getResult()});
  }
  // tril keeps col - row <= diagonal: all of the tile when its largest
  // col - row, (colOffset + C - 1) - rowOffset, is; triu keeps
  // col - row >= diagonal, all when (colOffset) - (rowOffset + R - 1) is.
  // A causal mask (tril, col - row growing) holds in a prefix; a window's
  // left edge (triu, col - row growing) in a suffix.
  if (auto tril = dyn_cast<TrilOp>(op)) {
    auto d =
        difference(linear, b, loc, tril.getColOffset(), tril.getRowOffset());
    if (!d)
      return;
    int64_t cols = cast<RankedTensorType>(tril.getType()).getShape()[1];
    return drop(op, safe.atMost(*d, safe.cst(tril.getDiagonal() - cols + 1)));
  }
  if (auto triu = dyn_cast<TriuOp>(op)) {
    auto d =
        difference(linear, b, loc, triu.getColOffset(), triu.getRowOffset());
    if (!d)
      return;
    int64_t rows = cast<RankedTensorType>(triu.getType()).getShape()[0];
    return drop(op, safe.atLeast(*d, safe.cst(triu.getDiagonal() + rows - 1)));
  }
}

/// Masks that keep every element in a prefix or a suffix of the
/// iterations: in the unchecked loop, their source is used as it is.
void Peeler::dropMasks() {
  loop.getBody()->walk([&](Operation *op) {
    if (isDirectlyIn(op, loop))
      dropMask(op);
  });
}

/// A clone of the loop, before it, over `[lb, ub)`.
scf::ForOp Peeler::cloneFor(Value lb, Value ub, IRMapping &mapping) {
  auto clone = cast<scf::ForOp>(b.clone(*loop, mapping));
  clone.getLowerBoundMutable().assign(lb);
  clone.getUpperBoundMutable().assign(ub);
  return clone;
}

/// Marks the loads and copies and drops the masks in the unchecked loop,
/// the image of the original by `mapping` (the original itself for ops the
/// mapping does not hold).
void Peeler::markClone(const IRMapping &mapping) {
  for (Operation *op : marked)
    mapping.lookupOrDefault(op)->setAttr(HKDialect::kColsInBoundsAttrName,
                                         b.getUnitAttr());
  for (Operation *op : allInRange)
    mapping.lookupOrDefault(op)->setAttr(HKDialect::kInBoundsAttrName,
                                         b.getUnitAttr());
  for (Operation *op : dropped) {
    Operation *copy = mapping.lookupOrDefault(op);
    copy->getResult(0).replaceAllUsesWith(copy->getOperand(0));
    copy->erase();
  }
}

/// Runs `[lb, from)` checked (a clone, only when some mask matters in the
/// first iterations), `[from, at)` unchecked and `[at, ub)` checked (the
/// original loop; when nothing bounds the unchecked loop from above, the
/// original is the unchecked loop itself), each loop starting from the
/// results of the one before.
void Peeler::split() {
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  // Clamped so that lb <= from <= at <= ub (an empty loop stays empty).
  Value at = ub;
  if (splitAt) {
    at = arith::MinSIOp::create(b, loc, splitAt, ub);
    at = arith::MaxSIOp::create(b, loc, at, lb);
  }
  Value from = lb;
  if (startAt) {
    from = arith::MinSIOp::create(b, loc, startAt, at);
    from = arith::MaxSIOp::create(b, loc, from, lb);
    IRMapping headMapping;
    scf::ForOp head = cloneFor(lb, from, headMapping);
    loop.getInitArgsMutable().assign(head.getResults());
  }
  if (!splitAt) {
    loop.getLowerBoundMutable().assign(from);
    markClone(IRMapping());
    return;
  }
  IRMapping mapping;
  scf::ForOp middle = cloneFor(from, at, mapping);
  markClone(mapping);
  loop.getLowerBoundMutable().assign(at);
  loop.getInitArgsMutable().assign(middle.getResults());
}

struct HKPeelBounds : hk::impl::HKPeelBoundsBase<HKPeelBounds> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (isMatrixProductLoop(loop))
        Peeler(loop).run();
  }
};

} // namespace
