//===- HKAtomicOps.cpp - hk.fetch_add -------------------------------------===//
//
// The verifier of dialect/HKAtomicOps.td's op. Its class is generated into
// HKOps.cpp.inc with the other ops.
//===----------------------------------------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"

using namespace mlir;
using namespace hk;

LogicalResult FetchAddOp::verify() {
  MemRefType dest = getDest().getType();
  if (!dest.getElementType().isInteger(32))
    return emitOpError("adds to an i32 memref, got element type ")
           << dest.getElementType();
  if (int64_t(getIndices().size()) != dest.getRank())
    return emitOpError("expects ")
           << dest.getRank() << " indices for a memref of rank "
           << dest.getRank() << ", got " << getIndices().size();
  // Kernel arguments are global memory in the default space.
  if (dest.getMemorySpace())
    return emitOpError("adds to global memory (the default memory space), "
                       "got memory space ")
           << dest.getMemorySpace();
  return success();
}
