//===- Launcher.cpp - the extern "C" host launcher of a kernel ------------===//
//
// The launcher takes raw pointers and sizes, wraps them in HipKittens global
// views, computes the grid from the kernel's #hk.grid and launches.
//
//===----------------------------------------------------------------------===//

#include "HipKittensTypes.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace mlir;
using namespace hk;

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
KernelEmitter::collectTileChecks(SmallVectorImpl<LaunchCheck> &checks) {
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
    std::string name = argName(key.first);
    for (int64_t size : sizes)
      checks.push_back({sizeParam(name, key.second),
                        std::to_string(size),
                        size,
                        {llvm::formatv("Dimension {0} of {1} is tiled by {2}: "
                                       "HipKittens' loads and stores do not "
                                       "bound a ragged tile.",
                                       key.second, name, size)
                             .str()}});
  }
  return success();
}

static HostExpr constantExpr(int64_t value) {
  return {HostExpr::Constant, std::to_string(value)};
}

/// The launcher's spelling of an index value the kernel computes. Sizes and
/// scalar arguments are the launcher's parameters, and arith on them is
/// spelled in C++ (ceildiv as `(a + b - 1) / b`, sizes being non-negative);
/// ids, loop counters and anything computed by hk or scf ops are the
/// device's. Arith the launcher cannot spell on host values is an error, so
/// that no check is silently dropped.
FailureOr<HostExpr> KernelEmitter::hostExpr(Value value, unsigned depth) {
  Block &entry = kernel.getBody().front();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != &entry || isa<MemRefType>(arg.getType()))
      return HostExpr{HostExpr::Device, ""};
    return HostExpr{HostExpr::Host, argName(arg.getArgNumber())};
  }
  Operation *def = value.getDefiningOp();
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    if (auto attr = dyn_cast<IntegerAttr>(constant.getValue()))
      return constantExpr(attr.getInt());
    return HostExpr{HostExpr::Device, ""};
  }
  if (auto dim = dyn_cast<memref::DimOp>(def)) {
    auto arg = dyn_cast<BlockArgument>(dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!arg || arg.getOwner() != &entry || !index)
      return dim.emitError("the launcher cannot name this size");
    auto type = cast<MemRefType>(arg.getType());
    if (!type.isDynamicDim(*index))
      return constantExpr(type.getDimSize(*index));
    return HostExpr{HostExpr::Host,
                    sizeParam(argName(arg.getArgNumber()), *index)};
  }
  if (!isa<arith::ArithDialect>(def->getDialect()) || depth > 64)
    return HostExpr{HostExpr::Device, ""};
  SmallVector<std::string> texts;
  HostExpr::Kind kind = HostExpr::Constant;
  for (Value operand : def->getOperands()) {
    FailureOr<HostExpr> part = hostExpr(operand, depth + 1);
    if (failed(part))
      return failure();
    if (part->kind == HostExpr::Device)
      return HostExpr{HostExpr::Device, ""};
    if (part->kind == HostExpr::Host)
      kind = HostExpr::Host;
    texts.push_back(part->text);
  }
  auto binary = [&](StringRef op) {
    return HostExpr{kind,
                    "(" + texts[0] + " " + op.str() + " " + texts[1] + ")"};
  };
  auto pick = [&](StringRef cmp) {
    return HostExpr{kind, "(" + texts[0] + " " + cmp.str() + " " + texts[1] +
                              " ? " + texts[0] + " : " + texts[1] + ")"};
  };
  if (isa<arith::AddIOp>(def))
    return binary("+");
  if (isa<arith::SubIOp>(def))
    return binary("-");
  if (isa<arith::MulIOp>(def))
    return binary("*");
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(def))
    return binary("/");
  if (isa<arith::RemUIOp, arith::RemSIOp>(def))
    return binary("%");
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(def))
    return HostExpr{kind, "((" + texts[0] + " + " + texts[1] + " - 1) / " +
                              texts[1] + ")"};
  if (isa<arith::MinUIOp, arith::MinSIOp>(def))
    return pick("<");
  if (isa<arith::MaxUIOp, arith::MaxSIOp>(def))
    return pick(">");
  if (isa<arith::ShLIOp>(def))
    return binary("<<");
  if (isa<arith::ShRUIOp, arith::ShRSIOp>(def))
    return binary(">>");
  if (isa<arith::AndIOp>(def))
    return binary("&");
  if (isa<arith::OrIOp>(def))
    return binary("|");
  if (isa<arith::XOrIOp>(def))
    return binary("^");
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(def))
    return HostExpr{kind, texts[0]};
  if (isa<arith::SelectOp>(def))
    return HostExpr{kind,
                    "(" + texts[0] + " ? " + texts[1] + " : " + texts[2] + ")"};
  return def->emitError("the launcher cannot spell this operation on sizes "
                        "and scalar arguments, so it cannot check that the "
                        "division using it is exact");
}

