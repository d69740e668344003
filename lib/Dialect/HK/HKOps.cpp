//===- HKOps.cpp - hk operations ------------------------------------------===//

#include "hk/Base/Chip.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/ShapedOpInterfaces.h"

using namespace mlir;
using namespace hk;

#define GET_OP_CLASSES
#include "hk/Dialect/HK/HKOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static RegTileLayoutAttr tileAttr(Type t) {
  return cast<RegTileLayoutAttr>(cast<RankedTensorType>(t).getEncoding());
}

static RegVecLayoutAttr vecAttr(Type t) {
  return cast<RegVecLayoutAttr>(cast<RankedTensorType>(t).getEncoding());
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

static std::string baseStr(RegTileLayoutAttr a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  Attribute(a).print(os);
  return s;
}

/// Emits an error unless `op` is nested in an hk.kernel; returns the kernel.
static KernelOp enclosingKernel(Operation *op, LogicalResult &result) {
  auto kernel = op->getParentOfType<KernelOp>();
  result = kernel
               ? success()
               : LogicalResult(op->emitOpError("must be inside an hk.kernel"));
  return kernel;
}

/// Checks indices and element type of a tile access to global memory. The
/// last `tileDims` dimensions are indexed in tile units.
static LogicalResult verifyGlobalAccess(Operation *op, MemRefType memref,
                                        size_t numIndices, Type elementType,
                                        int64_t tileDims) {
  if (memref.getRank() < tileDims)
    return op->emitOpError("needs a memref of rank at least ")
           << tileDims << ", got rank " << memref.getRank();
  if (static_cast<int64_t>(numIndices) != memref.getRank())
    return op->emitOpError("expects ")
           << memref.getRank() << " indices for a memref of rank "
           << memref.getRank() << ", got " << numIndices;
  if (memref.getElementType() != elementType)
    return op->emitOpError("element type of the memref (")
           << memref.getElementType() << ") differs from the tile's ("
           << elementType << ")";
  return success();
}

/// Register tile or vector <-> global memory.
static LogicalResult verifyRegisterGlobal(Operation *op, Type reg,
                                          MemRefType memref,
                                          size_t numIndices) {
  auto t = cast<RankedTensorType>(reg);
  return verifyGlobalAccess(op, memref, numIndices, t.getElementType(),
                            t.getRank());
}

/// hk.load of a register tile of 8- or 4-bit floats from a shared tile of
/// bytes (i8), `pack` elements per byte (globalLoadPacking): the shared
/// tile's columns count bytes, and each lane must hold whole bytes, runs of
/// `pack` elements along a row.
static LogicalResult verifyPackedSharedLoad(Operation *op, RankedTensorType t,
                                            SharedTileType st) {
  Type elt = t.getElementType();
  int64_t pack = globalLoadPacking(st.getElementType(), elt);
  // The 6-bit floats (four in three bytes) are read from global memory only.
  if (pack == 0 || globalLoadPackedUnits(st.getElementType(), elt) != 1)
    return op->emitOpError("reads a shared tile of bytes (i8) as ")
           << elt << "; only 8- and 4-bit floats are read from bytes";
  if (t.getDimSize(0) != st.getRows() || t.getDimSize(1) != st.getCols() * pack)
    return op->emitOpError("reads ")
           << pack << " elements per byte: register tile "
           << shapeStr(t.getShape()) << " needs a shared tile of "
           << t.getDimSize(0) << "x" << t.getDimSize(1) / pack << " bytes, got "
           << shapeStr(st.getShape());
  RegTileLayoutAttr a = tileAttr(t);
  if (pack > 1 && (!a.isRow() || a.getGroup() % pack != 0))
    return op->emitOpError("reads ")
           << pack
           << " elements per byte: the register tile must be in row layout "
              "with a group that is a multiple of "
           << pack << " (whole bytes per lane), got " << a;
  return success();
}

/// Register tile <-> shared tile of the same shape.
static LogicalResult verifyRegisterShared(Operation *op, Type reg,
                                          SharedTileType st,
                                          size_t numIndices) {
  if (numIndices != 0)
    return op->emitOpError("takes no indices with a shared tile, got ")
           << numIndices;
  if (!isRegTile(reg))
    return op->emitOpError(
        "moves register tiles to and from shared tiles, not vectors");
  auto t = cast<RankedTensorType>(reg);
  if (isa<LoadOp>(op) && t.getElementType() != st.getElementType() &&
      st.getElementType().isInteger(8))
    return verifyPackedSharedLoad(op, t, st);
  if (t.getShape() != st.getShape())
    return op->emitOpError("register tile ")
           << shapeStr(t.getShape()) << " differs in shape from shared tile "
           << shapeStr(st.getShape());
  if (t.getElementType() != st.getElementType())
    return op->emitOpError("register tile element type ")
           << t.getElementType() << " differs from shared tile's "
           << st.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

/// Argument attribute holding the argument's name in the source.
static constexpr llvm::StringLiteral kArgNameAttr = HKDialect::kArgNameAttrName;

/// Whether `name` is one the printer makes up (`arg0`, `arg1`, ...), which is
/// not worth keeping.
static bool isGeneratedArgName(StringRef name) {
  return name.empty() ||
         (name.consume_front("arg") && !name.empty() &&
          llvm::all_of(name, llvm::isDigit)) ||
         llvm::isDigit(name.front());
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes) ||
      function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();

  Builder &b = parser.getBuilder();
  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : args) {
    argTypes.push_back(arg.type);
    StringRef ssaName = arg.ssaName.name.drop_front(); // without the '%'
    NamedAttrList attrs(arg.attrs);
    if (isGeneratedArgName(ssaName) || attrs.get(kArgNameAttr))
      continue;
    attrs.set(kArgNameAttr, b.getStringAttr(ssaName));
    arg.attrs = attrs.getDictionary(b.getContext());
  }
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(b.getFunctionType(argTypes, resultTypes)));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  call_interface_impl::addArgAndResultAttrs(b, result, args, resultAttrs,
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));
  // A missing body is the verifier's to report, with its own message.
  OptionalParseResult body = parser.parseOptionalRegion(
      *result.addRegion(), args, /*enableNameShadowing=*/false);
  return failure(body.has_value() && failed(*body));
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  // The names are printed as the arguments' SSA names (see
  // getAsmBlockArgumentNames), not as attributes.
  ArrayAttr argAttrs;
  if (ArrayAttr all = getArgAttrsAttr()) {
    SmallVector<Attribute> kept;
    bool any = false;
    for (Attribute a : all) {
      NamedAttrList attrs(cast<DictionaryAttr>(a));
      attrs.erase(kArgNameAttr);
      any |= !attrs.empty();
      kept.push_back(attrs.getDictionary(getContext()));
    }
    if (any)
      argAttrs = ArrayAttr::get(getContext(), kept);
  }
  call_interface_impl::printFunctionSignature(
      p, getArgumentTypes(), argAttrs, /*isVariadic=*/false, getResultTypes(),
      getResAttrsAttr(), &getBody(), /*printEmptyResult=*/false);
  function_interface_impl::printFunctionAttributes(p, *this,
                                                   {getFunctionTypeAttrName(),
                                                    getArgAttrsAttrName(),
                                                    getResAttrsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  for (BlockArgument arg : region.getArguments())
    if (auto name =
            getArgAttrOfType<StringAttr>(arg.getArgNumber(), kArgNameAttr))
      setNameFn(arg, name.getValue());
}

int64_t KernelOp::getSharedMemoryBytes() {
  int64_t bytes = 0;
  for (auto alloc : getBody().getOps<AllocSharedOp>())
    bytes += alloc.getType().getSizeInBytes();
  return bytes;
}

LogicalResult KernelOp::verify() {
  if (getBody().empty())
    return emitOpError("must have a body");
  if (!getFunctionType().getResults().empty())
    return emitOpError("must not return values, got ")
           << getFunctionType().getNumResults() << " result(s)";
  int32_t waves = getWaves();
  if (waves != 1 && waves != 2 && waves != 4 && waves != 8 && waves != 16)
    return emitOpError("waves must be 1, 2, 4, 8 or 16, got ") << waves;
  // A SIMD holds at most 8 waves.
  if (std::optional<uint32_t> min = getMinWavesPerSimd()) {
    int64_t least = getWorkgroupWavesPerSimd();
    if (static_cast<int64_t>(*min) < least || *min > 8)
      return emitOpError("min_waves_per_simd must be from ")
             << least << " (a workgroup of " << waves
             << " waves over 4 SIMDs) to 8, got " << *min;
  }

  ArrayRef<Type> args = getFunctionType().getInputs();
  for (auto [i, t] : llvm::enumerate(args)) {
    if (!isa<MemRefType, IntegerType, IndexType, FloatType>(t))
      return emitOpError("argument #")
             << i << " must be a memref or a scalar, got " << t;
    // Arguments are global memory; LDS is only reached through hk.alloc_shared.
    auto m = dyn_cast<MemRefType>(t);
    if (m && m.getMemorySpace())
      return emitOpError("argument #")
             << i << " must be a memref in the default (global) memory "
             << "space, got memory space " << m.getMemorySpace();
    // No element to read or write: every access would be out of bounds
    // (LLVM's AMDGPU backend stopped on the addresses such kernels folded
    // to, test/Compiler/zero-size-memref.test).
    if (m && llvm::is_contained(m.getShape(), 0))
      return emitOpError("argument #")
             << i << " has a dimension of static size 0 (" << t
             << "); a memref argument must be able to hold an element";
  }

  GridAttr grid = getGrid();
  for (auto [s, arg, dim] :
       llvm::enumerate(grid.getSymbolArgs(), grid.getSymbolDims())) {
    if (arg >= static_cast<int64_t>(args.size()))
      return emitOpError("grid symbol s")
             << s << " refers to argument " << arg << " but the kernel has "
             << args.size() << " arguments";
    Type t = args[arg];
    if (dim == GridAttr::kScalarArg) {
      if (!isa<IntegerType, IndexType>(t))
        return emitOpError("grid symbol s")
               << s << " reads argument " << arg
               << " as an integer, but it has type " << t;
      continue;
    }
    auto m = dyn_cast<MemRefType>(t);
    if (!m)
      return emitOpError("grid symbol s")
             << s << " takes a dimension of argument " << arg
             << ", which is not a memref but " << t;
    if (dim >= m.getRank())
      return emitOpError("grid symbol s")
             << s << " takes dimension " << dim << " of argument " << arg
             << ", which has rank " << m.getRank();
  }
  return success();
}

/// memref.dim and tensor.dim with a constant index outside [0, rank) are
/// undefined behaviour upstream; the folders and the lowerings that read the
/// index would index past the shape. Reject them where they enter.
static LogicalResult verifyConstantDimIndices(Region &body) {
  WalkResult result = body.walk([](ShapedDimOpInterface dimOp) {
    auto shaped = dyn_cast<ShapedType>(dimOp.getShapedValue().getType());
    std::optional<int64_t> index = getConstantIntValue(dimOp.getDimension());
    if (!shaped || !shaped.hasRank() || !index)
      return WalkResult::advance();
    int64_t rank = shaped.getRank();
    if (*index < 0 || *index >= rank) {
      dimOp->emitOpError("index ")
          << *index << " is outside [0, " << rank << ") for " << shaped;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult KernelOp::verifyRegions() {
  if (failed(verifyConstantDimIndices(getBody())))
    return failure();
  int64_t bytes = getSharedMemoryBytes();
  if (bytes > hk::maxLdsBytes())
    return emitOpError("allocates ")
           << bytes << " bytes of LDS, more than the " << hk::maxLdsBytes()
           << " bytes of the largest chip";
  return success();
}

//===----------------------------------------------------------------------===//
// Ids
//===----------------------------------------------------------------------===//

static LogicalResult verifyGridDim(Operation *op, GridDim dim) {
  LogicalResult result = success();
  KernelOp kernel = enclosingKernel(op, result);
  if (failed(result))
    return result;
  unsigned rank = kernel.getGrid().getMap().getNumResults();
  if (static_cast<unsigned>(dim) >= rank)
    return op->emitOpError("asks for grid dimension ")
           << stringifyGridDim(dim) << " but the grid of @"
           << kernel.getSymName() << " has " << rank << " dimension"
           << (rank == 1 ? "" : "s");
  return success();
}

LogicalResult BlockIdOp::verify() { return verifyGridDim(*this, getDim()); }
LogicalResult NumBlocksOp::verify() { return verifyGridDim(*this, getDim()); }

LogicalResult WaveIdOp::verify() {
  LogicalResult result = success();
  enclosingKernel(*this, result);
  return result;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult AllocSharedOp::verify() {
  if (!isa_and_nonnull<KernelOp>((*this)->getParentOp()))
    return emitOpError("must be at the top level of an hk.kernel body: LDS "
                       "is allocated once per workgroup");
  return success();
}

/// A constant tile coordinate of hk.subtile must name one of the `srcExtent /
/// resExtent` tiles of the source.
static LogicalResult verifySubtileIndex(Operation *op, Value index,
                                        StringRef what, int64_t srcExtent,
                                        int64_t resExtent) {
  APInt idx;
  if (!matchPattern(index, m_ConstantInt(&idx)))
    return success();
  int64_t count = srcExtent / resExtent, i = idx.getSExtValue();
  if (i < 0 || i >= count)
    return op->emitOpError()
           << what << " index " << i << " is out of range [0, " << count
           << "): the source holds " << count << " tiles of " << resExtent
           << " " << what << "s";
  return success();
}

LogicalResult SubtileOp::verify() {
  SharedTileType src = getSource().getType(), res = getResult().getType();
  if (src.getElementType() != res.getElementType())
    return emitOpError("result element type ")
           << res.getElementType() << " differs from the source's "
           << src.getElementType();
  if (src.getSubtileShape() != res.getSubtileShape())
    return emitOpError("result subtile ")
           << shapeStr(res.getSubtileShape()) << " differs from the source's "
           << shapeStr(src.getSubtileShape());
  if (src.getRows() % res.getRows() || src.getCols() % res.getCols())
    return emitOpError("result ")
           << shapeStr(res.getShape()) << " does not divide the source "
           << shapeStr(src.getShape()) << " into whole tiles";
  if (failed(verifySubtileIndex(*this, getRow(), "row", src.getRows(),
                                res.getRows())))
    return failure();
  return verifySubtileIndex(*this, getCol(), "column", src.getCols(),
                            res.getCols());
}

LogicalResult LoadAsyncOp::verify() {
  SharedTileType st = getDest().getType();
  if (failed(verifyGlobalAccess(*this, getSource().getType(),
                                getIndices().size(), st.getElementType(), 2)))
    return failure();
  LogicalResult result = success();
  KernelOp kernel = enclosingKernel(*this, result);
  if (failed(result))
    return result;
  if (auto waves = getWaves()) {
    if (*waves > static_cast<uint32_t>(kernel.getWaves()))
      return emitOpError("waves = ")
             << *waves << " exceeds the " << kernel.getWaves() << " waves of @"
             << kernel.getSymName();
  }
  return success();
}

LogicalResult WaitOp::verify() {
  if (getTokens().empty())
    return emitOpError("expects at least one token to wait for");
  return success();
}

LogicalResult LoadOp::verify() {
  Type src = getSource().getType();
  if (auto st = dyn_cast<SharedTileType>(src))
    return verifyRegisterShared(*this, getType(), st, getIndices().size());
  // A register tile of 8- or 4-bit floats may be read from the bytes of an
  // i8 memref (globalLoadPacking): MX data and scales passed as bytes.
  auto memref = cast<MemRefType>(src);
  auto t = cast<RankedTensorType>(getType());
  Type elt = memref.getElementType();
  if (elt != t.getElementType() && isRegTile(t) &&
      globalLoadPacking(elt, t.getElementType()) > 0) {
    int64_t pack = globalLoadPacking(elt, t.getElementType());
    int64_t units = globalLoadPackedUnits(elt, t.getElementType());
    if (t.getDimSize(t.getRank() - 1) % pack)
      return emitOpError("reads ")
             << pack << " elements per "
             << (units == 1 ? "byte" : std::to_string(units) + " bytes")
             << ": the tile's columns (" << t.getDimSize(t.getRank() - 1)
             << ") must be a multiple of " << pack;
    return verifyGlobalAccess(*this, memref, getIndices().size(), elt,
                              t.getRank());
  }
  return verifyRegisterGlobal(*this, getType(), memref, getIndices().size());
}

LogicalResult StoreOp::verify() {
  Type value = getValue().getType(), dest = getDest().getType();
  size_t n = getIndices().size();
  if (auto src = dyn_cast<SharedTileType>(value)) {
    auto m = dyn_cast<MemRefType>(dest);
    if (!m)
      return emitOpError("cannot copy a shared tile to a shared tile; load "
                         "it into registers first");
    return verifyGlobalAccess(*this, m, n, src.getElementType(), 2);
  }
  if (auto st = dyn_cast<SharedTileType>(dest))
    return verifyRegisterShared(*this, value, st, n);
  return verifyRegisterGlobal(*this, value, cast<MemRefType>(dest), n);
}

LogicalResult AtomicAddOp::verify() {
  auto t = cast<RankedTensorType>(getValue().getType());
  if (!t.getElementType().isF32())
    return emitOpError("adds f32 tiles only, got ") << t.getElementType();
  return verifyRegisterGlobal(*this, t, getDest().getType(),
                              getIndices().size());
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

namespace {
/// One MMA input seen as its logical (untransposed) operand: extents along
/// the non-K dimension and K, for the whole tile and its base tile, and the
/// `group` that orders each lane's elements along K.
struct MmaOperand {
  StringRef name;
  int64_t outer, k, baseOuter, baseK, group;
};
} // namespace

static FailureOr<MmaOperand> mmaOperand(Operation *op, StringRef name,
                                        RankedTensorType t, bool kFirst,
                                        Layout want) {
  RegTileLayoutAttr a = tileAttr(t);
  if (a.getLayout() != want)
    return op->emitOpError("expects ")
           << name << " in " << stringifyLayout(want)
           << " layout for this kind, got " << stringifyLayout(a.getLayout());
  int64_t outer = t.getDimSize(0), k = t.getDimSize(1);
  int64_t baseOuter = a.getBaseRows(), baseK = a.getBaseCols();
  if (kFirst) {
    std::swap(outer, k);
    std::swap(baseOuter, baseK);
  }
  return MmaOperand{name, outer, k, baseOuter, baseK, a.getGroup()};
}

LogicalResult MmaOp::verify() {
  auto aT = cast<RankedTensorType>(getA().getType());
  auto bT = cast<RankedTensorType>(getB().getType());
  auto cT = cast<RankedTensorType>(getC().getType());
  MmaKind kind = getKind();
  bool aTrans = kind == MmaKind::AtB || kind == MmaKind::AtBt;
  bool bTrans = kind == MmaKind::ABt || kind == MmaKind::AtBt;

  Type elt = aT.getElementType();
  if (elt != bT.getElementType())
    return emitOpError("expects A and B of one element type, got ")
           << elt << " and " << bT.getElementType();
  // The 8-bit formats are those of some chip's MFMAs, or the chip's own
  // (!hk.fp8, !hk.bf8); `hk-check-target` checks that the target chip takes
  // the one used. Both chips have f32 (16x16x4, 32x32x2) and i8 MFMAs.
  bool isInt = elt.isSignlessInteger(8);
  if (!(elt.isBF16() || elt.isF16() || elt.isF32() || isInt ||
        isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
            Float8E5M2FNUZType, Fp8Type, Bf8Type>(elt)))
    return emitOpError("expects bf16, f16, f32, i8, f8E4M3FN, f8E5M2, "
                       "f8E4M3FNUZ, f8E5M2FNUZ, !hk.fp8 or !hk.bf8 inputs, "
                       "got ")
           << elt;

  // i8 products accumulate exactly in i32, the others in f32.
  RegTileLayoutAttr c = tileAttr(cT);
  StringRef accName = isInt ? "i32" : "f32";
  Type accElt = cT.getElementType();
  bool accOk = (isInt ? accElt.isSignlessInteger(32) : accElt.isF32()) &&
               c.isCol() && c.getGroup() == 4 &&
               ((c.getBaseRows() == 16 && c.getBaseCols() == 16) ||
                (c.getBaseRows() == 32 && c.getBaseCols() == 32));
  if (!accOk)
    return emitOpError("expects an ")
           << accName << " accumulator for " << elt
           << " inputs, in col layout with 16x16 or 32x32 (group = 4) base "
              "tiles, got "
           << cT;

  // A is MxK (row), or KxM (col) when transposed; B is KxN (col), or NxK
  // (row) when transposed.
  auto a =
      mmaOperand(*this, "A", aT, aTrans, aTrans ? Layout::Col : Layout::Row);
  auto b =
      mmaOperand(*this, "B", bT, !bTrans, bTrans ? Layout::Row : Layout::Col);
  if (failed(a) || failed(b))
    return failure();
  int64_t m = cT.getDimSize(0), n = cT.getDimSize(1);
  if (a->outer != m)
    return emitOpError("A has ")
           << a->outer << " rows of M but the accumulator has " << m;
  if (b->outer != n)
    return emitOpError("B has ")
           << b->outer << " columns of N but the accumulator has " << n;
  if (a->k != b->k)
    return emitOpError("A has K = ") << a->k << " but B has K = " << b->k;
  if (a->baseOuter != c.getBaseRows())
    return emitOpError("A's base tile spans ")
           << a->baseOuter << " along M but the accumulator's spans "
           << c.getBaseRows();
  if (b->baseOuter != c.getBaseCols())
    return emitOpError("B's base tile spans ")
           << b->baseOuter << " along N but the accumulator's spans "
           << c.getBaseCols();
  if (a->baseK != b->baseK)
    return emitOpError("A's base tile spans ")
           << a->baseK << " along K but B's spans " << b->baseK;
  // An MFMA sums over K, so the order in which lanes and registers walk K
  // does not matter as long as A and B walk it alike. With equal base
  // extents (hence equal lane groups) an equal `group` gives the same
  // lane/register -> K map in both.
  if (a->group != b->group)
    return emitOpError("expects A and B with the same group along K, got "
                       "group = ")
           << a->group << " for A and " << b->group << " for B";
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and broadcasts
//===----------------------------------------------------------------------===//

/// Checks that `vec` is the `axis` vector of the tile type `tile`.
static LogicalResult verifyVectorOfTile(Operation *op, RankedTensorType tile,
                                        RankedTensorType vec, Layout axis,
                                        StringRef what) {
  RegVecLayoutAttr v = vecAttr(vec);
  if (v.getAxis() != axis)
    return op->emitOpError("expects ")
           << what << " to be a " << stringifyLayout(axis) << " vector, got a "
           << stringifyLayout(v.getAxis()) << " vector";
  if (v.getTile() != tileAttr(tile))
    return op->emitOpError("expects ")
           << what << " laid out for tile layout " << baseStr(tileAttr(tile))
           << ", got " << baseStr(v.getTile());
  int64_t len = tile.getDimSize(axis == Layout::Row ? 0 : 1);
  if (vec.getDimSize(0) != len)
    return op->emitOpError("expects ")
           << what << " of length " << len << ", got " << vec.getDimSize(0);
  if (vec.getElementType() != tile.getElementType())
    return op->emitOpError("expects ")
           << what << " of element type " << tile.getElementType() << ", got "
           << vec.getElementType();
  return success();
}

LogicalResult RowReduceOp::verify() {
  return verifyVectorOfTile(*this, getSource().getType(), getType(),
                            Layout::Row, "the result");
}
LogicalResult ColReduceOp::verify() {
  return verifyVectorOfTile(*this, getSource().getType(), getType(),
                            Layout::Col, "the result");
}
LogicalResult RowBroadcastOp::verify() {
  return verifyVectorOfTile(*this, getSource().getType(), getVector().getType(),
                            Layout::Row, "the vector");
}
LogicalResult ColBroadcastOp::verify() {
  return verifyVectorOfTile(*this, getSource().getType(), getVector().getType(),
                            Layout::Col, "the vector");
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

RankedTensorType hk::transposedTileType(RankedTensorType tile) {
  RegTileLayoutAttr s = tileAttr(tile);
  auto layout = RegTileLayoutAttr::get(
      tile.getContext(), s.isRow() ? Layout::Col : Layout::Row, s.getBaseCols(),
      s.getBaseRows(), s.getGroup());
  return RankedTensorType::get({tile.getDimSize(1), tile.getDimSize(0)},
                               tile.getElementType(), layout);
}

LogicalResult TransposeOp::verify() {
  auto src = cast<RankedTensorType>(getSource().getType());
  auto res = cast<RankedTensorType>(getType());
  if (src.getElementType() != res.getElementType())
    return emitOpError("changes the element type from ")
           << src.getElementType() << " to " << res.getElementType();
  auto want = tileAttr(transposedTileType(src));
  if (res.getDimSize(0) != src.getDimSize(1) ||
      res.getDimSize(1) != src.getDimSize(0))
    return emitOpError("expects a ")
           << src.getDimSize(1) << "x" << src.getDimSize(0) << " result, got "
           << shapeStr(res.getShape());
  if (tileAttr(res) != want)
    return emitOpError("expects result layout ")
           << baseStr(want) << ", got " << baseStr(tileAttr(res));
  return success();
}

LogicalResult SwapLayoutOp::verify() {
  auto src = cast<RankedTensorType>(getSource().getType());
  auto res = cast<RankedTensorType>(getType());
  if (src.getShape() != res.getShape())
    return emitOpError("changes the shape from ")
           << shapeStr(src.getShape()) << " to " << shapeStr(res.getShape())
           << "; use hk.transpose to transpose";
  if (src.getElementType() != res.getElementType())
    return emitOpError("changes the element type from ")
           << src.getElementType() << " to " << res.getElementType()
           << "; convert with arith first";
  return success();
}

OpFoldResult SwapLayoutOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  return {};
}

//===----------------------------------------------------------------------===//
// Schedule regions
//===----------------------------------------------------------------------===//

static LogicalResult verifyScheduleRegion(Operation *op, int32_t waves) {
  if (op->getParentOfType<PingPongOp>() || op->getParentOfType<InterleaveOp>())
    return op->emitOpError("cannot be nested in another schedule region");
  LogicalResult result = success();
  KernelOp kernel = enclosingKernel(op, result);
  if (failed(result))
    return result;
  if (static_cast<int32_t>(kernel.getWaves()) != waves)
    return op->emitOpError("needs a kernel with ")
           << waves << " waves, but @" << kernel.getSymName() << " has "
           << kernel.getWaves();
  bool hasCluster = false;
  op->walk([&](ClusterOp) { hasCluster = true; });
  if (!hasCluster)
    return op->emitOpError("holds no hk.cluster to schedule");
  return success();
}

LogicalResult PingPongOp::verify() { return verifyScheduleRegion(*this, 8); }
LogicalResult InterleaveOp::verify() { return verifyScheduleRegion(*this, 4); }

static bool isMemoryMovement(Operation *op) {
  return isa<LoadOp, StoreOp, LoadAsyncOp, AtomicAddOp>(op);
}

LogicalResult ClusterOp::verify() {
  if (!(*this)->getParentOfType<PingPongOp>() &&
      !(*this)->getParentOfType<InterleaveOp>())
    return emitOpError("must be inside hk.ping_pong or hk.interleave");
  if ((*this)->getParentOfType<ClusterOp>())
    return emitOpError("cannot be nested in another hk.cluster");
  bool compute = getKind() == ClusterKind::Compute;
  WalkResult walk = getBody().walk([&](Operation *inner) {
    if (compute ? isMemoryMovement(inner) : isa<MmaOp>(inner)) {
      emitOpError(compute ? "compute cluster moves memory with "
                          : "memory cluster does math with ")
          << inner->getName();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  std::optional<Pairing> pair = getPair();
  if (!pair)
    return success();
  // The pairing alternates the cluster's own MFMAs with its own ALU work:
  // without either there is nothing to alternate.
  if (!compute)
    return emitOpError("pair = ")
           << stringifyPairing(*pair) << " on a memory cluster: only a "
           << "compute cluster issues MFMAs";
  bool hasMma = false, hasTranscendental = false;
  getBody().walk([&](Operation *inner) {
    hasMma |= isa<MmaOp>(inner);
    // The math ops that lower to transcendental instructions (v_exp_f32,
    // v_log_f32, v_rsq_f32, v_sqrt_f32), by name: the dialect does not
    // depend on math.
    hasTranscendental |=
        llvm::is_contained({"math.exp2", "math.exp", "math.log2", "math.log",
                            "math.rsqrt", "math.sqrt"},
                           inner->getName().getStringRef());
  });
  if (!hasMma)
    return emitOpError("pair = ")
           << stringifyPairing(*pair) << " on a cluster with no hk.mma";
  if (*pair == Pairing::MfmaExp && !hasTranscendental)
    return emitOpError("pair = mfma_exp on a cluster with no transcendental "
                       "op (math.exp2, math.exp, math.log2, math.log, "
                       "math.rsqrt, math.sqrt)");
  return success();
}

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  TypeRange expected = parent->getResultTypes();
  if (getValues().getTypes() != expected)
    return emitOpError("yields types (")
           << getValues().getTypes() << ") but the enclosing "
           << parent->getName() << " produces (" << expected << ")";
  return success();
}
