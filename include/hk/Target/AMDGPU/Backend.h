//===- Backend.h - LLVM dialect gpu.modules to AMD code objects -----------===//
//
// The back half of the direct path: a module holding `gpu.module`s in the
// LLVM dialect (after the hk-lane-to-rocdl pipeline) becomes LLVM IR, AMDGPU
// assembly, a relocatable object and finally an ELF code object, all in
// process, with no ROCm installation.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_AMDGPU_BACKEND_H
#define HK_TARGET_AMDGPU_BACKEND_H

#include "hk/Base/Chip.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hk::target {

/// What the compiler is asked to produce for one chip.
struct TargetOptions {
  std::string chip = kDefaultChip; ///< LLVM processor name
  unsigned optLevel = 3; ///< 0..3, for the LLVM IR and codegen pipelines
  unsigned codeObjectVersion = 5; ///< 5 or 6 (the AMDHSA ABI version)
  /// DWARF line tables (.debug_line) from the ops' locations: each
  /// instruction's .mlir file, line and column (Translate.cpp).
  bool lineTables = true;
};

/// Registers the LLVM IR translations of the dialects the back end sees.
void registerBackendTranslations(mlir::DialectRegistry &registry);

/// Initializes the AMDGPU backend of LLVM; safe to call more than once.
void initializeAMDGPUBackend();

/// Translates the (LLVM dialect) `gpu.module`s of `module` into one LLVM
/// module for the chip, with triple, data layout and code object version set,
/// and runs LLVM's optimization pipeline at the requested level.
std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module,
                                                llvm::LLVMContext &context,
                                                const TargetOptions &options);

/// What the AMDGPU backend emits.
enum class CodeGenFileKind { Assembly, Object };

/// Runs the AMDGPU backend on `llvmModule`; reports errors at `loc`.
mlir::FailureOr<llvm::SmallVector<char, 0>>
emitMachineCode(llvm::Module &llvmModule, const TargetOptions &options,
                CodeGenFileKind kind, mlir::Location loc);

/// Links a relocatable AMDGPU object into a loadable ELF code object (a
/// shared object, as HIP and HSA load it) with lld, in process. lld resets
/// all llvm::cl options of the process to their defaults.
mlir::FailureOr<llvm::SmallVector<char, 0>>
linkCodeObject(llvm::ArrayRef<char> object, mlir::Location loc);

} // namespace hk::target

#endif // HK_TARGET_AMDGPU_BACKEND_H
