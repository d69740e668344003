//===- Layout.cpp - register tile and vector lane layouts -----------------===//

#include "hk/Dialect/HK/Layout.h"

#include <cassert>

namespace hk {

static bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::string BaseTileLayout::validate() const {
  auto shape = std::to_string(rows) + "x" + std::to_string(cols);
  bool known = (rows == 16 && cols == 16) || (rows == 16 && cols == 32) ||
               (rows == 32 && cols == 16) || (rows == 32 && cols == 32) ||
               (rows == 16 && cols == 128) || (rows == 128 && cols == 16) ||
               (rows == 16 && cols == 4) || (rows == 32 && cols == 64) ||
               (rows == 64 && cols == 32) || (rows == 32 && cols == 2);
  if (!known)
    return "base tile " + shape +
           " is not one of 16x16, 16x32, 32x16, 32x32, 16x128, 128x16, 16x4, "
           "32x64, 64x32, 32x2";
  if (laneExtent() > kWaveSize)
    return "base tile " + shape + " spreads " + std::to_string(laneExtent()) +
           " lanes along its " + (major == Major::Row ? "rows" : "columns") +
           ", more than the " + std::to_string(kWaveSize) + " lanes of a wave";
  int64_t e = elemsPerLane();
  if (group < 1 || e % group != 0 || !isPowerOf2(group))
    return "group " + std::to_string(group) +
           " must be a power of two dividing the " + std::to_string(e) +
           " elements each lane keeps of a " + shape + " base tile";
  return "";
}

Coord BaseTileLayout::elementOf(int64_t lane, int64_t i) const {
  assert(lane >= 0 && lane < kWaveSize && i >= 0 && i < elemsPerLane());
  int64_t along = lane % laneExtent();
  int64_t run = runPosition(lane / laneExtent(), i);
  return major == Major::Row ? Coord{along, run} : Coord{run, along};
}

Slot BaseTileLayout::ownerOf(Coord c) const {
  int64_t along = major == Major::Row ? c.row : c.col;
  int64_t run = major == Major::Row ? c.col : c.row;
  int64_t q = (run / group) % laneGroups();
  int64_t i = (run / (group * laneGroups())) * group + run % group;
  return {q * laneExtent() + along, i};
}

std::string TileLayout::validate() const {
  if (auto err = base.validate(); !err.empty())
    return err;
  if (rows <= 0 || cols <= 0 || rows % base.rows || cols % base.cols)
    return "tile " + std::to_string(rows) + "x" + std::to_string(cols) +
           " is not a multiple of its " + std::to_string(base.rows) + "x" +
           std::to_string(base.cols) + " base tile";
  return "";
}

Coord TileLayout::elementOf(int64_t lane, int64_t reg) const {
  int64_t e = base.elemsPerLane();
  int64_t t = reg / e;
  Coord in = base.elementOf(lane, reg % e);
  return {(t / baseTilesPerRow()) * base.rows + in.row,
          (t % baseTilesPerRow()) * base.cols + in.col};
}

Slot TileLayout::ownerOf(Coord c) const {
  int64_t t = (c.row / base.rows) * baseTilesPerRow() + c.col / base.cols;
  Slot in = base.ownerOf({c.row % base.rows, c.col % base.cols});
  return {in.lane, t * base.elemsPerLane() + in.reg};
}

TileLayout TileLayout::transposed() const {
  BaseTileLayout b{base.major == Major::Row ? Major::Col : Major::Row,
                   base.cols, base.rows, base.group};
  return {cols, rows, b};
}

int64_t TileLayout::transposedReg(int64_t reg) const {
  int64_t e = base.elemsPerLane();
  int64_t t = reg / e;
  int64_t i = t / baseTilesPerRow(), j = t % baseTilesPerRow();
  // Base tile (j, i) in the row-major grid of the transposed tile, which has
  // baseTilesPerCol() base tiles per row.
  return (j * baseTilesPerCol() + i) * e + reg % e;
}

int64_t VectorLayout::valuesPerBaseTile() const {
  // Along the run axis a lane holds E positions; across it, one.
  return axis == tile.base.major ? 1 : tile.base.elemsPerLane();
}

int64_t VectorLayout::regsPerLane() const {
  int64_t blocks =
      axis == Major::Row ? tile.baseTilesPerCol() : tile.baseTilesPerRow();
  return blocks * valuesPerBaseTile();
}

int64_t VectorLayout::indexOf(int64_t lane, int64_t reg) const {
  const BaseTileLayout &b = tile.base;
  int64_t per = valuesPerBaseTile();
  int64_t block = reg / per, i = reg % per;
  int64_t extent = axis == Major::Row ? b.rows : b.cols;
  int64_t pos = axis == b.major ? lane % b.laneExtent()
                                : b.runPosition(lane / b.laneExtent(), i);
  return block * extent + pos;
}

int64_t VectorLayout::regOf(int64_t lane, int64_t index) const {
  const BaseTileLayout &b = tile.base;
  int64_t extent = axis == Major::Row ? b.rows : b.cols;
  int64_t block = index / extent, pos = index % extent;
  if (axis == b.major)
    return pos == lane % b.laneExtent() ? block : -1;
  int64_t q = (pos / b.group) % b.laneGroups();
  if (q != lane / b.laneExtent())
    return -1;
  int64_t i = (pos / (b.group * b.laneGroups())) * b.group + pos % b.group;
  return block * valuesPerBaseTile() + i;
}

} // namespace hk
