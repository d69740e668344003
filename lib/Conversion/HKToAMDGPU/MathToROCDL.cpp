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
// f16 and bf16 go through f32. Other math ops that upstream lowers without
// ocml (llvm intrinsics the backend expands) are kept; the rest are
// rejected before anything is rewritten.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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
  if (isa<math::Exp2Op, math::Log2Op, math::RsqrtOp>(op)) {
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
                            math::ExpOp, math::LogOp, math::FmaOp, math::SqrtOp,
                            math::RoundOp, math::RoundEvenOp, math::TruncOp>;
  bool inlined = std::apply(
      [&](auto... ops) { return (isa<decltype(ops)>(op) || ...); }, Inline());
  if (inlined)
    return "";
  // The hint names every math op that lowers, from the lists above.
  std::string hint = "exp2, log2, rsqrt";
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

namespace {

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
               UnaryToROCDL<math::Log2Op, ROCDL::ROCDLLog>, RsqrtLowering>(
      converter, patterns.getContext(), /*benefit=*/2);
  // On scalars too: any left would become ocml calls downstream.
  target.addIllegalOp<math::Exp2Op, math::Log2Op, math::RsqrtOp>();
  state.support.addForeign(mathReason);
}
