//===- Transforms.h - the hk transforms as functions ----------------------===//
//
// What some passes do, callable without a pass manager: by the passes
// themselves (thin wrappers) and by the HipKittens translation, which must
// emit the kernel as hk-schedule leaves it.
//===----------------------------------------------------------------------===//

#ifndef HK_TRANSFORMS_TRANSFORMS_H
#define HK_TRANSFORMS_TRANSFORMS_H

#include "hk/Support/MLIR.h"

#include "mlir/IR/Operation.h"

namespace hk {

/// hk-schedule: expands every hk.ping_pong and hk.interleave under `root`
/// into explicit barriers, priorities and scheduling hints (`plain`: the
/// barriers alone). Reports what it cannot expand.
LogicalResult expandSchedules(Operation *root, bool plain);

/// hk-verify-barriers: proves that every wave of each kernel under `root`
/// executes as many barriers; reports each kernel where it cannot.
LogicalResult verifyBarrierBalance(Operation *root);

} // namespace hk

#endif // HK_TRANSFORMS_TRANSFORMS_H
