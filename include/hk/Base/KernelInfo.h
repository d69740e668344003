//===- KernelInfo.h - kernel metadata: what a launch needs to know --------===//
//
// Everything needed to check a launch's arguments and compute its grid
// without host code: the arguments (name, memref or scalar, element type,
// rank), the workgroup shape, the LDS use and the grid as expressions over
// symbols bound to argument sizes or scalar values (the runtime form of
// #hk.grid). Serialised as JSON (llvm::json); see docs/runtime.md for the
// schema. The compiler writes it, the runtime and hkrt.h's readers read it.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_KERNELINFO_H
#define HK_BASE_KERNELINFO_H

#include "hk/Base/CTypes.h"
#include "hk/Base/GridExpr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hk::rt {

/// Element types, named as in MLIR ("bf16", "f8E4M3FNUZ", "index", ...).
const char *dtypeName(hkrt_dtype t);
std::optional<hkrt_dtype> parseDType(const std::string &name);
/// Bytes of one element (index: 8).
int64_t dtypeBytes(hkrt_dtype t);

/// What the lowering may add to the offset it gives an out-of-range
/// position (the memref's reach) besides a column origin, at most the last
/// dimension's span: an atomic add's immediate offset (12 bits).
constexpr uint64_t kOutOfRangeSlackBytes = 4096;

/// Whether a memref of rank 2 or more reaching `reachBytes`, whose last
/// dimension spans `lastSpanBytes`, keeps those offsets within
/// HKRT_MAX_MEMREF_BYTES: past 2^32 they would wrap back into the buffer
/// (docs/lowering.md, Limits). hkrt checks it at launch, hk-run first.
inline bool outOfRangeOffsetsFit(uint64_t reachBytes, uint64_t lastSpanBytes) {
  return reachBytes <= HKRT_MAX_MEMREF_BYTES &&
         lastSpanBytes <= HKRT_MAX_MEMREF_BYTES - reachBytes &&
         kOutOfRangeSlackBytes <=
             HKRT_MAX_MEMREF_BYTES - reachBytes - lastSpanBytes;
}

/// A contiguous tensor's bytes and its last dimension's span in bytes, or
/// `overflow` when its size passes 64 bits.
struct ContiguousBytes {
  uint64_t bytes = 0, lastSpanBytes = 0;
  bool overflow = false;
  /// Rank 2 or more and not empty: out-of-range positions get offsets past
  /// it (outOfRangeOffsetsFit).
  bool hasOutOfRangeOffsets = false;

  /// Whether a kernel can address it, as hkrt checks at launch.
  bool fits() const {
    return !overflow && bytes <= HKRT_MAX_MEMREF_BYTES &&
           (!hasOutOfRangeOffsets ||
            outOfRangeOffsetsFit(bytes, lastSpanBytes));
  }
};

/// The ContiguousBytes of a tensor of `sizes` elements of `elementBytes`.
inline ContiguousBytes contiguousBytes(const std::vector<int64_t> &sizes,
                                       int64_t elementBytes) {
  ContiguousBytes c;
  c.bytes = uint64_t(elementBytes);
  for (int64_t s : sizes)
    c.overflow |= __builtin_mul_overflow(c.bytes, uint64_t(s), &c.bytes);
  c.hasOutOfRangeOffsets = !c.overflow && c.bytes > 0 && sizes.size() >= 2;
  if (c.hasOutOfRangeOffsets)
    c.lastSpanBytes = uint64_t(sizes.back() - 1) * uint64_t(elementBytes);
  return c;
}

/// A size or stride that a memref type leaves open ('?').
inline constexpr int64_t kDynamic = -1;

/// How a kernel addresses a memref argument, from the layout of its type.
enum class MemrefLayout {
  /// Not recorded (metadata written before layouts were): strides are only
  /// checked against the buffer.
  Unknown,
  /// The identity layout: the kernel assumes contiguous row-major strides
  /// (the ones hkrt_arg_memref computes from the sizes).
  RowMajor,
  /// strided<[...]>: `strides` holds the type's strides, kDynamic where the
  /// kernel reads the stride passed at launch.
  Strided,
};

struct ArgInfo {
  std::string name;
  hkrt_arg_kind kind = HKRT_ARG_MEMREF;
  hkrt_dtype dtype = HKRT_DTYPE_F32;
  int64_t rank = 0; ///< 0 for scalars
  /// Memrefs: the type's sizes, kDynamic for '?'. Empty when not recorded
  /// (older metadata): no size is checked then.
  std::vector<int64_t> shape = {};
  MemrefLayout layout = MemrefLayout::Unknown;
  std::vector<int64_t> strides = {}; ///< MemrefLayout::Strided only
};

/// The argument's type as MLIR spells it where the metadata knows it:
/// "f32", "memref<?x128xbf16>", "memref<?x?xf32, strided<[?, 1]>>" (sizes
/// not recorded print as '?').
std::string argTypeText(const ArgInfo &arg);

struct KernelInfo {
  std::string name;
  std::vector<ArgInfo> args;
  int64_t waves = 1;
  int64_t workgroupSize = 64; ///< lanes: waves * 64
  /// LDS of the kernel, at least what every chip's code uses.
  int64_t ldsBytes = 0;
  /// Per chip, where its lowering uses a different amount (hk-stage-swaps
  /// stages layout swaps through LDS only where the chip has room).
  std::map<std::string, int64_t> ldsBytesByChip;
  std::vector<GridSymbol> gridSymbols;
  std::vector<GridExpr> grid; ///< 1 to 3 results: x, y, z

  /// The LDS the kernel uses on `chip`.
  int64_t ldsBytesFor(const std::string &chip) const {
    auto it = ldsBytesByChip.find(chip);
    return it == ldsBytesByChip.end() ? ldsBytes : it->second;
  }

  /// Throws hk::rt::Error if the fields contradict each other (a grid symbol
  /// naming a missing argument or dimension, waves * 64 != workgroupSize...).
  void validate() const;
};

/// {"version": 1, "kernels": [...]}; see docs/runtime.md. Memref arguments
/// carry "shape" and "layout" (and "strides") when recorded; the reader
/// accepts their absence (metadata written before them).
std::string kernelInfoToJson(const std::vector<KernelInfo> &kernels);
/// Parses and validates; throws hk::rt::Error naming the field at fault.
std::vector<KernelInfo> kernelInfoFromJson(const std::string &text);

} // namespace hk::rt

#endif // HK_BASE_KERNELINFO_H
