//===- Mfma.cpp - MFMA over a wave in the hardware register layout --------===//
//
// The layouts are those of AMD's matrix instruction calculator for CDNA3
// (unittests/Runtime/Inputs/*.csv, checked element by element) and their
// K extension for the gfx950 shapes (docs of ../amd/README.md):
//   A: lane l holds A[l % M][kpl * (l / M) + i], i < kpl, kpl = K * M / 64
//   B: lane l holds B[kpl * (l / N) + i][l % N]
//   D (16x16): register r of lane l is D[4 * (l / 16) + r][l % 16]
//   D (32x32): register r of lane l is D[8 * (r / 4) + 4 * (l / 32) + r % 4]
//                                        [l % 32]
// Products are exact in double and summed in double, then rounded once to
// f32: the hardware's f32 accumulation differs from this by rounding only.
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include <cmath>
#include <cstring>

using namespace hk;
using namespace hk::emu;

static double bf16ToDouble(uint16_t bits) {
  uint32_t w = uint32_t(bits) << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}

static double f16ToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  double v;
  if (exp == 0)
    v = std::ldexp(man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = std::ldexp(1024 + man, exp - 25);
  return sign ? -v : v;
}

/// An 8-bit float with `manBits` mantissa bits; FNUZ formats have bias
/// 2^(e-1) and 0x80 as their only NaN; OCP E4M3FN has no infinity and
/// S.1111.111 as NaN; OCP E5M2 is IEEE-like.
static double fp8ToDouble(uint8_t x, int manBits, Fp8Format fmt) {
  int expBits = 7 - manBits;
  int bias = (1 << (expBits - 1)) - (fmt == Fp8Format::FNUZ ? 0 : 1);
  int sign = x >> 7, exp = (x >> manBits) & ((1 << expBits) - 1);
  int man = x & ((1 << manBits) - 1);
  if (fmt == Fp8Format::FNUZ && x == 0x80)
    return NAN;
  if (fmt == Fp8Format::OCP) {
    if (manBits == 3 && exp == 15 && man == 7)
      return NAN;
    if (manBits == 2 && exp == 31)
      return man ? NAN : (sign ? -INFINITY : INFINITY);
  }
  double v = exp == 0 ? std::ldexp(man, 1 - bias - manBits)
                      : std::ldexp((1 << manBits) + man, exp - bias - manBits);
  return sign ? -v : v;
}

static double element(const void *regs, uint32_t i, hkemu_type t,
                      Fp8Format fmt) {
  switch (t) {
  case HKEMU_BF16:
    return bf16ToDouble(static_cast<const uint16_t *>(regs)[i]);
  case HKEMU_F16:
    return f16ToDouble(static_cast<const uint16_t *>(regs)[i]);
  case HKEMU_FP8:
    return fp8ToDouble(static_cast<const uint8_t *>(regs)[i], 3, fmt);
  case HKEMU_BF8:
    return fp8ToDouble(static_cast<const uint8_t *>(regs)[i], 2, fmt);
  }
  return NAN;
}

static const char *typeName(hkemu_type t) {
  switch (t) {
  case HKEMU_BF16: return "bf16";
  case HKEMU_F16: return "f16";
  case HKEMU_FP8: return "fp8";
  case HKEMU_BF8: return "bf8";
  }
  return "?";
}

std::string hk::emu::checkMfma(const ChipInfo &chip, const MfmaOperands &op) {
  std::string shape = std::to_string(op.m) + "x" + std::to_string(op.n) +
                      "x" + std::to_string(op.k);
  bool is8 = op.aType == HKEMU_FP8 || op.aType == HKEMU_BF8;
  bool b8 = op.bType == HKEMU_FP8 || op.bType == HKEMU_BF8;
  if (op.aType > HKEMU_BF8 || op.bType > HKEMU_BF8)
    return "MFMA with an unknown operand type";
  if (is8 != b8 || (!is8 && op.aType != op.bType))
    return std::string("MFMA mixes ") + typeName(op.aType) + " and " +
           typeName(op.bType);
  bool cdna4 = std::string(chip.name) == "gfx950";
  bool ok;
  if (is8)
    ok = (op.m == 16 && op.n == 16 && op.k == 32) ||
         (op.m == 32 && op.n == 32 && op.k == 16);
  else
    ok = (op.m == 16 && op.n == 16 && (op.k == 16 || (cdna4 && op.k == 32))) ||
         (op.m == 32 && op.n == 32 && (op.k == 8 || (cdna4 && op.k == 16)));
  if (!ok)
    return std::string("no ") + typeName(op.aType) + " MFMA " + shape +
           " on " + chip.name;
  return "";
}

void hk::emu::executeMfma(const ChipInfo &chip,
                          const MfmaOperands *const *lanes) {
  const MfmaOperands &op0 = *lanes[0];
  const uint32_t M = op0.m, N = op0.n, K = op0.k;
  const uint32_t kpl = K * M / kWaveLanes, regsD = M * N / kWaveLanes;
  double A[32][32], B[32][32], C[32][32];
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    const MfmaOperands &op = *lanes[l];
    for (uint32_t i = 0; i < kpl; ++i) {
      uint32_t k = kpl * (l / M) + i;
      A[l % M][k] = element(op.a, i, op.aType, chip.fp8);
      B[k][l % N] = element(op.b, i, op.bType, chip.fp8);
    }
  }
  auto dRow = [&](uint32_t l, uint32_t r) {
    return M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4;
  };
  // Gather C completely before writing D: d may alias c.
  for (uint32_t l = 0; l < kWaveLanes; ++l)
    for (uint32_t r = 0; r < regsD; ++r)
      C[dRow(l, r)][l % N] = lanes[l]->c[r];
  for (uint32_t l = 0; l < kWaveLanes; ++l)
    for (uint32_t r = 0; r < regsD; ++r) {
      uint32_t row = dRow(l, r), col = l % N;
      double acc = C[row][col];
      for (uint32_t k = 0; k < K; ++k)
        acc += A[row][k] * B[k][col];
      lanes[l]->d[r] = float(acc);
    }
}
