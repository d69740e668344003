//===- Artifact.h - hkc --emit=artifact -----------------------------------===//
//
// One file for the runtime (include/hk/Runtime/Artifact.h): every kernel's
// metadata, the code object of each chip, and for each chip the host shared
// object of that chip's lane-level IR for the emulator, keyed
// "emulator-<chip>" (see docs/emulator.md).
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKC_ARTIFACT_H
#define HK_TOOLS_HKC_ARTIFACT_H

#include "hk/Runtime/KernelInfo.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace hk::hkc {

/// The metadata of the kernels of `module`: from each hk.kernel of tile IR,
/// or from each kernel gpu.func of lane-level IR (its hk.waves, hk.grid and
/// hk.lds_bytes attributes and its signature; arguments named argN).
mlir::FailureOr<std::vector<rt::KernelInfo>>
collectKernelInfo(mlir::ModuleOp module);

/// Checks the LDS the emulator form of each kernel uses (the
/// hk.emulator_lds_bytes of its lane function, after
/// convert-lane-to-emulator) against its metadata: the runtime gives a
/// launch that much LDS.
mlir::LogicalResult
checkEmulatorLds(mlir::ModuleOp emulatorModule,
                 const std::vector<rt::KernelInfo> &kernels);

} // namespace hk::hkc

#endif // HK_TOOLS_HKC_ARTIFACT_H
