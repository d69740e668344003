//===- HKToAMDGPU.h - hk tiles to lane-level gpu/amdgpu IR ----------------===//
//
// The pieces of the convert-hk-to-amdgpu pass: the type converter that turns
// register tiles and vectors into per-lane vectors, and the pattern sets, one
// per family of ops, each in its own file of lib/Conversion/HKToAMDGPU.
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
#define HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H

#include "hk/Dialect/HK/SharedLayout.h"
#include "hk/Target/Chip.h"

#include "mlir/IR/Value.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::hk {

/// A global memref seen as a buffer: its flat fat-buffer view, its sizes and
/// strides (in elements), and its extent: the first offset past its data plus
/// the elements that complete the last dword (see getBuffer).
struct GlobalBuffer {
  Value buffer;
  SmallVector<Value> sizes, strides;
  Value extent;
};

/// State shared by the patterns of one run of the pass.
struct LoweringState {
  const ::hk::ChipInfo &chip;
  /// Buffers made at kernel entry, keyed by the memref they view.
  llvm::DenseMap<Value, GlobalBuffer> buffers;

  explicit LoweringState(const ::hk::ChipInfo &chip) : chip(chip) {}

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
                                 RewritePatternSet &patterns);
/// Barriers, priorities and scheduler hints.
void populateSyncToROCDLPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns);
/// hk.row_reduce, hk.col_reduce.
void populateReductionPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringState &state);
/// hk.row_broadcast, hk.col_broadcast.
void populateBroadcastPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns);
/// hk.tril, hk.triu, hk.bounds_mask.
void populateMaskPatterns(TypeConverter &converter,
                          RewritePatternSet &patterns);
/// hk.transpose, hk.swap_layout.
void populateLayoutChangePatterns(TypeConverter &converter,
                                  RewritePatternSet &patterns);
/// hk.atomic_add into global memory.
void populateAtomicAddPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringState &state);
/// math.exp2, math.log2, math.rsqrt as device instructions (never ocml
/// calls); makes them illegal in `target`.
void populateMathToROCDLPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 ConversionTarget &target);

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
/// SharedLayout.h's layout of a shared tile type.
::hk::SharedLayout sharedLayoutOf(Type sharedTile);
/// SharedLayout::swizzle of `row` (a row inside a subtile), in elements.
Value emitSwizzleElems(OpBuilder &b, Location loc,
                       const ::hk::SharedLayout &layout, Value row);
/// The indices, into the lowered shared tile, of its element (row, col).
SmallVector<Value> emitSharedIndices(OpBuilder &b, Location loc,
                                     const ::hk::SharedLayout &layout,
                                     Value row, Value col);

/// Why `op` (an hk op or an op on register tiles) cannot be lowered for
/// `chip` yet, or an empty string if it can.
std::string unsupportedReason(Operation *op, const ::hk::ChipInfo &chip);
/// The part of unsupportedReason that concerns shared tiles and copies.
std::string unsupportedSharedMemoryReason(Operation *op,
                                          const ::hk::ChipInfo &chip);
/// The part of unsupportedReason that concerns hk.mma.
std::string unsupportedMmaReason(Operation *op, const ::hk::ChipInfo &chip);
/// The part of unsupportedReason that concerns hk.swap_layout.
std::string unsupportedSwapLayoutReason(Operation *op);
/// The part of unsupportedReason that concerns math ops: those that would
/// become ROCm device library calls.
std::string unsupportedMathReason(Operation *op);

} // namespace mlir::hk

#endif // HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
