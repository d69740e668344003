//===- HipKittensEmitter.h - hk IR to HipKittens C++ ------------*- C++ -*-===//
//
// Translates a module of hk kernels into one HIP C++ file that calls the
// HipKittens tile library: one `__global__` function per `hk.kernel` and an
// `extern "C"` host launcher for each. Schedule regions are expanded by
// `hk-schedule` first, so the C++ holds their barriers and priorities.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_HIPKITTENS_HIPKITTENSEMITTER_H
#define HK_TARGET_HIPKITTENS_HIPKITTENSEMITTER_H

#include "hk/Support/MLIR.h"

#include "hk/Base/Chip.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace hk {

/// Writes the C++ translation of `module` (a `builtin.module`) to `os`.
///
/// The module is changed first: `hk-schedule` expands its `hk.ping_pong` and
/// `hk.interleave` regions into barriers, priorities and fences, and
/// `hk-verify-barriers` proves that every wave executes as many barriers.
/// Variables take their names from a `NameLoc` on the value (a block
/// argument's location, a single result's op location, or, for an op with
/// several results, the `NameLoc` of the same index in a `FusedLoc` whose
/// metadata is `resultNamesTag()`), from `hk.name` on kernel arguments, else
/// from what the op computes. Fails, with a diagnostic located at the
/// offending op, on anything HipKittens cannot express or the passes reject;
/// nothing is written then.
LogicalResult translateToHipKittens(Operation *module, raw_ostream &os,
                                    const ChipInfo &chip);

/// The metadata of the `FusedLoc` that names the results of an op with
/// several results, one `NameLoc` per result.
StringRef resultNamesTag();

/// Registers `--hk-to-hipkittens` (and its `--chip` option) with
/// mlir-translate.
void registerToHipKittensTranslation();

} // namespace hk

#endif // HK_TARGET_HIPKITTENS_HIPKITTENSEMITTER_H
