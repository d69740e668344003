//===- MfmaLayout.h - MFMA register layouts and arithmetic (internal) -----===//
//
// The one definition of where the dense MFMA shapes keep their operands in a
// wave's registers, used by the ISA simulator (runtime/isa). The layouts are
// those of AMD's matrix instruction calculator for CDNA3
// (../shared/amd/mfma-layouts, checked in unittests/Runtime/MfmaTest.cpp) and
// their K extension for gfx950:
//   A: lane l holds A[l % M][kpl * (l / M) + i], i < kpl, kpl = K * M / 64
//   B: lane l holds B[kpl * (l / N) + i][l % N]
//   D (16x16): register r of lane l is D[4 * (l / 16) + r][l % 16]
//   D (32x32): register r of lane l is D[8 * (r / 4) + 4 * (l / 32) + r % 4]
//                                        [l % 32]
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_CORE_MFMALAYOUT_H
#define HK_RUNTIME_CORE_MFMALAYOUT_H

#include "hk/Base/Chip.h"

#include <cstdint>

namespace hk::rt {

struct MfmaShape {
  uint32_t m, n, k;

  static constexpr uint32_t kLanes = uint32_t(hk::kWaveSize);
  /// A and B elements per lane.
  uint32_t kPerLane() const { return k * m / kLanes; }
  /// D (and C) registers per lane.
  uint32_t dRegs() const { return m * n / kLanes; }
  uint32_t aRow(uint32_t lane) const { return lane % m; }
  uint32_t aCol(uint32_t lane, uint32_t i) const {
    return kPerLane() * (lane / m) + i;
  }
  uint32_t bRow(uint32_t lane, uint32_t i) const {
    return kPerLane() * (lane / n) + i;
  }
  uint32_t bCol(uint32_t lane) const { return lane % n; }
  uint32_t dRow(uint32_t lane, uint32_t r) const {
    return m == 16 ? 4 * (lane / 16) + r
                   : 8 * (r / 4) + 4 * (lane / 32) + r % 4;
  }
  uint32_t dCol(uint32_t lane) const { return lane % n; }
  /// Whether the layout above describes this shape (16x16 or 32x32, K a
  /// multiple of 64 / M).
  bool supported() const {
    return (m == 16 || m == 32) && n == m && k > 0 && k * m % kLanes == 0 &&
           k <= 128;
  }
};

/// D = A * B + C over one wave: a[lane * kPerLane + i], b likewise,
/// c[lane * dRegs + r], d likewise (d may alias c). Every input must be
/// exact in double; products are exact and summed in double, so the only
/// rounding is the caller's conversion of d to the register type.
void mfmaMultiply(const MfmaShape &shape, const double *a, const double *b,
                  const double *c, double *d);

} // namespace hk::rt

#endif // HK_RUNTIME_CORE_MFMALAYOUT_H
