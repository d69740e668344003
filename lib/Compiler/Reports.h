//===- Reports.h - the resource table and the code-quality report ---------===//
//
// Private to lib/Compiler: what hkc --resource-usage and --report print for
// one chip, as text.
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_COMPILER_REPORTS_H
#define HK_LIB_COMPILER_REPORTS_H

#include "hk/Target/AMDGPU/Backend.h"
#include "hk/Target/AMDGPU/ResourceUsage.h"

#include "mlir/IR/Location.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace hk::compiler {

/// The VGPRs, AGPRs, SGPRs, LDS, scratch and occupancy of each kernel of a
/// code object for `chip`.
std::string resourceUsageTable(llvm::StringRef chip,
                               llvm::ArrayRef<target::KernelResources> kernels);

/// Compiles copies of `llvmModule` to assembly and to a linked code object
/// and returns the code-quality report for `options.chip`
/// (lib/Target/AMDGPU/Report.cpp).
mlir::FailureOr<std::string>
codeQualityReport(const llvm::Module &llvmModule,
                  const target::TargetOptions &options, mlir::Location loc);

} // namespace hk::compiler

#endif // HK_LIB_COMPILER_REPORTS_H
