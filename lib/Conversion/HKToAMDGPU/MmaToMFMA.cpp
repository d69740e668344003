//===- MmaToMFMA.cpp - hk.mma to amdgpu.mfma ------------------------------===//
//
// The register layouts of hk.mma's operands are the MFMA operand layouts
// (see HKAttrs.td), so an MMA is a loop over base tiles of M, N and K that
// hands each MFMA slices of the operands' registers, with no data movement.
// A lane keeps E values along K of each A and B base tile; an MFMA that takes
// fewer per lane (gfx942's 16x16x16 and 32x32x8 take 4, the others 8) gets
// them in consecutive chunks. That permutes K identically in A and B, which
// leaves the sum unchanged: this is what lets one tile IR serve both chips.
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
                                           std::string &why) {
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
  if (const hk::MfmaInstr *mfma = hk::selectMfma(chip, *input, base, kPerLane))
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
  (void)chooseMfma(chip, elt, t.baseM, t.kPerLane, why);
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
        chooseMfma(state.chip, elt, t.baseM, t.kPerLane, why);
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
    // outermost.
    int64_t chunks = t.kPerLane / mfma->kPerLane();
    auto aSlice = [&](int64_t mi, int64_t ki, int64_t chunk) {
      return sourceSlice(rewriter, loc, adaptor.getA(),
                         t.aTile(mi, ki) * t.kPerLane +
                             chunk * mfma->kPerLane(),
                         mfma->kPerLane());
    };
    auto bSlice = [&](int64_t ki, int64_t ni, int64_t chunk) {
      return sourceSlice(rewriter, loc, adaptor.getB(),
                         t.bTile(ki, ni) * t.kPerLane +
                             chunk * mfma->kPerLane(),
                         mfma->kPerLane());
    };
    auto emit = [&](int64_t mi, int64_t ni, Value a, Value b) {
      Value &acc = accs[t.cTile(mi, ni)];
      acc = amdgpu::MFMAOp::create(rewriter, loc, acc.getType(),
                                   rewriter.getI32IntegerAttr(mfma->m),
                                   rewriter.getI32IntegerAttr(mfma->n),
                                   rewriter.getI32IntegerAttr(mfma->k),
                                   rewriter.getI32IntegerAttr(1), a, b, acc);
    };
    // One row of A (all N tiles) per (mi, ki, chunk).
    auto row = [&](int64_t mi, int64_t ki, int64_t chunk) {
      Value a = aSlice(mi, ki, chunk);
      for (int64_t ni = 0; ni < t.nTiles; ++ni)
        emit(mi, ni, a, bSlice(ki, ni, chunk));
    };
    if (op.getA().hasOneUse() || !op.getB().hasOneUse()) {
      bool kOutermost = !op.getA().hasOneUse();
      int64_t outer = kOutermost ? t.kTiles : t.mTiles;
      int64_t inner = kOutermost ? t.mTiles : t.kTiles;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
          for (int64_t chunk = 0; chunk < chunks; ++chunk)
            kOutermost ? row(i, o, chunk) : row(o, i, chunk);
    } else {
      for (int64_t ni = 0; ni < t.nTiles; ++ni)
        for (int64_t ki = 0; ki < t.kTiles; ++ki)
          for (int64_t chunk = 0; chunk < chunks; ++chunk) {
            Value b = bSlice(ki, ni, chunk);
            for (int64_t mi = 0; mi < t.mTiles; ++mi)
              emit(mi, ni, aSlice(mi, ki, chunk), b);
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

} // namespace

void hk::populateMmaToMFMAPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state) {
  patterns.add<MmaLowering>(converter, patterns.getContext(), state);
  state.support.add<MmaOp>(mmaReason);
}
