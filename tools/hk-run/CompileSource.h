//===- CompileSource.h - hk-run --artifact FILE.mlir ----------------------===//
//
// A kernel's tile program given to hk-run in place of its compiled artifact:
// the compiler library (include/hk/Compiler/Compiler.h) compiles it, in
// process, to an artifact for every supported chip.
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKRUN_COMPILESOURCE_H
#define HK_TOOLS_HKRUN_COMPILESOURCE_H

#include <map>
#include <string>
#include <vector>

namespace hk::run {

/// Whether `path` names MLIR source (ends in .mlir) rather than an artifact.
bool isSource(const std::string &path);

/// Compiles the MLIR file at `path` to an artifact in a temporary file,
/// removed when the program exits, and returns its path. Throws
/// std::runtime_error after printing the compiler's located diagnostics.
/// Adds `NAME=VALUE` to `params`; std::invalid_argument when malformed or
/// repeated.
void addParam(const std::string &assignment,
              std::map<std::string, std::string> &params);

/// Compiles the tile program at `path` (the instance at `params` of a
/// template) into a temporary artifact for `chips` (empty: every chip of
/// the table; a library kernel's are its kernelChips()); its path.
std::string compileSource(const std::string &path,
                          const std::map<std::string, std::string> &params = {},
                          const std::vector<std::string> &chips = {});

} // namespace hk::run

#endif // HK_TOOLS_HKRUN_COMPILESOURCE_H
