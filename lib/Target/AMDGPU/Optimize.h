//===- Optimize.h - LLVM's default optimization pipeline for a target -----===//
//
// Private to the library: the translation to LLVM IR optimizes the module
// before the code generator compiles it.
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_TARGET_AMDGPU_OPTIMIZE_H
#define HK_LIB_TARGET_AMDGPU_OPTIMIZE_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace hk::target {

/// Gives `llvmModule` the triple and data layout of `machine`, then runs
/// LLVM's default module pipeline for `optLevel` (0..3, higher is clamped)
/// with the machine's target-specific passes and cost models. Then the
/// workgroup release before each hk.barrier's s_barrier waits for the LDS
/// counter only, not for the wave's copies into LDS (hk.wait's part).
void optimizeForTarget(llvm::Module &llvmModule, llvm::TargetMachine &machine,
                       unsigned optLevel);

} // namespace hk::target

#endif // HK_LIB_TARGET_AMDGPU_OPTIMIZE_H
