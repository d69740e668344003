//===- HipKittensEmitter.h - hk IR to HipKittens C++ ------------*- C++ -*-===//
//
// Translates a module of hk kernels into one HIP C++ file that calls the
// HipKittens tile library: one `__global__` function per `hk.kernel` and an
// `extern "C"` host launcher for each.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_HIPKITTENS_HIPKITTENSEMITTER_H
#define HK_TARGET_HIPKITTENS_HIPKITTENSEMITTER_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::hk {

/// HipKittens ships one include tree per architecture, selected by a macro
/// (`KITTENS_CDNA3` for gfx942, `KITTENS_CDNA4` for gfx950).
enum class HipKittensArch { CDNA3, CDNA4 };

/// The SSA names a value had in its source (`%acc` -> "acc"), which the
/// parser otherwise drops.
using SourceNames = llvm::DenseMap<Value, std::string>;

/// Writes the C++ translation of `module` to `os`. Variables take their names
/// from `names`, else from a `loc("name")` on the value, else from what the
/// op computes. Fails, with a diagnostic located at the offending op, on
/// anything HipKittens cannot express; nothing is written then.
LogicalResult translateToHipKittens(Operation *module, raw_ostream &os,
                                    HipKittensArch arch,
                                    const SourceNames &names = SourceNames());

/// Registers `--hk-to-hipkittens` (and its `--hk-arch` option) with
/// mlir-translate.
void registerToHipKittensTranslation();

} // namespace mlir::hk

#endif // HK_TARGET_HIPKITTENS_HIPKITTENSEMITTER_H
