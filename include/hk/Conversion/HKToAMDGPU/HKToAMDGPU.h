//===- HKToAMDGPU.h - hk tiles to lane-level gpu/amdgpu IR ----------------===//
//
// The pieces of the convert-hk-to-amdgpu pass: the type converter that turns
// register tiles and vectors into per-lane vectors, and the pattern sets, one
// per family of ops, each in its own file of lib/Conversion/HKToAMDGPU.
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
#define HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H

#include "hk/Support/MLIR.h"

#include "hk/Base/Chip.h"
#include "hk/Dialect/HK/SharedLayout.h"

#include "mlir/IR/Value.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>
#include <string>

namespace hk {

/// A global memref seen as a buffer: its flat fat-buffer view, its sizes and
/// strides (in elements), and its extent: the first offset past its data plus
/// the elements that complete the last dword (see getBuffer).
struct GlobalBuffer {
  Value buffer;
  SmallVector<Value> sizes, strides;
  Value extent;
  /// The memref's base buffer and element offset (its strided metadata),
  /// for buffers over part of it.
  Value baseBuffer, offset;
};

/// The limit that position `pos[dim]` is compared against so that the one
/// compare also checks the dimensions before it: the size of `dim` when
/// every `pos[d]`, d < `dim`, is in range, else 0, where nothing is. The
/// limits chain: dimension d + 1's is its size when `pos[d]` is below
/// dimension d's limit, else 0. The leading positions of an access are its
/// tile indices (wave-uniform), so this is one scalar compare and select
/// per leading dimension, and the part of the chain over loop-invariant
/// positions (a batch taken from the block id) is one loop-invariant value.
/// With `leadOk`, also sets it to whether every `pos[d]`, d < `dim`, is in
/// range (the last compare of the chain), or null when `dim` is 0.
Value foldLeadingChecks(OpBuilder &b, Location loc, const GlobalBuffer &buf,
                        ArrayRef<Value> pos, int64_t dim,
                        Value *leadOk = nullptr);

/// What the patterns lower, declared by each family's populate function next
/// to its patterns: the ops it lowers and, for those it lowers only in some
/// cases, a check that says why it cannot lower a given one. The pass asks
/// it before rewriting anything, so that every op it cannot lower is named.
class LoweringSupport {
public:
  /// Why `op` cannot be lowered on `chip`, or "" if it can.
  using Check =
      std::function<std::string(Operation *op, const hk::ChipInfo &chip)>;

  /// The hk ops `OpTys` are lowered, subject to `check` if given.
  template <typename... OpTys> void add(Check check = nullptr) {
    (checks[TypeID::get<OpTys>()].push_back(check), ...);
  }
  /// For ops of other dialects: nullopt if the family does not handle `op`,
  /// else why it cannot ("" if it can).
  using ForeignCheck = std::function<std::optional<std::string>(Operation *)>;
  /// Ops of other dialects a family handles: on register tiles, or ones the
  /// lowering would turn into something the chip cannot run.
  void addForeign(ForeignCheck check) { foreign.push_back(std::move(check)); }

  /// "" if `op` can be lowered on `chip`, else why not. An hk op no family
  /// declared, or an op of another dialect on register tiles that none
  /// handles, cannot.
  std::string reason(Operation *op, const hk::ChipInfo &chip) const;

private:
  llvm::DenseMap<TypeID, SmallVector<Check>> checks;
  SmallVector<ForeignCheck> foreign;
};

/// State shared by the patterns of one run of the pass.
struct LoweringState {
  const hk::ChipInfo &chip;
  LoweringSupport support;
  /// Buffers made at kernel entry, keyed by the memref they view.
  llvm::DenseMap<Value, GlobalBuffer> buffers;

  explicit LoweringState(const hk::ChipInfo &chip) : chip(chip) {}

  /// The buffer of `memref`, made at the entry of its gpu.func (or right
  /// after its definition) the first time it is asked for.
  const GlobalBuffer &getBuffer(OpBuilder &builder, Value memref);
};

/// Register tiles and vectors -> vector<regsPerLane x T>; other types are kept.
void populateHKToAMDGPUTypeConversions(TypeConverter &converter);

/// hk.kernel, hk.return, ids.
void populateKernelToGPUPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);
/// hk.load / hk.store between registers and global memory.
void populateGlobalAccessPatterns(TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringState &state);
/// hk.mma.
void populateMmaToMFMAPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringState &state);
/// arith/math on tiles, splat constants.
void populateElementwisePatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);
/// arith.extf / arith.truncf between 8-bit float tiles and f32, bf16 or
/// f16 ones, through the chip's packed conversions.
void populateFp8ConversionPatterns(TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state);
/// Barriers, priorities and scheduler hints.
void populateSyncToROCDLPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);
/// hk.row_reduce, hk.col_reduce.
void populateReductionPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringState &state);
/// hk.row_broadcast, hk.col_broadcast.
void populateBroadcastPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringState &state);
/// hk.tril, hk.triu, hk.bounds_mask.
void populateMaskPatterns(TypeConverter &converter, RewritePatternSet &patterns,
                          LoweringState &state);
/// hk.transpose, hk.swap_layout.
void populateLayoutChangePatterns(TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringState &state);
/// hk.atomic_add into global memory.
void populateAtomicAddPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringState &state);
/// math.exp2, math.log2, math.rsqrt as device instructions (never ocml
/// calls); makes them illegal in `target`.
void populateMathToROCDLPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 ConversionTarget &target,
                                 LoweringState &state);

/// hk.iota, hk.row_arg, hk.col_arg (Positions.cpp).
void populatePositionPatterns(TypeConverter &converter,
                              RewritePatternSet &patterns,
                              LoweringState &state);
/// hk.row_scan, hk.col_scan (Scans.cpp).
void populateScanPatterns(TypeConverter &converter, RewritePatternSet &patterns,
                          LoweringState &state);
/// math.sin, math.cos from FMAs (Trig.cpp); makes them illegal in `target`.
void populateTrigPatterns(TypeConverter &converter, RewritePatternSet &patterns,
                          ConversionTarget &target, LoweringState &state);

/// !hk.st -> LDS memref (see SharedMemory.cpp), !hk.token -> i32.
void populateSharedMemoryTypeConversions(TypeConverter &converter);
/// hk.alloc_shared, hk.subtile, hk.load / hk.store between registers and
/// shared tiles.
void populateSharedMemoryPatterns(TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringState &state);
/// hk.load_async, hk.wait, hk.store of a shared tile to global memory.
void populateAsyncCopyPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringState &state);
/// SharedLayout::swizzle of `row` (a row inside a subtile), in elements.
Value emitSwizzleElems(OpBuilder &b, Location loc,
                       const hk::SharedLayout &layout, Value row);
/// SharedLayout::placedRow of `row` (a row inside a subtile).
Value emitPlacedRow(OpBuilder &b, Location loc, const hk::SharedLayout &layout,
                    Value row);
/// SharedLayout::rowAt of `pos` (a row position inside a subtile).
Value emitRowAt(OpBuilder &b, Location loc, const hk::SharedLayout &layout,
                Value pos);
/// The indices, into the lowered shared tile, of its element (row, col).
SmallVector<Value> emitSharedIndices(OpBuilder &b, Location loc,
                                     const hk::SharedLayout &layout, Value row,
                                     Value col);

} // namespace hk

#endif // HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
