//===- ExpandHostFloats.cpp - 16-bit floats without libcalls on the host --===//
//
// The emulator's host object must load in any process that has hkrt, libc
// and libm. The generic x86-64 CPU it is built for has no bf16 instructions
// and no f16 conversions (F16C), so LLVM calls compiler-rt or libgcc builtins
// (__truncsfbf2, __extendhfsf2, __truncsfhf2) for conversions, and also for
// bf16/f16 vectors that live across blocks, which it keeps as f32 registers.
// Those builtins are missing from many processes (libgcc_s 12 has no
// __truncsfbf2). So this pass leaves no 16-bit float for LLVM: conversions
// become integer code (round to nearest even), and every remaining bf16/f16
// value, which by then is only moved, becomes i16.
//===----------------------------------------------------------------------===//

#include "hk/Emulator/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace hk {
#define GEN_PASS_DEF_HKEXPANDHOSTFLOATS
#include "hk/Emulator/Passes.h.inc"
} // namespace hk

using namespace mlir;

namespace {

bool isHalfWidth(Type t) {
  Type e = getElementTypeOrSelf(t);
  return e.isF16() || e.isBF16();
}

/// `type` with its element type replaced by `element` (scalars and vectors).
Type withElement(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

/// Integer code on values of one shape (a scalar or a vector of i32).
class IntBuilder {
public:
  IntBuilder(PatternRewriter &rewriter, Location loc, Type shapeLike)
      : b(rewriter), loc(loc), i32(withElement(shapeLike, b.getI32Type())) {}

  Value c(uint32_t v) { return constant(i32, b.getI32IntegerAttr(int32_t(v))); }
  Value constant(Type type, TypedAttr scalar) {
    TypedAttr value = scalar;
    if (auto shaped = dyn_cast<ShapedType>(type))
      value = SplatElementsAttr::get(shaped, scalar);
    return arith::ConstantOp::create(b, loc, type, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value andi(Value x, uint32_t m) { return andi(x, c(m)); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value s) { return arith::ShLIOp::create(b, loc, x, s); }
  Value shl(Value x, uint32_t s) { return shl(x, c(s)); }
  Value shr(Value x, Value s) { return arith::ShRUIOp::create(b, loc, x, s); }
  Value shr(Value x, uint32_t s) { return shr(x, c(s)); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value cmp(arith::CmpIPredicate p, Value x, uint32_t v) {
    return cmp(p, x, c(v));
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }

  PatternRewriter &b;
  Location loc;
  Type i32;
};

/// An extension from bf16/f16 to a type wider than f32 goes through f32 (both
/// steps are exact), so that the patterns below see only the f32 case.
struct SplitWideExtension : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isHalfWidth(op.getIn().getType()) ||
        getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    Type f32 = withElement(op.getType(), rewriter.getF32Type());
    Value narrow =
        arith::ExtFOp::create(rewriter, op.getLoc(), f32, op.getIn());
    rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), narrow);
    return success();
  }
};

/// f16 -> f32: exact, so no rounding.
struct ExtendHalf : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type in = op.getIn().getType();
    if (!getElementTypeOrSelf(in).isF16() ||
        !getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    using P = arith::CmpIPredicate;
    Location loc = op.getLoc();
    IntBuilder ib(rewriter, loc, in);
    Value bits = arith::BitcastOp::create(
        rewriter, loc, withElement(in, rewriter.getI16Type()), op.getIn());
    Value h = arith::ExtUIOp::create(rewriter, loc, ib.i32, bits);
    Value sign = ib.shl(ib.andi(h, 0x8000), 16);
    Value exp = ib.andi(ib.shr(h, 10), 0x1f);
    Value man = ib.andi(h, 0x3ff);
    // Normal: the exponent rebiased from 15 to 127.
    Value normal =
        ib.ori(ib.shl(ib.add(exp, ib.c(127 - 15)), 23), ib.shl(man, 13));
    Value infOrNan = ib.ori(ib.c(0x7f800000), ib.shl(man, 13));
    // Subnormal or zero: man * 2^-24, exact in f32.
    Type f32 = op.getType();
    Value scaled = arith::MulFOp::create(
        rewriter, loc, arith::UIToFPOp::create(rewriter, loc, f32, man),
        ib.constant(f32, rewriter.getF32FloatAttr(0x1p-24f)));
    Value subnormal = arith::BitcastOp::create(rewriter, loc, ib.i32, scaled);
    Value magnitude =
        ib.select(ib.cmp(P::eq, exp, 31), infOrNan,
                  ib.select(ib.cmp(P::eq, exp, 0), subnormal, normal));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, f32,
                                                  ib.ori(sign, magnitude));
    return success();
  }
};

