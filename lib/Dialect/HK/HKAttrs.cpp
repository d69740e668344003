//===- HKAttrs.cpp - hk attributes ----------------------------------------===//

#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hk;

#include "hk/Dialect/HK/HKEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "hk/Dialect/HK/HKAttrs.cpp.inc"

void HKDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "hk/Dialect/HK/HKAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #hk.rt
//===----------------------------------------------------------------------===//

// #hk.rt<col, 32x32, group = 4>
Attribute RegTileLayoutAttr::parse(AsmParser &parser, Type) {
  StringRef keyword;
  SmallVector<int64_t, 2> shape;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  SMLoc layoutLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return {};
  std::optional<Layout> layout = symbolizeLayout(keyword);
  if (!layout) {
    parser.emitError(layoutLoc, "expected layout 'row' or 'col', got '")
        << keyword << "'";
    return {};
  }
  if (parser.parseComma())
    return {};
  SMLoc shapeLoc = parser.getCurrentLocation();
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/false))
    return {};
  if (shape.size() != 2) {
    parser.emitError(shapeLoc, "expected a base tile shape RxC");
    return {};
  }
  int64_t group = shape[0] * shape[1] / hk::kWaveSize;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("group") || parser.parseEqual() ||
        parser.parseInteger(group))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *layout, shape[0], shape[1], group);
}

void RegTileLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyLayout(getLayout()) << ", " << getBaseRows() << "x"
          << getBaseCols();
  if (getGroup() != getElemsPerLane())
    printer << ", group = " << getGroup();
  printer << ">";
}

LogicalResult
RegTileLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          Layout layout, int64_t baseRows, int64_t baseCols,
                          int64_t group) {
  hk::BaseTileLayout base{layout == Layout::Row ? hk::Major::Row
                                                : hk::Major::Col,
                          baseRows, baseCols, group};
  if (std::string err = base.validate(); !err.empty())
    return emitError() << err;
  return success();
}

/// i1 is a mask: what arith.cmpf/cmpi give and arith.select takes.
static bool isTileElementType(Type t) {
  if (auto f = dyn_cast<FloatType>(t))
    return f.getWidth() == 8 || f.isF16() || f.isBF16() || f.isF32();
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() == 8 || i.getWidth() == 32 || i.getWidth() == 1;
  return false;
}

/// Registers of one lane: 256 VGPRs and 256 AGPRs of 4 bytes each.
static constexpr int64_t kRegisterBytesPerLane = 512 * 4;

/// A register tile lives in the registers of one wave: one that needs more
/// than a lane has cannot exist.
static LogicalResult
verifyRegisterBudget(ArrayRef<int64_t> shape, int64_t bits,
                     function_ref<InFlightDiagnostic()> emitError) {
  // An i1 mask is counted as a byte per element.
  int64_t bytes = std::max<int64_t>(1, bits / 8);
  bool overflow = false;
  for (int64_t d : shape)
    overflow |= llvm::MulOverflow(bytes, d, bytes) != 0;
  if (!overflow && bytes / hk::kWaveSize <= kRegisterBytesPerLane)
    return success();
  InFlightDiagnostic diag = emitError() << "register tile needs ";
  if (overflow)
    diag << "more than 2^63 bytes";
  else
    diag << bytes / hk::kWaveSize << " bytes per lane";
  return diag << ", more than the " << kRegisterBytesPerLane
              << " bytes of registers (512 VGPRs and AGPRs) a lane has";
}

LogicalResult RegTileLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "register tile must have rank 2, got rank "
                       << shape.size();
  if (ShapedType::isDynamicShape(shape))
    return emitError() << "register tile must have a static shape";
  // The 6- and 4-bit floats of OCP MX are operands of hk.mma_scaled only.
  bool narrow =
      isa<Float6E2M3FNType, Float6E3M2FNType, Float4E2M1FNType>(elementType);
  if (!isTileElementType(elementType) && !narrow)
    return emitError() << "register tile element type must be f32, f16, "
                          "bf16, an 8-bit float, f6E2M3FN, f6E3M2FN, "
                          "f4E2M1FN, i8, i32 or i1 (a mask), got "
                       << elementType;
  int64_t bits = elementType.getIntOrFloatBitWidth();
  // The base tiles of the f8f6f4 MFMAs' operands (32 elements per lane).
  bool narrowBase = getBaseRows() * getBaseCols() == 2048;
  if (narrowBase && bits > 8)
    return emitError() << "base tile " << getBaseRows() << "x" << getBaseCols()
                       << " is only for 8-, 6- and 4-bit element types, got "
                       << elementType;
  hk::TileLayout layout{shape[0],
                        shape[1],
                        {isRow() ? hk::Major::Row : hk::Major::Col,
                         getBaseRows(), getBaseCols(), getGroup()}};
  if (std::string err = layout.validate(); !err.empty())
    return emitError() << err;
  return verifyRegisterBudget(shape, bits, emitError);
}

