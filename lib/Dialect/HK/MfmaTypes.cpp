//===- MfmaTypes.cpp - MLIR element types as MFMA inputs of a chip --------===//

#include "hk/Dialect/HK/MfmaTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using hk::Fp8Format;
using hk::MfmaInput;

std::optional<MfmaInput> hk::mfmaInputOf(Type element,
                                         const hk::ChipInfo &chip) {
  if (element.isBF16())
    return MfmaInput::BF16;
  if (element.isF16())
    return MfmaInput::F16;
  if (element.isF32())
    return MfmaInput::F32;
  if (element.isSignlessInteger(8))
    return MfmaInput::I8;
  if (chip.fp8 == Fp8Format::None)
    return std::nullopt;
  bool fnuz = chip.fp8 == Fp8Format::FNUZ;
  if (fnuz ? isa<Float8E4M3FNUZType>(element) : isa<Float8E4M3FNType>(element))
    return MfmaInput::FP8;
  if (fnuz ? isa<Float8E5M2FNUZType>(element) : isa<Float8E5M2Type>(element))
    return MfmaInput::BF8;
  return std::nullopt;
}

const char *hk::fp8FormatNames(Fp8Format format) {
  switch (format) {
  case Fp8Format::None:
    return "no 8-bit float formats";
  case Fp8Format::FNUZ:
    return "FNUZ formats (f8E4M3FNUZ, f8E5M2FNUZ)";
  case Fp8Format::OCP:
    return "OCP formats (f8E4M3FN, f8E5M2)";
  }
  return "?";
}
