//===- MmaToMFMA.cpp - hk.mma, hk.mma_scaled to amdgpu.(scaled_)mfma ------===//
//
// The register layouts of hk.mma's operands are the MFMA operand layouts
// (see HKAttrs.td), so an MMA is a loop over base tiles of M, N and K that
// hands each MFMA slices of the operands' registers, with no data movement.
// A lane keeps E values along K of each A and B base tile; an MFMA that takes
// fewer per lane (gfx942's 16x16x16 and 32x32x8 take 4, the others 8) gets
// them in consecutive chunks. That permutes K identically in A and B, which
// leaves the sum unchanged: this is what lets one tile IR serve both chips.
// For the same reason an MFMA that takes more K values per lane than a base
// tile holds (gfx950's f8f6f4 MFMAs, 32 per lane, on 8-bit float tiles of
// 8) gets the registers of consecutive K base tiles, concatenated.
// f32 inputs use the 16x16x4 and 32x32x2 MFMAs (one K value per lane, a
// scalar operand), i8 inputs the 16x16x32 and 32x32x16 ones into i32.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Dialect/HK/MfmaTypes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;

namespace {

/// An MMA seen as base tiles: counts along M, N, K and the register index
/// of each operand's base tile.
struct MmaTiling {
  int64_t baseM, baseN, mTiles, nTiles, kTiles, kPerLane;
  bool aTransposed, bTransposed;

  int64_t aTile(int64_t mi, int64_t ki) const {
    return aTransposed ? ki * mTiles + mi : mi * kTiles + ki;
  }
  int64_t bTile(int64_t ki, int64_t ni) const {
    return bTransposed ? ni * kTiles + ki : ki * nTiles + ni;
  }
  int64_t cTile(int64_t mi, int64_t ni) const { return mi * nTiles + ni; }
};

} // namespace

static MmaTiling tilingOf(MmaOp op) {
  auto aT = cast<RankedTensorType>(op.getA().getType());
  auto cT = cast<RankedTensorType>(op.getC().getType());
  auto a = cast<RegTileLayoutAttr>(aT.getEncoding());
  auto c = cast<RegTileLayoutAttr>(cT.getEncoding());
  MmaKind kind = op.getKind();
  MmaTiling t;
  t.aTransposed = kind == MmaKind::AtB || kind == MmaKind::AtBt;
  t.bTransposed = kind == MmaKind::ABt || kind == MmaKind::AtBt;
  t.baseM = c.getBaseRows();
  t.baseN = c.getBaseCols();
  t.mTiles = cT.getDimSize(0) / t.baseM;
  t.nTiles = cT.getDimSize(1) / t.baseN;
  int64_t k = t.aTransposed ? aT.getDimSize(0) : aT.getDimSize(1);
  int64_t baseK = t.aTransposed ? a.getBaseRows() : a.getBaseCols();
  t.kTiles = k / baseK;
  t.kPerLane = a.getElemsPerLane();
  return t;
}

/// The MFMA for a `base` x `base` product whose operands keep `kPerLane` K
/// values per lane, from the chip's table; or why there is none.
static FailureOr<hk::MfmaInstr> chooseMfma(const hk::ChipInfo &chip, Type elt,
                                           int64_t base, int64_t kPerLane,
                                           int64_t kTiles, std::string &why) {
  std::optional<hk::MfmaInput> input = mfmaInputOf(elt, chip);
  if (!input) {
    llvm::raw_string_ostream(why)
        << "no MFMA on " << chip.name << " takes " << elt << " inputs";
    return failure();
  }
  using I = hk::MfmaInput;
  if (!llvm::is_contained({I::BF16, I::F16, I::FP8, I::BF8, I::F32, I::I8},
                          *input)) {
    llvm::raw_string_ostream(why)
        << "the lowering emits no " << hk::mfmaInputName(*input) << " MFMA yet";
    return failure();
  }
  if (const hk::MfmaInstr *mfma =
          hk::selectMfma(chip, *input, base, kPerLane, kTiles))
    return *mfma;
  llvm::raw_string_ostream os(why);
  os << "operands keep " << kPerLane << " K values per lane; no " << base << "x"
     << base << " MFMA for " << elt << " on " << chip.name
     << " takes a divisor of that (";
  bool first = true;
  for (const hk::MfmaInstr &mfma : chip.mfmas)
    if (mfma.input == *input && mfma.m == base) {
      os << (first ? "" : ", ") << mfma.m << "x" << mfma.n << "x" << mfma.k
         << " takes " << mfma.kPerLane();
      first = false;
    }
  os << ")";
  return failure();
}

/// Why this hk.mma cannot be lowered on `chip`, or "".
static std::string mmaReason(Operation *op, const hk::ChipInfo &chip) {
  auto mma = cast<MmaOp>(op);
  MmaTiling t = tilingOf(mma);
  Type elt = cast<RankedTensorType>(mma.getA().getType()).getElementType();
  std::string why;
  (void)chooseMfma(chip, elt, t.baseM, t.kPerLane, t.kTiles, why);
  return why;
}

