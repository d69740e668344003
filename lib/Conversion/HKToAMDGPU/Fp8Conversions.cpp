//===- Fp8Conversions.cpp - arith.extf / truncf of 8-bit float tiles ------===//
//
// The chips convert 8-bit floats in packs of four bytes (one register):
// v_cvt_pk_f32_fp8 widens the two of a word to f32, v_cvt_pk_fp8_f32
// narrows two f32 into a word. So a lane's registers of an fp8 tile are
// converted a word at a time through f32, whatever the wide type: every
// E4M3 and E5M2 value is exact in bf16, f16 and f32, so the step through
// f32 changes no value. Narrowing saturates, as OCP's saturating mode and
// the instruction's clamp do: a finite value or an infinity past the
// format's largest becomes the largest of its sign; NaN stays NaN.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;

static bool isRegister(Type t) { return isRegTile(t) || isRegVec(t); }

static bool isFloat8(Type t) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(t));
  return f && f.getWidth() == 8;
}

/// Whether `chip` converts `t` (an 8-bit float) with its own instructions.
static bool chipConverts(Type t, const hk::ChipInfo &chip) {
  Type e = getElementTypeOrSelf(t);
  switch (chip.fp8) {
  case hk::Fp8Format::FNUZ:
    return isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(e);
  case hk::Fp8Format::OCP:
    return isa<Float8E4M3FNType, Float8E5M2Type>(e);
  case hk::Fp8Format::None:
    break;
  }
  return false;
}

static Value slice(OpBuilder &b, Location loc, Value v, int64_t offset,
                   int64_t size) {
  return vector::ExtractStridedSliceOp::create(b, loc, v, {offset}, {size},
                                               {1});
}

static Value insert(OpBuilder &b, Location loc, Value part, Value into,
                    int64_t offset) {
  return vector::InsertStridedSliceOp::create(b, loc, part, into, {offset},
                                              {1});
}

/// `in` (f32 registers) clamped to [-largest, largest] of `format`, NaN
/// kept: min and max give a NaN input the bound, the select puts it back.
static Value saturate(OpBuilder &b, Location loc, Value in, FloatType format) {
  auto type = cast<VectorType>(in.getType());
  auto splat = [&](const APFloat &v) -> Value {
    bool lost = false;
    APFloat f = v;
    f.convert(APFloat::IEEEsingle(), APFloat::rmTowardZero, &lost);
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, b.getF32FloatAttr(f.convertToFloat())));
  };
  const llvm::fltSemantics &sem = format.getFloatSemantics();
  Value lo = splat(APFloat::getLargest(sem, /*Negative=*/true));
  Value hi = splat(APFloat::getLargest(sem, /*Negative=*/false));
  Value clamped = arith::MaxNumFOp::create(
      b, loc, arith::MinNumFOp::create(b, loc, in, hi), lo);
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, in, in);
  return arith::SelectOp::create(b, loc, nan, in, clamped);
}

namespace {

/// 8-bit floats to f32, bf16 or f16: each word of each register to two
/// f32, then (exactly) to the result type: bf16 as the upper halves on a
/// chip without v_cvt_pk_bf16_f32.
struct Fp8ExtLowering : OpConversionPattern<arith::ExtFOp> {
  Fp8ExtLowering(TypeConverter &converter, MLIRContext *ctx,
                 bool hasBf16Convert)
      : OpConversionPattern(converter, ctx, /*benefit=*/2),
        hasBf16Convert(hasBf16Convert) {}

  LogicalResult
  matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isRegister(op.getType()) || !isFloat8(op.getIn().getType()))
      return failure();
    auto in = cast<VectorType>(adaptor.getIn().getType());
    auto out = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    int64_t n = in.getNumElements();
    auto f32s = VectorType::get({n}, rewriter.getF32Type());
    Value wide =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32s));
    auto pair = VectorType::get({2}, rewriter.getF32Type());
    for (int64_t reg = 0; reg < n; reg += 4) {
      int64_t bytes = std::min<int64_t>(4, n - reg);
      Value packed = slice(rewriter, loc, adaptor.getIn(), reg, bytes);
      for (int64_t word = 0; 2 * word < bytes; ++word) {
        Value two =
            amdgpu::ExtPackedFp8Op::create(rewriter, loc, pair, packed, word);
        if (2 * word + 1 == bytes)
          two = slice(rewriter, loc, two, 0, 1);
        wide = insert(rewriter, loc, two, wide, reg + 2 * word);
      }
    }
    if (out.getElementType().isBF16() && !hasBf16Convert)
      wide = upperHalves(rewriter, loc, wide, out);
    else if (!out.getElementType().isF32())
      wide = arith::TruncFOp::create(rewriter, loc, out, wide);
    rewriter.replaceOp(op, wide);
    return success();
  }

  /// The bf16 values of f32 values that bf16 holds exactly (as every 8-bit
  /// float is): their upper 16 bits. Without an f32 -> bf16 instruction
  /// (gfx942) a rounding truncf costs several VALU instructions per element;
  /// the upper halves of two registers are one v_perm_b32. Where the chip
  /// converts (two per instruction) the truncf is as cheap and kept.
  static Value upperHalves(OpBuilder &b, Location loc, Value wide,
                           VectorType out) {
    auto shape = cast<VectorType>(wide.getType()).getShape();
    auto i32s = VectorType::get(shape, b.getI32Type());
    auto i16s = VectorType::get(shape, b.getI16Type());
    Value bits = arith::BitcastOp::create(b, loc, i32s, wide);
    Value sixteen = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i32s, b.getI32IntegerAttr(16)));
    Value high = arith::ShRUIOp::create(b, loc, bits, sixteen);
    Value halves = arith::TruncIOp::create(b, loc, i16s, high);
    return arith::BitcastOp::create(b, loc, out, halves);
  }

  bool hasBf16Convert;
};

