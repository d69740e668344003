//===- KernelEmitter.cpp - names, values and control flow -----------------===//

#include "KernelEmitter.h"
#include "HipKittensTypes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace hk;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Names a kernel may not give a variable: a variable of the same name would
/// hide a HipKittens function or type, a HIP name or a name of the emitted
/// file (its helpers, the launcher's locals), or not compile at all.
static constexpr llvm::StringLiteral kReservedNames[] = {
    // C++ keywords.
    "auto", "bool", "break", "case", "const", "continue", "default", "do",
    "double", "else", "float", "for", "if", "int", "long", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "unsigned", "void",
    "while",
    // The names of std, HIP, HipKittens and the emitted file.
    "std", "G", "__shm", "abs", "add", "add_col", "add_row", "al", "atomicAdd",
    "base_ops", "base_tile_layout", "blockIdx", "broadcast_col",
    "broadcast_row", "chiplet_transform_chunked", "col_map", "col_max",
    "col_min", "col_sum", "copy", "div", "div_col", "div_row", "err", "exp",
    "exp2", "for_each_element", "gl", "grid", "gridDim", "group", "group_remap",
    "half", "kittens", "left_fill", "load", "log", "log2", "lower_fill",
    "make_causal", "max", "min", "mul", "mul_col", "mul_row", "neg_infty",
    "ones", "pos_infty", "relayout_lds", "relayout_scratch", "right_fill",
    "row_map", "row_max", "row_min", "row_sum", "rsqrt_op", "rt", "rv", "sqrtf",
    "st", "store", "stream", "sub", "sub_col", "sub_row", "subtile_inplace",
    "swap_layout", "threadIdx", "tile_atomic_add", "tile_relayout",
    "tile_transpose", "transpose", "tril", "triu", "unary_map", "unary_op",
    "upper_fill", "warpid", "zero"};

static bool isReserved(StringRef name) {
  return llvm::is_contained(kReservedNames, name);
}

/// Turns a location name into a C++ identifier.
static std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name)
    out.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (out.empty() || llvm::isDigit(out[0]))
    out.insert(out.begin(), '_');
  return out;
}

static std::optional<StringRef> locName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::optional<StringRef> name = locName(inner))
        return name;
  return std::nullopt;
}

/// The name of result `index` in the `FusedLoc` that names the results of an
/// op with several (see resultNamesTag()).
static std::optional<StringRef> resultName(Location loc, unsigned index,
                                           unsigned numResults) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto tag =
      fused ? dyn_cast_or_null<StringAttr>(fused.getMetadata()) : StringAttr();
  if (!tag || tag.getValue() != resultNamesTag() ||
      fused.getLocations().size() != numResults)
    return std::nullopt;
  if (auto name = dyn_cast<NameLoc>(fused.getLocations()[index]))
    return name.getName().getValue();
  return std::nullopt;
}

std::optional<std::string> KernelEmitter::valueName(Value value) {
  std::optional<StringRef> name;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == &kernel.getBody().front())
      if (auto attr = kernel.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), HKDialect::kArgNameAttrName))
        name = attr.getValue();
    if (!name)
      name = locName(arg.getLoc());
  } else {
    Operation *def = value.getDefiningOp();
    unsigned numResults = def->getNumResults();
    name = numResults == 1 ? locName(def->getLoc())
                           : resultName(def->getLoc(),
                                        cast<OpResult>(value).getResultNumber(),
                                        numResults);
  }
  if (!name)
    return std::nullopt;
  return name->str();
}

std::string KernelEmitter::freshName(StringRef base) {
  std::string name = sanitize(base);
  if (isReserved(name))
    name += "_";
  if (taken.insert(name).second)
    return name;
  for (unsigned i = 1;; ++i) {
    std::string candidate = name + std::to_string(i);
    if (taken.insert(candidate).second)
      return candidate;
  }
}

std::string KernelEmitter::nameFor(Value value, StringRef fallback) {
  if (std::optional<std::string> name = valueName(value))
    return freshName(*name);
  return freshName(fallback);
}

std::string KernelEmitter::argName(unsigned index) {
  return names.lookup(kernel.getBody().getArgument(index));
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

std::string KernelEmitter::operand(Value value) {
  std::string text = names.lookup(value);
  assert(!text.empty() && "value used before it was printed");
  return composite.contains(value) ? "(" + text + ")" : text;
}

std::string KernelEmitter::plain(Value value) { return names.lookup(value); }

/// HipKittens coordinates are 4-D `{b, d, r, c}`; a memref of rank r indexes
/// the last r of them, a permuted view the dimensions of the array under it.
std::string KernelEmitter::coords(MemRefType type, ValueRange indices) {
  SmallVector<std::string> parts(4, "0");
  for (auto [dim, index] : llvm::enumerate(indices))
    parts[glDim(type, dim)] = plain(index);
  return "{" + llvm::join(parts, ", ") + "}";
}

/// True when `op` is the last use of `value` in the block that defines it.
/// Uses inside nested regions count as uses by their ancestor in that block,
/// so a value defined outside a loop is never dead inside it.
bool KernelEmitter::isDeadAfter(Value value, Operation *op) {
  Block *block = value.getParentBlock();
  if (op->getBlock() != block)
    return false;
  for (OpOperand &use : value.getUses()) {
    if (use.getOwner() == op)
      continue;
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    if (!user || !user->isBeforeInBlock(op))
      return false;
  }
  return true;
}

FailureOr<std::string> KernelEmitter::spellType(Value value, Operation *user) {
  Type type = value.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (std::optional<RegTileLayoutAttr> layout =
            hipKittensLoadLayout(value, chip))
      tensor = RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                     *layout);
    return spellRegisterType(tensor, user, chip);
  }
  return spellScalarType(type, user);
}

