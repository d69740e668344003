//===- LayoutTest.cpp - properties of the register tile lane layouts ------===//
//
// Exhaustive checks, over every valid base tile layout and several tile
// sizes, that the layouts of Layout.h are bijections between tile elements
// and (lane, register) slots, that transposition and the vector layouts agree
// with the tile layout, and that invalid layouts are rejected.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/Layout.h"

#include "gtest/gtest.h"

#include <set>
#include <sstream>
#include <vector>

using namespace hk;

namespace {

const char *name(Major m) { return m == Major::Row ? "row" : "col"; }

} // namespace

namespace hk {
// Readable failure messages.
void PrintTo(const Coord &c, std::ostream *os) {
  *os << "(" << c.row << ", " << c.col << ")";
}
} // namespace hk

namespace {

std::string describe(const TileLayout &l) {
  std::ostringstream os;
  os << l.rows << "x" << l.cols << " #hk.rt<" << name(l.base.major) << ", "
     << l.base.rows << "x" << l.base.cols << ", group = " << l.base.group
     << ">";
  return os.str();
}

/// Every valid base tile layout, enumerated from the rules of the dialect
/// (not from validate(), which is tested against this list): the eight base
/// shapes whose transposes are base shapes too, both majors unless the lanes
/// would not fit one wave along the lane axis, every power-of-two group
/// dividing the elements per lane.
std::vector<BaseTileLayout> allValidBases() {
  const int64_t shapes[][2] = {{16, 16},  {16, 32},  {32, 16}, {32, 32},
                               {16, 128}, {128, 16}, {32, 64}, {64, 32}};
  std::vector<BaseTileLayout> out;
  for (auto &s : shapes) {
    for (Major m : {Major::Row, Major::Col}) {
      int64_t laneExtent = m == Major::Row ? s[0] : s[1];
      if (laneExtent > kWaveSize)
        continue;
      int64_t e = s[0] * s[1] / kWaveSize;
      for (int64_t g = 1; g <= e; g *= 2)
        out.push_back({m, s[0], s[1], g});
    }
  }
  return out;
}

/// Tiles of a few grid sizes (in base tiles), including 1-D and 2-D grids.
std::vector<TileLayout> tilesOf(const BaseTileLayout &b) {
  const int64_t grids[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 3}, {4, 2}};
  std::vector<TileLayout> out;
  for (auto &g : grids)
    out.push_back({g[0] * b.rows, g[1] * b.cols, b});
  return out;
}

std::vector<TileLayout> allTiles() {
  std::vector<TileLayout> out;
  for (const BaseTileLayout &b : allValidBases())
    for (const TileLayout &t : tilesOf(b))
      out.push_back(t);
  return out;
}

} // namespace

TEST(LayoutTest, EnumerationCoversEveryValidBase) {
  // 16x16: E=4, groups 1,2,4, both majors: 6. 16x32 and 32x16: E=8, 4 groups,
  // both majors: 8 each. 32x32: E=16, 5 groups x 2 = 10. 16x128 (row only)
  // and 128x16 (col only): E=32, 6 groups each. 32x64 and 64x32 (the
  // scaled 32x32x64 MFMA's operands): E=32, both majors, 12 each.
  EXPECT_EQ(allValidBases().size(), 6u + 8u + 8u + 10u + 6u + 6u + 12u + 12u);
  for (const BaseTileLayout &b : allValidBases())
    EXPECT_EQ(b.validate(), "") << describe({b.rows, b.cols, b});
  // The scale operands of the scaled MFMAs, one element per lane: row only
  // (hk.mma_scaled's scale tiles; their transposes are not base shapes).
  for (auto [r, c] : {std::pair<int64_t, int64_t>{16, 4}, {32, 2}}) {
    BaseTileLayout b{Major::Row, r, c, 1};
    EXPECT_EQ(b.validate(), "") << describe({r, c, b});
    EXPECT_NE((BaseTileLayout{Major::Row, c, r, 1}).validate(), "");
  }
}

TEST(LayoutTest, EveryElementHasExactlyOneSlot) {
  for (const TileLayout &l : allTiles()) {
    SCOPED_TRACE(describe(l));
    ASSERT_EQ(l.validate(), "");
    ASSERT_EQ(l.regsPerLane(), l.rows * l.cols / kWaveSize);
    std::vector<int> hits(l.rows * l.cols, 0);
    for (int64_t lane = 0; lane < kWaveSize; ++lane) {
      for (int64_t reg = 0; reg < l.regsPerLane(); ++reg) {
        Coord c = l.elementOf(lane, reg);
        ASSERT_TRUE(c.row >= 0 && c.row < l.rows && c.col >= 0 &&
                    c.col < l.cols)
            << "lane " << lane << " reg " << reg << " -> (" << c.row << ", "
            << c.col << ")";
        ++hits[c.row * l.cols + c.col];
        Slot s = l.ownerOf(c);
        EXPECT_EQ(s.lane, lane);
        EXPECT_EQ(s.reg, reg);
      }
    }
    for (int64_t r = 0; r < l.rows; ++r) {
      for (int64_t c = 0; c < l.cols; ++c) {
        ASSERT_EQ(hits[r * l.cols + c], 1)
            << "element (" << r << ", " << c << ")";
        Slot s = l.ownerOf({r, c});
        ASSERT_TRUE(s.lane >= 0 && s.lane < kWaveSize && s.reg >= 0 &&
                    s.reg < l.regsPerLane());
        EXPECT_EQ(l.elementOf(s.lane, s.reg), (Coord{r, c}));
      }
    }
  }
}

