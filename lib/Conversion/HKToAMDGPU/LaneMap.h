//===- LaneMap.h - a layout as an affine function of the lane id ----------===//
//
// Layout.h answers "which element does (lane, register) hold" for constant
// lanes. Lowered code needs the same answer for the running lane, so this
// derives, from Layout.h alone, the affine form
//   coord(lane, reg) = (lane % extent) * perLane + (lane / extent) * perGroup
//                      + regs[reg]
// and checks it against Layout.h for all 64 lanes and every register, so the
// layout is still defined only there.
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_CONVERSION_HKTOAMDGPU_LANEMAP_H
#define HK_LIB_CONVERSION_HKTOAMDGPU_LANEMAP_H

#include "hk/Support/MLIR.h"

#include "hk/Dialect/HK/Layout.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace hk {

struct LaneMap {
  int64_t extent;
  hk::Coord perLane, perGroup;
  SmallVector<hk::Coord> regs;
};

/// The affine form of `coordOf`, or nothing if it has none.
std::optional<LaneMap>
buildLaneMap(int64_t extent, int64_t numRegs,
             llvm::function_ref<hk::Coord(int64_t lane, int64_t reg)> coordOf);

/// Of a register tile: coordinates are (row, col) in the tile.
std::optional<LaneMap> laneMapOf(const hk::TileLayout &layout);
/// Of a register vector: coordinates are (0, index) in the vector.
std::optional<LaneMap> laneMapOf(const hk::VectorLayout &layout);

/// The lane-dependent part of the map, (row, col), for the running lane.
std::pair<Value, Value> emitLaneOffset(OpBuilder &b, Location loc,
                                       const LaneMap &map);

} // namespace hk

#endif // HK_LIB_CONVERSION_HKTOAMDGPU_LANEMAP_H
