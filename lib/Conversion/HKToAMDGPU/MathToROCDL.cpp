//===- MathToROCDL.cpp - math ops as device instructions, never ocml ------===//
//
// Upstream, convert-gpu-to-rocdl turns math.exp2, math.log2, math.rsqrt (and
// most other math ops) into calls into the ROCm device library (ocml), which
// kernels here are not linked with. So this lowers them first, per element:
//   math.exp2  -> rocdl.exp2 (v_exp_f32: what HK uses; about 1 ulp, no
//                 range reduction, so results below 2^-126 flush to zero)
//   math.log2  -> rocdl.log  (v_log_f32, log base 2; about 1 ulp, a
//                 denormal input is read as zero)
//   math.rsqrt -> 1 / math.sqrt (the backend's correctly rounded sqrt and
//                 division; fast-math flags carry over, and with `afn` the
//                 backend emits v_rsq_f32)
//   math.exp   -> rocdl.exp2(x * log2(e)), as cheap as math.exp2 (the llvm
//                 intrinsic upstream keeps is expanded with a range
//                 reduction and denormal fixups)
//   math.tanh  -> sign(x) (1 - 2 / (2^(2 |x| log2(e)) + 1)), an odd Taylor
//                 polynomial below |x| = 1/8 where that form cancels
//   math.erf   -> sign(x) (1 - P(t) 2^(-x^2 log2(e))), t = 1 / (1 + p |x|)
//                 (Abramowitz and Stegun 7.1.26, |error| <= 1.5e-7), an odd
//                 Taylor polynomial below |x| = 1/4
// f16 and bf16 go through f32. Other math ops that upstream lowers without
// ocml (llvm intrinsics the backend expands) are kept; the rest are
// rejected before anything is rewritten.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hk;

static bool hasDeviceInstruction(Type t) {
  Type elt = getElementTypeOrSelf(t);
  return elt.isF32() || elt.isF16() || elt.isBF16();
}

/// For math ops (on tiles or scalars): why one would become a ROCm device
/// library call, or "" if the lowering and the backend handle it; nullopt
/// for ops of other dialects.
static std::optional<std::string> mathReason(Operation *op) {
  if (!isa<math::MathDialect>(op->getDialect()))
    return std::nullopt;
  // Trig.cpp's.
  if (isa<math::SinOp, math::CosOp>(op))
    return std::nullopt;
  if (isa<math::Exp2Op, math::ExpOp, math::Log2Op, math::RsqrtOp, math::TanhOp,
          math::ErfOp>(op)) {
    Type t = op->getResult(0).getType();
    if (hasDeviceInstruction(t))
      return "";
    std::string type;
    llvm::raw_string_ostream os(type);
    os << getElementTypeOrSelf(t);
    return "has no device instruction for " + type +
           " (only f32, f16 and bf16), and the ROCm device library is not "
           "linked";
  }
  // Lowered upstream to llvm intrinsics the backend expands inline.
  using Inline = std::tuple<math::AbsFOp, math::AbsIOp, math::CopySignOp,
                            math::LogOp, math::FmaOp, math::SqrtOp,
                            math::RoundOp, math::RoundEvenOp, math::TruncOp>;
  bool inlined = std::apply(
      [&](auto... ops) { return (isa<decltype(ops)>(op) || ...); }, Inline());
  if (inlined)
    return "";
  // The hint names every math op that lowers, from the lists above.
  std::string hint = "exp2, exp, log2, rsqrt, tanh, erf, sin, cos";
  std::apply(
      [&](auto... ops) {
        ((hint +=
          ", " +
          decltype(ops)::getOperationName().drop_front(strlen("math.")).str()),
         ...);
      },
      Inline());
  return "would become a call into the ROCm device library (ocml), which is "
         "not linked; the math ops that lower are " +
         hint + ", besides arith";
}

/// `f` on every element of `v` (a scalar or a 1-D vector), in f32.
static Value mapF32(OpBuilder &b, Location loc, Value v,
                    llvm::function_ref<Value(Value)> f) {
  auto each = [&](Value x) -> Value {
    Type t = x.getType();
    if (t.isF32())
      return f(x);
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, t, f(wide));
  };
  auto type = dyn_cast<VectorType>(v.getType());
  if (!type)
    return each(v);
  SmallVector<Value> out;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    out.push_back(each(vector::ExtractOp::create(b, loc, v, i)));
  return vector::FromElementsOp::create(b, loc, type, out);
}