/// C++ evaluates a `for` condition and step on every iteration: a loop
/// bound is named once, before the loop, as HipKittens' kernels do.
static bool isLoopBound(OpOperand &use) {
  auto loop = dyn_cast<scf::ForOp>(use.getOwner());
  return loop &&
         (use.get() == loop.getUpperBound() || use.get() == loop.getStep());
}

void KernelEmitter::defineScalar(Value result, StringRef expr,
                                 bool isComposite) {
  if (result.use_empty())
    return;
  if (auto hint = hints.find(result); hint != hints.end()) {
    os << hint->second << " = " << expr << ";\n";
    names[result] = hint->second;
    return;
  }
  Operation *def = result.getDefiningOp();
  bool inlineable =
      result.hasOneUse() &&
      result.getUses().begin()->getOwner()->getBlock() == def->getBlock() &&
      !isLoopBound(*result.getUses().begin());
  if (inlineable) {
    names[result] = expr.str();
    if (isComposite)
      composite.insert(result);
    return;
  }
  FailureOr<std::string> type = spellScalarType(result.getType(), def);
  std::string name = nameFor(result, "v");
  os << "const " << (succeeded(type) ? *type : "int") << " " << name << " = "
     << expr << ";\n";
  names[result] = name;
}

/// Picks the variable a tile op writes: an operand's that dies here, a
/// variable declared ahead (scf.if results), or a new one.
FailureOr<std::string> KernelEmitter::defineStorage(Value result,
                                                    ValueRange reusable) {
  Operation *op = result.getDefiningOp();
  for (Value candidate : reusable) {
    if (candidate.getType() == result.getType() && isDeadAfter(candidate, op) &&
        !hints.contains(result)) {
      names[result] = names.lookup(candidate);
      return names[result];
    }
  }
  if (auto hint = hints.find(result); hint != hints.end()) {
    names[result] = hint->second;
    return hint->second;
  }
  FailureOr<std::string> type = spellType(result, op);
  if (failed(type))
    return failure();
  std::string fallback = "t";
  if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
    if (isRegVec(tensor))
      fallback = "vec";
  std::string name = nameFor(result, fallback);
  os << *type << " " << name << ";\n";
  names[result] = name;
  return name;
}

//===----------------------------------------------------------------------===//
// Blocks and structured control flow
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

/// Emits `dst = src` for every move as if all happened at once: a move
/// waits while its destination is still to be read, and a cycle goes
/// through a temporary.
void KernelEmitter::emitParallelCopy(
    ArrayRef<std::pair<std::string, std::string>> movesIn) {
  SmallVector<std::pair<std::string, std::string>> moves;
  for (const auto &move : movesIn)
    if (move.first != move.second)
      moves.push_back(move);
  while (!moves.empty()) {
    auto ready = llvm::find_if(moves, [&](const auto &move) {
      return llvm::none_of(moves, [&](const auto &other) {
        return &other != &move && other.second == move.first;
      });
    });
    if (ready == moves.end()) {
      std::string tmp = freshName(moves.front().second + "_prev");
      os << "auto " << tmp << " = " << moves.front().second << ";\n";
      for (auto &move : moves)
        if (move.second == moves.front().second)
          move.second = tmp;
      continue;
    }
    os << ready->first << " = " << ready->second << ";\n";
    moves.erase(ready);
  }
}

static bool isToken(Value value) { return isa<TokenType>(value.getType()); }