static Value slice(OpBuilder &b, Location loc, Value v, int64_t offset,
                   int64_t size) {
  return vector::ExtractStridedSliceOp::create(b, loc, v, {offset}, {size},
                                               {1});
}

/// `size` registers of an MFMA source from `offset`: a vector, or the one
/// f32 register the f32 MFMAs (16x16x4, 32x32x2) take as a scalar.
static Value sourceSlice(OpBuilder &b, Location loc, Value v, int64_t offset,
                         int64_t size) {
  if (size == 1)
    return vector::ExtractOp::create(b, loc, v, offset);
  return slice(b, loc, v, offset, size);
}

/// The `size` K values per lane from position `pos` of an operand's K values
/// taken base tile after base tile (`perTile` each, base tile `ki` at
/// register `tileOf(ki) * perTile`): one slice, or slices of consecutive
/// base tiles concatenated where they are not adjacent in the registers.
static Value kSlice(OpBuilder &b, Location loc, Value v, int64_t perTile,
                    llvm::function_ref<int64_t(int64_t)> tileOf, int64_t pos,
                    int64_t size) {
  SmallVector<std::pair<int64_t, int64_t>> runs; // (register, count)
  for (int64_t p = pos; p < pos + size;) {
    int64_t take = std::min(perTile - p % perTile, pos + size - p);
    int64_t reg = tileOf(p / perTile) * perTile + p % perTile;
    if (!runs.empty() && runs.back().first + runs.back().second == reg)
      runs.back().second += take;
    else
      runs.push_back({reg, take});
    p += take;
  }
  if (runs.size() == 1)
    return sourceSlice(b, loc, v, runs[0].first, size);
  Value joined = slice(b, loc, v, runs[0].first, runs[0].second);
  int64_t have = runs[0].second;
  for (auto [reg, count] : ArrayRef(runs).drop_front()) {
    SmallVector<int64_t> mask =
        llvm::to_vector(llvm::seq<int64_t>(0, have + count));
    joined = vector::ShuffleOp::create(b, loc, joined,
                                       slice(b, loc, v, reg, count), mask);
    have += count;
  }
  return joined;
}

namespace {

struct MmaLowering : OpConversionPattern<MmaOp> {
  MmaLowering(TypeConverter &converter, MLIRContext *ctx, LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MmaTiling t = tilingOf(op);
    Type elt = cast<RankedTensorType>(op.getA().getType()).getElementType();
    std::string why;
    FailureOr<hk::MfmaInstr> mfma =
        chooseMfma(state.chip, elt, t.baseM, t.kPerLane, t.kTiles, why);
    if (failed(mfma))
      return rewriter.notifyMatchFailure(op, why);

    Location loc = op.getLoc();
    int64_t accRegs = t.baseM * t.baseN / 64;
    SmallVector<Value> accs;
    for (int64_t c = 0; c < t.mTiles * t.nTiles; ++c)
      accs.push_back(
          slice(rewriter, loc, adaptor.getC(), c * accRegs, accRegs));

    // Consecutive MFMAs write different accumulators where they can, so
    // they do not wait on each other. Beyond that, the order decides what
    // stays live: when A (B) is used by this op alone, walking its rows
    // (columns) outermost lets each base tile of it die after its last
    // MFMA, and the accumulators of a fresh C be born one row (column) at a
    // time, instead of holding all of A (B) and C at once. Otherwise K is
    // outermost. K is walked in steps of the MFMA's K values per lane:
    // `chunks` steps per base tile, or one step over several base tiles.
    int64_t per = mfma->kPerLane();
    int64_t chunks = std::max<int64_t>(1, t.kPerLane / per);
    int64_t kOuter = t.kTiles * t.kPerLane / per / chunks;
    auto aSlice = [&](int64_t mi, int64_t step) {
      return kSlice(
          rewriter, loc, adaptor.getA(), t.kPerLane,
          [&](int64_t ki) { return t.aTile(mi, ki); }, step * per, per);
    };
    auto bSlice = [&](int64_t step, int64_t ni) {
      return kSlice(
          rewriter, loc, adaptor.getB(), t.kPerLane,
          [&](int64_t ki) { return t.bTile(ki, ni); }, step * per, per);
    };
    auto emit = [&](int64_t mi, int64_t ni, Value a, Value b) {
      Value &acc = accs[t.cTile(mi, ni)];
      acc = amdgpu::MFMAOp::create(rewriter, loc, acc.getType(),
                                   rewriter.getI32IntegerAttr(mfma->m),
                                   rewriter.getI32IntegerAttr(mfma->n),
                                   rewriter.getI32IntegerAttr(mfma->k),
                                   rewriter.getI32IntegerAttr(1), a, b, acc);
    };
    // One row of A (all N tiles) per (mi, K step).
    auto row = [&](int64_t mi, int64_t step) {
      Value a = aSlice(mi, step);
      for (int64_t ni = 0; ni < t.nTiles; ++ni)
        emit(mi, ni, a, bSlice(step, ni));
    };
    if (op.getA().hasOneUse() || !op.getB().hasOneUse()) {
      bool kOutermost = !op.getA().hasOneUse();
      int64_t outer = kOutermost ? kOuter : t.mTiles;
      int64_t inner = kOutermost ? t.mTiles : kOuter;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
          for (int64_t chunk = 0; chunk < chunks; ++chunk)
            kOutermost ? row(i, o * chunks + chunk)
                       : row(o, i * chunks + chunk);
    } else {
      for (int64_t ni = 0; ni < t.nTiles; ++ni)
        for (int64_t step = 0; step < kOuter * chunks; ++step) {
          Value b = bSlice(step, ni);
          for (int64_t mi = 0; mi < t.mTiles; ++mi)
            emit(mi, ni, aSlice(mi, step), b);
        }
    }

    Value result = adaptor.getC();
    for (auto [c, acc] : llvm::enumerate(accs))
      result = vector::InsertStridedSliceOp::create(
          rewriter, loc, acc, result, ArrayRef<int64_t>{int64_t(c) * accRegs},
          ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, result);
    return success();
  }

