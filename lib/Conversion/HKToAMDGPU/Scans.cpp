//===- Scans.cpp - hk.row_scan, hk.col_scan -------------------------------===//
//
// Along the scanned axis, Layout.h places a row's elements in three parts:
// a run of A consecutive positions in one lane's registers, the L lanes
// sharing the row one after the other (lane bit d adding a weight, A times
// a power of two), and blocks of A*L positions in further registers (base
// tiles, or the chunks of a `group`). Position = a + lanePart + block*A*L.
// ScanPlan derives that split from Layout.h and checks it for every lane
// and register. The scan is then
//   1. in each lane, a sequential scan over its run (A registers);
//   2. across lanes, a butterfly over the lane bits: each step exchanges the
//      totals of the lanes combined so far with lane l ^ d, and a lane whose
//      bit d is set (so whose partner's positions come first) adds the
//      partner's total to its prefix. After log2(L) steps each lane has the
//      combination of the runs of the lanes before it, and the block total;
//   3. in each lane, a sequential exclusive scan over the blocks' totals;
// and each element combines its block's carry, its lane prefix and its run
// value. Every register of the row is handled at once as a vector with one
// element per (row, block).
//===----------------------------------------------------------------------===//

#include "AxisMap.h"
#include "XorLanes.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace hk;

namespace {

/// Where a row's (column's) elements are, along the scanned axis.
struct ScanPlan {
  int64_t run = 1;    ///< A: consecutive positions in one lane
  int64_t blocks = 1; ///< blocks of A*L positions
  int64_t rows = 0;   ///< vector registers: rows (columns) per lane
  SmallVector<int64_t> laneXors;
  /// Tile register of (slot, a), slot = row * blocks + block.
  SmallVector<SmallVector<int64_t>> regOf;
  int64_t slots() const { return rows * blocks; }
};

} // namespace

static int64_t along(Major axis, Coord c) {
  return axis == Major::Row ? c.col : c.row;
}

/// The plan of a scan along each row (axis Row) or column of `tile`, or
/// the reason there is none.
static FailureOr<ScanPlan> planScan(const TileLayout &tile, Major axis,
                                    std::string &why) {
  VectorLayout vec{axis, tile};
  std::optional<AxisMap> map = axisMapOf(tile, vec);
  if (!map) {
    why = "has no lane-local map between the tile and its rows";
    return failure();
  }
  ScanPlan plan;
  plan.laneXors = map->laneXors;
  plan.rows = vec.regsPerLane();
  int64_t length = axis == Major::Row ? tile.cols : tile.rows;
  auto pos = [&](int64_t lane, int64_t reg) {
    return along(axis, tile.elementOf(lane, reg));
  };
  // Lane bit d moves a lane's positions by its weight; the weights must be
  // A, 2A, 4A, ... so that the lanes' runs tile the span between blocks.
  SmallVector<int64_t> weights;
  for (int64_t d : plan.laneXors)
    weights.push_back(pos(d, 0) - pos(0, 0));
  SmallVector<int64_t> sorted(weights);
  llvm::sort(sorted);
  int64_t lanes = int64_t(1) << plan.laneXors.size();
  int64_t perRow = tile.regsPerLane() / plan.rows;
  plan.run = sorted.empty() ? perRow : sorted.front();
  for (size_t k = 0; k < sorted.size(); ++k)
    if (sorted[k] != plan.run << k) {
      why = "has lanes whose positions along the scan do not interleave as "
            "runs of registers";
      return failure();
    }
  if (plan.run <= 0 || length % (plan.run * lanes)) {
    why = "has a layout the scan cannot split into runs";
    return failure();
  }
  plan.blocks = length / (plan.run * lanes);
  if (plan.slots() * plan.run != tile.regsPerLane()) {
    why = "has rows of uneven registers";
    return failure();
  }
  plan.regOf.assign(plan.slots(), SmallVector<int64_t>(plan.run, -1));
  for (int64_t reg = 0; reg < tile.regsPerLane(); ++reg) {
    int64_t p = pos(0, reg), a = p % plan.run;
    int64_t block = (p - a) / (plan.run * lanes);
    if ((p - a) % (plan.run * lanes) || block >= plan.blocks) {
      why = "has a lane whose registers are not runs of positions";
      return failure();
    }
    int64_t &slot = plan.regOf[map->vectorReg[reg] * plan.blocks + block][a];
    if (slot >= 0) {
      why = "has two registers at one position";
      return failure();
    }
    slot = reg;
  }
  // Every lane: its position is lane 0's plus the weights of its bits.
  for (int64_t lane = 0; lane < kWaveSize; ++lane) {
    int64_t shift = 0;
    for (auto [d, w] : llvm::zip(plan.laneXors, weights))
      shift += (lane & d) ? w : 0;
    for (int64_t reg = 0; reg < tile.regsPerLane(); ++reg)
      if (pos(lane, reg) != pos(0, reg) + shift) {
        why = "has positions that are not lane 0's plus the lane bits' "
              "weights";
        return failure();
      }
  }
  return plan;
}

