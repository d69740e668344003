//===- CompileSource.h - hk-run --artifact FILE.mlir ----------------------===//
//
// A kernel's tile program given to hk-run in place of its compiled artifact:
// the compiler library (include/hk/Compiler/Compiler.h) compiles it, in
// process, to an artifact for every supported chip.
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKRUN_COMPILESOURCE_H
#define HK_TOOLS_HKRUN_COMPILESOURCE_H

#include <string>

namespace hk::run {

/// Whether `path` names MLIR source (ends in .mlir) rather than an artifact.
bool isSource(const std::string &path);

/// Compiles the MLIR file at `path` to an artifact in a temporary file,
/// removed when the program exits, and returns its path. Throws
/// std::runtime_error after printing the compiler's located diagnostics.
std::string compileSource(const std::string &path);

} // namespace hk::run

#endif // HK_TOOLS_HKRUN_COMPILESOURCE_H
