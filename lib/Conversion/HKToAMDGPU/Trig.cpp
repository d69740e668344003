//===- Trig.cpp - math.sin, math.cos without the device library -----------===//
//
// Upstream would call ocml's sin and cos, which kernels are not linked
// with. v_sin_f32 and v_cos_f32 take revolutions and are valid for
// |x| <= 256 revolutions, but AMD states no accuracy for them, so no bound
// could be derived for a result; this computes both from FMAs instead:
//
//   1. Quarter turns, in two f32 pieces: with c0 = f32(2/pi) and
//      c1 = f32(2/pi - c0) (|2/pi - c0 - c1| <= 2^-50), h = x c0
//      (rounded), e = fma(x, c0, -h) (exact), l = e + x c1 (|l| <= 1.14
//      |x| 2^-24, so up to 1/2 and more once |x| >= 2^23); k1 =
//      roundeven(h), r = (h - k1) + l (h - k1 exact, |r| < 2), k2 =
//      roundeven(r), q = r - k2 (exact, |q| <= 1/2). q is x 2/pi - k1 - k2
//      within 2^-24 (rounding r) + |x| (2^-50 + 2^-49 + 1.14 2^-48) (the
//      remainder of 2/pi, rounding x c1, rounding l) <= 2^-24 + |x| 2^-47.08.
//   2. theta = q * f32(pi/2), |theta| <= pi/4: within 1.571 (2^-24 +
//      |x| 2^-47.08) + 0.5 2^-24 (the constant) + 0.5 2^-24 (rounding) =
//      2.57 2^-24 + |x| 2^-46.43 of x - k pi/2.
//   3. sin(theta) = theta + theta^3 (-1/6 + theta^2 (1/120 + ...)) up to
//      theta^9 and cos(theta) = 1 + theta^2 (-1/2 + ...) up to theta^10,
//      Taylor polynomials by Horner's rule: truncation below 2^-28 at
//      pi/4, evaluation within 1.2 2^-24 (sin) and 2.2 2^-24 (cos).
//   4. k mod 4 (k1 mod 4 computed in f32 as k1 - 4 floor(k1 / 4), exact
//      for any integral k1, plus k2, wrapped into [0, 4)) picks sin, cos,
//      -sin or -cos (cos: the next quadrant).
//
// So |result - sin(x)| <= 4.9 2^-24 + |x| 2^-46.43 < 2^-21 + |x| 2^-45 for
// every finite f32 x (the |x| term comes from the f32 pieces of 2/pi:
// 2^-21 at |x| = 2^24), and inf or NaN gives NaN. f16 and bf16 go through
// f32.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hk;

namespace {

/// Builds f32 arithmetic on values of one type (f32 or a vector of it).
struct F32Builder {
  OpBuilder &b;
  Location loc;
  Type type;

  Value constant(double v) {
    TypedAttr attr = b.getF32FloatAttr(static_cast<float>(v));
    if (auto vec = dyn_cast<VectorType>(type))
      attr = DenseElementsAttr::get(vec, ArrayRef<Attribute>{attr});
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value eq(Value x, double c) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                 constant(c));
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// c[0] + y c[1] + y^2 c[2] + ..., by Horner's rule.
  Value horner(Value y, ArrayRef<double> c) {
    Value acc = constant(c.back());
    for (double coefficient : llvm::reverse(c.drop_back()))
      acc = add(mul(acc, y), constant(coefficient));
    return acc;
  }
};

} // namespace

