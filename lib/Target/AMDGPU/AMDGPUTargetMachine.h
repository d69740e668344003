//===- AMDGPUTargetMachine.h - the TargetMachine for a chip ---------------===//
//
// Private to the library: the translation (for its optimization pipeline)
// and the code generator build the same TargetMachine.
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_TARGET_AMDGPU_AMDGPUTARGETMACHINE_H
#define HK_LIB_TARGET_AMDGPU_AMDGPUTARGETMACHINE_H

#include "hk/Target/AMDGPU/Backend.h"

#include "llvm/Target/TargetMachine.h"

namespace hk::target {

/// The target triple of AMD GPUs under the HSA runtime.
inline constexpr const char *kTargetTriple = "amdgcn-amd-amdhsa";

/// The TargetMachine for `options.chip`, or null with `error` set.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetOptions &options, std::string &error);

} // namespace hk::target

#endif // HK_LIB_TARGET_AMDGPU_AMDGPUTARGETMACHINE_H
