//===- AxisMap.h - a tile's rows (columns) and the vector holding them ----===//
//
// Reductions and broadcasts pair each register of a tile with the register
// of a row (column) vector that holds the same row (column). Layout.h puts
// a row's vector value in every lane holding elements of that row, so the
// pairing is lane-local; this derives it, and the lanes that share a row,
// from Layout.h alone and checks both for all 64 lanes.
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_CONVERSION_HKTOAMDGPU_AXISMAP_H
#define HK_LIB_CONVERSION_HKTOAMDGPU_AXISMAP_H

#include "hk/Support/MLIR.h"

#include "hk/Dialect/HK/Layout.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace hk {

struct AxisMap {
  /// For each tile register, the vector register holding its row (column);
  /// the same in every lane.
  llvm::SmallVector<int64_t> vectorReg;
  /// Lane xor distances (powers of two) that keep a lane on the same rows
  /// (columns). The lanes `l ^ (any sum of them)` are exactly the lanes
  /// holding elements of l's rows (columns).
  llvm::SmallVector<int64_t> laneXors;
};

/// The map between `tile` and its row or column vector layout `vec`, or
/// nothing if Layout.h gives none that is the same in every lane.
std::optional<AxisMap> axisMapOf(const hk::TileLayout &tile,
                                 const hk::VectorLayout &vec);

} // namespace hk

#endif // HK_LIB_CONVERSION_HKTOAMDGPU_AXISMAP_H
