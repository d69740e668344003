//===- Mfma.cpp - MFMA over a wave in the hardware register layout --------===//
//
// The layouts are defined once, in runtime/core/MfmaLayout.h (shared with
// the ISA simulator): those of AMD's matrix instruction calculator for CDNA3
// (unittests/Runtime/Inputs/*.csv, checked element by element) and their
// K extension for the gfx950 shapes. The same rules give the f32 (16x16x4,
// 32x32x2), xf32 (16x16x8) and i8 (16x16x32, 32x32x16) layouts of the
// calculator's CSVs. Products are exact in double and summed in double, then
// rounded once to f32: the hardware's f32 accumulation differs from this by
// rounding only. i8 products and sums are exact in int64, wrapped to the i32 of
// D.
//
// xf32 (gfx942 only; CDNA4 removed the instructions and LLVM 22 cannot
// select them for gfx950) multiplies f32 registers reduced to 10 mantissa
// bits. The hardware truncates (rounds toward zero) rather than rounding to
// nearest: the CDNA3 ISA guide is ambiguous, but ROCm's hipBLASLt rounds
// operands in software before its gfx942 xf32 MFMAs precisely because the
// hardware truncates, and Triton's gfx942 tf32 path observes the low 13
// mantissa bits being dropped. The emulator drops them the same way.
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "../core/MfmaLayout.h"

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

static double f32ToDouble(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
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
  case HKEMU_F32:
    return f32ToDouble(static_cast<const uint32_t *>(regs)[i]);
  case HKEMU_XF32:
    // Keep sign, exponent and the top 10 mantissa bits (see above).
    return f32ToDouble(static_cast<const uint32_t *>(regs)[i] & ~0x1FFFu);
  case HKEMU_I8:
    return static_cast<const int8_t *>(regs)[i];
  }
  return NAN;
}

/// The table's name for an hkemu operand type.
static MfmaInput mfmaInput(hkemu_type t) {
  switch (t) {
  case HKEMU_BF16:
    return MfmaInput::BF16;
  case HKEMU_F16:
    return MfmaInput::F16;
  case HKEMU_FP8:
    return MfmaInput::FP8;
  case HKEMU_BF8:
    return MfmaInput::BF8;
  case HKEMU_F32:
    return MfmaInput::F32;
  case HKEMU_XF32:
    return MfmaInput::XF32;
  case HKEMU_I8:
    return MfmaInput::I8;
  }
  return MfmaInput::F32;
}

static const char *typeName(hkemu_type t) {
  return mfmaInputName(mfmaInput(t));
}

static bool isFp8(hkemu_type t) { return t == HKEMU_FP8 || t == HKEMU_BF8; }

std::string hk::emu::checkMfma(const ChipInfo &chip, const MfmaOperands &op) {
  std::string shape = std::to_string(op.m) + "x" + std::to_string(op.n) + "x" +
                      std::to_string(op.k);
  if (op.aType > HKEMU_I8 || op.bType > HKEMU_I8)
    return "MFMA with an unknown operand type";
  if (op.aType != op.bType && !(isFp8(op.aType) && isFp8(op.bType)))
    return std::string("MFMA mixes ") + typeName(op.aType) + " and " +
           typeName(op.bType);
  bool i8 = op.aType == HKEMU_I8;
  if (i8 && !op.intAcc)
    return "i8 MFMA accumulates in i32: use hkemu_mfma_i32";
  if (!i8 && op.intAcc)
    return std::string("hkemu_mfma_i32 takes i8 operands, not ") +
           typeName(op.aType);
  MfmaInput input = mfmaInput(op.aType);
  bool any = false;
  for (const MfmaInstr &mfma : chip.mfmas)
    any |= mfma.input == input;
  if (!any)
    return std::string("no ") + typeName(op.aType) + " MFMA on " + chip.name;
  if (!findMfma(chip, input, int(op.m), int(op.n), int(op.k)))
    return std::string("no ") + typeName(op.aType) + " MFMA " + shape + " on " +
           chip.name;
  return "";
}

void hk::emu::executeMfma(const ChipInfo &chip,
                          const MfmaOperands *const *lanes) {
  const MfmaOperands &op0 = *lanes[0];
  const rt::MfmaShape shape{op0.m, op0.n, op0.k};
  const uint32_t kpl = shape.kPerLane(), regsD = shape.dRegs();
  // Every supported element type is exact in double (i8 as integers; an i8
  // sum, |A*B| <= 2^14 per product, is exact in double too).
  // Not on the stack: lanes run on fibers with small stacks.
  thread_local double a[kWaveLanes * 32], b[kWaveLanes * 32],
      c[kWaveLanes * 16], d[kWaveLanes * 16];
  for (uint32_t l = 0; l < kWaveLanes; ++l) {
    const MfmaOperands &op = *lanes[l];
    for (uint32_t i = 0; i < kpl; ++i) {
      a[l * kpl + i] = element(op.a, i, op.aType, chip.fp8);
      b[l * kpl + i] = element(op.b, i, op.bType, chip.fp8);
    }
    for (uint32_t r = 0; r < regsD; ++r)
      c[l * regsD + r] = op0.intAcc ? double(op.ci[r]) : double(op.c[r]);
  }
  rt::mfmaMultiply(shape, a, b, c, d);
  for (uint32_t l = 0; l < kWaveLanes; ++l)
    for (uint32_t r = 0; r < regsD; ++r) {
      if (op0.intAcc)
        lanes[l]->di[r] =
            int32_t(uint32_t(uint64_t(int64_t(d[l * regsD + r]))));
      else
        lanes[l]->d[r] = float(d[l * regsD + r]);
    }
}

extern "C" void hkemu_mfma_i32(hkemu_lane *lane, uint32_t m, uint32_t n,
                               uint32_t k, hkemu_type aType, hkemu_type bType,
                               const void *a, const void *b, const int32_t *c,
                               int32_t *d) {
  MfmaOperands op{m, n, k, aType, bType, a, b, nullptr, nullptr};
  op.intAcc = true;
  op.ci = c;
  op.di = d;
  std::string bad = checkMfma(*lane->engine->chip, op);
  if (!bad.empty())
    lane->engine->fail(lane, bad);
  lane->engine->arrive(lane, Collective::Mfma, &op);
}
