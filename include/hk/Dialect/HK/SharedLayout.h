//===- SharedLayout.h - where each element of a shared tile lives in LDS --===//
//
// The one definition of the byte layout of `!hk.st<RxCxT, SRxSC>` in LDS.
// The lowering and the tests all ask this header.
//
// The tile is a row-major grid of SR x SC subtiles; subtile (i, j) starts at
// byte (i * (C / SC) + j) * SR*SC*sizeof(T) and is stored contiguously. Inside
// a subtile, row r of RB = SC*sizeof(T) bytes starts at r * RB, and the byte
// at column byte b of that row sits at b ^ swizzle(r), where
//
//   swizzle(r) = 16 * (((r >> lo) ^ (r >> (lo + 1))) & (RB / 16 - 1)),
//   lo = max(0, 7 - log2(RB)),
//
// and swizzle(r) = 0 when RB <= 16 (a row is one chunk). The XOR moves whole
// aligned 16-byte chunks within their row, so it is a bijection inside each
// row (hence each subtile), it is its own inverse, and every aligned access
// of up to 16 bytes stays contiguous.
//
// A row of one chunk (RB = 16) has nothing to move, so a subtile of at least
// 32 such rows moves whole rows instead: row r is stored as row
//
//   placedRow(r) = r ^ ((r >> 1) & 12)
//
// (row bits 2, 3 become r2^r3, r3^r4), a bijection of the subtile's rows;
// smaller subtiles and wider rows keep placedRow(r) = r.
//
// Why this XOR: the lowering reads and writes a lane's row runs of up to 16
// bytes (ds_read_b128 / ds_read_b64), lanes walking down consecutive rows at
// the same column. A bank is a 4-byte word modulo 64 banks (gfx950: one
// 256-byte line per phase of ds_read_b128, 16 lanes) or 32 banks (gfx942,
// one 128-byte line per phase). The rows a phase reads share their column;
// the bank line they land on depends on the low row bits that address bits
// below 256 (128) hold, and on the chunk. The row bits just above those,
// lo+1 .. lo+log2(RB/16) for gfx950 and lo .. lo+log2(RB/16)-1 for gfx942,
// are the ones that must pick distinct chunks, and r>>lo ^ r>>(lo+1) is a
// unit-triangular (invertible) function of either window: one swizzle avoids
// the conflicts of the row-run pattern on both chips.
//
// Why the row permutation: a 32-row base tile of 16 bytes per lane (fp8
// 32x32, bf16 32x16) puts rows r and r + 16 in one phase of ds_read_b128.
// On 64 banks (16 rows of 16 bytes per line) a phase is lanes 0-3, 8-11,
// 16-19, 24-27 (or 4-7, ...; the grouping the timing model takes): row bit
// 2 fixed, bits 3 and 4 free, and unpermuted rows r and r + 16 share banks.
// On 32 banks (8 rows per line) the documented phases pair lanes 0-3 with
// 20-23, 4-7 with 16-19 (...): bit 3 fixed, bits 2 and 4 both flipped. A
// ds_write_b128 phase is 8 consecutive lanes, rows 8k .. 8k+7. Placed row
// bits 0-3 (64 banks) or 0-2 (32 banks) must then tell the rows of a phase
// apart, and r ^ ((r >> 1) & 12) does so for all three patterns.
//
// HipKittens' bf16 subtile swizzles (st_shape.cuh) are of the same kind, an
// XOR of higher offset bits into the column bytes: 16x32 XORs offset bit 9
// into bit 5, 32x32 bits 9, 10 into bits 5, 4; 16x16 and 32x16 XOR bits 7, 8
// into bits 3, 4, moving 8-byte halves, which would split the 16-byte runs
// the lowering reads. The formula above keeps 16-byte chunks whole, covers
// every subtile the dialect allows and both bank counts; SharedLayoutTest
// counts the conflicts of the row-run pattern with and without it.
//
// Plain C++ (no MLIR) so that the runtime can use it.
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_SHAREDLAYOUT_H
#define HK_DIALECT_HK_SHAREDLAYOUT_H

#include "hk/Dialect/HK/Layout.h"

#include <cstdint>
#include <vector>

namespace hk {

/// The byte layout of one shared tile type.
struct SharedLayout {
  int64_t rows, cols;       ///< the tile
  int64_t subRows, subCols; ///< its subtile
  int64_t elemBytes;
  bool swizzled = true; ///< false only to measure what the swizzle buys

  /// Swizzle unit: whole aligned chunks of this many bytes move.
  static constexpr int64_t kChunkBytes = 16;

  int64_t rowBytes() const { return subCols * elemBytes; }
  int64_t subtileBytes() const { return subRows * rowBytes(); }
  int64_t subtilesPerRow() const { return cols / subCols; }
  int64_t sizeInBytes() const { return rows * cols * elemBytes; }

  /// The parameters of swizzle(r): ((r >> shift) ^ (r >> (shift + 1))) &
  /// chunkMask, in units of kChunkBytes. A zero mask means no swizzle.
  int64_t swizzleShift() const;
  int64_t chunkMask() const;
  /// Byte XOR applied to the column bytes of row `r` of a subtile.
  int64_t swizzle(int64_t r) const;
  /// The row bits placedRow XORs in, shifted down by one: 12 for a subtile
  /// of at least 32 rows of one chunk, else 0 (rows stay in place).
  int64_t rowMask() const;
  /// Where row `r` of a subtile is stored: r ^ ((r >> 1) & rowMask()).
  int64_t placedRow(int64_t r) const;
  /// The row stored at row position `p` of a subtile (placedRow's inverse).
  int64_t rowAt(int64_t p) const;

  /// Byte offset of element (r, c) inside its subtile (r < subRows, c <
  /// subCols).
  int64_t offsetInSubtile(int64_t r, int64_t c) const;
  /// The element stored at byte `offset` of a subtile (any byte of it).
  Coord elementInSubtile(int64_t offset) const;
  /// Byte offset of element (r, c) of the tile.
  int64_t offsetOf(int64_t r, int64_t c) const;
  /// The element stored at byte `offset` of the tile.
  Coord elementAt(int64_t offset) const;
};

/// `count` consecutive registers from `reg` that one LDS access moves.
struct SharedRun {
  int64_t reg, count;
};

/// How the lowering splits the registers of a tile with layout `reg` into
/// LDS accesses of `shared` (hk.load / hk.store between registers and a
/// shared tile): runs of registers holding consecutive elements of one row,
/// a power of two long, at most 16 bytes, and starting, for every lane, at a
/// column that is a multiple of the run, so that each run is one contiguous
/// aligned access however the swizzle moves chunks.
std::vector<SharedRun> sharedAccessRuns(const TileLayout &reg,
                                        const SharedLayout &shared);

} // namespace hk

#endif // HK_DIALECT_HK_SHAREDLAYOUT_H
