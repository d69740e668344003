//===- KernelInfoExtraction.h - kernel metadata from an hk.kernel ---------===//
//
// The compiler side of the metadata: reads an hk.kernel's signature, waves,
// LDS use and #hk.grid into the runtime's KernelInfo. Lives in its own
// library (HKKernelInfo) so that hkrt itself stays free of MLIR.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_KERNELINFO_KERNELINFOEXTRACTION_H
#define HK_TARGET_KERNELINFO_KERNELINFOEXTRACTION_H

#include "hk/Support/MLIR.h"

#include "hk/Base/KernelInfo.h"

#include "mlir/Support/LLVM.h"

namespace mlir::gpu {
class GPUFuncOp;
} // namespace mlir::gpu

namespace hk {
class KernelOp;

/// Argument names come from the `hk.name` argument attribute, else from a
/// NameLoc on the block argument, else "argN". Emits an error on the op and
/// fails for a type the runtime cannot pass (e.g. a memref of vectors) or a
/// grid the runtime cannot evaluate.
FailureOr<hk::rt::KernelInfo> extractKernelInfo(KernelOp kernel);

/// The same for a lane-level kernel: a gpu.func with the hk.grid, hk.waves
/// and hk.lds_bytes attributes convert-hk-to-amdgpu sets; its arguments are
/// named by position.
FailureOr<hk::rt::KernelInfo> extractKernelInfo(gpu::GPUFuncOp kernel);

} // namespace hk

#endif // HK_TARGET_KERNELINFO_KERNELINFOEXTRACTION_H
