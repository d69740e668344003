//===- HostObject.h - lane-level IR as host code for the emulator ---------===//
//
// The emulator runs the lane program that went into a code object. This is
// how it gets there: convert-lane-to-emulator turns every kernel into a host
// lane function (hkemu_lane_fn of include/hk/Runtime/Emulator.h), the
// hk-emulator-to-llvm pipeline lowers it to the LLVM dialect, and here the
// host TargetMachine compiles it and lld links a shared object that exports
// `<kernel>__lane`, all in process. The runtime loads that object with
// dlopen: it needs no MLIR. docs/emulator.md.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_HOST_HOSTOBJECT_H
#define HK_TARGET_HOST_HOSTOBJECT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace hk::target {

/// The symbol of a kernel's lane function in the host shared object.
std::string laneFunctionName(llvm::StringRef kernel);

/// LLVM IR for the host (its triple and data layout), optimized at
/// `optLevel` (0..3).
std::unique_ptr<llvm::Module> translateForHost(mlir::ModuleOp module,
                                               llvm::LLVMContext &context,
                                               unsigned optLevel);

/// A host shared object (ELF, position independent) from the LLVM module;
/// its undefined hkemu_* symbols resolve against the runtime when loaded.
/// Runs lld in process (which resets all llvm::cl options of the process).
mlir::FailureOr<llvm::SmallVector<char, 0>>
emitHostSharedObject(llvm::Module &llvmModule, unsigned optLevel,
                     mlir::Location loc);

} // namespace hk::target

#endif // HK_TARGET_HOST_HOSTOBJECT_H
