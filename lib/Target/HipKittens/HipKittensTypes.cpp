//===- HipKittensTypes.cpp - spelling hk types as HipKittens C++ ----------===//

#include "HipKittensTypes.h"

#include "hk/Dialect/HK/MfmaTypes.h"

#include "hk/Dialect/HK/HKDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace hk;

HipKittensApi hk::hipKittensApi(const ChipInfo &chip) {
  bool main = chip.hipKittens == HipKittensTree::Main;
  return {/*baseShapes=*/main, /*tileTranspose=*/main, /*fp8=*/main};
}

FailureOr<std::string> hk::spellElementType(Type type, Operation *user,
                                            const ChipInfo &chip) {
  if (type.isBF16())
    return std::string("bf16");
  if (type.isF16())
    return std::string("half");
  if (type.isF32())
    return std::string("float");
  // The translation writes one HipKittens tree's API from the tile IR as
  // written; it does not run hk-resolve-fp8, so the chip's own formats are
  // refused rather than guessed.
  if (isChipFloat8(type)) {
    user->emitError("HipKittens (")
        << chip.family << ") translation takes 8-bit floats as builtin types; "
        << type << " is resolved only by hk-resolve-fp8";
    return failure();
  }
  // HipKittens' `fp8e4m3` is the E4M3 format each chip's MFMAs take (OCP
  // on CDNA4, FNUZ on CDNA3).
  if (mfmaInputOf(type, chip) == MfmaInput::FP8) {
    if (hipKittensApi(chip).fp8)
      return std::string("fp8e4m3");
    user->emitError("HipKittens (")
        << chip.family << ") has no fp8 tiles (fp8e4m3 is in its main tree "
        << "only), needed for " << type;
    return failure();
  }
  user->emitError("HipKittens (")
      << chip.family << ") has no tile element type for " << type;
  return failure();
}

FailureOr<std::string> hk::spellScalarType(Type type, Operation *user) {
  if (type.isIndex() || type.isInteger(32))
    return std::string("int");
  if (type.isInteger(64))
    return std::string("int64_t");
  if (type.isInteger(1))
    return std::string("bool");
  if (type.isF32())
    return std::string("float");
  user->emitError("no C++ scalar type for ") << type;
  return failure();
}

/// HipKittens' register base-tile shapes: rows, cols and the run of
/// consecutive elements a lane holds (`stride`, the hk layout's `group`).
static const char *rtShapeName(RegTileLayoutAttr attr) {
  struct Shape {
    int64_t rows, cols, group;
    const char *name;
  };
  static const Shape shapes[] = {
      {16, 16, 4, "rt_16x16_s"},   {32, 32, 4, "rt_32x32_s"},
      {32, 32, 8, "rt_32x32_8_s"}, {16, 32, 8, "rt_16x32_s"},
      {32, 16, 8, "rt_32x16_s"},   {32, 16, 4, "rt_32x16_4_s"},
      {16, 32, 4, "rt_16x32_4_s"}, {16, 128, 16, "rt_16x128_s"}};
  for (const Shape &s : shapes)
    if (s.rows == attr.getBaseRows() && s.cols == attr.getBaseCols() &&
        s.group == attr.getGroup())
      return s.name;
  return nullptr;
}

static std::string tileAlias(StringRef prefix, StringRef elem) {
  if (elem == "bf16")
    return (prefix + "_bf").str();
  if (elem == "half")
    return (prefix + "_hf").str();
  if (elem == "float")
    return (prefix + "_fl").str();
  return (prefix + "_fp8e4m3").str();
}

/// `rt_bf<R, C, row_l, rt_16x32_s>` for a tile of `rows x cols` elements.
static FailureOr<std::string> spellTile(Type elemType, int64_t rows,
                                        int64_t cols, RegTileLayoutAttr layout,
                                        Operation *user, const ChipInfo &chip) {
  FailureOr<std::string> elem = spellElementType(elemType, user, chip);
  if (failed(elem))
    return failure();
  const char *layoutName = layout.isRow() ? "row_l" : "col_l";
  if (!hipKittensApi(chip).baseShapes) {
    // HipKittens' cdna3 tree builds every register tile from 16x16 base
    // tiles (rt_base.cuh, TILE_ROW_DIM/TILE_COL_DIM); hk's base shape only
    // distributes the same matrix over the lanes differently, and every
    // tile of the kernel takes HipKittens' one distribution, so the values
    // the calls compute are the same. hk's base shapes are all made of
    // 16x16 blocks, so every hk tile is made of cdna3's.
    assert(rows % 16 == 0 && cols % 16 == 0 && "hk tiles are 16x16 blocks");
    return llvm::formatv("{0}<{1}, {2}, {3}>", tileAlias("rt", *elem), rows,
                         cols, layoutName)
        .str();
  }
  const char *shape = rtShapeName(layout);
  if (!shape) {
    user->emitError("HipKittens has no register base tile ")
        << layout.getBaseRows() << "x" << layout.getBaseCols()
        << " with runs of " << layout.getGroup() << " elements per lane";
    return failure();
  }
  return llvm::formatv("{0}<{1}, {2}, {3}, {4}>", tileAlias("rt", *elem), rows,
                       cols, layoutName, shape)
      .str();
}

