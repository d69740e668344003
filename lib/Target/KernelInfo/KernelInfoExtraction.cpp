//===- KernelInfoExtraction.cpp - hk.kernel -> kernel metadata ------------===//

#include "hk/Target/KernelInfo/KernelInfoExtraction.h"
#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"
#include "hk/Dialect/HK/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace hk;
namespace rt = hk::rt;

static std::optional<hkrt_dtype> dtypeOf(Type t) {
  if (t.isBF16())
    return HKRT_DTYPE_BF16;
  if (t.isF16())
    return HKRT_DTYPE_F16;
  if (t.isF32())
    return HKRT_DTYPE_F32;
  if (t.isF64())
    return HKRT_DTYPE_F64;
  if (t.isIndex())
    return HKRT_DTYPE_INDEX;
  if (t.isInteger(8))
    return HKRT_DTYPE_I8;
  if (t.isInteger(16))
    return HKRT_DTYPE_I16;
  if (t.isInteger(32))
    return HKRT_DTYPE_I32;
  if (t.isInteger(64))
    return HKRT_DTYPE_I64;
  if (isa<Float8E4M3FNUZType>(t))
    return HKRT_DTYPE_F8E4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(t))
    return HKRT_DTYPE_F8E5M2FNUZ;
  if (isa<Float8E4M3FNType>(t))
    return HKRT_DTYPE_F8E4M3FN;
  if (isa<Float8E5M2Type>(t))
    return HKRT_DTYPE_F8E5M2;
  if (t.isInteger(1))
    return HKRT_DTYPE_BOOL;
  if (isa<Fp8Type>(t))
    return HKRT_DTYPE_FP8;
  if (isa<Bf8Type>(t))
    return HKRT_DTYPE_BF8;
  return std::nullopt;
}

static std::string argName(KernelOp kernel, unsigned i) {
  if (auto name =
          kernel.getArgAttrOfType<StringAttr>(i, HKDialect::kArgNameAttrName))
    return name.str();
  if (!kernel.getBody().empty())
    if (auto loc = dyn_cast<NameLoc>(kernel.getArgument(i).getLoc()))
      return loc.getName().str();
  return "arg" + std::to_string(i);
}

static FailureOr<rt::GridExpr> gridExpr(Operation *kernel, AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return rt::GridExpr::constant(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return rt::GridExpr::symbol(s.getPosition());
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return kernel->emitOpError(
        "grid result uses a dimension; only symbols are bound at launch");
  auto lhs = gridExpr(kernel, bin.getLHS());
  auto rhs = gridExpr(kernel, bin.getRHS());
  if (failed(lhs) || failed(rhs))
    return failure();
  rt::GridExpr::Op op;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
    op = rt::GridExpr::Op::Add;
    break;
  case AffineExprKind::Mul:
    op = rt::GridExpr::Op::Mul;
    break;
  case AffineExprKind::Mod:
    op = rt::GridExpr::Op::Mod;
    break;
  case AffineExprKind::FloorDiv:
    op = rt::GridExpr::Op::FloorDiv;
    break;
  case AffineExprKind::CeilDiv:
    op = rt::GridExpr::Op::CeilDiv;
    break;
  default:
    return kernel->emitOpError("unexpected grid expression kind");
  }
  return rt::GridExpr::binary(op, *lhs, *rhs);
}

static int64_t toRuntimeDim(int64_t v) {
  return ShapedType::isDynamic(v) ? rt::kDynamic : v;
}