/// `x` when `value` is `x + (c - 1)`: the numerator of `(x + c - 1) / c`,
/// the ceildiv the examples spell with arith.divui.
static Value ceilDivNumerator(Value value, int64_t divisor) {
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return value;
  for (int i = 0; i < 2; ++i) {
    APInt pad;
    if (matchPattern(add->getOperand(i), m_ConstantInt(&pad)) &&
        pad.getSExtValue() == divisor - 1)
      return add->getOperand(1 - i);
  }
  return value;
}

/// A division of a value computed from sizes or scalar arguments is how a
/// kernel counts tiles (`ceildiv(K, 64)` K steps, `H / H_kv` query heads per
/// key head). A partial count makes the kernel address a tile partly or
/// wholly past an array, which hk reads as zeros and HipKittens does not
/// (docs/hipkittens-lowering.md), and a floor quotient drops a remainder
/// that another index may still reach. So every such division must be exact:
/// `x % c != 0` is rejected for `x ceildiv c`, `(x + c - 1) / c` and `x / c`,
/// `d == 0 || x % d != 0` for a divisor `d` the launcher knows. A size divided
/// by a value only the device knows cannot be checked and is an error.
LogicalResult
KernelEmitter::collectDivisionChecks(SmallVectorImpl<LaunchCheck> &checks) {
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (!isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp,
             arith::CeilDivUIOp, arith::CeilDivSIOp>(op))
      return WalkResult::advance();
    bool ceil = isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(op);
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    FailureOr<HostExpr> divisor = hostExpr(rhs);
    if (failed(divisor))
      return WalkResult::interrupt();
    std::optional<int64_t> constDivisor;
    APInt c;
    if (matchPattern(rhs, m_ConstantInt(&c))) {
      constDivisor = c.getSExtValue();
      Value numerator = ceilDivNumerator(lhs, *constDivisor);
      ceil |= numerator != lhs;
      lhs = numerator;
    }
    FailureOr<HostExpr> value = hostExpr(lhs);
    if (failed(value))
      return WalkResult::interrupt();
    if (value->kind != HostExpr::Host || constDivisor == 1)
      return WalkResult::advance();
    if (divisor->kind == HostExpr::Device) {
      op->emitError("the launcher cannot check that this division of ")
          << value->text << " is exact: its divisor is computed on the device";
      return WalkResult::interrupt();
    }
    std::string name = valueName(op->getResult(0)).value_or("a quotient");
    std::string spelled =
        ceil ? "ceildiv(" + value->text + ", " + divisor->text + ")"
             : value->text + " / " + divisor->text;
    checks.push_back(
        {value->text,
         divisor->text,
         constDivisor,
         {"`" + name + "` = " + spelled +
          (ceil ? " must not count a partial step, whose tiles would lie "
                  "partly or wholly past an array."
                : " must be exact: a remainder would leave indices derived "
                  "from it past an array.")}});
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// The grid's `ceildiv`s count workgroups; a partial last one would address
/// tiles past the arrays, so each must be exact.
void KernelEmitter::collectGridChecks(ArrayRef<std::string> symbols,
                                      SmallVectorImpl<LaunchCheck> &checks) {
  for (AffineExpr result : kernel.getGrid().getMap().getResults()) {
    result.walk([&](AffineExpr expr) {
      if (expr.getKind() != AffineExprKind::CeilDiv)
        return;
      auto bin = cast<AffineBinaryOpExpr>(expr);
      std::string value = stripParens(printAffine(bin.getLHS(), symbols));
      std::string divisor = stripParens(printAffine(bin.getRHS(), symbols));
      std::optional<int64_t> constDivisor;
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        constDivisor = c.getValue();
      if (constDivisor == 1)
        return;
      checks.push_back({value,
                        divisor,
                        constDivisor,
                        {"The grid's ceildiv(" + value + ", " + divisor +
                         ") must not count a partial workgroup, whose tiles "
                         "would lie partly or wholly past an array."}});
    });
  }
}

/// Merges checks of the same condition and drops `x % c` when `x % k*c` is
/// also required; keeps the order in which conditions were found.
static SmallVector<LaunchCheck> mergeChecks(ArrayRef<LaunchCheck> checks) {
  SmallVector<LaunchCheck> merged;
  for (const LaunchCheck &check : checks) {
    auto same = llvm::find_if(merged, [&](const LaunchCheck &other) {
      return other.value == check.value && other.divisor == check.divisor;
    });
    if (same == merged.end()) {
      merged.push_back(check);
      continue;
    }
    for (const std::string &reason : check.reasons)
      if (!llvm::is_contained(same->reasons, reason))
        same->reasons.push_back(reason);
  }
  auto implied = [&](const LaunchCheck &check) {
    return check.constDivisor &&
           llvm::any_of(merged, [&](const LaunchCheck &other) {
             return other.value == check.value && other.constDivisor &&
                    *other.constDivisor != *check.constDivisor &&
                    *other.constDivisor % *check.constDivisor == 0;
           });
  };
  SmallVector<LaunchCheck> kept;
  for (const LaunchCheck &check : merged)
    if (!implied(check))
      kept.push_back(check);
  return kept;
}

/// Prints `text` as `//` comment lines of at most 80 columns at the current
/// indentation (2).
static void printComment(raw_indented_ostream &os, StringRef text) {
  SmallVector<StringRef> words;
  text.split(words, ' ', -1, false);
  std::string line = "//";
  for (StringRef word : words) {
    if (line.size() + 1 + word.size() > 78) {
      os << line << "\n";
      line = "//";
    }
    line += " " + word.str();
  }
  os << line << "\n";
}

static void printCheck(raw_indented_ostream &os, const LaunchCheck &check) {
  for (const std::string &reason : check.reasons)
    printComment(os, reason);
  os << "if (";
  if (!check.constDivisor)
    os << check.divisor << " == 0 || ";
  os << check.value << " % " << check.divisor << " != 0)\n";
  os << "  return hipErrorInvalidValue;\n";
}

/// The launcher's parameters (pointers, sizes the types leave dynamic,
/// scalars, then the stream), the kernel's arguments built from them
/// (HipKittens' gl views of the pointers), and the checks that permuted
/// views are dense.
LogicalResult
KernelEmitter::collectLauncherArgs(SmallVectorImpl<std::string> &params,
                                   SmallVectorImpl<std::string> &kernelArgs,
                                   SmallVectorImpl<std::string> &strideChecks) {
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
        spellElementType(memref.getElementType(), kernel, chip);
    FailureOr<std::string> view = spellGlobal(memref, kernel, chip);
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
      addStrideCheck(memref, name, sizes, params, strideChecks);
    kernelArgs.push_back(*view + "(" + name + ", " + llvm::join(extents, ", ") +
                         ")");
  }
  params.push_back("hipStream_t stream");
  return success();
}