/// The identity of `kind` on `type`'s elements (splat for a vector).
static Value identity(OpBuilder &b, Location loc, ReduceKind kind, Type type) {
  Type elt = getElementTypeOrSelf(type);
  TypedAttr attr;
  if (elt.isF32()) {
    float inf = std::numeric_limits<float>::infinity();
    float v = kind == ReduceKind::Sum   ? 0.0f
              : kind == ReduceKind::Max ? -inf
                                        : inf;
    attr = b.getF32FloatAttr(v);
  } else {
    int32_t v = kind == ReduceKind::Sum   ? 0
                : kind == ReduceKind::Max ? std::numeric_limits<int32_t>::min()
                                          : std::numeric_limits<int32_t>::max();
    attr = b.getI32IntegerAttr(v);
  }
  if (auto vec = dyn_cast<VectorType>(type))
    attr = DenseElementsAttr::get(vec, ArrayRef<Attribute>{attr});
  return arith::ConstantOp::create(b, loc, attr);
}

/// `x <kind> y`; max and min are maxNum / minNum, as in hk.row_reduce.
static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                     Value y) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(x.getType()));
  switch (kind) {
  case ReduceKind::Max:
    return isFloat ? arith::MaxNumFOp::create(b, loc, x, y).getResult()
                   : arith::MaxSIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Min:
    return isFloat ? arith::MinNumFOp::create(b, loc, x, y).getResult()
                   : arith::MinSIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Sum:
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  }
  llvm_unreachable("unknown reduce kind");
}

/// `v`'s registers picked by `mask` (a vector of mask.size() elements).
static Value pick(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> mask) {
  return vector::ShuffleOp::create(b, loc, v, v, mask);
}

/// Whether the running lane has lane bit `d` set (i1, per lane).
static Value laneBit(OpBuilder &b, Location loc, int64_t d) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bit = arith::AndIOp::create(b, loc, tid,
                                    arith::ConstantIndexOp::create(b, loc, d));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

/// Step 2: the combination of the runs of the lanes before this one
/// (`prefix`) and of all lanes sharing the row (`total`), per slot.
static std::pair<Value, Value> acrossLanes(OpBuilder &b, Location loc,
                                           ReduceKind kind, Value runTotal,
                                           const ScanPlan &plan,
                                           const hk::ChipInfo &chip) {
  Value prefix = identity(b, loc, kind, runTotal.getType());
  Value total = runTotal;
  for (int64_t d : plan.laneXors) {
    Value theirs = xorLanes(b, loc, total, d, chip);
    Value after = laneBit(b, loc, d);
    prefix = arith::SelectOp::create(
        b, loc, after, combine(b, loc, kind, theirs, prefix), prefix);
    total = combine(b, loc, kind, total, theirs);
  }
  return {prefix, total};
}

/// Step 3: per slot, the combination of the totals of the blocks before it
/// in its row (the identity for the first block).
static Value blockCarries(OpBuilder &b, Location loc, ReduceKind kind,
                          Value totals, const ScanPlan &plan) {
  auto type = cast<VectorType>(totals.getType());
  Value none = identity(b, loc, kind, type.getElementType());
  SmallVector<Value> carries;
  for (int64_t row = 0; row < plan.rows; ++row) {
    Value run = none;
    for (int64_t block = 0; block < plan.blocks; ++block) {
      carries.push_back(run);
      if (block + 1 < plan.blocks) {
        Value t = vector::ExtractOp::create(b, loc, totals,
                                            row * plan.blocks + block);
        run = block == 0 ? t : combine(b, loc, kind, run, t);
      }
    }
  }
  return vector::FromElementsOp::create(b, loc, type, carries);
}

