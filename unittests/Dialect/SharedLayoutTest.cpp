//===- SharedLayoutTest.cpp - properties of the shared tile byte layout ---===//
//
// For every subtile the dialect allows (powers of two of at least 8, 256,
// 512 or 1024 bytes, 1-, 2- and 4-byte elements): the layout of
// SharedLayout.h is a bijection inside each subtile and over the tile, keeps
// aligned 16-byte chunks contiguous, and matches offsets computed by hand. The
// bank-conflict count of the lowering's LDS accesses (sharedAccessRuns, one
// instruction per run) is never worse with the swizzle than without, on the
// 64 banks of gfx950 and the 32 of gfx942; the figures are printed.
//
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/SharedLayout.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace hk;

namespace {

constexpr int64_t kTile = 128;

/// Every subtile shape valid for `elemBytes`-byte elements.
std::vector<SharedLayout> allSubtiles(int64_t elemBytes) {
  std::vector<SharedLayout> out;
  for (int64_t sr = 8; sr <= kTile; sr *= 2)
    for (int64_t sc = 8; sc <= kTile; sc *= 2) {
      int64_t bytes = sr * sc * elemBytes;
      if (bytes == 256 || bytes == 512 || bytes == 1024)
        out.push_back({kTile, kTile, sr, sc, elemBytes});
    }
  return out;
}

std::string name(const SharedLayout &l) {
  return std::to_string(l.subRows) + "x" + std::to_string(l.subCols) + " " +
         std::to_string(l.elemBytes * 8) + "-bit";
}

} // namespace

TEST(SharedLayout, BijectionInsideEachSubtile) {
  for (int64_t eb : {1, 2, 4})
    for (const SharedLayout &l : allSubtiles(eb)) {
      SCOPED_TRACE(name(l));
      std::set<int64_t> seen;
      for (int64_t r = 0; r < l.subRows; ++r)
        for (int64_t c = 0; c < l.subCols; ++c) {
          int64_t off = l.offsetInSubtile(r, c);
          ASSERT_GE(off, 0);
          ASSERT_LT(off, l.subtileBytes());
          ASSERT_EQ(off % eb, 0);
          ASSERT_TRUE(seen.insert(off).second) << "(" << r << ", " << c << ")";
          Coord back = l.elementInSubtile(off);
          ASSERT_EQ(back.row, r);
          ASSERT_EQ(back.col, c);
        }
      EXPECT_EQ(static_cast<int64_t>(seen.size()) * eb, l.subtileBytes());
    }
}

TEST(SharedLayout, BijectionOverTheTile) {
  for (int64_t eb : {1, 2, 4})
    for (SharedLayout l : allSubtiles(eb)) {
      SCOPED_TRACE(name(l));
      l.rows = 2 * l.subRows;
      l.cols = 3 * l.subCols;
      std::vector<bool> used(l.sizeInBytes() / eb, false);
      for (int64_t r = 0; r < l.rows; ++r)
        for (int64_t c = 0; c < l.cols; ++c) {
          int64_t off = l.offsetOf(r, c);
          ASSERT_LT(off, l.sizeInBytes());
          ASSERT_FALSE(used[off / eb]);
          used[off / eb] = true;
          Coord back = l.elementAt(off);
          ASSERT_EQ(back.row, r);
          ASSERT_EQ(back.col, c);
          // Subtiles are contiguous and row-major in the grid.
          int64_t sub = (r / l.subRows) * 3 + c / l.subCols;
          ASSERT_EQ(off / l.subtileBytes(), sub);
        }
    }
}

TEST(SharedLayout, ChunksStayContiguous) {
  for (int64_t eb : {1, 2, 4})
    for (const SharedLayout &l : allSubtiles(eb)) {
      SCOPED_TRACE(name(l));
      int64_t chunk = std::min(SharedLayout::kChunkBytes, l.rowBytes()) / eb;
      for (int64_t r = 0; r < l.subRows; ++r)
        for (int64_t c0 = 0; c0 < l.subCols; c0 += chunk) {
          int64_t start = l.offsetInSubtile(r, c0);
          ASSERT_EQ(start % (chunk * eb), 0);
          for (int64_t j = 1; j < chunk; ++j)
            ASSERT_EQ(l.offsetInSubtile(r, c0 + j), start + j * eb);
        }
    }
}

