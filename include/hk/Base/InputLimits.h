//===- InputLimits.h - what hostile source text cannot do to a front end --===//
//
// MLIR's parser, verifier, printer and many passes recurse once per level of
// nesting, so deep enough text overflows any stack. Every front end (hkc,
// hk-opt, hk-translate, the C API hkc.h) therefore (1) refuses text nested
// deeper than a limit, with a located error, before parsing it, and (2)
// parses and compiles on a thread whose stack is sized for that limit, so
// that nothing below the limit can overflow. LLVM's fatal errors during a
// compilation come back as messages instead of ending the process.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_INPUTLIMITS_H
#define HK_BASE_INPUTLIMITS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace hk {

/// The default nesting limit (as clang's -fbracket-depth): levels of
/// `{`, `(`, `[` and `<` open at once. The kernels nest about 15 deep.
constexpr unsigned kDefaultMaxNestingDepth = 256;
/// The largest limit a front end accepts: the stack the compilation thread
/// gets grows with the limit, and is capped with it.
constexpr unsigned kMaxNestingDepthLimit = 4096;

/// The deepest nesting of `text` and where it is first reached.
struct NestingDepth {
  unsigned depth = 0;
  size_t offset = 0; ///< of the opening bracket that first reached `depth`
};

/// Scans MLIR text for brackets outside strings and comments, stopping at
/// the first bracket that opens level `stopAbove` + 1. `->`, `>=` and `<=`
/// are not brackets; a closer without its opener is ignored (the parser
/// reports it).
NestingDepth measureNesting(llvm::StringRef text, unsigned stopAbove);

/// Checks every buffer of `sourceMgr` against `limit`: the deepest nesting
/// of them all, or, for the first buffer nested deeper, std::nullopt and a
/// located error (`name:line:col: error: ...`, naming `optionHint`, how to
/// raise the limit) printed to `os`. MLIR bytecode is not text and is not
/// scanned.
std::optional<unsigned> checkNestingDepth(const llvm::SourceMgr &sourceMgr,
                                          unsigned limit,
                                          llvm::StringRef optionHint,
                                          llvm::raw_ostream &os);

/// The stack, in bytes, of the thread that parses and compiles text nested
/// up to `limit` levels.
unsigned compileStackBytes(unsigned limit);

/// Runs `fn` to completion on a new thread with a stack of
/// compileStackBytes(limit) bytes.
void runOnCompileStack(unsigned limit, llvm::function_ref<void()> fn);

/// Runs `fn` on the calling thread. An LLVM fatal error (report_fatal_error)
/// raised on this thread while `fn` runs unwinds to here without running
/// the destructors in between (the memory of that compilation is leaked)
/// and its message is returned; std::nullopt if `fn` returned normally.
/// Fatal errors on other threads, or outside such a call, keep LLVM's
/// behaviour: a message on stderr and exit status 1.
std::optional<std::string>
runCatchingFatalErrors(llvm::function_ref<void()> fn);

} // namespace hk

#endif // HK_BASE_INPUTLIMITS_H