// The documented shape of the layout: registers [t*E, (t+1)*E) hold base tile
// t of a row-major grid, and a lane keeps one row (row major) or one column
// (col major) of each base tile, the one numbered lane % BR (lane % BC).
TEST(LayoutTest, LaneKeepsOneLineOfEachBaseTile) {
  for (const TileLayout &l : allTiles()) {
    SCOPED_TRACE(describe(l));
    const BaseTileLayout &b = l.base;
    int64_t e = b.elemsPerLane();
    for (int64_t lane = 0; lane < kWaveSize; ++lane) {
      for (int64_t reg = 0; reg < l.regsPerLane(); ++reg) {
        int64_t t = reg / e;
        Coord c = l.elementOf(lane, reg);
        ASSERT_EQ(c.row / b.rows, t / (l.cols / b.cols));
        ASSERT_EQ(c.col / b.cols, t % (l.cols / b.cols));
        if (b.major == Major::Row)
          ASSERT_EQ(c.row % b.rows, lane % b.rows);
        else
          ASSERT_EQ(c.col % b.cols, lane % b.cols);
      }
    }
  }
}

// A chunk of `group` consecutive registers covers consecutive run positions:
// that is what lets the lowering move a chunk with one wide access.
TEST(LayoutTest, GroupIsContiguousAlongTheRun) {
  for (const BaseTileLayout &b : allValidBases()) {
    TileLayout l{b.rows, b.cols, b};
    SCOPED_TRACE(describe(l));
    for (int64_t lane = 0; lane < kWaveSize; ++lane) {
      for (int64_t i = 0; i < b.elemsPerLane(); ++i) {
        if (i % b.group == 0)
          continue;
        Coord prev = l.elementOf(lane, i - 1), cur = l.elementOf(lane, i);
        Coord want = b.major == Major::Row ? Coord{prev.row, prev.col + 1}
                                           : Coord{prev.row + 1, prev.col};
        ASSERT_EQ(cur, want) << "lane " << lane << " element " << i;
      }
    }
  }
}

// hk.transpose is a relabelling: the value of element (r, c) of the source
// is element (c, r) of the result, in the same lane. Within a base tile the
// register is the same; a 2-D grid of base tiles is renumbered (base tile
// (i, j) becomes (j, i)), which transposedReg describes.
TEST(LayoutTest, TransposedRelabelsElements) {
  for (const TileLayout &l : allTiles()) {
    SCOPED_TRACE(describe(l));
    TileLayout t = l.transposed();
    ASSERT_EQ(t.validate(), "") << describe(t);
    EXPECT_EQ(t.rows, l.cols);
    EXPECT_EQ(t.cols, l.rows);
    EXPECT_EQ(t.base.group, l.base.group);
    EXPECT_NE(t.base.major, l.base.major);
    ASSERT_EQ(t.regsPerLane(), l.regsPerLane());
    std::set<int64_t> targets;
    bool oneDimGrid = l.numBaseTiles() == l.baseTilesPerRow() ||
                      l.numBaseTiles() == l.baseTilesPerCol();
    for (int64_t reg = 0; reg < l.regsPerLane(); ++reg) {
      int64_t treg = l.transposedReg(reg);
      ASSERT_TRUE(treg >= 0 && treg < t.regsPerLane());
      targets.insert(treg);
      // Only whole base tiles move; the element within one keeps its place.
      EXPECT_EQ(treg % l.base.elemsPerLane(), reg % l.base.elemsPerLane());
      if (oneDimGrid)
        EXPECT_EQ(treg, reg) << "a 1-D grid of base tiles is not renumbered";
      for (int64_t lane = 0; lane < kWaveSize; ++lane) {
        Coord c = l.elementOf(lane, reg);
        ASSERT_EQ(t.elementOf(lane, treg), (Coord{c.col, c.row}))
            << "lane " << lane << " reg " << reg;
      }
    }
    EXPECT_EQ(static_cast<int64_t>(targets.size()), l.regsPerLane());
    // Transposing twice gives back the layout and the registers.
    TileLayout tt = t.transposed();
    EXPECT_EQ(tt.rows, l.rows);
    EXPECT_EQ(tt.cols, l.cols);
    EXPECT_EQ(tt.base.major, l.base.major);
    EXPECT_EQ(tt.base.rows, l.base.rows);
    EXPECT_EQ(tt.base.cols, l.base.cols);
    for (int64_t reg = 0; reg < l.regsPerLane(); ++reg)
      EXPECT_EQ(t.transposedReg(l.transposedReg(reg)), reg);
  }
}

