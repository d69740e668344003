//===- ResolveFp8.cpp - the chip's 8-bit float formats --------------------===//
//
// !hk.fp8 and !hk.bf8 name "the chip's E4M3 / E5M2" so that one kernel
// source serves gfx942 (FNUZ) and gfx950 (OCP). Once the chip is known they
// become builtin types, with every constant re-encoded, so that everything
// after this pass (the target checks, the MFMA choice, the conversions)
// deals with builtin types only.
//===----------------------------------------------------------------------===//

#include "hk/Base/Chip.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Dialect/HK/MfmaTypes.h"
#include "hk/Transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"

namespace hk {
#define GEN_PASS_DEF_HKRESOLVEFP8
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

/// `v` in `semantics`, rounded to nearest even; a finite value past the
/// largest one saturates to it (the FNUZ formats are narrower than the OCP
/// semantics constants are parsed in), NaN stays NaN.
static APFloat reencode(const APFloat &v, const llvm::fltSemantics &semantics) {
  APFloat out = v;
  bool lost = false;
  APFloat::opStatus status =
      out.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
  if (!v.isNaN() && (status & APFloat::opOverflow || out.isNaN()))
    return APFloat::getLargest(semantics, v.isNegative());
  return out;
}

static bool mentionsChipFloat8(Type type) {
  bool found = false;
  type.walk([&](Type t) { found |= isChipFloat8(t); });
  return found;
}

/// The first op whose operands, results or block arguments use !hk.fp8 or
/// !hk.bf8.
static Operation *firstUser(ModuleOp module) {
  Operation *user = nullptr;
  module.walk([&](Operation *op) {
    bool uses = llvm::any_of(op->getOperandTypes(), mentionsChipFloat8) ||
                llvm::any_of(op->getResultTypes(), mentionsChipFloat8);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        uses |= llvm::any_of(block.getArgumentTypes(), mentionsChipFloat8);
    if (!uses)
      return WalkResult::advance();
    user = op;
    return WalkResult::interrupt();
  });
  return user;
}

namespace {

struct ResolveFp8 : hk::impl::HKResolveFp8Base<ResolveFp8> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const hk::ChipInfo *info = hk::lookupChip(chip);
    if (!info) {
      module.emitError("unknown chip '")
          << chip << "'; supported: " << hk::supportedChipNames();
      return signalPassFailure();
    }
    if (info->fp8 == Fp8Format::None) {
      if (Operation *user = firstUser(module)) {
        user->emitOpError("uses !hk.fp8 or !hk.bf8, but ")
            << info->name << " has no 8-bit float formats";
        return signalPassFailure();
      }
      return;
    }
    replacer(*info).recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                                 /*replaceLocs=*/false,
                                                 /*replaceTypes=*/true);
  }

  /// Types first; a float constant of the chip's types is replaced whole,
  /// its value re-encoded, since its APFloat must match its type.
  static AttrTypeReplacer replacer(const hk::ChipInfo &info) {
    AttrTypeReplacer r;
    r.addReplacement([&info](Type t) -> std::optional<Type> {
      if (!isChipFloat8(t))
        return std::nullopt;
      return resolveChipFloat8(t, info);
    });
    r.addReplacement([&info](FloatAttr a) -> std::optional<Attribute> {
      if (!isChipFloat8(a.getType()))
        return std::nullopt;
      auto to = cast<FloatType>(resolveChipFloat8(a.getType(), info));
      return FloatAttr::get(to, reencode(a.getValue(), to.getFloatSemantics()));
    });
    r.addReplacement(
        [&info](DenseFPElementsAttr a) -> std::optional<Attribute> {
          Type from = a.getElementType();
          if (!isChipFloat8(from))
            return std::nullopt;
          auto to = cast<FloatType>(resolveChipFloat8(from, info));
          return a.mapValues(to, [&](const APFloat &v) {
            return reencode(v, to.getFloatSemantics()).bitcastToAPInt();
          });
        });
    return r;
  }
};

} // namespace