/// The result tile from per-run-index vectors over the slots: register
/// regOf[slot][a] is element slot of values[a].
static Value assemble(OpBuilder &b, Location loc, ArrayRef<Value> values,
                      const ScanPlan &plan, int64_t numRegs) {
  int64_t slots = plan.slots();
  Value all = values.front();
  for (size_t a = 1; a < values.size(); ++a) {
    SmallVector<int64_t> both;
    for (int64_t i = 0; i < int64_t(a + 1) * slots; ++i)
      both.push_back(i);
    all = vector::ShuffleOp::create(b, loc, all, values[a], both);
  }
  SmallVector<int64_t> order(numRegs);
  for (int64_t slot = 0; slot < slots; ++slot)
    for (int64_t a = 0; a < plan.run; ++a)
      order[plan.regOf[slot][a]] = a * slots + slot;
  return pick(b, loc, all, order);
}

namespace {

template <typename ScanOp> struct ScanLowering : OpConversionPattern<ScanOp> {
  ScanLowering(TypeConverter &converter, MLIRContext *ctx, LoweringState &state,
               Major axis)
      : OpConversionPattern<ScanOp>(converter, ctx), state(state), axis(axis) {}

  LogicalResult
  matchAndRewrite(ScanOp op, typename ScanOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    TileLayout tile =
        getTileLayout(cast<RankedTensorType>(op.getSource().getType()));
    std::string why;
    FailureOr<ScanPlan> plan = planScan(tile, axis, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    ReduceKind kind = op.getKind();
    Value src = adaptor.getSource();
    // Step 1: the inclusive scan of each run, one vector per run index.
    SmallVector<Value> runs;
    for (int64_t a = 0; a < plan->run; ++a) {
      SmallVector<int64_t> mask;
      for (const auto &regs : plan->regOf)
        mask.push_back(regs[a]);
      Value x = pick(rewriter, loc, src, mask);
      runs.push_back(a ? combine(rewriter, loc, kind, runs.back(), x) : x);
    }
    auto [prefix, totals] =
        acrossLanes(rewriter, loc, kind, runs.back(), *plan, state.chip);
    // What comes before each run: init, earlier blocks, earlier lanes.
    Value before = prefix;
    if (plan->blocks > 1)
      before =
          combine(rewriter, loc, kind,
                  blockCarries(rewriter, loc, kind, totals, *plan), before);
    if (Value init = adaptor.getInit()) {
      SmallVector<int64_t> rowOfSlot;
      for (int64_t slot = 0; slot < plan->slots(); ++slot)
        rowOfSlot.push_back(slot / plan->blocks);
      before = combine(rewriter, loc, kind,
                       pick(rewriter, loc, init, rowOfSlot), before);
    }
    bool inclusive = op.getMode() == ScanMode::Inclusive;
    SmallVector<Value> out;
    for (int64_t a = 0; a < plan->run; ++a) {
      if (!inclusive && a == 0)
        out.push_back(before);
      else
        out.push_back(
            combine(rewriter, loc, kind, before, runs[inclusive ? a : a - 1]));
    }
    rewriter.replaceOp(op,
                       assemble(rewriter, loc, out, *plan, tile.regsPerLane()));
    return success();
  }

  LoweringState &state;
  Major axis;
};

} // namespace

template <Major axis>
static std::string scanCheck(Operation *op, const hk::ChipInfo &) {
  std::string why;
  TileLayout tile =
      getTileLayout(cast<RankedTensorType>(op->getOperand(0).getType()));
  if (failed(planScan(tile, axis, why)))
    return why;
  return "";
}

void hk::populateScanPatterns(TypeConverter &converter,
                              RewritePatternSet &patterns,
                              LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ScanLowering<RowScanOp>>(converter, ctx, state, Major::Row);
  patterns.add<ScanLowering<ColScanOp>>(converter, ctx, state, Major::Col);
  state.support.add<RowScanOp>(scanCheck<Major::Row>);
  state.support.add<ColScanOp>(scanCheck<Major::Col>);
}
