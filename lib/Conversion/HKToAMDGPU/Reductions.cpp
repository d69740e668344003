//===- Reductions.cpp - hk.row_reduce, hk.col_reduce, hk.any across lanes -===//
//
// A row (column) reduction is done in two steps. Each lane first combines
// the elements it holds of each row into the register of the row vector
// that holds that row (AxisMap, from Layout.h). The lanes sharing a row then
// exchange partial results over xor distances, a butterfly: after the step
// for distance d every lane holds the combination over itself and l ^ d, so
// after all steps every lane holding the row has its full value, already in
// the vector layout. A butterfly combines a with b in one lane and b with a
// in its partner, so (with commutative operators) all lanes end with
// bitwise the same value.
//===----------------------------------------------------------------------===//

#include "AxisMap.h"
#include "XorLanes.h"
#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;

/// max and min are IEEE maxNum / minNum, as HK's `max` (fmaxf): a NaN
/// operand is ignored, so a masked row of -inf stays -inf.
static Value combineReduce(OpBuilder &b, Location loc, ReduceKind kind, Value x,
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

/// DPP on each element (amdgpu.dpp takes scalars only).
static Value dppEach(OpBuilder &b, Location loc, Value v, amdgpu::DPPPerm perm,
                     Attribute arg) {
  auto type = cast<VectorType>(v.getType());
  SmallVector<Value> out;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    Value e = vector::ExtractOp::create(b, loc, v, i);
    out.push_back(amdgpu::DPPOp::create(b, loc, e, e, perm, arg));
  }
  return vector::FromElementsOp::create(b, loc, type, out);
}

/// The value of `v` in lane `lane ^ d`, for every lane. Each instruction
/// used is exactly that permutation: DPP quad_perm swaps within quads
/// (d = 1, 2), DPP row_ror:8 within 16-lane rows is xor 8, and
/// v_permlane16/32_swap (gfx950) exchange halves of 32 and 64 lanes.
/// Otherwise gpu.shuffle xor (ds_swizzle or ds_bpermute, through the LDS
/// crossbar without touching memory).
Value hk::xorLanes(OpBuilder &b, Location loc, Value v, int64_t d,
                   const hk::ChipInfo &chip) {
  auto perm = [&](ArrayRef<int32_t> p) {
    SmallVector<Attribute> attrs;
    for (int32_t x : p)
      attrs.push_back(b.getI32IntegerAttr(x));
    return b.getArrayAttr(attrs);
  };
  if (d == 1)
    return dppEach(b, loc, v, amdgpu::DPPPerm::quad_perm, perm({1, 0, 3, 2}));
  if (d == 2)
    return dppEach(b, loc, v, amdgpu::DPPPerm::quad_perm, perm({2, 3, 0, 1}));
  if (d == 8)
    return dppEach(b, loc, v, amdgpu::DPPPerm::row_ror, b.getI32IntegerAttr(8));
  if ((d == 16 || d == 32) && chip.hasPermlaneSwap)
    return amdgpu::PermlaneSwapOp::create(b, loc, v, d);
  return gpu::ShuffleOp::create(b, loc, v, d, hk::kWaveSize,
                                gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

/// Each lane's combination, per vector register, of the tile registers
/// holding that register's row (column): one vector.shuffle per tile
/// register picked for each vector register, combined elementwise.
static FailureOr<Value> reduceInLane(OpBuilder &b, Location loc,
                                     ReduceKind kind, Value tile,
                                     const AxisMap &map, int64_t numRegs) {
  SmallVector<SmallVector<int64_t>> sources(numRegs);
  for (auto [reg, v] : llvm::enumerate(map.vectorReg))
    sources[v].push_back(reg);
  size_t perReg = sources.front().size();
  if (perReg == 0 ||
      llvm::any_of(sources, [&](const auto &s) { return s.size() != perReg; }))
    return failure();
  // A float sum into one register per lane (a row of a 32x32 base tile, 16
  // or 32 elements of it in the lane) is summed as pairs, in a balanced
  // tree of two-element adds (v_pk_add_f32 on both chips): about half the
  // instructions of a chain of scalar adds. A chain stays for max and min
  // (no packed f32 max; v_max3_f32 takes two per instruction already).
  bool isFloat =
      isa<FloatType>(cast<VectorType>(tile.getType()).getElementType());
  if (kind == ReduceKind::Sum && isFloat && numRegs == 1 && perReg >= 4 &&
      perReg % 2 == 0) {
    SmallVector<Value> level;
    for (size_t j = 0; j < perReg; j += 2)
      level.push_back(vector::ShuffleOp::create(
          b, loc, tile, tile,
          ArrayRef<int64_t>{sources[0][j], sources[0][j + 1]}));
    while (level.size() > 1) {
      SmallVector<Value> next;
      for (size_t j = 0; j + 1 < level.size(); j += 2)
        next.push_back(combineReduce(b, loc, kind, level[j], level[j + 1]));
      if (level.size() % 2)
        next.push_back(level.back());
      level = std::move(next);
    }
    Value pair = level.front();
    Value lo =
        vector::ShuffleOp::create(b, loc, pair, pair, ArrayRef<int64_t>{0});
    Value hi =
        vector::ShuffleOp::create(b, loc, pair, pair, ArrayRef<int64_t>{1});
    return combineReduce(b, loc, kind, lo, hi);
  }
  Value acc;
  for (size_t j = 0; j < perReg; ++j) {
    SmallVector<int64_t> mask;
    for (const auto &s : sources)
      mask.push_back(s[j]);
    Value part = vector::ShuffleOp::create(b, loc, tile, tile, mask);
    acc = acc ? combineReduce(b, loc, kind, acc, part) : part;
  }
  return acc;
}

/// One butterfly step over xor distance d = 16 or 32 on gfx950, for a
/// commutative `kind`: v_permlane{16,32}_swap of v with itself leaves, in
/// every lane, the lane's own value and its partner's in its two results
/// (vdst' = the even 16-lane rows / the lower 32 lanes of v repeated,
/// vsrc' = the odd rows / the upper half repeated), in the same order in
/// both lanes of a pair, so combining the two results is the step, with no
/// select of the swapped half (which amdgpu.permlane_swap adds).
static Value swapStep(OpBuilder &b, Location loc, ReduceKind kind, Value v,
                      int64_t d) {
  auto type = cast<VectorType>(v.getType());
  Type elt = type.getElementType();
  Type i32 = b.getI32Type();
  auto pairType = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32});
  SmallVector<Value> out;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    Value e = vector::ExtractOp::create(b, loc, v, i);
    Value bits = elt == i32 ? e : arith::BitcastOp::create(b, loc, i32, e);
    Value pair = d == 32
                     ? ROCDL::Permlane32SwapOp::create(b, loc, pairType, bits,
                                                       bits, false, false)
                           .getRes()
                     : ROCDL::Permlane16SwapOp::create(b, loc, pairType, bits,
                                                       bits, false, false)
                           .getRes();
    Value lo = LLVM::ExtractValueOp::create(b, loc, pair, 0);
    Value hi = LLVM::ExtractValueOp::create(b, loc, pair, 1);
    if (elt != i32) {
      lo = arith::BitcastOp::create(b, loc, elt, lo);
      hi = arith::BitcastOp::create(b, loc, elt, hi);
    }
    out.push_back(combineReduce(b, loc, kind, lo, hi));
  }
  return vector::FromElementsOp::create(b, loc, type, out);
}

