//===- Link.cpp - relocatable object to code object with lld --------------===//
//
// HIP and HSA load a code object as an ELF shared object
// (hk/Target/Common/SharedObjectLink.h runs lld in process).
//===----------------------------------------------------------------------===//

#include "hk/Target/AMDGPU/Backend.h"
#include "hk/Target/Common/SharedObjectLink.h"

using namespace mlir;

namespace hk::target {

FailureOr<llvm::SmallVector<char, 0>> linkCodeObject(ArrayRef<char> object,
                                                     Location loc) {
  // The same arguments as ROCm's own device link: a shared object, and no
  // undefined symbol left for a loader that cannot resolve any.
  const char *extraArgs[] = {"--no-undefined"};
  return linkSharedObject(object, extraArgs, "code object", loc);
}

} // namespace hk::target
