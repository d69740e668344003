//===- TargetMachine.h - an LLVM TargetMachine for a triple and CPU -------===//
//
// Used by the GPU back end (lib/Target/AMDGPU): it builds
// position-independent code, since a code object is an ELF shared object.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_COMMON_TARGETMACHINE_H
#define HK_TARGET_COMMON_TARGETMACHINE_H

#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace hk::target {

/// The TargetMachine for `cpu` on `triple`, generating position-independent
/// code at `optLevel` (0..3, higher is clamped). The caller initializes the
/// target's LLVM components first. Null if the triple has no registered
/// target (`error` says why) or the target refuses the CPU (`error` empty:
/// the caller names what it asked for).
std::unique_ptr<llvm::TargetMachine>
createPICTargetMachine(const llvm::Triple &triple, llvm::StringRef cpu,
                       const llvm::TargetOptions &options, unsigned optLevel,
                       std::string &error);

} // namespace hk::target

#endif // HK_TARGET_COMMON_TARGETMACHINE_H
