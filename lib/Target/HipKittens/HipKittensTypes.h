//===- HipKittensTypes.h - spelling hk types as HipKittens C++ --*- C++ -*-===//
//
// The one place that knows how an hk type is written in HipKittens: element
// types, register tiles (`rt_bf<R, C, row_l, rt_16x32_s>`), register vectors
// (a tile's `col_vec`/`row_vec`), shared tiles and global views.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_TARGET_HIPKITTENS_HIPKITTENSTYPES_H
#define HK_LIB_TARGET_HIPKITTENS_HIPKITTENSTYPES_H

#include "hk/Support/MLIR.h"

#include "hk/Target/HipKittens/HipKittensEmitter.h"

#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace hk {

/// What the HipKittens tree of a chip family provides, as read from the
/// headers of its two trees: `main` (CDNA4, gfx950) and `cdna3` (gfx942).
struct HipKittensApi {
  /// Register and shared tiles take a base-shape template argument
  /// (`rt<T, R, C, L, rt_16x32_s>`, `st<T, R, C, st_16x32_s>`), several MFMA
  /// shapes exist and mma calls accept only some base-shape combinations
  /// (`main`). Without it every base tile is 16x16 (`cdna3`).
  bool baseShapes;
  /// `transpose(dst, src)` on register tiles (`main` only).
  bool tileTranspose;
  /// `fp8e4m3` tiles (`main` only).
  bool fp8;
};

/// The HipKittens tree that builds for `chip`.
HipKittensApi hipKittensApi(const ChipInfo &chip);

/// Each function returns the C++ spelling of `type`, or emits an error at
/// `user` (the op that needs the type) and fails.
FailureOr<std::string> spellElementType(Type type, Operation *user,
                                        const ChipInfo &chip);
FailureOr<std::string> spellScalarType(Type type, Operation *user);
FailureOr<std::string> spellRegisterType(RankedTensorType type, Operation *user,
                                         const ChipInfo &chip);
FailureOr<std::string> spellSharedTile(Type type, Operation *user,
                                       const ChipInfo &chip);
/// HipKittens views global memory as 4-D `gl<T, -1, -1, -1, -1>`; a memref of
/// rank r < 4 fills the last r dimensions. A permuted view (see
/// isPermutedView) is the `gl` of the dense array under it.
FailureOr<std::string> spellGlobal(MemRefType type, Operation *user,
                                   const ChipInfo &chip);

/// True for a rank-4 `[B, H, N, D]` memref with a `strided<[s0, s1, s2, 1]>`
/// layout and offset 0 whose static strides and sizes agree with a dense
/// `[B, N, H, D]` array under it: `s0 = N*H*D`, `s1 = D`, `s2 = H*D`
/// (dynamic ones are checked by the launcher). HipKittens reads it from a
/// dense `gl` in `[B, N, H, D]` order with the tile's rows along axis 1:
/// `load<1>(rt, gl, {b, n, h, d})`.
bool isPermutedView(MemRefType type);

/// The `gl` dimension (0 batch, 1 depth, 2 rows, 3 cols) that holds
/// dimension `dim` of `type`.
int64_t glDim(MemRefType type, int64_t dim);

} // namespace hk

#endif // HK_LIB_TARGET_HIPKITTENS_HIPKITTENSTYPES_H
