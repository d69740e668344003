//===- HostObject.h - lane-level IR as host code for the emulator ---------===//
//
// The emulator runs the lane program that went into a code object. This is
// how it gets there: convert-lane-to-emulator turns every kernel into a host
// lane function (hkemu_lane_fn of include/hk/Runtime/Emulator.h), upstream
// passes lower it to LLVM, the host TargetMachine compiles it and lld links
// a shared object that exports `<kernel>__lane`, all in process. The
// runtime loads that object with dlopen: it needs no MLIR. docs/emulator.md.
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

/// Runs convert-lane-to-emulator on the lane-level `module` (in place).
mlir::LogicalResult convertLaneLevelToEmulator(mlir::ModuleOp module);

/// Lowers the output of convert-lane-to-emulator to the LLVM dialect for
/// the host.
mlir::LogicalResult lowerEmulatorToLLVMDialect(mlir::ModuleOp module);

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

/// All of the above: the lane-level gpu.modules of `module` (modified in
/// place) to a host shared object.
mlir::FailureOr<llvm::SmallVector<char, 0>>
compileEmulatorObject(mlir::ModuleOp module, unsigned optLevel);

} // namespace hk::target

#endif // HK_TARGET_HOST_HOSTOBJECT_H
