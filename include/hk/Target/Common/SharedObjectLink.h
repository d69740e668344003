//===- SharedObjectLink.h - relocatable object to shared object with lld --===//
//
// The output of the compiler that gets loaded is an ELF shared object: a
// code object (HIP and HSA load it as one).
// lld's ELF driver is linked into the library and run in process, so no
// ld.lld binary (nor ROCm's copy of it) is needed.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_COMMON_SHAREDOBJECTLINK_H
#define HK_TARGET_COMMON_SHAREDOBJECTLINK_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace hk::target {

/// Links the relocatable ELF `object` with `ld.lld -shared` plus
/// `extraArgs` (options or further inputs) and returns the shared object.
/// `what` names the output in errors ("code object").
///
/// lld resets every llvm::cl option of the process to its default, so
/// callers must have read their command line before linking. Links are
/// serialized: lld keeps global state while it runs.
mlir::FailureOr<llvm::SmallVector<char, 0>>
linkSharedObject(llvm::ArrayRef<char> object,
                 llvm::ArrayRef<const char *> extraArgs, llvm::StringRef what,
                 mlir::Location loc);

} // namespace hk::target

#endif // HK_TARGET_COMMON_SHAREDOBJECTLINK_H