LogicalResult KernelEmitter::emitFor(Operation *op) {
  auto loop = cast<scf::ForOp>(op);
  // An initial value passed twice can become only one carried variable.
  llvm::DenseSet<Value> claimed;
  for (auto [init, iter, result] : llvm::zip(
           loop.getInitArgs(), loop.getRegionIterArgs(), loop.getResults())) {
    if (isToken(iter))
      continue;
    std::string var;
    if (!names.contains(init)) {
      // A fill constant left for the loop: start the variable from it.
      FailureOr<std::string> type = spellType(iter, op);
      if (failed(type))
        return failure();
      var = nameFor(iter, "carried");
      os << *type << " " << var << ";\n"
         << *fillCall(init, chip) << "(" << var << ");\n";
    } else if (isa<RankedTensorType>(iter.getType()) && isDeadAfter(init, op) &&
               claimed.insert(init).second) {
      var = names.lookup(init);
    } else {
      FailureOr<std::string> type = spellType(iter, op);
      if (failed(type))
        return failure();
      var = nameFor(iter, "carried");
      os << *type << " " << var << " = " << plain(init) << ";\n";
    }
    names[iter] = var;
    names[result] = var;
  }
  std::string iv = nameFor(loop.getInductionVar(), "i");
  names[loop.getInductionVar()] = iv;
  os << "for (int " << iv << " = " << plain(loop.getLowerBound()) << "; " << iv
     << " < " << operand(loop.getUpperBound()) << "; ";
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (step && *step == 1)
    os << "++" << iv;
  else
    os << iv << " += " << plain(loop.getStep());
  os << ") {\n";
  os.indent();
  if (failed(emitBlock(*loop.getBody())))
    return failure();
  SmallVector<std::pair<std::string, std::string>> moves;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [value, iter] :
       llvm::zip(yield.getOperands(), loop.getRegionIterArgs()))
    if (!isToken(iter))
      moves.push_back({names.lookup(iter), plain(value)});
  emitParallelCopy(moves);
  os.unindent();
  os << "}\n";
  return success();
}

/// Values computed in a branch only to be yielded are written straight into
/// the variable of the `if`'s result.
static void collectYieldHints(Block &block, ValueRange results,
                              llvm::DenseMap<Value, std::string> &hints,
                              llvm::DenseMap<Value, std::string> &names) {
  Operation *yield = block.getTerminator();
  for (auto [value, result] : llvm::zip(yield->getOperands(), results)) {
    if (isToken(result) || !value.hasOneUse() ||
        value.getParentBlock() != &block || isa<BlockArgument>(value) ||
        isa<arith::ConstantOp>(value.getDefiningOp()))
      continue;
    hints[value] = names.lookup(result);
  }
}

LogicalResult KernelEmitter::emitIf(Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  for (Value result : ifOp.getResults()) {
    if (isToken(result))
      continue;
    FailureOr<std::string> type = spellType(result, op);
    if (failed(type))
      return failure();
    std::string var = nameFor(result, "selected");
    os << *type << " " << var << ";\n";
    names[result] = var;
  }
  auto emitBranch = [&](Block &block) -> LogicalResult {
    os.indent();
    collectYieldHints(block, ifOp.getResults(), hints, names);
    if (failed(emitBlock(block)))
      return failure();
    SmallVector<std::pair<std::string, std::string>> moves;
    for (auto [value, result] :
         llvm::zip(block.getTerminator()->getOperands(), ifOp.getResults()))
      if (!isToken(result))
        moves.push_back({names.lookup(result), plain(value)});
    emitParallelCopy(moves);
    os.unindent();
    return success();
  };
  os << "if (" << plain(ifOp.getCondition()) << ") {\n";
  if (failed(emitBranch(ifOp.getThenRegion().front())))
    return failure();
  if (!ifOp.getElseRegion().empty()) {
    os << "} else {\n";
    if (failed(emitBranch(ifOp.getElseRegion().front())))
      return failure();
  }
  os << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  if (isa<scf::ForOp>(op))
    return emitFor(op);
  if (isa<scf::IfOp>(op))
    return emitIf(op);
  if (op->getDialect() && isa<HKDialect>(op->getDialect()))
    return emitHKOp(op);
  return emitScalarOp(op);
}

//===----------------------------------------------------------------------===//
// The kernel function
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitKernel() {
  Block &entry = kernel.getBody().front();
  SmallVector<std::string> params;
  for (BlockArgument arg : entry.getArguments()) {
    std::string name = nameFor(arg, "arg" + std::to_string(arg.getArgNumber()));
    names[arg] = name;
    FailureOr<std::string> type =
        isa<MemRefType>(arg.getType())
            ? spellGlobal(cast<MemRefType>(arg.getType()), kernel, chip)
            : spellScalarType(arg.getType(), kernel);
    if (failed(type))
      return failure();
    params.push_back("const " + *type + " " + name);
  }
  int64_t waves = kernel.getWaves();
  // The second bound is the minimum number of waves per SIMD: the kernel's
  // min_waves_per_simd, or what one workgroup needs.
  int64_t perSimd =
      kernel.getMinWavesPerSimd().value_or(kernel.getWorkgroupWavesPerSimd());
  os << llvm::formatv("__global__ __launch_bounds__({0}, {1}) void {2}(",
                      waves * kWaveSize, perSimd, kernel.getSymName())
     << llvm::join(params, ", ") << ") {\n";
  os.indent();
  bool hasLoadAsync = false, hasShared = false;
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadAsyncOp>(op))
      hasLoadAsync |= !load.getWaves() || *load.getWaves() == waves;
    hasShared |= isa<AllocSharedOp>(op);
  });
  if (hasLoadAsync)
    os << "using G = kittens::group<" << waves << ">;\n";
  if (hasShared)
    os << "extern __shared__ alignment_dummy __shm[];\n"
       << "shared_allocator al((int *)&__shm[0]);\n";
  if (failed(emitRelayoutScratch()))
    return failure();
  if (failed(emitBlock(entry)))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}
