//===- Compiler.h - lane-level IR to AMD code objects ---------------------===//
//
// The back half of the direct path: a module holding `gpu.module`s of
// lane-level IR (gpu, amdgpu, rocdl, arith, vector, memref, scf) becomes LLVM
// IR, AMDGPU assembly, a relocatable object and finally an ELF code object,
// all in process, with no ROCm installation.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_AMDGPU_COMPILER_H
#define HK_TARGET_AMDGPU_COMPILER_H

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
  std::string chip = "gfx950"; ///< LLVM processor name
  unsigned optLevel = 3;       ///< 0..3, for the LLVM IR and codegen pipelines
  unsigned codeObjectVersion = 5; ///< 5 or 6 (the AMDHSA ABI version)
  /// Expand schedule regions with hk-schedule's stagger, priorities and
  /// hints; false gives the plain expansion (hkc --no-schedule).
  bool schedule = true;
};

/// Registers the dialects, interfaces and LLVM IR translations the pipeline
/// needs, so a tool can parse its input with the same registry.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// Initializes the AMDGPU backend of LLVM; safe to call more than once.
void initializeAMDGPUBackend();

/// True if `module` holds tile-level `hk.kernel` ops that must first go
/// through the hk lowering.
bool containsTileKernels(mlir::ModuleOp module);

/// Runs the tile-level pipeline for the chip: hk-schedule, hk-verify-barriers,
/// hk-check-target, convert-hk-to-amdgpu and hk-compute-waits.
mlir::LogicalResult lowerTileToLaneLevel(mlir::ModuleOp module,
                                         const TargetOptions &options);

/// Lowers every `gpu.module` of `module`, in place, from lane-level IR to the
/// LLVM dialect (ROCDL intrinsics) for the chip.
mlir::LogicalResult lowerLaneLevelToLLVMDialect(mlir::ModuleOp module,
                                                const TargetOptions &options);

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

#endif // HK_TARGET_AMDGPU_COMPILER_H
