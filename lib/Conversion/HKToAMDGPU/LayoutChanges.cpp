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
// derived from Layout.h and checked for all 64 lanes. When the whole change
// permutes the bits of (lane, register), it is done by butterflies over a
// lane bit and a register bit (swapByButterflies): a lane exchange per pair
// of registers and bit that moves. Otherwise each result register is one
// gpu.shuffle idx (ds_bpermute) per source register some lane reads from,
// and a select among them: 8 ds_bpermute per element for a 16-bit tile
// between the accumulator and the A-operand layout, where the butterflies
// take 3 exchanges per pair of words and one ds_bpermute per word.
//===----------------------------------------------------------------------===//

#include "XorLanes.h"
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

/// A layout change that permutes the bits of (lane, register): bit q of the
/// source position (lane bits 0-5, then register bits from 6) moves to bit
/// target[q] of the destination position, for every element.
static std::optional<SmallVector<int>> bitPermutationOf(const TileLayout &src,
                                                        const TileLayout &dst) {
  int64_t n = src.regsPerLane();
  if (n != dst.regsPerLane() || n < 2 || (n & (n - 1)))
    return std::nullopt;
  int bits = kLaneBits + llvm::Log2_64(n);
  auto moved = [&](int64_t pos) {
    Slot d = dst.ownerOf(src.elementOf(pos % kWaveSize, pos / kWaveSize));
    return d.reg * kWaveSize + d.lane;
  };
  SmallVector<int> target;
  int64_t used = 0;
  for (int q = 0; q < bits; ++q) {
    int64_t m = moved(int64_t(1) << q);
    if (m == 0 || (m & (m - 1)) || (used & m))
      return std::nullopt;
    used |= m;
    target.push_back(llvm::Log2_64(m));
  }
  for (int64_t pos = 0; pos < n * kWaveSize; ++pos) {
    int64_t expect = 0;
    for (int q = 0; q < bits; ++q)
      if (pos & (int64_t(1) << q))
        expect |= int64_t(1) << target[q];
    if (moved(pos) != expect)
      return std::nullopt;
  }
  return target;
}

static bool isLaneBit(int pos) { return pos < kLaneBits; }

/// Sends `v` to lane l ^ `d` and receives that lane's, as 32-bit words: a
/// lane exchange moves 32 bits, so 16-bit registers travel in pairs.
static Value exchangeWords(OpBuilder &b, Location loc, Value v, int64_t d,
                           const hk::ChipInfo &chip) {
  auto vt = cast<VectorType>(v.getType());
  int64_t width = vt.getElementType().getIntOrFloatBitWidth();
  if (width == 16 && vt.getNumElements() % 2 == 0) {
    auto words = VectorType::get({vt.getNumElements() / 2}, b.getI32Type());
    Value w = vector::BitCastOp::create(b, loc, words, v);
    return vector::BitCastOp::create(b, loc, vt, xorLanes(b, loc, w, d, chip));
  }
  return xorLanes(b, loc, v, d, chip);
}

/// One butterfly over lane bit `lb` and register bit `k`: lanes with bit
/// `lb` clear send their registers with bit k set to lane l ^ 2^lb and take
/// its registers with bit k clear in their place (one lane exchange and
/// three selects per pair of registers).
static Value butterfly(OpBuilder &b, Location loc, Value regs, int lb, int k,
                       Value lane, const hk::ChipInfo &chip) {
  int64_t n = cast<VectorType>(regs.getType()).getNumElements();
  SmallVector<int64_t> lo, hi;
  for (int64_t x = 0; x < n; ++x)
    if (!(x & (int64_t(1) << k))) {
      lo.push_back(x);
      hi.push_back(x | (int64_t(1) << k));
    }
  Value bit = arith::AndIOp::create(b, loc, lane, i32(b, loc, 1 << lb));
  Value set = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit,
                                    i32(b, loc, 0));
  Value x0 = vector::ShuffleOp::create(b, loc, regs, regs, lo);
  Value x1 = vector::ShuffleOp::create(b, loc, regs, regs, hi);
  Value send = arith::SelectOp::create(b, loc, set, x0, x1);
  Value recv = exchangeWords(b, loc, send, int64_t(1) << lb, chip);
  Value n0 = arith::SelectOp::create(b, loc, set, recv, x0);
  Value n1 = arith::SelectOp::create(b, loc, set, x1, recv);
  SmallVector<int64_t> back(n);
  for (auto [j, x] : llvm::enumerate(lo))
    back[x] = j;
  for (auto [j, x] : llvm::enumerate(hi))
    back[x] = lo.size() + j;
  return vector::ShuffleOp::create(b, loc, n0, n1, back);
}

