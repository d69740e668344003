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
  // f6 (four elements in three bytes) is not read from bytes yet.
  return bits == 8 ? 1 : bits == 4 ? 2 : 0;
}

/// The OCP MX element types the scaled f8f6f4 MFMAs take.
static bool isMxElement(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float6E2M3FNType,
             Float6E3M2FNType, Float4E2M1FNType>(t);
}

/// Checks an operand (A or B): `rows`xK of an MX type in the row 16x128
/// layout of the scaled MFMA's operands; sets `k`.
static LogicalResult verifyMxOperand(Operation *op, StringRef name,
                                     RankedTensorType t, int64_t rows,
                                     int64_t &k) {
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
  if (!attr.isRow() || attr.getBaseRows() != 16 || attr.getBaseCols() != 128 ||
      attr.getGroup() != group)
    return op->emitOpError("expects ")
           << name
           << " in row layout with 16x128 base tiles and group = " << group
           << " for " << elt << ", got " << attr;
  if (t.getDimSize(0) != rows)
    return op->emitOpError("expects ")
           << name << " with " << rows << " rows, got " << t.getDimSize(0);
  k = t.getDimSize(1);
  return success();
}

/// Checks a scale tile: `rows` x `k`/32 e8m0 in the row 16x4 layout.
static LogicalResult verifyScales(Operation *op, StringRef name,
                                  RankedTensorType t, int64_t rows, int64_t k) {
  if (!isa<Float8E8M0FNUType>(t.getElementType()))
    return op->emitOpError("expects ")
           << name << " of f8E8M0FNU, got " << t.getElementType();
  auto attr = cast<RegTileLayoutAttr>(t.getEncoding());
  if (!attr.isRow() || attr.getBaseRows() != 16 || attr.getBaseCols() != 4)
    return op->emitOpError("expects ")
           << name << " in row layout with 16x4 base tiles, got " << attr;
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
  if (!cT.getElementType().isF32() || !c.isCol() || c.getBaseRows() != 16 ||
      c.getBaseCols() != 16)
    return emitOpError("expects an f32 accumulator in col layout with 16x16 "
                       "base tiles, got ")
           << cT;
  int64_t m = cT.getDimSize(0), n = cT.getDimSize(1), ka, kb;
  auto aT = cast<RankedTensorType>(getA().getType());
  auto bT = cast<RankedTensorType>(getB().getType());
  if (failed(verifyMxOperand(*this, "A", aT, m, ka)) ||
      failed(verifyMxOperand(*this, "B", bT, n, kb)))
    return failure();
  if (ka != kb)
    return emitOpError("A has K = ") << ka << " but B has K = " << kb;
  return failure(failed(verifyScales(
                     *this, "A's scales",
                     cast<RankedTensorType>(getAScale().getType()), m, ka)) ||
                 failed(verifyScales(
                     *this, "B's scales",
                     cast<RankedTensorType>(getBScale().getType()), n, kb)));
}
