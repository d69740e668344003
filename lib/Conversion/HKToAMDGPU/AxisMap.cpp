//===- AxisMap.cpp - a tile's rows (columns) and the vector holding them --===//

#include "AxisMap.h"

using namespace hk;
using hk::Coord;
using hk::kWaveSize;
using hk::Major;
using hk::TileLayout;
using hk::VectorLayout;

static int64_t along(Major axis, Coord c) {
  return axis == Major::Row ? c.row : c.col;
}

/// The vector register of `lane` holding the row (column) of tile register
/// `reg`, or -1.
static int64_t vectorRegOf(const TileLayout &tile, const VectorLayout &vec,
                           int64_t lane, int64_t reg) {
  return vec.regOf(lane, along(vec.axis, tile.elementOf(lane, reg)));
}

/// Whether lanes l and l ^ d hold the same vector indices in every register.
static bool sameIndices(const VectorLayout &vec, int64_t d) {
  for (int64_t lane = 0; lane < kWaveSize; ++lane)
    for (int64_t reg = 0; reg < vec.regsPerLane(); ++reg)
      if (vec.indexOf(lane, reg) != vec.indexOf(lane ^ d, reg))
        return false;
  return true;
}

std::optional<AxisMap> hk::axisMapOf(const TileLayout &tile,
                                     const VectorLayout &vec) {
  AxisMap map;
  for (int64_t reg = 0; reg < tile.regsPerLane(); ++reg) {
    int64_t v = vectorRegOf(tile, vec, 0, reg);
    for (int64_t lane = 1; lane < kWaveSize && v >= 0; ++lane)
      if (vectorRegOf(tile, vec, lane, reg) != v)
        v = -1;
    if (v < 0)
      return std::nullopt;
    map.vectorReg.push_back(v);
  }
  int64_t mask = 0;
  for (int64_t d = 1; d < kWaveSize; d <<= 1) {
    if (!sameIndices(vec, d))
      continue;
    map.laneXors.push_back(d);
    mask |= d;
  }
  // Combining over the xor distances must reach every lane that holds an
  // element of the row (column), and no other: each lane holding a vector
  // index must lie in the xor class of each tile element's owner.
  for (int64_t lane = 0; lane < kWaveSize; ++lane)
    for (int64_t reg = 0; reg < tile.regsPerLane(); ++reg) {
      int64_t index = along(vec.axis, tile.elementOf(lane, reg));
      for (int64_t other = 0; other < kWaveSize; ++other)
        if (vec.regOf(other, index) >= 0 && ((lane ^ other) & ~mask))
          return std::nullopt;
    }
  return map;
}