/// f32, bf16 or f16 to 8-bit floats: (exactly) to f32, saturated, then two
/// values at a time into the words of each register.
struct Fp8TruncLowering : OpConversionPattern<arith::TruncFOp> {
  Fp8TruncLowering(TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/3) {}

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isRegister(op.getType()) || !isFloat8(op.getType()))
      return failure();
    if (op.getRoundingmodeAttr())
      return rewriter.notifyMatchFailure(
          op, "the conversion instructions round to nearest even only");
    auto out = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    auto format = cast<FloatType>(out.getElementType());
    Location loc = op.getLoc();
    int64_t n = out.getNumElements();
    Value in = adaptor.getIn();
    if (!getElementTypeOrSelf(in.getType()).isF32())
      in = arith::ExtFOp::create(
          rewriter, loc, VectorType::get({n}, rewriter.getF32Type()), in);
    in = saturate(rewriter, loc, in, format);
    Value result =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(out));
    auto four = VectorType::get({4}, format);
    for (int64_t reg = 0; reg < n; reg += 4) {
      int64_t bytes = std::min<int64_t>(4, n - reg);
      Value packed;
      for (int64_t word = 0; 2 * word < bytes; ++word) {
        int64_t i = reg + 2 * word;
        Value a = vector::ExtractOp::create(rewriter, loc, in, i);
        Value b = i + 1 < n
                      ? vector::ExtractOp::create(rewriter, loc, in, i + 1)
                      : Value();
        packed = amdgpu::PackedTrunc2xFp8Op::create(rewriter, loc, four, a, b,
                                                    word, packed);
      }
      if (bytes < 4)
        packed = slice(rewriter, loc, packed, 0, bytes);
      result = insert(rewriter, loc, packed, result, reg);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

/// An extf or truncf of register tiles in an 8-bit format the chip does not
/// convert (an OCP format on gfx942, an FNUZ one on gfx950).
static std::optional<std::string> fp8Reason(Operation *op,
                                            const hk::ChipInfo &chip) {
  if (!isa<arith::ExtFOp, arith::TruncFOp>(op) ||
      !isRegister(op->getResult(0).getType()))
    return std::nullopt;
  Type narrow = isa<arith::ExtFOp>(op) ? op->getOperand(0).getType()
                                       : op->getResult(0).getType();
  if (!isFloat8(narrow))
    return std::nullopt;
  if (chipConverts(narrow, chip))
    return std::string();
  std::string why;
  llvm::raw_string_ostream(why)
      << "converts " << getElementTypeOrSelf(narrow) << ", but " << chip.name
      << "'s conversion instructions take "
      << (chip.fp8 == hk::Fp8Format::FNUZ ? "FNUZ formats (f8E4M3FNUZ, "
                                            "f8E5M2FNUZ; !hk.fp8, !hk.bf8)"
          : chip.fp8 == hk::Fp8Format::OCP
              ? "OCP formats (f8E4M3FN, f8E5M2; !hk.fp8, !hk.bf8)"
              : "no 8-bit float formats");
  return why;
}

void hk::populateFp8ConversionPatterns(TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       LoweringState &state) {
  const hk::ChipInfo &chip = state.chip;
  patterns.add<Fp8ExtLowering>(converter, patterns.getContext(),
                               chip.hasBf16Convert);
  patterns.add<Fp8TruncLowering>(converter, patterns.getContext());
  state.support.addForeign(
      [&chip](Operation *op) { return fp8Reason(op, chip); });
}
