//===- HKPositionOps.cpp - hk.iota, scans and arg reductions --------------===//
//
// Verifiers of the ops of dialect/HKPositionOps.td. Their classes are
// generated into HKOps.cpp.inc with the other ops.
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"

using namespace mlir;
using namespace hk;

static Layout layoutOfAxis(Axis axis) {
  return axis == Axis::Row ? Layout::Row : Layout::Col;
}

/// Checks that `vec` is the vector along `axis` of the tile type `tile`
/// (one value per row for Row), with element type `element`.
static LogicalResult verifyAxisVector(Operation *op, RankedTensorType tile,
                                      RankedTensorType vec, Axis axis,
                                      Type element, StringRef what) {
  auto v = cast<RegVecLayoutAttr>(vec.getEncoding());
  if (v.getAxis() != layoutOfAxis(axis))
    return op->emitOpError("expects ")
           << what << " to be a " << stringifyAxis(axis) << " vector, got a "
           << stringifyLayout(v.getAxis()) << " vector";
  if (v.getTile() != tile.getEncoding())
    return op->emitOpError("expects ")
           << what << " laid out for tile layout " << tile.getEncoding()
           << ", got " << v.getTile();
  int64_t len = tile.getDimSize(axis == Axis::Row ? 0 : 1);
  if (vec.getDimSize(0) != len)
    return op->emitOpError("expects ")
           << what << " of length " << len << ", got " << vec.getDimSize(0);
  if (vec.getElementType() != element)
    return op->emitOpError("expects ") << what << " of element type " << element
                                       << ", got " << vec.getElementType();
  return success();
}

LogicalResult IotaOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  Type elt = type.getElementType();
  if (!elt.isF32() && !elt.isSignlessInteger(32))
    return emitOpError("expects an i32 or f32 result, got ") << elt;
  if (isRegTile(type) && !getAxis())
    return emitOpError("on a register tile needs an axis: row (the row "
                       "index of each element) or col");
  if (isRegVec(type) && getAxis())
    return emitOpError("on a register vector takes no axis: each element "
                       "gets its index");
  return success();
}

/// Scans combine with sum, max or min, each of which has an identity (the
/// first value of an exclusive scan).
template <typename ScanOp>
static LogicalResult verifyScan(ScanOp op, Axis axis) {
  auto tile = cast<RankedTensorType>(op.getSource().getType());
  if (Value init = op.getInit())
    return verifyAxisVector(op, tile, cast<RankedTensorType>(init.getType()),
                            axis, tile.getElementType(), "init");
  return success();
}

LogicalResult RowScanOp::verify() { return verifyScan(*this, Axis::Row); }
LogicalResult ColScanOp::verify() { return verifyScan(*this, Axis::Col); }

template <typename ArgOp> static LogicalResult verifyArg(ArgOp op, Axis axis) {
  if (op.getKind() == ReduceKind::Sum)
    return op.emitOpError("takes max or min, not sum: a sum has no position");
  auto tile = cast<RankedTensorType>(op.getSource().getType());
  if (failed(verifyAxisVector(op, tile,
                              cast<RankedTensorType>(op.getValue().getType()),
                              axis, tile.getElementType(), "the value")))
    return failure();
  return verifyAxisVector(op, tile,
                          cast<RankedTensorType>(op.getIndex().getType()), axis,
                          IntegerType::get(op.getContext(), 32), "the index");
}

LogicalResult RowArgOp::verify() { return verifyArg(*this, Axis::Row); }
LogicalResult ColArgOp::verify() { return verifyArg(*this, Axis::Col); }