// Offsets worked out by hand from the formula in SharedLayout.h.
TEST(SharedLayout, HandComputedOffsets) {
  // 16x32 bf16: 64-byte rows, 4 chunks, shift 7 - 6 = 1.
  SharedLayout a{64, 64, 16, 32, 2};
  // r = 5: ((5 >> 1) ^ (5 >> 2)) & 3 = (2 ^ 1) = 3 -> XOR 48; c = 8 is byte 16.
  EXPECT_EQ(a.offsetOf(5, 8), 5 * 64 + (16 ^ 48));
  // r = 8: (4 ^ 2) & 3 = 2 -> XOR 32.
  EXPECT_EQ(a.offsetOf(8, 0), 8 * 64 + 32);
  // Element (17, 40): subtile (1, 1) of a 2-wide grid = #3 at 3 * 1024;
  // inside it (1, 8): r = 1 -> (0 ^ 0) = 0, byte 16.
  EXPECT_EQ(a.offsetOf(17, 40), 3 * 1024 + 64 + 16);
  // 32x16 bf16: 32-byte rows, 2 chunks, shift 2. r = 4: (1 ^ 0) & 1 = 1.
  SharedLayout b{32, 16, 32, 16, 2};
  EXPECT_EQ(b.offsetOf(4, 0), 4 * 32 + 16);
  EXPECT_EQ(b.offsetOf(12, 9), 12 * 32 + (18 ^ 0)); // (3 ^ 1) & 1 = 0
  // 8x128 fp8: 128-byte rows, 8 chunks, shift 0. r = 6: (6 ^ 3) & 7 = 5.
  SharedLayout c{8, 128, 8, 128, 1};
  EXPECT_EQ(c.offsetOf(6, 3), 6 * 128 + (3 ^ 80));
  // 16x8 f32: 32-byte rows. 8x16 bf16: one 16-byte chunk per row, no swizzle.
  SharedLayout d{8, 16, 8, 8, 2};
  EXPECT_EQ(d.chunkMask(), 0);
  EXPECT_EQ(d.rowMask(), 0);
  EXPECT_EQ(d.offsetOf(7, 5), 7 * 16 + 10);
  // 16x16 fp8: one chunk per row, 16 rows: rows stay in place.
  SharedLayout e{32, 16, 16, 16, 1};
  EXPECT_EQ(e.rowMask(), 0);
  EXPECT_EQ(e.offsetOf(21, 3), 256 + 5 * 16 + 3);
  // 32x16 fp8: one chunk per row, 32 rows: row r is placed at
  // r ^ ((r >> 1) & 12). r = 16: 16 ^ (8 & 12) = 24; r = 13: 13 ^ (6 & 12) =
  // 9; r = 27: 27 ^ (13 & 12) = 23.
  SharedLayout f{64, 32, 32, 16, 1};
  EXPECT_EQ(f.offsetOf(16, 5), 24 * 16 + 5);
  EXPECT_EQ(f.offsetOf(13, 0), 9 * 16);
  EXPECT_EQ(f.offsetOf(27, 15), 23 * 16 + 15);
  // Element (43, 20): subtile (1, 1) = #3 at 3 * 512; inside it (11, 4):
  // 11 ^ (5 & 12) = 15.
  EXPECT_EQ(f.offsetOf(43, 20), 3 * 512 + 15 * 16 + 4);
  // 64x8 bf16: row 40 (bits 3, 5): 40 ^ (20 & 12) = 44; bit 5 stays.
  SharedLayout g{64, 8, 64, 8, 2};
  EXPECT_EQ(g.offsetOf(40, 1), 44 * 16 + 2);
  for (int64_t p = 0; p < 64; ++p)
    EXPECT_EQ(g.placedRow(g.rowAt(p)), p);
}

