//===- Passes.h - lane-level IR to the LLVM dialect -----------------------===//

#ifndef HK_CONVERSION_LANETOROCDL_PASSES_H
#define HK_CONVERSION_LANETOROCDL_PASSES_H

#include "mlir/Pass/Pass.h"

namespace hk {

#define GEN_PASS_DECL
#include "hk/Conversion/LaneToROCDL/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "hk/Conversion/LaneToROCDL/Passes.h.inc"

} // namespace hk

#endif // HK_CONVERSION_LANETOROCDL_PASSES_H
