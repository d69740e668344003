//===- FencePackedTruncs.cpp - keep 16-bit float vectors packed -----------===//
//
// A vector of f32 rounded to bf16 is one v_cvt_pk_bf16_f32 per pair of
// elements on gfx950, and its pairs are the 32-bit registers MFMAs and LDS
// stores take. LLVM's InstCombine rewrites a scalar extract of the rounded
// vector as the rounding of the extracted f32 element, so every element a
// lane exchange or a ds_write_b16 reads gets a conversion of its own, and
// the MFMA operands built from those scalars a v_perm_b32 per pair to pack
// them again (attention backward's dS: 32 single conversions and 32
// v_perm_b32 per step). An llvm.arithmetic.fence on the rounded vector, a
// no-op on its value, is something InstCombine does not look through: the
// extracts read halves of the packed registers (ds_write_b16 and its
// _d16_hi form), and every use shares the one packed conversion.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/LaneToROCDL/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace hk {
#define GEN_PASS_DEF_HKFENCEPACKEDTRUNCS
#include "hk/Conversion/LaneToROCDL/Passes.h.inc"
} // namespace hk

using namespace mlir;

namespace {

struct FencePackedTruncs
    : hk::impl::HKFencePackedTruncsBase<FencePackedTruncs> {
  void runOnOperation() override {
    SmallVector<LLVM::FPTruncOp> truncs;
    getOperation()->walk([&](LLVM::FPTruncOp trunc) {
      auto type = dyn_cast<VectorType>(trunc.getType());
      if (type && type.getNumElements() > 2 &&
          type.getElementType().getIntOrFloatBitWidth() == 16 &&
          !trunc.getResult().use_empty())
        truncs.push_back(trunc);
    });
    for (LLVM::FPTruncOp trunc : truncs) {
      OpBuilder b(trunc);
      b.setInsertionPointAfter(trunc);
      auto fence = LLVM::CallIntrinsicOp::create(
          b, trunc.getLoc(), trunc.getType(),
          b.getStringAttr("llvm.arithmetic.fence"),
          ValueRange{trunc.getResult()});
      trunc.getResult().replaceAllUsesExcept(fence.getResult(0), fence);
    }
  }
};

} // namespace
