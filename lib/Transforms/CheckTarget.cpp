//===- CheckTarget.cpp - reject what a chip cannot run --------------------===//

#include "hk/Base/Chip.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Dialect/HK/MfmaTypes.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace hk {
#define GEN_PASS_DEF_HKCHECKTARGET
#include "hk/Transforms/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk;

namespace {

struct CheckTarget : hk::impl::HKCheckTargetBase<CheckTarget> {
  using Base::Base;

  void runOnOperation() override {
    const hk::ChipInfo *info = hk::lookupChip(chip);
    if (!info) {
      getOperation().emitError("unknown chip '")
          << chip << "'; supported: " << hk::supportedChipNames();
      return signalPassFailure();
    }
    bool ok = true;
    getOperation().walk(
        [&](KernelOp kernel) { ok &= checkLds(kernel, *info); });
    getOperation().walk([&](MmaOp mma) { ok &= checkMma(mma, *info); });
    getOperation().walk([&](MmaScaledOp mma) {
      if (info->hasScaledMfma)
        return;
      mma.emitOpError("needs the scaled f8f6f4 MFMAs (OCP MX), which ")
          << info->name << " does not have";
      ok = false;
    });
    getOperation().walk(
        [&](arith::TruncFOp trunc) { ok &= checkRounding(trunc); });
    if (!ok)
      signalPassFailure();
  }

  /// Points at the allocation that crosses the chip's LDS budget.
  bool checkLds(KernelOp kernel, const hk::ChipInfo &info) {
    int64_t used = 0;
    for (AllocSharedOp alloc : kernel.getBody().getOps<AllocSharedOp>()) {
      used += alloc.getType().getSizeInBytes();
      if (used > info.ldsBytes) {
        alloc.emitOpError("brings @")
            << kernel.getSymName() << " to " << used
            << " bytes of LDS, over the " << info.ldsBytes << " bytes of "
            << info.name;
        return false;
      }
    }
    return true;
  }

  bool checkMma(MmaOp mma, const hk::ChipInfo &info) {
    auto a = cast<RankedTensorType>(mma.getA().getType());
    Type elt = a.getElementType();
    if (isa<FloatType>(elt) && elt.getIntOrFloatBitWidth() == 8 &&
        !mfmaInputOf(elt, info)) {
      mma.emitOpError("has ") << elt << " inputs, but " << info.name
                              << "'s MFMAs take " << fp8FormatNames(info.fp8);
      return false;
    }
    for (Value v : {mma.getA(), mma.getB()}) {
      auto attr = cast<RegTileLayoutAttr>(
          cast<RankedTensorType>(v.getType()).getEncoding());
      if ((attr.getBaseRows() == 128 || attr.getBaseCols() == 128) &&
          !info.hasScaledMfma) {
        mma.emitOpError("uses ")
            << attr.getBaseRows() << "x" << attr.getBaseCols()
            << " base tiles, made for the f8f6f4 MFMAs that " << info.name
            << " does not have";
        return false;
      }
    }
    return true;
  }

  /// An explicit rounding mode makes arith-to-llvm emit a constrained
  /// fptrunc; for bf16 LLVM's AMDGPU backend has no instruction or library
  /// call for it and stops with a fatal error, and the 8-bit conversions
  /// round to nearest even only (as do the 6- and 4-bit ones); LLVM lowers
  /// the f16 ones.
  bool checkRounding(arith::TruncFOp trunc) {
    Type elt = getElementTypeOrSelf(trunc.getType());
    if (!trunc.getRoundingmodeAttr() ||
        !(elt.isBF16() || elt.getIntOrFloatBitWidth() < 16))
      return true;
    trunc.emitOpError("rounds to ")
        << elt << " " << stringifyRoundingMode(*trunc.getRoundingmode())
        << ", but code generation rounds to bf16 and narrower floats only "
           "to nearest even, the default (no rounding mode)";
    return false;
  }
};

} // namespace