/// Lane bits out of place (`where[q]` is where source bit q sits now): every
/// lane reads the lane holding its data, one ds_bpermute per 32-bit
/// register, and the lane bits are then in place.
static Value readPermutedLanes(OpBuilder &b, Location loc, Value regs,
                               SmallVectorImpl<int> &where,
                               ArrayRef<int> target, Value lane) {
  auto type = cast<VectorType>(regs.getType());
  int64_t n = type.getNumElements();
  int bits = target.size();
  XorAffine from{0, {}};
  for (int q = 0; q < bits; ++q)
    if (isLaneBit(where[q]))
      from.m[target[q]] = int64_t(1) << where[q];
  Value srcLane = emitXorAffine(b, loc, lane, from);
  int64_t width = type.getElementType().getIntOrFloatBitWidth();
  int64_t perWord = width == 16 && n % 2 == 0 ? 2 : 1;
  Value words = regs;
  if (perWord == 2)
    words = vector::BitCastOp::create(
        b, loc, VectorType::get({n / 2}, b.getI32Type()), regs);
  SmallVector<Value> moved;
  for (int64_t j = 0; j < n / perWord; ++j) {
    Value w = vector::ExtractOp::create(b, loc, words, j);
    moved.push_back(gpu::ShuffleOp::create(b, loc, w, srcLane,
                                           i32(b, loc, kWaveSize),
                                           gpu::ShuffleMode::IDX)
                        .getShuffleResult());
  }
  words = vector::FromElementsOp::create(
      b, loc, cast<VectorType>(words.getType()), moved);
  for (int q = 0; q < bits; ++q)
    if (isLaneBit(where[q]))
      where[q] = target[q];
  return perWord == 2
             ? vector::BitCastOp::create(b, loc, type, words).getResult()
             : words;
}

/// With every lane bit in place, register r of the result is register
/// order[r] of the current registers.
static SmallVector<int64_t> registerOrder(ArrayRef<int> where,
                                          ArrayRef<int> target, int64_t n) {
  SmallVector<int64_t> order(n);
  for (int64_t r = 0; r < n; ++r) {
    int64_t x = 0;
    for (int q = 0, bits = target.size(); q < bits; ++q)
      if (!isLaneBit(where[q]) && (r & (int64_t(1) << (target[q] - kLaneBits))))
        x |= int64_t(1) << (where[q] - kLaneBits);
    order[r] = x;
  }
  return order;
}

/// hk.swap_layout as a bit permutation (bitPermutationOf): each source bit
/// that must go from the register index to the lane id trades places with
/// one going the other way, by a butterfly over lane bit b and register bit
/// k (butterfly: one lane exchange, DPP for b = 0, 1, 3, and three selects
/// per pair of registers); a lane bit still out of place after that costs
/// one ds_bpermute per 32-bit register (all lanes read by the same rule),
/// and the register bits are renumbered for free.
static Value swapByButterflies(OpBuilder &b, Location loc, Value regs,
                               ArrayRef<int> target, Value lane,
                               const hk::ChipInfo &chip) {
  int64_t n = cast<VectorType>(regs.getType()).getNumElements();
  int bits = target.size();
  // Where each source bit sits now.
  SmallVector<int> where = llvm::to_vector(llvm::seq<int>(0, bits));
  for (int i = 0; i < bits; ++i) {
    if (isLaneBit(where[i]) || !isLaneBit(target[i]))
      continue; // not a register bit bound for the lane id
    // Its partner: a lane bit bound for the registers, preferably the one
    // sitting where this bit must go.
    int partner = -1;
    for (int o = 0; o < bits; ++o)
      if (isLaneBit(where[o]) && !isLaneBit(target[o]) &&
          (partner < 0 || where[o] == target[i]))
        partner = o;
    assert(partner >= 0 && "as many bits go each way");
    regs = butterfly(b, loc, regs, where[partner], where[i] - kLaneBits, lane,
                     chip);
    std::swap(where[i], where[partner]);
  }
  bool inPlace = true;
  for (int q = 0; q < bits; ++q)
    inPlace &= !isLaneBit(where[q]) || where[q] == target[q];
  if (!inPlace)
    regs = readPermutedLanes(b, loc, regs, where, target, lane);
  SmallVector<int64_t> order = registerOrder(where, target, n);
  if (llvm::equal(order, llvm::seq<int64_t>(0, n)))
    return regs;
  return vector::ShuffleOp::create(b, loc, regs, regs, order);
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
  SwapLayoutLowering(TypeConverter &converter, MLIRContext *ctx,
                     LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

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
    if (std::optional<SmallVector<int>> target =
            bitPermutationOf(getTileLayout(srcType), getTileLayout(dstType))) {
      rewriter.replaceOp(op, swapByButterflies(rewriter, loc, regs, *target,
                                               lane, state.chip));
      return success();
    }
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

  LoweringState &state;
};

} // namespace

void hk::populateLayoutChangePatterns(TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state) {
  patterns.add<TransposeLowering>(converter, patterns.getContext());
  patterns.add<SwapLayoutLowering>(converter, patterns.getContext(), state);
  state.support.add<TransposeOp>();
  state.support.add<SwapLayoutOp>(
      [](Operation *op, const hk::ChipInfo &) { return swapLayoutReason(op); });
}