//===----------------------------------------------------------------------===//
// #hk.rv
//===----------------------------------------------------------------------===//

LogicalResult RegVecLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 1)
    return emitError() << "register vector must have rank 1, got rank "
                       << shape.size();
  if (ShapedType::isDynamic(shape[0]))
    return emitError() << "register vector must have a static length";
  if (!isTileElementType(elementType))
    return emitError() << "register vector element type must be f32, f16, "
                          "bf16, an 8-bit float, i8, i32 or i1 (a mask), got "
                       << elementType;
  RegTileLayoutAttr tile = getTile();
  int64_t extent =
      getAxis() == Layout::Row ? tile.getBaseRows() : tile.getBaseCols();
  if (shape[0] <= 0 || shape[0] % extent != 0)
    return emitError() << "register vector length " << shape[0]
                       << " is not a multiple of the base tile's "
                       << (getAxis() == Layout::Row ? "rows" : "columns")
                       << " (" << extent << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// #hk.grid
//===----------------------------------------------------------------------===//

// #hk.grid<[dim(2, 0), arg(3)] -> (s0 ceildiv 256, s1)>
Attribute GridAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> args, dims;
  auto parseSymbol = [&]() -> ParseResult {
    StringRef kind;
    int64_t arg = 0, dim = kScalarArg;
    SMLoc kindLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&kind) || parser.parseLParen() ||
        parser.parseInteger(arg))
      return failure();
    if (kind == "dim") {
      if (parser.parseComma())
        return failure();
      SMLoc dimLoc = parser.getCurrentLocation();
      if (parser.parseInteger(dim))
        return failure();
      // Checked here: a negative dimension would read back as `arg(i)`.
      if (dim < 0)
        return parser.emitError(dimLoc, "grid symbol dimension must not be "
                                        "negative, got ")
               << dim;
    } else if (kind != "arg") {
      return parser.emitError(kindLoc, "expected 'dim' or 'arg', got '")
             << kind << "'";
    }
    args.push_back(arg);
    dims.push_back(dim);
    return parser.parseRParen();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseSymbol) ||
      parser.parseArrow())
    return {};

  SmallVector<std::pair<StringRef, AffineExpr>> symbols;
  SmallVector<std::string> names;
  for (size_t i = 0; i < args.size(); ++i)
    names.push_back("s" + std::to_string(i));
  for (size_t i = 0; i < args.size(); ++i)
    symbols.push_back({names[i], getAffineSymbolExpr(i, parser.getContext())});
  SmallVector<AffineExpr> results;
  auto parseResult = [&]() -> ParseResult {
    AffineExpr e;
    if (parser.parseAffineExpr(symbols, e))
      return failure();
    results.push_back(e);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren,
                                     parseResult) ||
      parser.parseGreater())
    return {};
  auto map = AffineMap::get(0, args.size(), results, parser.getContext());
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    args, dims, map);
}

void GridAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  for (size_t i = 0; i < getSymbolArgs().size(); ++i) {
    if (i)
      printer << ", ";
    if (getSymbolDims()[i] == kScalarArg)
      printer << "arg(" << getSymbolArgs()[i] << ")";
    else
      printer << "dim(" << getSymbolArgs()[i] << ", " << getSymbolDims()[i]
              << ")";
  }
  printer << "] -> (";
  llvm::interleaveComma(getMap().getResults(), printer,
                        [&](AffineExpr e) { e.print(printer.getStream()); });
  printer << ")>";
}

LogicalResult GridAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> symbolArgs,
                               ArrayRef<int64_t> symbolDims, AffineMap map) {
  if (symbolArgs.size() != symbolDims.size() ||
      map.getNumSymbols() != symbolArgs.size())
    return emitError() << "grid binds " << symbolArgs.size()
                       << " symbols but its map uses " << map.getNumSymbols();
  if (map.getNumResults() < 1 || map.getNumResults() > 3)
    return emitError() << "grid must have 1 to 3 dimensions, got "
                       << map.getNumResults();
  for (auto [arg, dim] : llvm::zip(symbolArgs, symbolDims)) {
    if (arg < 0)
      return emitError() << "grid refers to negative argument " << arg;
    if (dim < kScalarArg)
      return emitError() << "grid refers to negative dimension " << dim;
  }
  return success();
}
