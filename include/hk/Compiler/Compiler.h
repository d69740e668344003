//===- Compiler.h - from a module of hk kernels to what a user asked for --===//
//
// The one entry point of the compiler, used by hkc, tests and front ends:
// a parsed module (tile-level hk.kernel ops, or lane-level gpu.modules) and
// options in; per chip the lane-level IR, LLVM IR,
// assembly or a code object, or one runtime artifact, plus the reports, out.
// Errors are diagnostics on the module's context; nothing aborts. The MLIR
// stages are the registered pipelines of Pipelines.h.
//===----------------------------------------------------------------------===//

#ifndef HK_COMPILER_COMPILER_H
#define HK_COMPILER_COMPILER_H

#include "hk/Base/Artifact.h"
#include "hk/Base/Chip.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hk::compiler {

/// What `compile` produces for each chip.
enum class Output {
  LaneIR,    ///< lane-level MLIR after hk-tile-to-lane (.mlir)
  LLVMIR,    ///< optimized LLVM IR (.ll)
  Assembly,  ///< AMDGPU assembly (.s)
  CodeObject ///< linked ELF code object (.hsaco)
};

/// The file extension of an output ("mlir", "ll", "s", "hsaco").
llvm::StringRef extensionOf(Output output);

struct Options {
  std::vector<std::string> chips{kDefaultChip};
  unsigned optLevel = 3;          ///< 0..3: LLVM IR and codegen pipelines
  unsigned codeObjectVersion = 5; ///< AMDHSA ABI version: 5 or 6
  bool schedule = true;           ///< false: hk-tile-to-lane{schedule=false}
  bool resourceUsage = false;     ///< fill ChipOutput::resourceUsage
  bool report = false;            ///< fill ChipOutput::report
  /// DWARF line tables from the ops' source locations. Unset: in code
  /// objects and artifacts only, not in LLVM IR or assembly text.
  std::optional<bool> lineTables;
};

struct ChipOutput {
  std::string chip;
  std::string bytes;         ///< the requested Output
  std::string resourceUsage; ///< the resource table, when asked
  std::string report;        ///< the code-quality report, when asked
};

/// Registers every dialect, interface and LLVM IR translation the compiler
/// needs, so that a caller parses its input with the same registry.
void registerDialects(mlir::DialectRegistry &registry);

/// Registers every hk pass and the compiler's pipelines (for hk-opt and
/// tools that parse pipelines).
void registerPassesAndPipelines();

/// Checks `options` without compiling; on failure `error` says why.
mlir::LogicalResult checkOptions(const Options &options, Output output,
                                 std::string &error);

/// Compiles a copy of `module` for every chip of `options`.
mlir::FailureOr<std::vector<ChipOutput>>
compile(mlir::ModuleOp module, Output output, const Options &options);

/// The runtime artifact: every kernel's metadata and, per chip, its code
/// object.
/// Reports are not produced here.
mlir::FailureOr<rt::Artifact> compileArtifact(mlir::ModuleOp module,
                                              const Options &options);

} // namespace hk::compiler

#endif // HK_COMPILER_COMPILER_H
