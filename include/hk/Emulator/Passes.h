//===- Passes.h - lane-level IR as host code ------------------------------===//

#ifndef HK_EMULATOR_PASSES_H
#define HK_EMULATOR_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hk {

#define GEN_PASS_DECL
#include "hk/Emulator/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hk/Emulator/Passes.h.inc"

} // namespace hk

#endif // HK_EMULATOR_PASSES_H
