//===- Passes.h - hk transforms on tile IR --------------------------------===//

#ifndef HK_TRANSFORMS_PASSES_H
#define HK_TRANSFORMS_PASSES_H

#include "hk/Base/Chip.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hk {

#define GEN_PASS_DECL
#include "hk/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hk/Transforms/Passes.h.inc"

} // namespace hk

#endif // HK_TRANSFORMS_PASSES_H
