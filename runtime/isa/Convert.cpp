//===- Convert.cpp - packed math, conversions -----------------------------===//
//
// Semantics of packed math (VOP3P) and conversions between number formats,
// written from AMD's CDNA3 and CDNA4 ISA reference guides.
//===----------------------------------------------------------------------===//

#include "Operands.h"

using namespace hk::rt;
using namespace hk::rt::isa;

void hk::rt::isa::registerConvert(Semantics &table) { (void)table; }