namespace {

/// The phase lane `lane` of an LDS instruction is served in.
using PhaseOf = int64_t (*)(int64_t lane, int64_t width, int64_t banks);

/// Phases of banks*4/width consecutive lanes.
int64_t consecutivePhase(int64_t lane, int64_t width, int64_t banks) {
  return lane / std::max<int64_t>(1, banks * 4 / width);
}

/// ds_read_b128's interleaved phases, as runtime/isa/Timing.cpp's ldsPhase
/// takes them: on 32 banks lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with
/// 28-31, 12-15 with 24-27, the same in the upper half (the grouping given
/// for gfx942); on 64 banks 0-3, 8-11, 16-19, 24-27 and 4-7, 12-15, 20-23,
/// 28-31, the same in the upper half. Other widths: consecutive lanes.
int64_t readB128Phase(int64_t lane, int64_t width, int64_t banks) {
  if (width != 16)
    return consecutivePhase(lane, width, banks);
  int64_t half = lane / 32, q = (lane % 32) / 4;
  if (banks >= 64)
    return half * 2 + (q & 1);
  static const int64_t group32[8] = {0, 1, 2, 3, 1, 0, 3, 2};
  return half * 4 + group32[q];
}

/// Extra cycles (conflicts) of one LDS instruction in which lane l moves
/// `width` bytes at addrs[l], on `banks` 4-byte banks, its lanes served in
/// the phases `phaseOf` gives; in a phase a bank serves one distinct word
/// per cycle (lanes reading the same word share it).
int64_t conflicts(const std::vector<int64_t> &addrs, int64_t width,
                  int64_t banks, PhaseOf phaseOf = consecutivePhase) {
  std::map<int64_t, std::map<int64_t, std::set<int64_t>>> phases;
  for (size_t l = 0; l < addrs.size(); ++l)
    for (int64_t w = addrs[l] / 4; w <= (addrs[l] + width - 1) / 4; ++w)
      phases[phaseOf(static_cast<int64_t>(l), width, banks)][w % banks].insert(
          w);
  int64_t extra = 0;
  for (auto &[phase, words] : phases) {
    int64_t cycles = 1;
    for (auto &[bank, set] : words)
      cycles = std::max<int64_t>(cycles, set.size());
    extra += cycles - 1;
  }
  return extra;
}

/// Conflicts of hk.load / hk.store of a register tile `reg` from/to `shared`
/// (same shape), summed over its instructions.
int64_t accessConflicts(const TileLayout &reg, const SharedLayout &shared,
                        int64_t banks, int64_t *instructions,
                        PhaseOf phaseOf = consecutivePhase) {
  int64_t total = 0;
  std::vector<SharedRun> runs = sharedAccessRuns(reg, shared);
  *instructions = runs.size();
  for (SharedRun run : runs) {
    std::vector<int64_t> addrs;
    for (int64_t lane = 0; lane < kWaveSize; ++lane) {
      Coord c = reg.elementOf(lane, run.reg);
      addrs.push_back(shared.offsetOf(c.row, c.col));
    }
    total += conflicts(addrs, run.count * shared.elemBytes, banks, phaseOf);
  }
  return total;
}

std::vector<BaseTileLayout> baseTiles() {
  std::vector<BaseTileLayout> out;
  for (Major m : {Major::Row, Major::Col})
    for (auto [r, c] : {std::pair{16, 16}, {16, 32}, {32, 16}, {32, 32}}) {
      BaseTileLayout b{m, r, c, r * c / kWaveSize};
      out.push_back(b);
      if (b.group > 4) {
        b.group = 4;
        out.push_back(b);
      }
    }
  return out;
}

} // namespace

TEST(SharedLayout, ConflictModelSanity) {
  // 16 lanes reading 16 bytes each down one column of 64-byte rows: rows 0,
  // 4, 8, 12 share banks on 64 banks -> 4-way, 3 extra cycles per phase.
  std::vector<int64_t> addrs;
  for (int64_t l = 0; l < 64; ++l)
    addrs.push_back((l % 16) * 64 + (l / 16) * 16);
  EXPECT_EQ(conflicts(addrs, 16, 64), 4 * 3);
  // Consecutive 16-byte pieces: none.
  for (int64_t l = 0; l < 64; ++l)
    addrs[l] = l * 16;
  EXPECT_EQ(conflicts(addrs, 16, 64), 0);
  EXPECT_EQ(conflicts(addrs, 16, 32), 0);
}

