//===- ElementwiseToVector.cpp - arith/math on tiles to per-lane vectors --===//
//
// An elementwise op on register tiles does the same thing to every element;
// since the operands and the result share one layout, each lane applies it
// to its own registers. So one pattern serves every elementwise-mappable op:
// it recreates the op on the converted vector types.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hk;

static bool isRegister(Type t) { return isRegTile(t) || isRegVec(t); }

static bool touchesRegisters(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isRegister) ||
         llvm::any_of(op->getResultTypes(), isRegister);
}

namespace {

struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!OpTrait::hasElementwiseMappableTraits(op) || !touchesRegisters(op))
      return failure();
    FailureOr<Operation *> lowered =
        convertOpResultTypes(op, operands, *getTypeConverter(), rewriter);
    if (failed(lowered))
      return failure();
    rewriter.replaceOp(op, (*lowered)->getResults());
    return success();
  }
};

/// f32 -> bf16 marked `nnan` on a chip without a bf16 conversion
/// instruction: round to nearest even as integer code, bits + 0x7fff + (bit
/// 16 of bits), upper half. LLVM's own expansion adds a NaN test and select
/// per element (5 instructions and a half for a pair's pack); this is 2 and
/// the pack. For a NaN input the flag makes the result undefined; in fact
/// a NaN whose payload lies in its low 16 bits can round to an infinity,
/// and one whose upper 16 bits are 0x7fff or 0xffff to a zero.
struct NoNaNBf16Truncation : OpConversionPattern<arith::TruncFOp> {
  NoNaNBf16Truncation(TypeConverter &converter, MLIRContext *ctx,
                      LoweringState &state)
      : OpConversionPattern(converter, ctx, /*benefit=*/2), state(state) {}

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (state.chip.hasBf16Convert || !isRegister(op.getType()) ||
        !bitEnumContainsAll(
            op.getFastmath().value_or(arith::FastMathFlags::none),
            arith::FastMathFlags::nnan) ||
        op.getRoundingmodeAttr())
      return failure();
    auto in = dyn_cast<VectorType>(adaptor.getIn().getType());
    auto out = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!in || !out || !in.getElementType().isF32() ||
        !out.getElementType().isBF16())
      return failure();
    Location loc = op.getLoc();
    auto i32 = VectorType::get(in.getShape(), rewriter.getI32Type());
    auto splat = [&](int32_t v) {
      return arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(i32, rewriter.getI32IntegerAttr(v)));
    };
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, adaptor.getIn());
    Value lsb = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, splat(16)),
        splat(1));
    Value sum = arith::AddIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, bits, splat(0x7fff)), lsb);
    Value hi = arith::TruncIOp::create(
        rewriter, loc, VectorType::get(in.getShape(), rewriter.getI16Type()),
        arith::ShRUIOp::create(rewriter, loc, sum, splat(16)));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, out, hi);
    return success();
  }

  LoweringState &state;
};

/// A splat constant tile is the same splat in every lane's registers.
struct SplatConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isRegister(op.getType()))
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat)
      return rewriter.notifyMatchFailure(op, "only splat tiles are lowered");
    auto type = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   splat.resizeSplat(type));
    return success();
  }
};

/// A scalar splat over a tile or vector (how a kernel argument such as eps
/// enters tile math) puts the scalar in every register of every lane.
struct TensorSplatLowering : OpConversionPattern<tensor::SplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tensor::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isRegister(op.getType()))
      return failure();
    auto type = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getInput());
    return success();
  }
};

} // namespace

/// Elementwise ops, splat constants and tensor.splat on register tiles (or
/// nullopt for ops this file does not lower).
static std::optional<std::string> registerTileReason(Operation *op) {
  auto isRegister = [](Type t) { return isRegTile(t) || isRegVec(t); };
  bool touches = llvm::any_of(op->getOperandTypes(), isRegister) ||
                 llvm::any_of(op->getResultTypes(), isRegister);
  if (!touches)
    return std::nullopt;
  if (auto cst = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(cst.getValue())
               ? ""
               : "non-splat register tile constants are not supported yet";
  if (OpTrait::hasElementwiseMappableTraits(op) || isa<tensor::SplatOp>(op))
    return std::string();
  return std::nullopt;
}

void hk::populateElementwisePatterns(TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     LoweringState &state) {
  patterns.add<ElementwiseLowering>(converter, patterns.getContext());
  patterns.add<NoNaNBf16Truncation>(converter, patterns.getContext(), state);
  // Above the generic pattern: constants are not elementwise-mappable, but
  // say so explicitly rather than rely on that.
  patterns.add<SplatConstantLowering>(converter, patterns.getContext(),
                                      /*benefit=*/2);
  patterns.add<TensorSplatLowering>(converter, patterns.getContext());
  state.support.addForeign(registerTileReason);
}
