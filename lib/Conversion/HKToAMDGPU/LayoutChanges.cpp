//===- LayoutChanges.cpp - hk.transpose and hk.swap_layout ----------------===//
//
// hk.transpose moves no data: Layout.h's TileLayout::transposedReg says
// which register of the result holds each source register, so it is at
// most a vector.shuffle of each lane's registers.
//
// hk.swap_layout moves data between lanes. For each register r of the
// result, Layout.h says which (lane, register) of the source holds the same
// element. With power-of-two layouts both are xor-affine functions of the
// lane id (a constant xor one constant per set lane bit); that form is
// derived from Layout.h and checked for all 64 lanes. Each result register
// is then one gpu.shuffle idx (ds_bpermute) per source register some lane
// reads from, and a select among them.
//
// Cost: a ds_bpermute per element and candidate, e.g. 128 for a 64x64 bf16
// tile going from row 16x32 to col 32x16, against the ideal of a few LDS
// writes and reads per lane; a staging through LDS (or v_permlane swaps on
// gfx950) is the fast path to come.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <array>

using namespace mlir;
using namespace hk;
using hk::kWaveSize;
using hk::Slot;
using hk::TileLayout;

namespace {

constexpr int kLaneBits = 6;

/// f(lane) = c ^ (xor of m[k] over the bits k set in lane).
struct XorAffine {
  int64_t c;
  std::array<int64_t, kLaneBits> m;
};

/// Where each register of the result comes from in the source.
struct Route {
  XorAffine lane, reg;
  SmallVector<int64_t> sourceRegs; ///< the distinct values of reg(lane)
};

} // namespace

static std::optional<XorAffine>
xorAffineOf(llvm::function_ref<int64_t(int64_t)> f) {
  XorAffine a{f(0), {}};
  for (int k = 0; k < kLaneBits; ++k)
    a.m[k] = f(int64_t(1) << k) ^ a.c;
  for (int64_t lane = 0; lane < kWaveSize; ++lane) {
    int64_t v = a.c;
    for (int k = 0; k < kLaneBits; ++k)
      if (lane & (int64_t(1) << k))
        v ^= a.m[k];
    if (v != f(lane))
      return std::nullopt;
  }
  return a;
}

static std::optional<SmallVector<Route>> routesOf(const TileLayout &src,
                                                  const TileLayout &dst) {
  SmallVector<Route> routes;
  for (int64_t r = 0; r < dst.regsPerLane(); ++r) {
    auto owner = [&](int64_t lane) -> Slot {
      return src.ownerOf(dst.elementOf(lane, r));
    };
    auto lane = xorAffineOf([&](int64_t l) { return owner(l).lane; });
    auto reg = xorAffineOf([&](int64_t l) { return owner(l).reg; });
    if (!lane || !reg)
      return std::nullopt;
    Route route{*lane, *reg, {}};
    for (int64_t l = 0; l < kWaveSize; ++l)
      if (!llvm::is_contained(route.sourceRegs, owner(l).reg))
        route.sourceRegs.push_back(owner(l).reg);
    routes.push_back(std::move(route));
  }
  return routes;
}

/// Why this hk.swap_layout cannot be lowered, or "".
static std::string swapLayoutReason(Operation *op) {
  auto swap = cast<SwapLayoutOp>(op);
  auto srcType = cast<RankedTensorType>(swap.getSource().getType());
  auto dstType = cast<RankedTensorType>(swap.getType());
  if (routesOf(getTileLayout(srcType), getTileLayout(dstType)))
    return "";
  return "between these layouts is not supported yet (the source lane of "
         "an element is not an xor-affine function of the lane id)";
}

static Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

static Value emitXorAffine(OpBuilder &b, Location loc, Value lane,
                           const XorAffine &a) {
  Value acc = i32(b, loc, a.c);
  for (int k = 0; k < kLaneBits; ++k) {
    if (a.m[k] == 0)
      continue;
    Value bit = arith::AndIOp::create(b, loc, lane, i32(b, loc, 1 << k));
    Value set = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit,
                                      i32(b, loc, 0));
    Value term = arith::SelectOp::create(b, loc, set, i32(b, loc, a.m[k]),
                                         i32(b, loc, 0));
    acc = arith::XOrIOp::create(b, loc, acc, term);
  }
  return acc;
}

/// Register `reg` of the lane `srcLane`, for every lane.
static Value readLane(OpBuilder &b, Location loc, Value regs, int64_t reg,
                      Value srcLane) {
  Value v = vector::ExtractOp::create(b, loc, regs, reg);
  return gpu::ShuffleOp::create(b, loc, v, srcLane, i32(b, loc, kWaveSize),
                                gpu::ShuffleMode::IDX)
      .getShuffleResult();
}

namespace {

struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    TileLayout src =
        getTileLayout(cast<RankedTensorType>(op.getSource().getType()));
    int64_t n = src.regsPerLane();
    SmallVector<int64_t> mask(n);
    for (int64_t r = 0; r < n; ++r)
      mask[src.transposedReg(r)] = r;
    Value regs = adaptor.getSource();
    if (llvm::equal(mask, llvm::seq<int64_t>(0, n))) {
      rewriter.replaceOp(op, regs);
      return success();
    }
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, regs, regs, mask);
    return success();
  }
};

struct SwapLayoutLowering : OpConversionPattern<SwapLayoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SwapLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSource().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto routes = routesOf(getTileLayout(srcType), getTileLayout(dstType));
    auto type =
        dyn_cast_or_null<VectorType>(getTypeConverter()->convertType(dstType));
    if (!routes || !type)
      return rewriter.notifyMatchFailure(op, "no xor-affine routes");
    Location loc = op.getLoc();
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value lane = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI32Type(),
        arith::RemUIOp::create(
            rewriter, loc, tid,
            arith::ConstantIndexOp::create(rewriter, loc, kWaveSize)));
    Value regs = adaptor.getSource();
    SmallVector<Value> out;
    for (const Route &route : *routes) {
      Value srcLane = emitXorAffine(rewriter, loc, lane, route.lane);
      Value v = readLane(rewriter, loc, regs, route.sourceRegs[0], srcLane);
      if (route.sourceRegs.size() > 1) {
        Value srcReg = emitXorAffine(rewriter, loc, lane, route.reg);
        for (int64_t s : ArrayRef(route.sourceRegs).drop_front()) {
          Value is =
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    srcReg, i32(rewriter, loc, s));
          v = arith::SelectOp::create(
              rewriter, loc, is, readLane(rewriter, loc, regs, s, srcLane), v);
        }
      }
      out.push_back(v);
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, out);
    return success();
  }
};

} // namespace

void hk::populateLayoutChangePatterns(TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  patterns.add<TransposeLowering, SwapLayoutLowering>(converter,
                                                      patterns.getContext());
  state.support.add<TransposeOp>();
  state.support.add<SwapLayoutOp>(
      [](Operation *op, const hk::ChipInfo &) { return swapLayoutReason(op); });
}