TEST(SharedLayout, SwizzleNeverAddsBankConflicts) {
  std::printf("%-14s %-14s %5s | %-17s | %-17s\n", "subtile", "register",
              "insts", "gfx950 unswz/swz", "gfx942 unswz/swz");
  for (int64_t eb : {1, 2, 4})
    for (const SharedLayout &swz : allSubtiles(eb)) {
      SharedLayout plain = swz;
      plain.swizzled = false;
      for (BaseTileLayout base : baseTiles()) {
        TileLayout reg{kTile, kTile, base};
        if (!reg.validate().empty())
          continue;
        std::string regName =
            std::string(base.major == Major::Row ? "row " : "col ") +
            std::to_string(base.rows) + "x" + std::to_string(base.cols) + "/" +
            std::to_string(base.group);
        SCOPED_TRACE(name(swz) + " with " + regName);
        int64_t n, figures[4];
        int i = 0;
        for (int64_t banks : {64, 32}) {
          figures[i++] = accessConflicts(reg, plain, banks, &n);
          figures[i++] = accessConflicts(reg, swz, banks, &n);
          EXPECT_LE(figures[i - 1], figures[i - 2]) << banks << " banks";
          // The row placement, also under ds_read_b128's interleaved
          // phases (the chunk XOR is not: on 32 banks, 32x8 f32 read by
          // 16-row base tiles of 16-byte runs conflicts more with it).
          if (swz.rowMask())
            EXPECT_LE(accessConflicts(reg, swz, banks, &n, readB128Phase),
                      accessConflicts(reg, plain, banks, &n, readB128Phase))
                << banks << " banks, interleaved reads";
        }
        if (base.major == Major::Row)
          std::printf("%-14s %-14s %5lld | %7lld %9lld | %7lld %9lld\n",
                      name(swz).c_str(), regName.c_str(),
                      static_cast<long long>(n),
                      static_cast<long long>(figures[0]),
                      static_cast<long long>(figures[1]),
                      static_cast<long long>(figures[2]),
                      static_cast<long long>(figures[3]));
      }
    }
}

// A 32-row base tile of 16 bytes per lane (fp8 32x32, bf16 32x16) over
// subtiles of at least 32 one-chunk rows: with the rows in place, reads
// (interleaved phases) put rows r and r + 16 on the same banks on 64 banks;
// placed, no read or write (8 consecutive lanes per phase) conflicts on
// either bank count.
TEST(SharedLayout, RowPlacementServesThirtyTwoRowBaseTiles) {
  struct Case {
    int64_t elemBytes, subRows, subCols;
    BaseTileLayout base;
  };
  const Case cases[] = {{1, 32, 16, {Major::Row, 32, 32, 16}},
                        {1, 64, 16, {Major::Row, 32, 32, 16}},
                        {2, 32, 8, {Major::Row, 32, 16, 8}},
                        {2, 64, 8, {Major::Row, 32, 16, 8}}};
  for (const Case &k : cases) {
    SharedLayout placed{128, 128, k.subRows, k.subCols, k.elemBytes};
    SharedLayout plain = placed;
    plain.swizzled = false;
    SCOPED_TRACE(name(placed));
    ASSERT_EQ(placed.rowMask(), 12);
    TileLayout reg{128, 128, k.base};
    ASSERT_TRUE(reg.validate().empty());
    int64_t n;
    EXPECT_GT(accessConflicts(reg, plain, 64, &n, readB128Phase), 0);
    for (int64_t banks : {64, 32})
      EXPECT_EQ(accessConflicts(reg, placed, banks, &n, readB128Phase), 0)
          << banks << " banks, reads";
    EXPECT_EQ(n, reg.regsPerLane() * k.elemBytes / 16);
    // Writes: ds_write_b128 serves 128 bytes (8 lanes) per clock on both
    // chips; distinct banks among 32 are distinct among 64.
    EXPECT_EQ(accessConflicts(reg, placed, 32, &n), 0) << "writes";
  }
}