/// f32 -> f16, rounded to nearest even; too large gives infinity, a NaN
/// stays a quiet NaN.
struct TruncateToHalf : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type in = op.getIn().getType();
    if (!getElementTypeOrSelf(op.getType()).isF16() ||
        !getElementTypeOrSelf(in).isF32())
      return failure();
    using P = arith::CmpIPredicate;
    IntBuilder ib(rewriter, op.getLoc(), in);
    Value x =
        arith::BitcastOp::create(rewriter, op.getLoc(), ib.i32, op.getIn());
    Value sign = ib.andi(ib.shr(x, 16), 0x8000);
    Value abs = ib.andi(x, 0x7fffffff);
    // Normal results: the 13 dropped bits rounded to nearest even, then the
    // exponent rebiased from 127 to 15 (a carry into the exponent is right).
    Value rounded =
        ib.add(abs, ib.add(ib.c(0xfff), ib.andi(ib.shr(abs, 13), 1)));
    Value normal = ib.shr(ib.sub(rounded, ib.c((127 - 15) << 23)), 13);
    // Subnormal results: the 24-bit significand shifted right by
    // 126 - exponent (14 or more where this result is chosen), rounded to
    // nearest even. The shift is clamped to [1, 31] to stay defined on the
    // inputs that take another result.
    Value man = ib.ori(ib.andi(abs, 0x7fffff), ib.c(0x800000));
    Value one = ib.c(1);
    Value shift = arith::MaxUIOp::create(
        rewriter, op.getLoc(),
        arith::MinUIOp::create(rewriter, op.getLoc(),
                               ib.sub(ib.c(126), ib.shr(abs, 23)), ib.c(31)),
        one);
    Value q = ib.shr(man, shift);
    Value rest = ib.andi(man, ib.sub(ib.shl(one, shift), one));
    Value half = ib.shl(one, ib.sub(shift, one));
    Value odd = ib.andi(q, 1);
    Value roundUp =
        ib.select(ib.cmp(P::eq, rest, half), odd,
                  arith::ExtUIOp::create(rewriter, op.getLoc(), ib.i32,
                                         ib.cmp(P::ugt, rest, half)));
    Value subnormal = ib.add(q, roundUp);
    Value nan = ib.ori(ib.c(0x7e00), ib.andi(ib.shr(abs, 13), 0x3ff));
    Value magnitude =
        ib.select(ib.cmp(P::ugt, abs, 0x7f800000), nan,
                  ib.select(ib.cmp(P::uge, abs, 0x477ff000), ib.c(0x7c00),
                            ib.select(ib.cmp(P::uge, abs, 0x38800000), normal,
                                      subnormal)));
    Value bits = arith::TruncIOp::create(rewriter, op.getLoc(),
                                         withElement(in, rewriter.getI16Type()),
                                         ib.ori(sign, magnitude));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), bits);
    return success();
  }
};

/// Whether `op` only moves its 16-bit float values, so that they can be
/// moved as i16 instead.
bool onlyMoves(Operation *op) {
  if (isa<arith::SelectOp, arith::ConstantOp, arith::BitcastOp, LLVM::LoadOp,
          LLVM::StoreOp>(op))
    return true;
  if (isa<vector::ReductionOp, vector::MultiDimReductionOp,
          vector::ContractionOp, vector::FMAOp, vector::OuterProductOp,
          vector::ScanOp>(op))
    return false;
  return isa<vector::VectorDialect>(op->getDialect()) ||
         op->getDialect()->getNamespace() == "memref" ||
         op->getDialect()->getNamespace() == "scf" ||
         op->getDialect()->getNamespace() == "cf" ||
         op->getDialect()->getNamespace() == "func" ||
         op->getDialect()->getNamespace() == "builtin";
}

bool usesHalfWidth(Operation *op) {
  auto half = [](Value v) { return isHalfWidth(v.getType()); };
  if (llvm::any_of(op->getOperands(), half) ||
      llvm::any_of(op->getResults(), half))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArguments(), half))
        return true;
  return false;
}

/// Every bf16/f16 (element) type becomes i16, and their constants the same
/// bits as i16 constants.
void retypeAsIntegers(Operation *root) {
  MLIRContext *ctx = root->getContext();
  Type i16 = IntegerType::get(ctx, 16);
  AttrTypeReplacer replacer;
  replacer.addReplacement([i16](FloatType t) -> std::optional<Type> {
    if (isHalfWidth(t))
      return i16;
    return std::nullopt;
  });
  replacer.addReplacement([i16](FloatAttr a) -> std::optional<Attribute> {
    if (isHalfWidth(a.getType()))
      return IntegerAttr::get(i16, a.getValue().bitcastToAPInt());
    return std::nullopt;
  });
  replacer.addReplacement(
      [i16](DenseFPElementsAttr a) -> std::optional<Attribute> {
        if (isHalfWidth(a.getElementType()))
          return a.bitcast(i16);
        return std::nullopt;
      });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

struct ExpandHostFloats : hk::impl::HKExpandHostFloatsBase<ExpandHostFloats> {
  void runOnOperation() override {
    Operation *root = getOperation();
    // Through f32, a truncation from f64 would round twice.
    WalkResult twice = root->walk([](arith::TruncFOp op) {
      if (!isHalfWidth(op.getType()) ||
          getElementTypeOrSelf(op.getIn().getType()).isF32())
        return WalkResult::advance();
      op.emitOpError("from ")
          << op.getIn().getType() << " to " << op.getType()
          << " has no emulation (it would round twice); truncate to f32 first";
      return WalkResult::interrupt();
    });
    if (twice.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    patterns.add<SplitWideExtension, ExtendHalf, TruncateToHalf>(&getContext());
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();

    WalkResult computes = root->walk([](Operation *op) {
      if (onlyMoves(op) || !usesHalfWidth(op))
        return WalkResult::advance();
      op->emitOpError("computes on 16-bit floats, which the emulator's host "
                      "code cannot; run math-extend-to-supported-types and "
                      "arith-emulate-unsupported-floats first");
      return WalkResult::interrupt();
    });
    if (computes.wasInterrupted())
      return signalPassFailure();
    retypeAsIntegers(root);
  }
};

} // namespace
