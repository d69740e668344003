//===- Layout.h - which lane holds which element of a register tile -------===//
//
// The one definition of the register tile and register vector layouts of the
// hk dialect (#hk.rt, #hk.rv). The verifier, the lowerings and the tests all
// ask this header; nothing else encodes the mapping.
//
// A register tile of R x C elements is a row-major grid of BR x BC base
// tiles. Every lane of the 64-lane wave keeps E = BR*BC/64 elements of every
// base tile, in its registers `baseTileIndex * E + i` for i in [0, E).
// Row layout: lane l holds row l % BR of each base tile; its elements run
// along that row. Col layout: lane l holds column l % BC; its elements run
// down that column. Along the run, the Q = 64/BR (row) or 64/BC (col) lane
// groups take turns in chunks of `group` elements: element i of a lane in
// group q lies at run position (i / group) * group * Q + q * group + i % group.
//
// This header depends on nothing but hk/Base (the wave size, kWaveSize) and
// the C++ standard library so the runtime can use it without MLIR.
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_LAYOUT_H
#define HK_DIALECT_HK_LAYOUT_H

#include "hk/Base/Chip.h"

#include <cstdint>
#include <string>
#include <utility>

namespace hk {

enum class Major { Row, Col };

/// Position of one element in a tile.
struct Coord {
  int64_t row, col;
  bool operator==(const Coord &o) const { return row == o.row && col == o.col; }
};

/// A (lane, register) slot of a wave.
struct Slot {
  int64_t lane, reg;
  bool operator==(const Slot &o) const {
    return lane == o.lane && reg == o.reg;
  }
};

/// The lane layout of one base tile.
struct BaseTileLayout {
  Major major;
  int64_t rows, cols;
  int64_t group; ///< consecutive run elements per chunk; equals E by default

  /// Elements of the base tile kept by each lane (E).
  int64_t elemsPerLane() const { return rows * cols / kWaveSize; }
  /// Extent along which lanes are laid out (rows for Row, cols for Col).
  int64_t laneExtent() const { return major == Major::Row ? rows : cols; }
  /// Extent along which one lane's elements run.
  int64_t runExtent() const { return major == Major::Row ? cols : rows; }
  /// Number of lane groups Q sharing one row (Row) or column (Col).
  int64_t laneGroups() const { return kWaveSize / laneExtent(); }

  /// Empty when valid, else what is wrong (for diagnostics).
  std::string validate() const;

  /// Run position of element `i` for a lane in lane group `q`.
  int64_t runPosition(int64_t q, int64_t i) const {
    return (i / group) * group * laneGroups() + q * group + i % group;
  }
  Coord elementOf(int64_t lane, int64_t i) const;
  Slot ownerOf(Coord c) const;
};

/// The lane layout of a whole register tile.
struct TileLayout {
  int64_t rows, cols;
  BaseTileLayout base;

  int64_t baseTilesPerRow() const { return cols / base.cols; }
  int64_t baseTilesPerCol() const { return rows / base.rows; }
  int64_t numBaseTiles() const { return baseTilesPerRow() * baseTilesPerCol(); }
  /// Registers (elements) each lane keeps for the whole tile.
  int64_t regsPerLane() const { return numBaseTiles() * base.elemsPerLane(); }

  /// Empty when valid, else what is wrong (for diagnostics).
  std::string validate() const;

  Coord elementOf(int64_t lane, int64_t reg) const;
  Slot ownerOf(Coord c) const;
  /// The layout of the transposed tile (hk.transpose): element (r, c) of this
  /// tile is element (c, r) of the result, in the same lane, at register
  /// transposedReg(reg). No data moves between lanes.
  TileLayout transposed() const;
  /// Register of transposed() holding what register `reg` holds here. Base
  /// tile (i, j) becomes base tile (j, i) of the result, so in a 2-D grid of
  /// base tiles the registers are renumbered; within a base tile, and in a
  /// 1-D grid, the register is unchanged.
  int64_t transposedReg(int64_t reg) const;
};

/// The lane layout of a register vector: one value per row (axis Row) or per
/// column (axis Col) of a tile with layout `tile`. A lane keeps exactly the
/// rows (columns) it holds elements of in the tile; values are replicated
/// over the lanes that share them.
struct VectorLayout {
  Major axis;
  TileLayout tile;

  int64_t length() const { return axis == Major::Row ? tile.rows : tile.cols; }
  /// Values of one base tile's rows (columns) kept by each lane.
  int64_t valuesPerBaseTile() const;
  int64_t regsPerLane() const;
  /// Vector index held by `lane` in register `reg`.
  int64_t indexOf(int64_t lane, int64_t reg) const;
  /// Register of `lane` holding vector index `index`, or -1 if the lane does
  /// not hold it.
  int64_t regOf(int64_t lane, int64_t index) const;
};

} // namespace hk

#endif // HK_DIALECT_HK_LAYOUT_H
