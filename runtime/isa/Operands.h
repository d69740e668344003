//===- Operands.h - operand access shared by the semantic functions -------===//
//
// Reading and writing the decoded operands of an instruction (Internal.h)
// lane by lane, and iterating over the lanes of EXEC. Every family of
// semantic functions (Semantics.cpp, Scalar.cpp, Vector.cpp, Convert.cpp,
// Memory.cpp, Matrix.cpp) uses these, so that an operand means the same
// thing everywhere.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_ISA_OPERANDS_H
#define HK_RUNTIME_ISA_OPERANDS_H

#include "Internal.h"

#include <cmath>
#include <cstring>

namespace hk::rt::isa {

inline uint32_t rd(const Wave &w, const Operand &o, unsigned lane,
                   unsigned part = 0) {
  switch (o.file) {
  case File::V:
    return w.v[(o.reg + part) * kLanes + lane];
  case File::S:
    return o.reg == kNull ? 0 : w.s[o.reg + part];
  case File::Imm:
    break;
  }
  return part ? uint32_t(uint64_t(o.imm) >> 32) : uint32_t(o.imm);
}

inline uint64_t rd64(const Wave &w, const Operand &o, unsigned lane) {
  return rd(w, o, lane, 0) | uint64_t(rd(w, o, lane, 1)) << 32;
}

inline float asFloat(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

inline uint32_t asBits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

/// A f32 source with its ABS and NEG modifiers applied.
inline float rdf(const Wave &w, const Operand &o, unsigned lane) {
  float f = asFloat(rd(w, o, lane));
  if (o.mods & 2)
    f = std::fabs(f);
  if (o.mods & 1)
    f = -f;
  return f;
}

inline void wr(Wave &w, const Operand &o, unsigned lane, uint32_t value,
               unsigned part = 0) {
  if (o.file == File::V)
    w.v[(o.reg + part) * kLanes + lane] = value;
  else if (o.file == File::S && o.reg != kNull)
    w.s[o.reg + part] = value;
}

inline void wr64(Wave &w, const Operand &o, unsigned lane, uint64_t value) {
  wr(w, o, lane, uint32_t(value), 0);
  wr(w, o, lane, uint32_t(value >> 32), 1);
}

inline uint32_t srd(const Wave &w, const Operand &o) { return rd(w, o, 0); }
inline uint64_t srd64(const Wave &w, const Operand &o) { return rd64(w, o, 0); }
inline void swr(Wave &w, const Operand &o, uint32_t v) { wr(w, o, 0, v); }
inline void swr64(Wave &w, const Operand &o, uint64_t v) { wr64(w, o, 0, v); }

template <typename F> inline void forLanes(const Wave &w, F f) {
  uint64_t e = w.exec();
  while (e) {
    unsigned l = unsigned(__builtin_ctzll(e));
    e &= e - 1;
    f(l);
  }
}

/// A lane mask operand (VCC, EXEC or an SGPR pair) as 64 bits.
inline uint64_t mask(const Wave &w, const Operand &o) { return srd64(w, o); }

} // namespace hk::rt::isa

#endif // HK_RUNTIME_ISA_OPERANDS_H