/// A float constant of `type` (f32, or a vector of f32), splat.
static Value constantF32(OpBuilder &b, Location loc, Type type, double v) {
  TypedAttr attr = b.getF32FloatAttr(v);
  if (auto vec = dyn_cast<VectorType>(type))
    attr = DenseElementsAttr::get(vec, ArrayRef<Attribute>{attr});
  return arith::ConstantOp::create(b, loc, attr);
}

/// e^x as 2^(x log2(e)): the product rounds once in f32, so the result errs
/// by |x log2(e)| 2^-24 relative besides v_exp_f32's ~1 ulp; what HK does.
static Value expF32(OpBuilder &b, Location loc, Value x) {
  Value log2e = constantF32(b, loc, b.getF32Type(), llvm::numbers::log2e);
  return mapF32(b, loc, x, [&](Value e) -> Value {
    Value scaled = arith::MulFOp::create(b, loc, e, log2e);
    return ROCDL::ROCDLExp2::create(b, loc, e.getType(), scaled);
  });
}

/// c[0] x + c[1] x^3 + c[2] x^5 + ..., by Horner's rule in x^2.
static Value oddPolynomial(OpBuilder &b, Location loc, Value x,
                           ArrayRef<double> c) {
  Value x2 = arith::MulFOp::create(b, loc, x, x);
  Value acc = constantF32(b, loc, x.getType(), c.back());
  for (double coefficient : llvm::reverse(c.drop_back())) {
    acc = arith::MulFOp::create(b, loc, acc, x2);
    acc = arith::AddFOp::create(b, loc, acc,
                                constantF32(b, loc, x.getType(), coefficient));
  }
  return arith::MulFOp::create(b, loc, acc, x);
}

/// `large` for |x| >= bound, `small` below (unordered: NaN takes `large`).
static Value selectBelow(OpBuilder &b, Location loc, Value absX, double bound,
                         Value small, Value large) {
  Value limit = constantF32(b, loc, absX.getType(), bound);
  Value below =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, absX, limit);
  return arith::SelectOp::create(b, loc, below, small, large);
}

/// tanh(x) = sign(x) (1 - 2 / (e^(2|x|) + 1)); e^(2|x|) overflows to inf for
/// |x| > 44, giving exactly 1. Below |x| = 1/8, 1 - 2/(...) loses about
/// 2^-24 absolute, so x - x^3/3 + 2x^5/15 - 17x^7/315 (the Taylor series,
/// next term 62x^9/2835 < 2^-29 |x|) is used there. Relative error about
/// 2^-20 everywhere.
static Value tanhF32(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value a = math::AbsFOp::create(b, loc, x);
  Value twoA = arith::AddFOp::create(b, loc, a, a);
  Value e = expF32(b, loc, twoA);
  Value one = constantF32(b, loc, t, 1.0);
  Value two = constantF32(b, loc, t, 2.0);
  Value q =
      arith::DivFOp::create(b, loc, two, arith::AddFOp::create(b, loc, e, one));
  Value large = math::CopySignOp::create(
      b, loc, arith::SubFOp::create(b, loc, one, q), x);
  Value small =
      oddPolynomial(b, loc, x, {1.0, -1.0 / 3, 2.0 / 15, -17.0 / 315});
  return selectBelow(b, loc, a, 0.125, small, large);
}