/// Records the static sizes and the layout of memref argument `i`, which the
/// runtime checks at launch: the kernel code folds a static size or stride
/// into constants and never reads the value passed for it.
static LogicalResult describeMemref(Operation *op, unsigned i, MemRefType type,
                                    rt::ArgInfo &arg) {
  for (int64_t size : type.getShape())
    arg.shape.push_back(toRuntimeDim(size));
  if (type.getLayout().isIdentity()) {
    arg.layout = rt::MemrefLayout::RowMajor;
    return success();
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return op->emitOpError("argument ")
           << i << " has type " << type
           << ", whose layout is not strided; the runtime cannot pass it";
  // The runtime passes every memref with offset 0 (the address of element 0
  // is the buffer's plus the argument's offset_bytes).
  if (offset != 0 && !ShapedType::isDynamic(offset))
    return op->emitOpError("argument ")
           << i << " has type " << type
           << ": the runtime passes memrefs at offset 0, not " << offset;
  arg.layout = rt::MemrefLayout::Strided;
  for (int64_t stride : strides) {
    if (stride < 0 && !ShapedType::isDynamic(stride))
      return op->emitOpError("argument ")
             << i << " has type " << type
             << ": the runtime does not support negative strides";
    arg.strides.push_back(toRuntimeDim(stride));
  }
  return success();
}

namespace {
/// What the metadata is made of, whichever op carries it.
struct KernelFacts {
  Operation *op; ///< for diagnostics
  std::string name;
  int64_t waves, ldsBytes;
  ArrayRef<Type> argTypes;
  function_ref<std::string(unsigned)> argName;
  GridAttr grid;
};
} // namespace

static FailureOr<rt::KernelInfo> buildKernelInfo(const KernelFacts &k) {
  rt::KernelInfo info;
  info.name = k.name;
  info.waves = k.waves;
  info.workgroupSize = info.waves * kWaveSize;
  info.ldsBytes = k.ldsBytes;
  for (auto [i, type] : llvm::enumerate(k.argTypes)) {
    rt::ArgInfo arg;
    arg.name = k.argName(i);
    Type element = type;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      arg.kind = HKRT_ARG_MEMREF;
      arg.rank = memref.getRank();
      element = memref.getElementType();
      if (failed(describeMemref(k.op, i, memref, arg)))
        return failure();
    } else {
      arg.kind = HKRT_ARG_SCALAR;
    }
    auto dtype = dtypeOf(element);
    if (dtype == HKRT_DTYPE_BOOL && arg.kind == HKRT_ARG_MEMREF)
      return k.op->emitOpError("argument ")
             << i << " has type " << type
             << ": the runtime passes i1 as a scalar only";
    if (!dtype)
      return k.op->emitOpError("argument ")
             << i << " has type " << type << ", which the runtime cannot pass";
    arg.dtype = *dtype;
    info.args.push_back(arg);
  }
  for (auto [a, d] : llvm::zip(k.grid.getSymbolArgs(), k.grid.getSymbolDims()))
    info.gridSymbols.push_back(
        rt::GridSymbol{a, d == GridAttr::kScalarArg ? -1 : d});
  for (AffineExpr e : k.grid.getMap().getResults()) {
    auto expr = gridExpr(k.op, e);
    if (failed(expr))
      return failure();
    info.grid.push_back(*expr);
  }
  try {
    info.validate();
  } catch (const rt::Error &err) {
    return k.op->emitOpError(err.what());
  }
  return info;
}

FailureOr<rt::KernelInfo> hk::extractKernelInfo(KernelOp kernel) {
  auto name = [&](unsigned i) { return argName(kernel, i); };
  return buildKernelInfo({kernel, kernel.getSymName().str(), kernel.getWaves(),
                          kernel.getSharedMemoryBytes(),
                          kernel.getArgumentTypes(), name, kernel.getGrid()});
}

FailureOr<rt::KernelInfo> hk::extractKernelInfo(gpu::GPUFuncOp kernel) {
  auto waves = kernel->getAttrOfType<IntegerAttr>(HKDialect::kWavesAttrName);
  auto grid = kernel->getAttrOfType<GridAttr>(HKDialect::kGridAttrName);
  if (!waves || !grid)
    return kernel.emitError()
           << "kernel has no hk.waves and hk.grid attributes (which "
              "convert-hk-to-amdgpu sets); the runtime could not launch it";
  int64_t lds = 0;
  if (auto attr =
          kernel->getAttrOfType<IntegerAttr>(HKDialect::kLdsBytesAttrName))
    lds = attr.getInt();
  auto name = [](unsigned i) { return "arg" + std::to_string(i); };
  return buildKernelInfo({kernel, kernel.getName().str(), waves.getInt(), lds,
                          kernel.getFunctionType().getInputs(), name, grid});
}
