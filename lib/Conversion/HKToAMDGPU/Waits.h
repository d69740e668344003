//===- Waits.h - markers between hk.wait lowering and hk-compute-waits ----===//
//
// convert-hk-to-amdgpu lowers every hk.wait to a wait for zero outstanding
// loads; hk-compute-waits relaxes it. These discardable attributes carry
// what the lowering knows and the lane-level IR no longer says.
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_WAITS_H
#define HK_CONVERSION_HKTOAMDGPU_WAITS_H

#include "hk/Support/MLIR.h"

#include "llvm/ADT/StringRef.h"

namespace hk {

/// On the outermost op of a lowered hk.load_async: per wave id, the
/// instructions of the copy that wave issues (dense i64 array).
inline constexpr llvm::StringLiteral kCopyInstructionsAttr =
    "hk.copy_instructions";
/// On the i32 constant that replaces a copy's token, right after the copy.
inline constexpr llvm::StringLiteral kCopyTokenAttr = "hk.copy_token";
/// On the vector.from_elements of the waited tokens placed just before the
/// lowered wait.
inline constexpr llvm::StringLiteral kWaitTokensAttr = "hk.wait_tokens";

} // namespace hk

#endif // HK_CONVERSION_HKTOAMDGPU_WAITS_H
