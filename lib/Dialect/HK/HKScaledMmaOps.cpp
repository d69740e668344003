//===- HKScaledMmaOps.cpp - hk.mma_scaled ---------------------------------===//
//
// The verifier of dialect/HKScaledMmaOps.td's op. Its class is generated into
// HKOps.cpp.inc with the other ops.
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"

using namespace mlir;
using namespace hk;

int64_t hk::globalLoadPacking(Type memoryElement, Type tileElement) {
  if (memoryElement == tileElement)
    return 1;
  if (!memoryElement.isInteger(8) || !isa<FloatType>(tileElement))
    return 0;
  unsigned bits = tileElement.getIntOrFloatBitWidth();
  return bits == 8 ? 1 : bits == 6 ? 4 : bits == 4 ? 2 : 0;
}

int64_t hk::globalLoadPackedUnits(Type memoryElement, Type tileElement) {
  // Four 6-bit elements fill three bytes: the MFMA's own packing of its f6
  // operands (32 elements in six dwords, bit-packed), so a lane's 32
  // consecutive elements are 24 consecutive bytes moved unchanged.
  int64_t pack = globalLoadPacking(memoryElement, tileElement);
  if (pack == 0 || memoryElement == tileElement)
    return pack;
  return pack * tileElement.getIntOrFloatBitWidth() /
         memoryElement.getIntOrFloatBitWidth();
}

/// The OCP MX element types the scaled f8f6f4 MFMAs take.
static bool isMxElement(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float6E2M3FNType,
             Float6E3M2FNType, Float4E2M1FNType>(t);
}

namespace {
/// The scaled MFMA an hk.mma_scaled maps to, named by its accumulator's base
/// tile: 16x16 (`v_mfma_scale_f32_16x16x128_f8f6f4`) or 32x32 with group 4
/// (`v_mfma_scale_f32_32x32x64_f8f6f4`). Both keep 32 K values of one row
/// per lane, so an operand's base tile is `m` x `k` and a scale tile's `m`
/// x `k`/32 (one scale per lane).
struct ScaledForm {
  int64_t m, k;
};
} // namespace

/// Checks an operand (A or B): `rows`xK of an MX type in the row layout of
/// the form's operands; sets `k`.
static LogicalResult verifyMxOperand(Operation *op, StringRef name,
                                     RankedTensorType t, ScaledForm form,
                                     int64_t rows, int64_t &k) {
  Type elt = t.getElementType();
  if (!isMxElement(elt))
    return op->emitOpError("expects ")
           << name
           << " of f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or f4E2M1FN, got "
           << elt;
  auto attr = cast<RegTileLayoutAttr>(t.getEncoding());
  // 8-bit operands keep K in chunks of 16 per lane group, the narrower
  // ones in one run of 32: the MFMA's own orders, under which a lane's
  // values of a row lie in the 32-element blocks its scale covers.
  int64_t group = elt.getIntOrFloatBitWidth() == 8 ? 16 : 32;
  if (!attr.isRow() || attr.getBaseRows() != form.m ||
      attr.getBaseCols() != form.k || attr.getGroup() != group)
    return op->emitOpError("expects ")
           << name << " in row layout with " << form.m << "x" << form.k
           << " base tiles and group = " << group << " for " << elt << ", got "
           << attr;
  if (t.getDimSize(0) != rows)
    return op->emitOpError("expects ")
           << name << " with " << rows << " rows, got " << t.getDimSize(0);
  k = t.getDimSize(1);
  return success();
}

/// Checks a scale tile: `rows` x `k`/32 e8m0 in the row layout of the form's
/// scale operand (`m` x `k`/32 base tiles, one scale per lane).
static LogicalResult verifyScales(Operation *op, StringRef name,
                                  RankedTensorType t, ScaledForm form,
                                  int64_t rows, int64_t k) {
  if (!isa<Float8E8M0FNUType>(t.getElementType()))
    return op->emitOpError("expects ")
           << name << " of f8E8M0FNU, got " << t.getElementType();
  auto attr = cast<RegTileLayoutAttr>(t.getEncoding());
  if (!attr.isRow() || attr.getBaseRows() != form.m ||
      attr.getBaseCols() != form.k / 32)
    return op->emitOpError("expects ")
           << name << " in row layout with " << form.m << "x" << form.k / 32
           << " base tiles, got " << attr;
  if (t.getDimSize(0) != rows || t.getDimSize(1) != k / 32)
    return op->emitOpError("expects ")
           << name << " of " << rows << "x" << k / 32
           << " (one scale per 32 elements along K), got " << t.getDimSize(0)
           << "x" << t.getDimSize(1);
  return success();
}

LogicalResult MmaScaledOp::verify() {
  auto cT = cast<RankedTensorType>(getC().getType());
  auto c = cast<RegTileLayoutAttr>(cT.getEncoding());
  bool f32Col = cT.getElementType().isF32() && c.isCol();
  ScaledForm form{0, 0};
  if (f32Col && c.getBaseRows() == 16 && c.getBaseCols() == 16)
    form = {16, 128};
  else if (f32Col && c.getBaseRows() == 32 && c.getBaseCols() == 32 &&
           c.getGroup() == 4)
    form = {32, 64};
  else
    return emitOpError("expects an f32 accumulator in col layout with 16x16 "
                       "base tiles, or 32x32 base tiles and group = 4, got ")
           << cT;
  int64_t m = cT.getDimSize(0), n = cT.getDimSize(1), ka, kb;
  auto aT = cast<RankedTensorType>(getA().getType());
  auto bT = cast<RankedTensorType>(getB().getType());
  if (failed(verifyMxOperand(*this, "A", aT, form, m, ka)) ||
      failed(verifyMxOperand(*this, "B", bT, form, n, kb)))
    return failure();
  if (ka != kb)
    return emitOpError("A has K = ") << ka << " but B has K = " << kb;
  return failure(
      failed(verifyScales(*this, "A's scales",
                          cast<RankedTensorType>(getAScale().getType()), form,
                          m, ka)) ||
      failed(verifyScales(*this, "B's scales",
                          cast<RankedTensorType>(getBScale().getType()), form,
                          n, kb)));
}
