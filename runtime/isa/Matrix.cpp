//===- Matrix.cpp - MFMA and SMFMAC ---------------------------------------===//
//
// Semantics of matrix instructions: MFMA and SMFMAC, written from AMD's CDNA3
// and CDNA4 ISA reference guides.
//===----------------------------------------------------------------------===//

#include "Operands.h"

using namespace hk::rt;
using namespace hk::rt::isa;

void hk::rt::isa::registerMatrix(Semantics &table) { (void)table; }
