//===- SharedLayout.cpp - byte layout of shared tiles in LDS --------------===//

#include "hk/Dialect/HK/SharedLayout.h"

#include <algorithm>
#include <cassert>

namespace hk {

static int64_t log2Exact(int64_t v) {
  int64_t n = 0;
  while ((int64_t{1} << n) < v)
    ++n;
  return n;
}

int64_t SharedLayout::swizzleShift() const {
  return std::max<int64_t>(0, 7 - log2Exact(rowBytes()));
}

int64_t SharedLayout::chunkMask() const {
  if (!swizzled || rowBytes() <= kChunkBytes)
    return 0;
  return rowBytes() / kChunkBytes - 1;
}

int64_t SharedLayout::swizzle(int64_t r) const {
  int64_t lo = swizzleShift();
  return (((r >> lo) ^ (r >> (lo + 1))) & chunkMask()) * kChunkBytes;
}

int64_t SharedLayout::rowMask() const {
  if (!swizzled || rowBytes() != kChunkBytes || subRows < 32)
    return 0;
  return 12;
}

int64_t SharedLayout::placedRow(int64_t r) const {
  return r ^ ((r >> 1) & rowMask());
}

int64_t SharedLayout::rowAt(int64_t p) const {
  // placedRow sets bit 3 to r3 ^ r4 and bit 2 to r2 ^ r3, leaving bit 4:
  // undo bit 3 first, then bit 2 with the recovered r3.
  int64_t r = p ^ ((p >> 1) & (rowMask() & 8));
  return r ^ ((r >> 1) & (rowMask() & 4));
}

int64_t SharedLayout::offsetInSubtile(int64_t r, int64_t c) const {
  assert(r >= 0 && r < subRows && c >= 0 && c < subCols);
  return placedRow(r) * rowBytes() + ((c * elemBytes) ^ swizzle(r));
}

Coord SharedLayout::elementInSubtile(int64_t offset) const {
  assert(offset >= 0 && offset < subtileBytes());
  int64_t r = rowAt(offset / rowBytes());
  // The XOR is its own inverse and leaves the row alone.
  int64_t b = (offset % rowBytes()) ^ swizzle(r);
  return {r, b / elemBytes};
}

int64_t SharedLayout::offsetOf(int64_t r, int64_t c) const {
  int64_t sub = (r / subRows) * subtilesPerRow() + c / subCols;
  return sub * subtileBytes() + offsetInSubtile(r % subRows, c % subCols);
}

Coord SharedLayout::elementAt(int64_t offset) const {
  int64_t sub = offset / subtileBytes();
  Coord in = elementInSubtile(offset % subtileBytes());
  return {(sub / subtilesPerRow()) * subRows + in.row,
          (sub % subtilesPerRow()) * subCols + in.col};
}

/// Whether registers [reg, reg + count) of every lane hold elements
/// (r, c0 .. c0 + count - 1) with c0 a multiple of count.
static bool isAlignedRun(const TileLayout &layout, int64_t reg, int64_t count) {
  for (int64_t lane = 0; lane < kWaveSize; ++lane) {
    Coord first = layout.elementOf(lane, reg);
    if (first.col % count)
      return false;
    for (int64_t j = 1; j < count; ++j) {
      Coord c = layout.elementOf(lane, reg + j);
      if (c.row != first.row || c.col != first.col + j)
        return false;
    }
  }
  return true;
}

std::vector<SharedRun> sharedAccessRuns(const TileLayout &reg,
                                        const SharedLayout &shared) {
  int64_t maxCount =
      std::min(SharedLayout::kChunkBytes, shared.rowBytes()) / shared.elemBytes;
  std::vector<SharedRun> runs;
  int64_t n = reg.regsPerLane();
  for (int64_t r = 0; r < n;) {
    int64_t count = maxCount;
    while (count > 1 &&
           (r % count || r + count > n || !isAlignedRun(reg, r, count)))
      count /= 2;
    runs.push_back({r, count});
    r += count;
  }
  return runs;
}

} // namespace hk