/// sin(x) (quadrantShift 0) or cos(x) (1) of f32 values, steps 1-4 above.
static Value sinCosF32(OpBuilder &b, Location loc, Value x,
                       int64_t quadrantShift) {
  F32Builder f{b, loc, x.getType()};
  const double twoOverPi = 2 * llvm::numbers::inv_pi;
  const float c0 = static_cast<float>(twoOverPi);
  const double c1 = twoOverPi - double(c0);
  Value h = f.mul(x, f.constant(c0));
  Value e = math::FmaOp::create(b, loc, x, f.constant(c0),
                                arith::NegFOp::create(b, loc, h));
  Value l = f.add(e, f.mul(x, f.constant(c1)));
  // l reaches 1/2 when |h| >= 2^22, so the nearest quarter turn is taken
  // twice: k1 of h, then k2 of r = (h - k1) + l, |r| < 2.
  Value k1 = math::RoundEvenOp::create(b, loc, h);
  Value r = f.add(f.sub(h, k1), l);
  Value k2 = math::RoundEvenOp::create(b, loc, r);
  Value q = f.sub(r, k2);
  Value theta = f.mul(q, f.constant(llvm::numbers::pi / 2));
  Value t2 = f.mul(theta, theta);
  // Taylor coefficients of sin(t)/t - 1 over t^2 and of cos(t) in t^2.
  Value sinTail =
      f.horner(t2, {-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880});
  Value sinT = f.add(theta, f.mul(f.mul(theta, t2), sinTail));
  Value cosT = f.horner(
      t2, {1.0, -1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800});
  // (k1 + k2 + shift) mod 4 in f32: k1 / 4 and 4 floor(k1 / 4) are exact,
  // and so is the difference, in [0, 4); k2 + shift is in [-1, 2].
  Value quarter = math::FloorOp::create(b, loc, f.mul(k1, f.constant(0.25)));
  Value quadrant = f.sub(k1, f.mul(quarter, f.constant(4)));
  quadrant = f.add(quadrant, f.add(k2, f.constant(quadrantShift)));
  Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                      quadrant, f.constant(0));
  quadrant = f.select(below, f.add(quadrant, f.constant(4)), quadrant);
  Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE,
                                      quadrant, f.constant(4));
  quadrant = f.select(above, f.sub(quadrant, f.constant(4)), quadrant);
  Value odd =
      arith::OrIOp::create(b, loc, f.eq(quadrant, 1), f.eq(quadrant, 3));
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE,
                                         quadrant, f.constant(2));
  Value v = f.select(odd, cosT, sinT);
  return f.select(negative, arith::NegFOp::create(b, loc, v), v);
}

static bool isTrigType(Type t) {
  Type elt = getElementTypeOrSelf(t);
  return elt.isF32() || elt.isF16() || elt.isBF16();
}

namespace {

template <typename MathOp, int64_t quadrantShift>
struct TrigLowering : OpConversionPattern<MathOp> {
  using OpConversionPattern<MathOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getOperand();
    Type t = x.getType();
    if (!isTrigType(t))
      return rewriter.notifyMatchFailure(op, "not f32, f16 or bf16");
    Location loc = op.getLoc();
    if (getElementTypeOrSelf(t).isF32()) {
      rewriter.replaceOp(op, sinCosF32(rewriter, loc, x, quadrantShift));
      return success();
    }
    Type wide = rewriter.getF32Type();
    if (auto vec = dyn_cast<VectorType>(t))
      wide = vec.clone(wide);
    Value ext = arith::ExtFOp::create(rewriter, loc, wide, x);
    Value r = sinCosF32(rewriter, loc, ext, quadrantShift);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, t, r);
    return success();
  }
};

} // namespace

void hk::populateTrigPatterns(TypeConverter &converter,
                              RewritePatternSet &patterns,
                              ConversionTarget &target, LoweringState &state) {
  // Above the generic elementwise pattern, which would keep them as math.
  patterns.add<TrigLowering<math::SinOp, 0>, TrigLowering<math::CosOp, 1>>(
      converter, patterns.getContext(), /*benefit=*/2);
  target.addIllegalOp<math::SinOp, math::CosOp>();
  state.support.addForeign([](Operation *op) -> std::optional<std::string> {
    if (!isa<math::SinOp, math::CosOp>(op))
      return std::nullopt;
    if (isTrigType(op->getResult(0).getType()))
      return std::string();
    return std::string("has no lowering for this element type (only f32, "
                       "f16 and bf16), and the ROCm device library is not "
                       "linked");
  });
}
