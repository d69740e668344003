//===- HKDialect.cpp - the hk dialect -------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Dialect/HK/Template.h"

using namespace mlir;
using namespace hk;

#include "hk/Dialect/HK/HKDialect.cpp.inc"

void HKDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "hk/Dialect/HK/HKOps.cpp.inc"
      >();
}

LogicalResult HKDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  Attribute value = attribute.getValue();
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError("attribute '")
           << name << "' must be " << what << ", got " << value;
  };
  // A template's declaration is checked whole, once: from hk.params, or from
  // hk.constraints when it stands alone (an error).
  if (name == kParamsAttrName || name == kConstraintsAttrName) {
    auto module = dyn_cast<ModuleOp>(op);
    if (!module)
      return op->emitOpError("attribute '")
             << name << "' belongs on a builtin.module";
    if (name == kConstraintsAttrName && module->hasAttr(kParamsAttrName))
      return success();
    return success(succeeded(verifyTemplate(module)));
  }
  if (name == kGridAttrName)
    return expect(isa<GridAttr>(value), "an #hk.grid");
  if (name == kWavesAttrName || name == kLdsBytesAttrName)
    return expect(isa<IntegerAttr>(value), "an integer");
  if (name == kColsInBoundsAttrName) {
    auto load = dyn_cast<LoadOp>(op);
    auto add = dyn_cast<AtomicAddOp>(op);
    if (!isa<LoadAsyncOp>(op) &&
        !(add && isRegTile(add.getValue().getType())) &&
        (!load || !isa<MemRefType>(load.getSource().getType())))
      return op->emitOpError("attribute '")
             << name
             << "' belongs on an hk.load from a memref, an hk.load_async or "
                "an hk.atomic_add of a register tile";
    return expect(isa<UnitAttr>(value), "a unit attribute");
  }
  if (name == kInBoundsAttrName) {
    auto load = dyn_cast<LoadOp>(op);
    bool globalTileLoad = load && isa<MemRefType>(load.getSource().getType()) &&
                          isRegTile(load.getType());
    if ((!isa<LoadAsyncOp>(op) && !globalTileLoad) ||
        !op->hasAttr(kColsInBoundsAttrName))
      return op->emitOpError("attribute '")
             << name
             << "' belongs on an hk.load_async or an hk.load of a register "
                "tile from a memref that carries '"
             << kColsInBoundsAttrName << "'";
    return expect(isa<UnitAttr>(value), "a unit attribute");
  }
  // Other hk.* attributes are private to the pass that writes them.
  return success();
}

bool hk::isRegTile(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && isa_and_nonnull<RegTileLayoutAttr>(t.getEncoding());
}

bool hk::isRegVec(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && isa_and_nonnull<RegVecLayoutAttr>(t.getEncoding());
}

static hk::Major toMajor(Layout l) {
  return l == Layout::Row ? hk::Major::Row : hk::Major::Col;
}

hk::BaseTileLayout hk::getBaseLayout(RegTileLayoutAttr attr) {
  return {toMajor(attr.getLayout()), attr.getBaseRows(), attr.getBaseCols(),
          attr.getGroup()};
}

hk::TileLayout hk::getTileLayout(RankedTensorType type) {
  auto attr = cast<RegTileLayoutAttr>(type.getEncoding());
  return {type.getDimSize(0), type.getDimSize(1), getBaseLayout(attr)};
}

hk::VectorLayout hk::getVectorLayout(RankedTensorType type) {
  auto attr = cast<RegVecLayoutAttr>(type.getEncoding());
  auto tile = getBaseLayout(attr.getTile());
  // A vector only fixes the tile's extent along its own axis; the other
  // extent does not change which lane holds which value, so one base tile
  // stands for it.
  bool rows = attr.getAxis() == Layout::Row;
  hk::TileLayout layout{rows ? type.getDimSize(0) : tile.rows,
                        rows ? tile.cols : type.getDimSize(0), tile};
  return {toMajor(attr.getAxis()), layout};
}
