//===- ReportOption.h - hkc --report -------------------------------------===//
//
// The code-quality report of each chip (lib/Target/AMDGPU/Report.cpp applied
// to the assembly of the kernels, with the resources of their code object),
// and the tile lowering without hk-schedule, to see what the schedule
// changes.
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKC_REPORTOPTION_H
#define HK_TOOLS_HKC_REPORTOPTION_H

#include "hk/Target/AMDGPU/Compiler.h"

#include "mlir/IR/BuiltinOps.h"

namespace llvm {
class Module;
} // namespace llvm

namespace hk::hkc {

/// Compiles a copy of `llvmModule` to assembly and to a linked code object
/// and prints the report for `options.chip` to stdout, or to stderr if
/// `toStderr` (when the compiled output itself goes to stdout).
mlir::LogicalResult printCodeQualityReport(const llvm::Module &llvmModule,
                                           const target::TargetOptions &options,
                                           bool toStderr, mlir::Location loc);

} // namespace hk::hkc

#endif // HK_TOOLS_HKC_REPORTOPTION_H