/// erf(x) = sign(x) (1 - (a1 t + ... + a5 t^5) e^(-x^2)), t = 1 / (1 + p|x|)
/// (Abramowitz and Stegun, Handbook of Mathematical Functions, 7.1.26:
/// |error| <= 1.5e-7). Below |x| = 1/4, where erf(x) < 0.28 and that bound
/// is large relative to the result, the Taylor series 2/sqrt(pi) (x - x^3/3
/// + x^5/10 - x^7/42 + x^9/216) (next term x^11/1320 < 2^-30 |x|).
static Value erfF32(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value a = math::AbsFOp::create(b, loc, x);
  Value one = constantF32(b, loc, t, 1.0);
  Value den = arith::AddFOp::create(
      b, loc, one,
      arith::MulFOp::create(b, loc, a, constantF32(b, loc, t, 0.3275911)));
  Value tt = arith::DivFOp::create(b, loc, one, den);
  const double coefficients[] = {1.061405429, -1.453152027, 1.421413741,
                                 -0.284496736, 0.254829592};
  Value poly = constantF32(b, loc, t, coefficients[0]);
  for (double c : ArrayRef<double>(coefficients).drop_front()) {
    poly = arith::MulFOp::create(b, loc, poly, tt);
    poly = arith::AddFOp::create(b, loc, poly, constantF32(b, loc, t, c));
  }
  poly = arith::MulFOp::create(b, loc, poly, tt);
  Value negSquare =
      arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, a, a));
  Value tail = arith::MulFOp::create(b, loc, poly, expF32(b, loc, negSquare));
  Value large = math::CopySignOp::create(
      b, loc, arith::SubFOp::create(b, loc, one, tail), x);
  double k = 2 * llvm::numbers::inv_sqrtpi;
  Value small = oddPolynomial(b, loc, x, {k, -k / 3, k / 10, -k / 42, k / 216});
  return selectBelow(b, loc, a, 0.25, small, large);
}

/// `f` on `v` (a scalar or vector of f32, f16 or bf16) computed in f32.
static Value inF32(OpBuilder &b, Location loc, Value v,
                   llvm::function_ref<Value(Value)> f) {
  Type t = v.getType();
  if (getElementTypeOrSelf(t).isF32())
    return f(v);
  Type wideType = b.getF32Type();
  if (auto vec = dyn_cast<VectorType>(t))
    wideType = vec.clone(wideType);
  Value wide = arith::ExtFOp::create(b, loc, wideType, v);
  return arith::TruncFOp::create(b, loc, t, f(wide));
}

namespace {

/// math.exp, math.tanh, math.erf: arith around v_exp_f32.
template <typename MathOp>
struct ExpBasedLowering : OpConversionPattern<MathOp> {
  using OpConversionPattern<MathOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getOperand();
    if (!hasDeviceInstruction(x.getType()))
      return rewriter.notifyMatchFailure(op, "no device instruction");
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, inF32(rewriter, loc, x, [&](Value e) -> Value {
          if constexpr (std::is_same_v<MathOp, math::ExpOp>)
            return expF32(rewriter, loc, e);
          else if constexpr (std::is_same_v<MathOp, math::TanhOp>)
            return tanhF32(rewriter, loc, e);
          else
            return erfF32(rewriter, loc, e);
        }));
    return success();
  }
};

template <typename MathOp, typename RocdlOp>
struct UnaryToROCDL : OpConversionPattern<MathOp> {
  using OpConversionPattern<MathOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getOperand();
    if (!hasDeviceInstruction(x.getType()))
      return rewriter.notifyMatchFailure(op, "no device instruction");
    Location loc = op.getLoc();
    rewriter.replaceOp(op, mapF32(rewriter, loc, x, [&](Value e) -> Value {
                         return RocdlOp::create(rewriter, loc, e.getType(), e);
                       }));
    return success();
  }
};

struct RsqrtLowering : OpConversionPattern<math::RsqrtOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(math::RsqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    auto fmf = op.getFastmath();
    Value root = math::SqrtOp::create(rewriter, loc, x, fmf);
    Value one = arith::ConstantOp::create(rewriter, loc, x.getType(),
                                          rewriter.getOneAttr(x.getType()));
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, root, fmf);
    return success();
  }
};

} // namespace

void hk::populateMathToROCDLPatterns(TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     ConversionTarget &target,
                                     LoweringState &state) {
  // Above the generic elementwise pattern, which would keep them as math.
  patterns.add<UnaryToROCDL<math::Exp2Op, ROCDL::ROCDLExp2>,
               UnaryToROCDL<math::Log2Op, ROCDL::ROCDLLog>, RsqrtLowering,
               ExpBasedLowering<math::ExpOp>, ExpBasedLowering<math::TanhOp>,
               ExpBasedLowering<math::ErfOp>>(converter, patterns.getContext(),
                                              /*benefit=*/2);
  // On scalars too: any left would become ocml calls (or, for math.exp, a
  // range-reduced expansion) downstream.
  target.addIllegalOp<math::Exp2Op, math::ExpOp, math::Log2Op, math::RsqrtOp,
                      math::TanhOp, math::ErfOp>();
  state.support.addForeign(mathReason);
}