FailureOr<std::string> hk::spellRegisterType(RankedTensorType type,
                                             Operation *user,
                                             const ChipInfo &chip) {
  if (auto tile = dyn_cast_or_null<RegTileLayoutAttr>(type.getEncoding()))
    return spellTile(type.getElementType(), type.getDimSize(0),
                     type.getDimSize(1), tile, user, chip);
  auto vec = dyn_cast_or_null<RegVecLayoutAttr>(type.getEncoding());
  if (!vec) {
    user->emitError("expected a register tile or vector, got ") << type;
    return failure();
  }
  // A vector with one value per row of a tile is HipKittens' `col_vec` of
  // that tile (it runs down a column); its type depends only on the rows, so
  // any column count works: one base tile keeps the spelling short.
  RegTileLayoutAttr tile = vec.getTile();
  bool perRow = vec.getAxis() == Layout::Row;
  int64_t len = type.getDimSize(0);
  FailureOr<std::string> tileType =
      perRow ? spellTile(type.getElementType(), len, tile.getBaseCols(), tile,
                         user, chip)
             : spellTile(type.getElementType(), tile.getBaseRows(), len, tile,
                         user, chip);
  if (failed(tileType))
    return failure();
  return *tileType + (perRow ? "::col_vec" : "::row_vec");
}

FailureOr<std::string> hk::spellSharedTile(Type type, Operation *user,
                                           const ChipInfo &chip) {
  auto st = cast<SharedTileType>(type);
  FailureOr<std::string> elem =
      spellElementType(st.getElementType(), user, chip);
  if (failed(elem))
    return failure();
  if (!hipKittensApi(chip).baseShapes) {
    // cdna3's shared tiles have no subtile-shape argument: 16x16 subtiles.
    if (st.getRows() % 16 != 0 || st.getCols() % 16 != 0) {
      user->emitError("HipKittens (cdna3) builds shared tiles from 16x16 "
                      "subtiles; a ")
          << st.getRows() << "x" << st.getCols() << " tile is not made of them";
      return failure();
    }
    return llvm::formatv("{0}<{1}, {2}>", tileAlias("st", *elem), st.getRows(),
                         st.getCols())
        .str();
  }
  static const int64_t shapes[][2] = {{16, 16}, {32, 32}, {16, 32},
                                      {32, 16}, {8, 32},  {16, 128}};
  ArrayRef<int64_t> sub = st.getSubtileShape();
  if (!llvm::any_of(shapes, [&](const int64_t (&s)[2]) {
        return s[0] == sub[0] && s[1] == sub[1];
      })) {
    user->emitError("HipKittens has no shared subtile shape ")
        << sub[0] << "x" << sub[1];
    return failure();
  }
  return llvm::formatv("{0}<{1}, {2}, st_{3}x{4}_s>", tileAlias("st", *elem),
                       st.getRows(), st.getCols(), sub[0], sub[1])
      .str();
}

FailureOr<std::string> hk::spellGlobal(MemRefType type, Operation *user,
                                       const ChipInfo &chip) {
  if (type.getRank() > 4) {
    user->emitError("HipKittens global views have at most 4 dimensions, got ")
        << type;
    return failure();
  }
  if (!type.getLayout().isIdentity() && !isPermutedView(type)) {
    user->emitError("HipKittens global views are contiguous row-major, or a "
                    "[B, H, N, D] view of a dense [B, N, H, D] array "
                    "(strides [N*H*D, D, H*D, 1], offset 0), got ")
        << type;
    return failure();
  }
  FailureOr<std::string> elem =
      spellElementType(type.getElementType(), user, chip);
  if (failed(elem))
    return failure();
  return llvm::formatv("gl<{0}, -1, -1, -1, -1>", *elem).str();
}

bool hk::isPermutedView(MemRefType type) {
  auto layout = dyn_cast<StridedLayoutAttr>(type.getLayout());
  if (!layout || type.getRank() != 4 || layout.getOffset() != 0)
    return false;
  ArrayRef<int64_t> strides = layout.getStrides();
  ArrayRef<int64_t> sizes = type.getShape();
  // Static parts must agree with the dense [B, N, H, D] array; a dynamic
  // stride or size leaves its equation to the launcher.
  auto product = [](std::initializer_list<int64_t> factors) {
    int64_t result = 1;
    for (int64_t f : factors) {
      if (ShapedType::isDynamic(f))
        return ShapedType::kDynamic;
      result *= f;
    }
    return result;
  };
  auto agrees = [](int64_t stride, int64_t expected) {
    return ShapedType::isDynamic(stride) || ShapedType::isDynamic(expected) ||
           stride == expected;
  };
  int64_t h = sizes[1], n = sizes[2], d = sizes[3];
  return strides[3] == 1 && agrees(strides[1], d) &&
         agrees(strides[2], product({h, d})) &&
         agrees(strides[0], product({n, h, d}));
}

int64_t hk::glDim(MemRefType type, int64_t dim) {
  static const int64_t permuted[] = {0, 2, 1, 3};
  if (isPermutedView(type))
    return permuted[dim];
  return 4 - type.getRank() + dim;
}
