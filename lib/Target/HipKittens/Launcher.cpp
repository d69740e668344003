//===- Launcher.cpp - the extern "C" host launcher of a kernel ------------===//
//
// The launcher takes raw pointers and sizes, wraps them in HipKittens global
// views, computes the grid from the kernel's #hk.grid and launches.
//
//===----------------------------------------------------------------------===//

#include "HipKittensTypes.h"
#include "KernelEmitter.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::hk;

/// Sizes of non-negative extents: ceildiv becomes `(a + b - 1) / b`.
static std::string printAffine(AffineExpr expr, ArrayRef<std::string> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return std::to_string(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = printAffine(bin.getLHS(), symbols);
  std::string rhs = printAffine(bin.getRHS(), symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "(" + lhs + " / " + rhs + ")";
  case AffineExprKind::CeilDiv:
    return "((" + lhs + " + " + rhs + " - 1) / " + rhs + ")";
  case AffineExprKind::Mod:
    return "(" + lhs + " % " + rhs + ")";
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

static std::string stripParens(std::string text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return text;
  int depth = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0)
      return text;
  }
  return text.substr(1, text.size() - 2);
}

static std::string sizeParam(StringRef arg, int64_t dim) {
  return (arg + "_dim" + Twine(dim)).str();
}

/// A permuted view takes its strides, which must be those of the dense
/// [B, N, H, D] array the kernel's `gl` reads: `s0 = N*H*D`, `s1 = D`,
/// `s2 = H*D` for sizes [B, H, N, D]. Static strides were checked by the
/// translation; dynamic ones become parameters checked at launch.
static void addStrideCheck(MemRefType type, StringRef name,
                           ArrayRef<std::string> sizes,
                           SmallVectorImpl<std::string> &params,
                           SmallVectorImpl<std::string> &checks) {
  ArrayRef<int64_t> strides =
      cast<StridedLayoutAttr>(type.getLayout()).getStrides();
  const std::string &h = sizes[1], &n = sizes[2], &d = sizes[3];
  std::string expected[] = {"int64_t(" + n + ") * " + h + " * " + d,
                            "int64_t(" + d + ")", "int64_t(" + h + ") * " + d};
  for (int64_t i = 0; i < 3; ++i) {
    if (!ShapedType::isDynamic(strides[i]))
      continue;
    std::string param = (name + "_stride" + Twine(i)).str();
    params.push_back("int64_t " + param);
    checks.push_back(param + " != " + expected[i]);
  }
}

/// The global memref an hk op tiles and the shape of its tile, if it has
/// one: a register tile or vector, or a shared tile.
static std::optional<std::pair<Value, SmallVector<int64_t>>>
tiledAccess(Operation *op) {
  Value memref, tile;
  if (auto load = dyn_cast<LoadOp>(op)) {
    memref = load.getSource();
    tile = load.getResult();
  } else if (auto store = dyn_cast<StoreOp>(op)) {
    memref = store.getDest();
    tile = store.getValue();
  } else if (auto load = dyn_cast<LoadAsyncOp>(op)) {
    memref = load.getSource();
    tile = load.getDest();
  } else if (auto add = dyn_cast<AtomicAddOp>(op)) {
    memref = add.getDest();
    tile = add.getValue();
  }
  if (!memref || !isa<MemRefType>(memref.getType()))
    return std::nullopt;
  SmallVector<int64_t> shape;
  if (auto shared = dyn_cast<SharedTileType>(tile.getType()))
    shape = {shared.getRows(), shared.getCols()};
  else
    llvm::append_range(shape,
                       cast<RankedTensorType>(tile.getType()).getShape());
  return std::make_pair(memref, shape);
}

/// HipKittens' global loads and stores do not bound a tile row by row (its
/// register loads bound by the whole array, its shared-tile loads by the
/// tile, its col-layout register loads and stores not at all), so a ragged
/// tile at the edge reads the next row, or past the array, where hk reads
/// zeros. The launcher therefore requires every tiled dimension to be a
/// multiple of its tile: statically sized ones are checked here, dynamic
/// ones become `size % tile != 0` checks.
LogicalResult
KernelEmitter::collectTileChecks(SmallVectorImpl<std::string> &checks) {
  Block &entry = kernel.getBody().front();
  // (argument, dimension) -> tile extents along it.
  std::map<std::pair<unsigned, int64_t>, std::set<int64_t>> extents;
  WalkResult walk = kernel.walk([&](Operation *op) {
    auto access = tiledAccess(op);
    if (!access)
      return WalkResult::advance();
    auto [memref, shape] = *access;
    auto arg = dyn_cast<BlockArgument>(memref);
    if (!arg || arg.getOwner() != &entry)
      return WalkResult::advance();
    auto type = cast<MemRefType>(memref.getType());
    int64_t first = type.getRank() - static_cast<int64_t>(shape.size());
    for (auto [i, extent] : llvm::enumerate(shape)) {
      int64_t dim = first + static_cast<int64_t>(i);
      if (!type.isDynamicDim(dim)) {
        if (type.getDimSize(dim) % extent == 0)
          continue;
        op->emitError("HipKittens' loads and stores do not bound a ragged "
                      "tile: dimension ")
            << dim << " of " << type << " is not a multiple of the tile's "
            << extent;
        return WalkResult::interrupt();
      }
      extents[{arg.getArgNumber(), dim}].insert(extent);
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (const auto &[key, sizes] : extents) {
    for (int64_t size : sizes) {
      // A size that divides another one on this dimension is implied.
      if (llvm::any_of(sizes, [&](int64_t other) {
            return other != size && other % size == 0;
          }))
        continue;
      checks.push_back(sizeParam(argName(key.first), key.second) + " % " +
                       std::to_string(size) + " != 0");
    }
  }
  return success();
}

LogicalResult KernelEmitter::emitLauncher() {
  SmallVector<std::string> tileChecks;
  if (failed(collectTileChecks(tileChecks)))
    return failure();
  SmallVector<std::string> params, kernelArgs, checks;
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    std::string name = argName(index);
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      FailureOr<std::string> scalar = spellScalarType(type, kernel);
      if (failed(scalar))
        return failure();
      params.push_back(*scalar + " " + name);
      kernelArgs.push_back(name);
      continue;
    }
    FailureOr<std::string> elem =
        spellElementType(memref.getElementType(), kernel, arch);
    FailureOr<std::string> view = spellGlobal(memref, kernel, arch);
    if (failed(elem) || failed(view))
      return failure();
    params.push_back(*elem + " *" + name);
    SmallVector<std::string> extents(4, "1"), sizes;
    for (int64_t d = 0; d < memref.getRank(); ++d) {
      if (memref.isDynamicDim(d)) {
        params.push_back("int " + sizeParam(name, d));
        sizes.push_back(sizeParam(name, d));
      } else {
        sizes.push_back(std::to_string(memref.getDimSize(d)));
      }
      extents[glDim(memref, d)] = sizes.back();
    }
    if (isPermutedView(memref))
      addStrideCheck(memref, name, sizes, params, checks);
    kernelArgs.push_back(*view + "(" + name + ", " + llvm::join(extents, ", ") +
                         ")");
  }
  params.push_back("hipStream_t stream");

  // Grid symbols are argument sizes or scalar arguments.
  GridAttr grid = kernel.getGrid();
  SmallVector<std::string> symbols;
  for (auto [arg, dim] :
       llvm::zip(grid.getSymbolArgs(), grid.getSymbolDims())) {
    std::string name = argName(arg);
    if (dim == GridAttr::kScalarArg) {
      symbols.push_back(name);
      continue;
    }
    auto memref = cast<MemRefType>(kernel.getArgumentTypes()[arg]);
    symbols.push_back(memref.isDynamicDim(dim)
                          ? sizeParam(name, dim)
                          : std::to_string(memref.getDimSize(dim)));
  }
  SmallVector<std::string> extents;
  for (AffineExpr expr : grid.getMap().getResults())
    extents.push_back(stripParens(printAffine(expr, symbols)));
  while (extents.size() < 3)
    extents.push_back("1");

  // The shared allocator aligns every tile to 16 bytes.
  int64_t sharedBytes = 0;
  kernel.walk([&](AllocSharedOp alloc) {
    sharedBytes += llvm::alignTo(alloc.getType().getSizeInBytes(), 16);
  });

  StringRef name = kernel.getSymName();
  os << "extern \"C\" hipError_t launch_" << name << "("
     << llvm::join(params, ", ") << ") {\n";
  os.indent();
  if (!checks.empty()) {
    os << "// HipKittens reads the [B, H, N, D] views as dense [B, N, H, D] "
          "arrays.\n";
    os << "if (" << llvm::join(checks, " ||\n    ") << ")\n";
    os << "  return hipErrorInvalidValue;\n";
  }
  if (!tileChecks.empty()) {
    os << "// HipKittens' loads and stores do not bound a ragged tile: every "
          "tiled\n// dimension must be a multiple of its tile.\n";
    os << "if (" << llvm::join(tileChecks, " ||\n    ") << ")\n";
    os << "  return hipErrorInvalidValue;\n";
  }
  os << "// " << grid << "\n";
  os << "const dim3 grid(" << llvm::join(extents, ", ") << ");\n";
  if (sharedBytes > 0) {
    os << "const size_t shared_bytes = " << sharedBytes << ";\n";
    os << "hipError_t err = hipFuncSetAttribute(reinterpret_cast<const void "
          "*>(&"
       << name
       << "), hipFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);\n";
    os << "if (err != hipSuccess)\n";
    os << "  return err;\n";
  }
  os << "hipLaunchKernelGGL(" << name << ", grid, dim3("
     << kernel.getWaves() * 64 << "), "
     << (sharedBytes > 0 ? "shared_bytes" : "0") << ", stream";
  for (const std::string &arg : kernelArgs)
    os << ",\n                   " << arg;
  os << ");\n";
  os << "return hipGetLastError();\n";
  os.unindent();
  os << "}\n";
  return success();
}
