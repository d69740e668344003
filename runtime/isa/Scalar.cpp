//===- Scalar.cpp - the scalar unit ---------------------------------------===//
//
// Semantics of SALU (SOP1, SOP2, SOPC, SOPK, SOPP) and scalar memory (SMEM),
// written from AMD's CDNA3 and CDNA4 ISA reference guides.
//===----------------------------------------------------------------------===//

#include "Operands.h"

using namespace hk::rt;
using namespace hk::rt::isa;

void hk::rt::isa::registerScalar(Semantics &table) { (void)table; }