namespace {

template <typename ReduceOp>
struct ReduceLowering : OpConversionPattern<ReduceOp> {
  ReduceLowering(TypeConverter &converter, MLIRContext *ctx,
                 LoweringState &state)
      : OpConversionPattern<ReduceOp>(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(ReduceOp op, typename ReduceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tileType = cast<RankedTensorType>(op.getSource().getType());
    auto vecType = cast<RankedTensorType>(op.getType());
    std::optional<AxisMap> map =
        axisMapOf(getTileLayout(tileType), getVectorLayout(vecType));
    if (!map)
      return rewriter.notifyMatchFailure(op, "no lane-local axis map");
    Location loc = op.getLoc();
    FailureOr<Value> acc =
        reduceInLane(rewriter, loc, op.getKind(), adaptor.getSource(), *map,
                     getVectorLayout(vecType).regsPerLane());
    if (failed(acc))
      return rewriter.notifyMatchFailure(op, "uneven registers per row");
    Value result = *acc;
    Type elt = cast<VectorType>(result.getType()).getElementType();
    for (int64_t d : map->laneXors) {
      if ((d == 16 || d == 32) && state.chip.hasPermlaneSwap &&
          elt.getIntOrFloatBitWidth() == 32) {
        result = swapStep(rewriter, loc, op.getKind(), result, d);
        continue;
      }
      result = combineReduce(rewriter, loc, op.getKind(), result,
                             xorLanes(rewriter, loc, result, d, state.chip));
    }
    if (Value init = adaptor.getInit())
      result = combineReduce(rewriter, loc, op.getKind(), init, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  LoweringState &state;
};

/// hk.any: each lane ORs the mask elements it holds, one ballot collects
/// the lanes, and the mask is tested against 0: a wave-uniform i1, which
/// LLVM keeps in SGPRs (scc).
struct AnyLowering : OpConversionPattern<AnyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AnyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value mask = adaptor.getMask();
    auto type = dyn_cast<VectorType>(mask.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "mask is not a lane vector");
    // A tree of scalar ORs: on i1 values LLVM keeps them as lane masks
    // (v_cmp into SGPRs, s_or_b64), where vector.reduction <or> would
    // materialize every element in a VGPR first.
    SmallVector<Value> terms;
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      terms.push_back(vector::ExtractOp::create(rewriter, loc, mask, i));
    while (terms.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < terms.size(); i += 2)
        next.push_back(
            arith::OrIOp::create(rewriter, loc, terms[i], terms[i + 1]));
      if (terms.size() % 2)
        next.push_back(terms.back());
      terms = std::move(next);
    }
    Value lane = terms.front();
    Value ballot =
        ROCDL::BallotOp::create(rewriter, loc, rewriter.getI64Type(), lane);
    Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 64);
    Value any = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                      ballot, zero);
    // llvm.expect, which LLVM turns into the weights of the branches on it
    // (hkc gives each branch a copy: lib/Target/AMDGPU/Optimize.cpp).
    if (std::optional<bool> expected = op.getExpected()) {
      Value likely = arith::ConstantIntOp::create(rewriter, loc, *expected, 1);
      any = LLVM::ExpectOp::create(rewriter, loc, any, likely);
    }
    rewriter.replaceOp(op, any);
    return success();
  }
};

} // namespace

void hk::populateReductionPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<ReduceLowering<RowReduceOp>, ReduceLowering<ColReduceOp>>(
      converter, patterns.getContext(), state);
  patterns.add<AnyLowering>(converter, patterns.getContext());
  state.support.add<RowReduceOp, ColReduceOp, AnyOp>();
}