// The vector of row (column) values that goes with a tile: a lane holds
// exactly the rows (columns) of the tile elements it holds, once each.
TEST(LayoutTest, VectorHoldsTheLinesOfTheLanesElements) {
  for (const TileLayout &l : allTiles()) {
    for (Major axis : {Major::Row, Major::Col}) {
      SCOPED_TRACE(describe(l) + " vector of " + name(axis) + "s");
      VectorLayout v{axis, l};
      ASSERT_EQ(v.length(), axis == Major::Row ? l.rows : l.cols);
      for (int64_t lane = 0; lane < kWaveSize; ++lane) {
        std::set<int64_t> lines;
        for (int64_t reg = 0; reg < l.regsPerLane(); ++reg) {
          Coord c = l.elementOf(lane, reg);
          lines.insert(axis == Major::Row ? c.row : c.col);
        }
        std::set<int64_t> held;
        for (int64_t reg = 0; reg < v.regsPerLane(); ++reg) {
          int64_t idx = v.indexOf(lane, reg);
          EXPECT_TRUE(held.insert(idx).second)
              << "lane " << lane << " holds index " << idx << " twice";
          EXPECT_EQ(v.regOf(lane, idx), reg);
        }
        EXPECT_EQ(held, lines) << "lane " << lane;
        for (int64_t idx = 0; idx < v.length(); ++idx) {
          int64_t reg = v.regOf(lane, idx);
          if (!lines.count(idx)) {
            EXPECT_EQ(reg, -1) << "lane " << lane << " index " << idx;
            continue;
          }
          ASSERT_TRUE(reg >= 0 && reg < v.regsPerLane())
              << "lane " << lane << " index " << idx;
          EXPECT_EQ(v.indexOf(lane, reg), idx);
        }
      }
    }
  }
}

TEST(LayoutTest, RejectsBadBaseShapes) {
  const int64_t bad[][2] = {{8, 8},    {16, 64},   {64, 16},  {64, 8},
                            {64, 64},  {16, 8},    {0, 16},   {16, 0},
                            {-16, 16}, {128, 128}, {32, 128}, {128, 32}};
  for (auto &s : bad) {
    for (Major m : {Major::Row, Major::Col}) {
      BaseTileLayout b{m, s[0], s[1], 1};
      EXPECT_NE(b.validate(), "") << name(m) << " " << s[0] << "x" << s[1];
      TileLayout t{s[0] > 0 ? s[0] : 16, s[1] > 0 ? s[1] : 16, b};
      EXPECT_NE(t.validate(), "");
    }
  }
  // 128 lanes along the lane axis do not fit a 64-lane wave.
  BaseTileLayout rowTall{Major::Row, 128, 16, 32};
  BaseTileLayout colWide{Major::Col, 16, 128, 32};
  EXPECT_NE(rowTall.validate(), "");
  EXPECT_NE(colWide.validate(), "");
  EXPECT_NE(rowTall.validate().find("64 lanes"), std::string::npos)
      << rowTall.validate();
}

TEST(LayoutTest, RejectsBadGroups) {
  for (const BaseTileLayout &valid : allValidBases()) {
    int64_t e = valid.elemsPerLane();
    for (int64_t g : {int64_t(0), int64_t(-1), int64_t(-4), int64_t(3),
                      int64_t(6), 2 * e, e + 1, e - 1}) {
      bool powerOf2Divisor = g > 0 && (g & (g - 1)) == 0 && e % g == 0;
      if (powerOf2Divisor)
        continue;
      BaseTileLayout b = valid;
      b.group = g;
      EXPECT_NE(b.validate(), "") << describe({b.rows, b.cols, b});
    }
  }
}

TEST(LayoutTest, RejectsTilesNotMadeOfWholeBaseTiles) {
  BaseTileLayout b{Major::Row, 16, 32, 8};
  EXPECT_EQ((TileLayout{32, 64, b}).validate(), "");
  for (auto shape : {std::pair<int64_t, int64_t>{24, 32},
                     {16, 48},
                     {8, 32},
                     {16, 16},
                     {0, 32},
                     {16, 0},
                     {-16, 32},
                     {16, -32}}) {
    TileLayout t{shape.first, shape.second, b};
    EXPECT_NE(t.validate(), "") << shape.first << "x" << shape.second;
  }
  // A bad base tile makes the whole tile invalid.
  EXPECT_NE((TileLayout{32, 64, {Major::Row, 16, 32, 3}}).validate(), "");
}
