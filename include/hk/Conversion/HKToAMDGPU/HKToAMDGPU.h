//===- HKToAMDGPU.h - hk tiles to lane-level gpu/amdgpu IR ----------------===//
//
// The pieces of the convert-hk-to-amdgpu pass: the type converter that turns
// register tiles and vectors into per-lane vectors, and the pattern sets, one
// per family of ops, each in its own file of lib/Conversion/HKToAMDGPU.
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
#define HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H

#include "hk/Target/Chip.h"

#include "mlir/IR/Value.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::hk {

/// A global memref seen as a buffer: its flat fat-buffer view, its sizes and
/// strides (in elements), and its extent, the first offset past its data.
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

/// Why `op` (an hk op or an op on register tiles) cannot be lowered for
/// `chip` yet, or an empty string if it can.
std::string unsupportedReason(Operation *op, const ::hk::ChipInfo &chip);
/// The part of unsupportedReason that concerns hk.mma.
std::string unsupportedMmaReason(Operation *op, const ::hk::ChipInfo &chip);

} // namespace mlir::hk

#endif // HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
