//===- MLIR.h - MLIR's names in namespace hk ------------------------------===//
//
// The compiler's code lives in namespace hk, beside the runtime's (hk::rt)
// and the chip facts (hk::ChipInfo): one namespace root. Inside it, MLIR's
// names (and the LLVM ones MLIR re-exports) are visible unqualified, as in
// MLIR's own namespaces, so headers need not spell `mlir::` everywhere.
//===----------------------------------------------------------------------===//

#ifndef HK_SUPPORT_MLIR_H
#define HK_SUPPORT_MLIR_H

#include "mlir/Support/LLVM.h"

namespace hk {
using namespace mlir;
} // namespace hk

#endif // HK_SUPPORT_MLIR_H
