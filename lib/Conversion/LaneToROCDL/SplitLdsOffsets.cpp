//===- SplitLdsOffsets.cpp - constant LDS offsets into GEPs of their own --===//
//
// The conversion to LLVM addresses a shared tile's element with one GEP
// whose index sums the view's lane-dependent position and the register's
// constant place in the tile. LLVM hoists each such `lane + constant` out of
// the loop as a value of its own, so every LDS access of the loop needs an
// address register and an instruction to add the buffer's base to it. Split
// here into GEP(GEP(base, lane), constant), the accesses share the inner GEP
// and LLVM folds the constant into the instruction's offset field. GEPs
// without `inbounds` wrap like the integer sum they replace, so the split
// is exact.
//===----------------------------------------------------------------------===//

#include "hk/Conversion/LaneToROCDL/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

namespace hk {
#define GEN_PASS_DEF_HKSPLITLDSOFFSETS
#include "hk/Conversion/LaneToROCDL/Passes.h.inc"
} // namespace hk

using namespace mlir;

namespace {

/// `value` as rest + constant: rest is null when value is a constant, and
/// `value` itself (constant 0) when no constant term is found.
struct Terms {
  Value rest;
  int64_t constant = 0;
};

/// The constant of `v`, if it is one.
static std::optional<int64_t> constantOf(Value v) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)) && c.getBitWidth() <= 64)
    return c.getSExtValue();
  return std::nullopt;
}

/// Splits `v` through add, and through mul and shl by a constant. New ops
/// (for the rest of a sum that had a constant) are created at `b`'s
/// insertion point.
static Terms splitTerms(OpBuilder &b, Value v, int depth = 0) {
  if (std::optional<int64_t> c = constantOf(v))
    return {Value(), *c};
  Operation *def = v.getDefiningOp();
  if (!def || depth > 16)
    return {v, 0};
  Location loc = def->getLoc();
  if (auto add = dyn_cast<LLVM::AddOp>(def)) {
    Terms l = splitTerms(b, add.getLhs(), depth + 1);
    Terms r = splitTerms(b, add.getRhs(), depth + 1);
    if (l.constant == 0 && r.constant == 0)
      return {v, 0};
    Value rest = !l.rest   ? r.rest
                 : !r.rest ? l.rest
                           : LLVM::AddOp::create(b, loc, l.rest, r.rest);
    return {rest, l.constant + r.constant};
  }
  auto scaled = [&](Value x, int64_t k, bool shift) -> Terms {
    Terms t = splitTerms(b, x, depth + 1);
    if (t.constant == 0)
      return {v, 0};
    int64_t c = shift ? int64_t(uint64_t(t.constant) << k) : t.constant * k;
    if (!t.rest)
      return {Value(), c};
    Value kv = LLVM::ConstantOp::create(b, loc, v.getType(),
                                        b.getIntegerAttr(v.getType(), k));
    Value rest = shift ? LLVM::ShlOp::create(b, loc, t.rest, kv).getResult()
                       : LLVM::MulOp::create(b, loc, t.rest, kv).getResult();
    return {rest, c};
  };
  if (auto mul = dyn_cast<LLVM::MulOp>(def)) {
    if (std::optional<int64_t> k = constantOf(mul.getRhs()))
      return scaled(mul.getLhs(), *k, false);
    if (std::optional<int64_t> k = constantOf(mul.getLhs()))
      return scaled(mul.getRhs(), *k, false);
  }
  if (auto shl = dyn_cast<LLVM::ShlOp>(def))
    if (std::optional<int64_t> k = constantOf(shl.getRhs()))
      if (*k >= 0 && *k < 64)
        return scaled(shl.getLhs(), *k, true);
  return {v, 0};
}

struct SplitLdsOffsets : hk::impl::HKSplitLdsOffsetsBase<SplitLdsOffsets> {
  void runOnOperation() override {
    SmallVector<LLVM::GEPOp> geps;
    getOperation()->walk([&](LLVM::GEPOp gep) {
      auto ptr = dyn_cast<LLVM::LLVMPointerType>(gep.getType());
      if (ptr && ptr.getAddressSpace() == 3 &&
          gep.getRawConstantIndices().size() == 1 &&
          gep.getRawConstantIndices()[0] == LLVM::GEPOp::kDynamicIndex &&
          gep.getNoWrapFlags() == LLVM::GEPNoWrapFlags::none)
        geps.push_back(gep);
    });
    for (LLVM::GEPOp gep : geps) {
      OpBuilder b(gep);
      Value index = gep.getDynamicIndices()[0];
      Terms t = splitTerms(b, index);
      if (t.constant == 0 || !t.rest)
        continue;
      Location loc = gep.getLoc();
      Value inner =
          LLVM::GEPOp::create(b, loc, gep.getType(), gep.getElemType(),
                              gep.getBase(), ValueRange{t.rest});
      Value offset = LLVM::ConstantOp::create(
          b, loc, index.getType(),
          b.getIntegerAttr(index.getType(), t.constant));
      gep.getResult().replaceAllUsesWith(LLVM::GEPOp::create(
          b, loc, gep.getType(), gep.getElemType(), inner, ValueRange{offset}));
      gep.erase();
    }
  }
};

} // namespace