/// The grid's symbols as the launcher spells them: argument sizes (a size
/// parameter, or the constant) or scalar arguments.
SmallVector<std::string> KernelEmitter::gridSymbols() {
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
  return symbols;
}

/// The kernel's dynamic shared memory: the shared allocator aligns every
/// tile to 16 bytes.
static int64_t sharedBytesOf(KernelOp kernel) {
  int64_t sharedBytes = 0;
  kernel.walk([&](AllocSharedOp alloc) {
    sharedBytes += llvm::alignTo(alloc.getType().getSizeInBytes(), 16);
  });
  return sharedBytes;
}

/// The launcher's refusals: permuted views that are not dense, then the
/// shapes for which the kernel would use a tile outside an array.
static void printLaunchChecks(raw_indented_ostream &os,
                              ArrayRef<std::string> strideChecks,
                              ArrayRef<LaunchCheck> launchChecks) {
  if (!strideChecks.empty()) {
    os << "// HipKittens reads the [B, H, N, D] views as dense [B, N, H, D] "
          "arrays.\n";
    os << "if (" << llvm::join(strideChecks, " ||\n    ") << ")\n";
    os << "  return hipErrorInvalidValue;\n";
  }
  SmallVector<LaunchCheck> merged = mergeChecks(launchChecks);
  if (!merged.empty())
    os << "// hk reads zeros outside an array; HipKittens reads whatever lies "
          "there.\n// Reject every shape for which the kernel would use a "
          "tile partly or\n// wholly outside an array.\n";
  for (const LaunchCheck &check : merged)
    printCheck(os, check);
}

LogicalResult KernelEmitter::emitLauncher() {
  SmallVector<LaunchCheck> launchChecks;
  if (failed(collectTileChecks(launchChecks)) ||
      failed(collectDivisionChecks(launchChecks)))
    return failure();
  SmallVector<std::string> params, kernelArgs, strideChecks;
  if (failed(collectLauncherArgs(params, kernelArgs, strideChecks)))
    return failure();
  GridAttr grid = kernel.getGrid();
  SmallVector<std::string> symbols = gridSymbols();
  collectGridChecks(symbols, launchChecks);
  SmallVector<std::string> extents;
  for (AffineExpr expr : grid.getMap().getResults())
    extents.push_back(stripParens(printAffine(expr, symbols)));
  while (extents.size() < 3)
    extents.push_back("1");
  int64_t sharedBytes = sharedBytesOf(kernel);

  StringRef name = kernel.getSymName();
  os << "extern \"C\" hipError_t launch_" << name << "("
     << llvm::join(params, ", ") << ") {\n";
  os.indent();
  printLaunchChecks(os, strideChecks, launchChecks);
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
