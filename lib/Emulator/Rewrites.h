//===- Rewrites.h - the parts of convert-lane-to-emulator -----------------===//

#ifndef HK_LIB_EMULATOR_REWRITES_H
#define HK_LIB_EMULATOR_REWRITES_H

#include "hk/Support/MLIR.h"

#include "EmulatorCalls.h"

namespace hk::emulator {

/// amdgpu.transpose_load becomes the lane's LDS read and gpu.shuffles of
/// it (TransposeLoads.cpp); runs before the other rewrites.
LogicalResult expandTransposeLoads(func::FuncOp func);

/// Accesses to fat raw buffers become hkemu_buffer_* calls, accesses to
/// workgroup memory hkemu_lds_* calls, gather_to_lds hkemu_lds_dma. Runs
/// while memrefs still carry their address spaces.
LogicalResult rewriteMemoryAccesses(func::FuncOp func, EmulatorCalls &calls);

/// Ids, barriers, MFMAs and cross-lane ops become engine calls; scheduling
/// hints and waits are dropped.
LogicalResult rewriteLaneOps(func::FuncOp func, EmulatorCalls &calls);

/// Shuffles, DPP, permlane swaps, readfirstlane and bpermute become engine
/// calls; `handled` says whether `op` was one of them.
LogicalResult rewriteCrossLaneOp(Operation *op, EmulatorCalls &calls,
                                 bool &handled);

/// Turns scf.ifs around collective engine calls into straight-line code
/// with per-lane `active` flags, as a wave runs a divergent branch.
LogicalResult predicateDivergentBranches(func::FuncOp func);

/// Reports `op` as having no emulation.
LogicalResult noEmulation(Operation *op, const Twine &detail = "");

} // namespace hk::emulator

#endif // HK_LIB_EMULATOR_REWRITES_H
