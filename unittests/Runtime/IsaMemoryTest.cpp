//===- IsaMemoryTest.cpp - LDS, buffer, global memory on the simulator ----===//
//
// Expected values come from AMD's ISA reference guides (and AMD's MFMA
// tables in ../shared/amd), never from the simulator's own output.
//===----------------------------------------------------------------------===//

#include "IsaTestUtil.h"

using namespace hk::rt;
using namespace hk::rt::isatest;
