//===- VectorForms.h - VALU operations and the forms derived from them ----===//
//
// Each VALU operation (VOP1, VOP2, VOPC and VOP3) is defined once, as a lane
// function on the bits of its already modified sources, with the types of
// its result and sources. Its encodings (e32, e64, SDWA, DPP) are derived
// from that definition by the form handlers of Vector.cpp: reading the
// sources (input modifiers, SDWA selects, op_sel halves, the DPP lane),
// flushing denormals per MODE.FP_DENORM, applying omod and clamp, and
// writing the result (SDWA dst_sel and dst_unused, DPP row and bank masks,
// VCC or an SGPR pair for compares and carries, EXEC for v_cmpx).
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_ISA_VECTORFORMS_H
#define HK_RUNTIME_ISA_VECTORFORMS_H

#include "Operands.h"

namespace hk::rt::isa::valu {

/// Operand types: 16/32/64-bit integers, f16/f32/f64, and B32M, 32 bits on
/// which abs and neg act on bit 31 with no other float treatment
/// (v_cndmask_b32's sources).
enum Ty : uint8_t { U16, I16, U32, I32, U64, I64, F16, F32, F64, B32M };

inline bool isFloat(Ty t) { return t == F16 || t == F32 || t == F64; }
inline unsigned widthOf(Ty t) {
  switch (t) {
  case U16:
  case I16:
  case F16:
    return 16;
  case U64:
  case I64:
  case F64:
    return 64;
  default:
    return 32;
  }
}

/// The state of one lane while an operation runs. Integer sources reach the
/// lane function zero-extended (U*) or sign-extended (I*) to 64 bits; an
/// integer result is returned exact (as a 64-bit two's complement value)
/// and saturated to the result type when clamp is set (kIntClamp) or
/// truncated to it otherwise.
struct Lane {
  Sim &sim;
  const Wave &w;
  unsigned lane = 0;
  uint32_t mode = 0; ///< the wave's MODE register
  bool clamp = false;
  bool carryIn = false;  ///< VCC / the SGPR pair's bit (carries, cndmask)
  bool carryOut = false; ///< set by operations with a carry out
  uint64_t k = 0;        ///< the literal constant of madmk/madak forms
  bool ieee() const { return mode >> 9 & 1; }
};

using LaneFn = uint64_t (*)(Lane &, uint64_t a, uint64_t b, uint64_t c);

enum Flags : uint32_t {
  kCmp = 1,          ///< VOPC: the result is this lane's bit of a mask
  kCmpx = 2,         ///< VOPC that also writes EXEC
  kCarryOut = 4,     ///< VCC (e32, SDWA, DPP) or the second definition (e64)
  kCarryIn = 8,      ///< VCC (e32, SDWA, DPP) or the third source (e64)
  kIntClamp = 16,    ///< clamp saturates the integer result (the lane function)
  kOpsel = 32,       ///< VOP3 op_sel: 16-bit halves in and out, other half kept
  kKMid = 64,        ///< madmk/fmamk: D = S0 * K + S1
  kKEnd = 128,       ///< madak/fmaak: D = S0 * S1 + K
  kNoClampImm = 256, ///< its only VOP3 immediate is op_sel
  kNoFlush = 512,    ///< float sources taken as bits (v_cmp_class)
};

struct Op {
  const char *name; ///< the opcode name without form suffix: "V_ADD_F32"
  Ty dst;
  Ty src[3];
  uint8_t numSrcs;
  uint32_t flags;
  LaneFn fn;
};

/// The operations of the table (Vector.cpp), by name.
const Op *findOp(const std::string &name);

} // namespace hk::rt::isa::valu

#endif // HK_RUNTIME_ISA_VECTORFORMS_H
