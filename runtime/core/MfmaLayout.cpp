//===- MfmaLayout.cpp - MFMA over a wave in the register layout -----------===//

#include "MfmaLayout.h"

using namespace hk::rt;

void hk::rt::mfmaMultiply(const MfmaShape &s, const double *a, const double *b,
                          const double *c, double *d) {
  const uint32_t kpl = s.kPerLane(), regs = s.dRegs();
  // Not on the stack: 50 KiB of matrices per call.
  thread_local double A[32][128], B[128][32], C[32][32];
  for (uint32_t l = 0; l < MfmaShape::kLanes; ++l)
    for (uint32_t i = 0; i < kpl; ++i) {
      A[s.aRow(l)][s.aCol(l, i)] = a[l * kpl + i];
      B[s.bRow(l, i)][s.bCol(l)] = b[l * kpl + i];
    }
  // Gather C completely before writing D: d may alias c.
  for (uint32_t l = 0; l < MfmaShape::kLanes; ++l)
    for (uint32_t r = 0; r < regs; ++r)
      C[s.dRow(l, r)][s.dCol(l)] = c[l * regs + r];
  for (uint32_t l = 0; l < MfmaShape::kLanes; ++l)
    for (uint32_t r = 0; r < regs; ++r) {
      uint32_t row = s.dRow(l, r), col = s.dCol(l);
      double acc = C[row][col];
      for (uint32_t kk = 0; kk < s.k; ++kk)
        acc += A[row][kk] * B[kk][col];
      d[l * regs + r] = acc;
    }
}
