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

/// The loads of `loop` (not of loops nested in it) the split can mark.
SmallVector<LoadOp> candidateLoads(scf::ForOp loop) {
  SmallVector<LoadOp> loads;
  loop.getBody()->walk([&](LoadOp load) {
    if (load->getParentOfType<LoopLikeOpInterface>() !=
        cast<LoopLikeOpInterface>(loop.getOperation()))
      return;
    auto memref = dyn_cast<MemRefType>(load.getSource().getType());
    if (memref && memref.getRank() >= 2 && isRegTile(load.getType()) &&
        !load->hasAttr(HKDialect::kColsInBoundsAttrName))
      loads.push_back(load);
  });
  return loads;
}

/// Splits `loop` if it has loads to mark; returns whether it did.
bool peel(scf::ForOp loop) {
  // Only loops of matrix products: duplicating a loop costs registers
  // (softmax's two row loops, split, spill SGPRs), which an MFMA loop's
  // saved checks pay for and a loop of loads and element-wise work does not.
  bool hasMma = false;
  loop.getBody()->walk([&](MmaOp) { hasMma = true; });
  SmallVector<LoadOp> loads = candidateLoads(loop);
  if (!hasMma || loads.empty() || !matchPattern(loop.getStep(), m_One()) ||
      !loop.getInductionVar().getType().isIndex())
    return false;

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  LinearForm linear(loop, b);
  // Iteration iv keeps load l's columns in range when
  // 0 <= a * iv + c and (a * iv + c + 1) * width <= size, i.e.
  // iv < (size / width - c - 1) / a + 1 with floor divisions, given the
  // first holds at lb: iterations below the minimum of those bounds keep
  // every marked load in range.
  Value split;
  SmallVector<LoadOp> marked;
  for (LoadOp load : loads) {
    Value source = load.getSource();
    if (!linear.isInvariant(source))
      continue;
    std::optional<Linear> col = linear.of(load.getIndices().back());
    if (!col || col->coefficient <= 0)
      continue;
    auto tile = cast<RankedTensorType>(load.getType());
    int64_t width = tile.getDimSize(tile.getRank() - 1);
    int64_t lastDim = cast<MemRefType>(source.getType()).getRank() - 1;
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
    split = split ? arith::MinSIOp::create(b, loc, split, bound) : bound;
    marked.push_back(load);
  }
  if (marked.empty())
    return false;
  // Clamped to [lb, ub] (an empty loop stays empty: ub <= lb gives lb).
  split = arith::MinSIOp::create(b, loc, split, loop.getUpperBound());
  split = arith::MaxSIOp::create(b, loc, split, loop.getLowerBound());

  // The checked loop keeps the original; the first, unchecked one is a clone
  // that ends at the split and hands its results on.
  IRMapping mapping;
  auto first = cast<scf::ForOp>(b.clone(*loop, mapping));
  first.getUpperBoundMutable().assign(split);
  for (LoadOp load : marked)
    mapping.lookup(load.getResult())
        .getDefiningOp()
        ->setAttr(HKDialect::kColsInBoundsAttrName, b.getUnitAttr());
  loop.getLowerBoundMutable().assign(split);
  loop.getInitArgsMutable().assign(first.getResults());
  return true;
}

struct HKPeelBounds : hk::impl::HKPeelBoundsBase<HKPeelBounds> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      peel(loop);
  }
};

} // namespace
