//===- KernelInfoCollection.h - the KernelInfo of a module's kernels ------===//
//
// Private to lib/Compiler. An artifact (include/hk/Base/Artifact.h) holds
// every kernel's KernelInfo (its metadata, include/hk/Base/KernelInfo.h)
// and the code object of each chip; this collects the KernelInfo of a
// module, by lib/Target/KernelInfo's extraction for tile IR.
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_COMPILER_KERNELINFOCOLLECTION_H
#define HK_LIB_COMPILER_KERNELINFOCOLLECTION_H

#include "hk/Base/KernelInfo.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace hk::compiler {

/// The metadata of the kernels of `module`: from each hk.kernel of tile IR,
/// or from each kernel gpu.func of lane-level IR (its hk.waves, hk.grid and
/// hk.lds_bytes attributes and its signature; arguments named argN).
mlir::FailureOr<std::vector<rt::KernelInfo>>
collectKernelInfo(mlir::ModuleOp module);

/// Records in `kernels` the LDS each kernel's gpu.func uses in `laneLevel`,
/// `chip`'s lowering (its hk.lds_bytes): `ldsBytes` becomes the largest
/// over the chips recorded, `ldsBytesByChip[chip]` this chip's.
/// (hk-stage-swaps adds LDS only where the chip has room.)
void recordChipLds(mlir::ModuleOp laneLevel, const std::string &chip,
                   std::vector<rt::KernelInfo> &kernels);

/// Once every chip is recorded: drops `ldsBytesByChip` of the kernels whose
/// chips all use `ldsBytes`.
void dropUniformChipLds(std::vector<rt::KernelInfo> &kernels);

} // namespace hk::compiler

#endif // HK_LIB_COMPILER_KERNELINFOCOLLECTION_H
