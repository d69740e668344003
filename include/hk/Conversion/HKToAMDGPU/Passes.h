//===- Passes.h - hk tiles to lane-level IR -------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_PASSES_H
#define HK_CONVERSION_HKTOAMDGPU_PASSES_H

#include "hk/Base/Chip.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hk {

#define GEN_PASS_DECL
#include "hk/Conversion/HKToAMDGPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hk/Conversion/HKToAMDGPU/Passes.h.inc"

} // namespace hk

#endif // HK_CONVERSION_HKTOAMDGPU_PASSES_H
