//===- HKTypes.cpp - hk types ---------------------------------------------===//

#include "hk/Base/Chip.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hk;

#define GET_TYPEDEF_CLASSES
#include "hk/Dialect/HK/HKTypes.cpp.inc"

void HKDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "hk/Dialect/HK/HKTypes.cpp.inc"
      >();
}

// Before the chip is chosen, !hk.fp8 and !hk.bf8 are floats of the OCP
// formats' semantics: the widths are those of the FNUZ formats too, which is
// all the verifiers of arith's casts ask.
const llvm::fltSemantics &Fp8Type::getFloatSemantics() const {
  return llvm::APFloat::Float8E4M3FN();
}

const llvm::fltSemantics &Bf8Type::getFloatSemantics() const {
  return llvm::APFloat::Float8E5M2();
}

// !hk.st<128x64xbf16, 16x32>
Type SharedTileType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t, 2> shape, subtile;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc subLoc = parser.getCurrentLocation();
  if (parser.parseDimensionList(subtile, /*allowDynamic=*/false,
                                /*withTrailingX=*/false) ||
      parser.parseGreater())
    return {};
  if (subtile.size() != 2) {
    parser.emitError(subLoc, "expected a subtile shape RxC");
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType, subtile);
}

void SharedTileType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getSubtileShape()[0] << "x"
          << getSubtileShape()[1] << ">";
}

int64_t SharedTileType::getSizeInBytes() const {
  return getRows() * getCols() * getElementType().getIntOrFloatBitWidth() / 8;
}

hk::SharedLayout hk::sharedLayoutOf(Type sharedTile) {
  auto t = cast<SharedTileType>(sharedTile);
  return {t.getRows(), t.getCols(), t.getSubtileShape()[0],
          t.getSubtileShape()[1],
          t.getElementType().getIntOrFloatBitWidth() / 8};
}

int64_t SharedTileType::getBytesPerLane() const {
  return getSubtileShape()[0] * getSubtileShape()[1] *
         getElementType().getIntOrFloatBitWidth() / 8 / hk::kWaveSize;
}

static bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

LogicalResult
SharedTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType,
                       ArrayRef<int64_t> subtile) {
  if (shape.size() != 2)
    return emitError() << "shared tile must have rank 2, got rank "
                       << shape.size();
  // i8 holds bytes that hk.load reads back as 8- or 4-bit floats (MX data
  // staged as it is passed, globalLoadPacking).
  auto f = dyn_cast<FloatType>(elementType);
  if (!elementType.isInteger(8) &&
      (!f || !(f.getWidth() == 8 || f.isF16() || f.isBF16() || f.isF32())))
    return emitError() << "shared tile element type must be f32, f16, bf16, "
                          "an 8-bit float or i8 (bytes), got "
                       << elementType;
  if (subtile.size() != 2)
    return emitError() << "subtile must have rank 2, got rank "
                       << subtile.size();
  if (!isPowerOf2(subtile[0]) || !isPowerOf2(subtile[1]) || subtile[0] < 8 ||
      subtile[1] < 8)
    return emitError() << "subtile dimensions must be powers of two of at "
                          "least 8, got "
                       << subtile[0] << "x" << subtile[1];
  if (shape[0] <= 0 || shape[1] <= 0 || shape[0] % subtile[0] ||
      shape[1] % subtile[1])
    return emitError() << "shared tile " << shape[0] << "x" << shape[1]
                       << " is not a multiple of its subtile " << subtile[0]
                       << "x" << subtile[1];
  int64_t bits = elementType.getIntOrFloatBitWidth();
  int64_t subBytes = subtile[0] * subtile[1] * bits / 8;
  // A wave copies one subtile per instruction, 4, 8 or 16 bytes per lane.
  int64_t perLane = subBytes / hk::kWaveSize;
  if (subBytes % hk::kWaveSize ||
      (perLane != 4 && perLane != 8 && perLane != 16))
    return emitError() << "subtile " << subtile[0] << "x" << subtile[1]
                       << " of " << elementType << " is " << subBytes
                       << " bytes; a wave moves one subtile at 4, 8 or 16 "
                          "bytes per lane (256, 512 or 1024 bytes)";
  // Each extent is at most the LDS size, so the product cannot overflow.
  if (shape[0] > hk::maxLdsBytes() || shape[1] > hk::maxLdsBytes())
    return emitError() << "shared tile " << shape[0] << "x" << shape[1]
                       << " needs more than the " << hk::maxLdsBytes()
                       << " bytes of LDS of the largest chip";
  int64_t bytes = shape[0] * shape[1] * bits / 8;
  if (bytes > hk::maxLdsBytes())
    return emitError() << "shared tile needs " << bytes
                       << " bytes of LDS, more than the " << hk::maxLdsBytes()
                       << " bytes of the largest chip";
  return success();
}