  LoweringState &state;
};

/// Why this hk.mma_scaled cannot be lowered on `chip`, or "".
static std::string mmaScaledReason(Operation *, const hk::ChipInfo &chip) {
  if (chip.hasScaledMfma)
    return "";
  return std::string("the scaled f8f6f4 MFMAs are not on ") + chip.name;
}

/// The scale of register `reg` of a scale tile's registers `v`, as the
/// scaled MFMA takes it: the aligned group of four scales holding it and its
/// byte in the 32-bit operand (op_sel), so that LLVM can keep four scales
/// in one VGPR; a lone scale where the tile has fewer than four per lane.
static std::pair<Value, int32_t> scaleOperand(OpBuilder &b, Location loc,
                                              Value v, int64_t reg) {
  int64_t regs = cast<VectorType>(v.getType()).getNumElements();
  if (regs % 4 != 0)
    return {vector::ExtractOp::create(b, loc, v, reg), 0};
  return {slice(b, loc, v, reg - reg % 4, 4), int32_t(reg % 4)};
}

/// hk.mma_scaled: one scaled MFMA per (M, N, K) base tile, the form the
/// accumulator's base tile names: v_mfma_scale_f32_16x16x128_f8f6f4 for
/// 16x16, v_mfma_scale_f32_32x32x64_f8f6f4 for 32x32. The operands are
/// already in the MFMA's layouts (the verifier), and base tile (i, k) of an
/// operand and of its scale tile have the same index (both are (rows/base)
/// x (K/baseK) grids), so each MFMA takes one slice of 32 elements of A and
/// of B, one scale of each, and one accumulator.
struct MmaScaledLowering : OpConversionPattern<MmaScaledOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MmaScaledOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto cT = cast<RankedTensorType>(op.getC().getType());
    auto aT = cast<RankedTensorType>(op.getA().getType());
    // Both forms keep 32 K values per lane: base * baseK = 64 * 32.
    int64_t base = cast<RegTileLayoutAttr>(cT.getEncoding()).getBaseRows();
    int64_t baseK = 64 * 32 / base, accRegs = base * base / 64;
    int64_t mTiles = cT.getDimSize(0) / base, nTiles = cT.getDimSize(1) / base;
    int64_t kTiles = aT.getDimSize(1) / baseK;
    SmallVector<Value> accs;
    for (int64_t c = 0; c < mTiles * nTiles; ++c)
      accs.push_back(
          slice(rewriter, loc, adaptor.getC(), c * accRegs, accRegs));
    auto attr = [&](int64_t v) { return rewriter.getI32IntegerAttr(v); };
    // K outermost: consecutive MFMAs write different accumulators.
    for (int64_t ki = 0; ki < kTiles; ++ki)
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        int64_t at = mi * kTiles + ki;
        Value a = slice(rewriter, loc, adaptor.getA(), at * 32, 32);
        auto [sa, ia] = scaleOperand(rewriter, loc, adaptor.getAScale(), at);
        for (int64_t ni = 0; ni < nTiles; ++ni) {
          int64_t bt = ni * kTiles + ki;
          Value b = slice(rewriter, loc, adaptor.getB(), bt * 32, 32);
          auto [sb, ib] = scaleOperand(rewriter, loc, adaptor.getBScale(), bt);
          Value &acc = accs[mi * nTiles + ni];
          acc = amdgpu::ScaledMFMAOp::create(
              rewriter, loc, acc.getType(), attr(base), attr(base), attr(baseK),
              a, b, acc, sa, sb, attr(ia), attr(ib));
        }
      }
    Value result = adaptor.getC();
    for (auto [c, acc] : llvm::enumerate(accs))
      result = vector::InsertStridedSliceOp::create(
          rewriter, loc, acc, result, ArrayRef<int64_t>{int64_t(c) * accRegs},
          ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void hk::populateMmaToMFMAPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<MmaLowering>(converter, patterns.getContext(), state);
  patterns.add<MmaScaledLowering>(converter, patterns.getContext());
  state.support.add<MmaOp>(mmaReason);
  state.support.add<MmaScaledOp>(mmaScaledReason);
}
