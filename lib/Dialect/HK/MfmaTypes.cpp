//===- MfmaTypes.cpp - MLIR element types as MFMA inputs of a chip --------===//

#include "hk/Dialect/HK/MfmaTypes.h"
#include "hk/Dialect/HK/HKDialect.h"

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
  // The chip's own formats, whichever they are.
  if (isa<Fp8Type>(element))
    return MfmaInput::FP8;
  if (isa<Bf8Type>(element))
    return MfmaInput::BF8;
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

bool hk::isChipFloat8(Type type) { return isa<Fp8Type, Bf8Type>(type); }

Type hk::resolveChipFloat8(Type chipFloat, const hk::ChipInfo &chip) {
  if (!isChipFloat8(chipFloat))
    return chipFloat;
  MLIRContext *ctx = chipFloat.getContext();
  bool e4m3 = isa<Fp8Type>(chipFloat);
  switch (chip.fp8) {
  case Fp8Format::None:
    return {};
  case Fp8Format::FNUZ:
    return e4m3 ? Type(Float8E4M3FNUZType::get(ctx))
                : Type(Float8E5M2FNUZType::get(ctx));
  case Fp8Format::OCP:
    return e4m3 ? Type(Float8E4M3FNType::get(ctx))
                : Type(Float8E5M2Type::get(ctx));
  }
  return {};
}
