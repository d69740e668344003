//===- LaneToEmulator.cpp - lane-level kernels as host lane functions -----===//
//
// convert-lane-to-emulator turns each kernel gpu.func of a lane-level
// gpu.module into `func.func @<kernel>__lane(%lane: !llvm.ptr,
// %args: !llvm.ptr)`, the hkemu_lane_fn of include/hk/Runtime/Emulator.h:
// the same lane program, with its GPU operations replaced by calls into the
// emulator engine. Upstream passes then lower it to LLVM for the host.
// See docs/emulator.md.
//===----------------------------------------------------------------------===//

#include "Rewrites.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Runtime/Emulator.h"

#include <cstddef>

#include "hk/Emulator/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"

namespace hk {
#define GEN_PASS_DEF_CONVERTLANETOEMULATOR
#include "hk/Emulator/Passes.h.inc"
} // namespace hk

using namespace mlir;
using namespace hk::emulator;

LogicalResult hk::emulator::noEmulation(Operation *op, const Twine &detail) {
  return op->emitError() << kPassName << ": '" << op->getName() << "'" << detail
                         << " has no emulation";
}

namespace {

// Byte offsets of the fields of hkemu_memref: the host that compiles the
// lane code has the ABI of the host that runs it (the same triple).
constexpr int64_t kMemrefBase = offsetof(hkemu_memref, base);
constexpr int64_t kMemrefSizes = offsetof(hkemu_memref, sizes);
constexpr int64_t kMaxRank = HKRT_MAX_RANK;
constexpr int64_t kMemrefStrides = offsetof(hkemu_memref, strides);

/// The LLVM struct of a memref descriptor of rank `rank`.
Type descriptorType(MLIRContext *ctx, int64_t rank) {
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> fields = {ptr, ptr, i64};
  if (rank > 0) {
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
  }
  return LLVM::LLVMStructType::getLiteral(ctx, fields);
}

/// A memref of `type` over `base` with the given sizes and strides (i64),
/// built as its LLVM descriptor; the cast to the memref type cancels out
/// when memrefs are lowered to LLVM.
Value buildMemRef(OpBuilder &b, Location loc, MemRefType type, Value base,
                  ArrayRef<Value> sizes, ArrayRef<Value> strides) {
  int64_t rank = type.getRank();
  Type structType = descriptorType(b.getContext(), rank);
  Value d = LLVM::PoisonOp::create(b, loc, structType);
  d = LLVM::InsertValueOp::create(b, loc, d, base, ArrayRef<int64_t>{0});
  d = LLVM::InsertValueOp::create(b, loc, d, base, ArrayRef<int64_t>{1});
  Value zero = LLVM::ConstantOp::create(b, loc, b.getI64Type(), 0);
  d = LLVM::InsertValueOp::create(b, loc, d, zero, ArrayRef<int64_t>{2});
  for (int64_t i = 0; i < rank; ++i) {
    d = LLVM::InsertValueOp::create(b, loc, d, sizes[i],
                                    ArrayRef<int64_t>{3, i});
    d = LLVM::InsertValueOp::create(b, loc, d, strides[i],
                                    ArrayRef<int64_t>{4, i});
  }
  return UnrealizedConversionCastOp::create(b, loc, type, d).getResult(0);
}

Value loadAt(OpBuilder &b, Location loc, Type type, Value ptr,
             int64_t byteOffset) {
  Value at = LLVM::GEPOp::create(
      b, loc, ptr.getType(), b.getI8Type(), ptr,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(byteOffset)});
  return LLVM::LoadOp::create(b, loc, type, at);
}

/// Kernel argument `i` from args[i] (a hkemu_memref or the scalar).
FailureOr<Value> kernelArgument(OpBuilder &b, Location loc, Value args,
                                unsigned i, Type type) {
  Type ptr = args.getType();
  Value p = loadAt(b, loc, ptr, args, 8 * i);
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (memref.getRank() > kMaxRank)
      return failure();
    Value base = loadAt(b, loc, ptr, p, kMemrefBase);
    SmallVector<Value> sizes, strides;
    for (int64_t d = 0; d < memref.getRank(); ++d) {
      sizes.push_back(loadAt(b, loc, b.getI64Type(), p, kMemrefSizes + 8 * d));
      strides.push_back(
          loadAt(b, loc, b.getI64Type(), p, kMemrefStrides + 8 * d));
    }
    return buildMemRef(b, loc, memref, base, sizes, strides);
  }
  if (type.isInteger(1)) {
    // A flag travels as a byte, nonzero meaning true.
    Value byte = loadAt(b, loc, b.getI8Type(), p, 0);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 8);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, byte, zero)
        .getResult();
  }
  if (type.isIndex()) {
    Value v = loadAt(b, loc, b.getI64Type(), p, 0);
    return arith::IndexCastOp::create(b, loc, type, v).getResult();
  }
  if (type.isIntOrFloat() && storageBytes(type) != 0 &&
      LLVM::isCompatibleType(type))
    return loadAt(b, loc, type, p, 0);
  return failure();
}

/// Assigns LDS byte addresses: workgroup attributions, then the workgroup
/// memref.globals the kernel uses, each aligned to 16 bytes or more.
class LdsLayout {
public:
  struct Region {
    std::string name;
    int64_t base, bytes;
  };
  int64_t place(MemRefType type, int64_t alignment, StringRef name) {
    alignment = std::max<int64_t>(alignment, 16);
    int64_t at = llvm::alignTo(size, alignment);
    int64_t bytes = type.getNumElements() * storageBytes(type.getElementType());
    size = at + bytes;
    regions.push_back({name.str(), at, bytes});
    return at;
  }
  int64_t size = 0;
  SmallVector<Region> regions;
};

/// A memref of static `type` whose aligned pointer is LDS address `addr`.
Value ldsMemRef(OpBuilder &b, Location loc, MemRefType type, int64_t addr,
                Operation *user) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) || offset != 0) {
    (void)noEmulation(user, " on a workgroup memref without a static shape "
                            "and identity layout");
    return {};
  }
  auto i64 = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  SmallVector<Value> sizeValues, strideValues;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    sizeValues.push_back(i64(size));
    strideValues.push_back(i64(stride));
  }
  Value base = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), i64(addr));
  return buildMemRef(b, loc, type, base, sizeValues, strideValues);
}

/// Replaces the kernel's workgroup attributions and its uses of workgroup
/// memref.globals by memrefs over LDS addresses, in `layout`.
LogicalResult placeLds(gpu::GPUFuncOp kernel, Block &entry,
                       unsigned firstAttribution, OpBuilder &b,
                       LdsLayout &layout) {
  auto attributions = kernel.getWorkgroupAttributions();
  for (auto [i, arg] : llvm::enumerate(attributions)) {
    auto type = cast<MemRefType>(arg.getType());
    std::string name = "workgroup attribution " + std::to_string(i);
    Value m = ldsMemRef(b, kernel.getLoc(), type, layout.place(type, 16, name),
                        kernel);
    if (!m)
      return failure();
    entry.getArgument(firstAttribution + i).replaceAllUsesWith(m);
  }
  llvm::DenseMap<Attribute, int64_t> addresses;
  SmallVector<memref::GetGlobalOp> uses;
  kernel.walk([&](memref::GetGlobalOp g) { uses.push_back(g); });
  for (memref::GetGlobalOp use : uses) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        use, use.getNameAttr());
    if (!global ||
        !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(global.getType()))
      return noEmulation(use, " of a global outside workgroup memory");
    auto [it, inserted] = addresses.try_emplace(use.getNameAttr(), 0);
    if (inserted)
      it->second =
          layout.place(global.getType(), global.getAlignment().value_or(16),
                       global.getSymName());
    OpBuilder at(use);
    Value m = ldsMemRef(at, use.getLoc(), global.getType(), it->second, use);
    if (!m)
      return failure();
    use.getResult().replaceAllUsesWith(m);
    use.erase();
  }
  return success();
}

/// Declares the allocations of `layout` to the engine at the start of the
/// lane function, before any LDS access.
void declareLds(func::FuncOp func, const LdsLayout &layout,
                EmulatorCalls &calls) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  for (const LdsLayout::Region &r : layout.regions)
    calls.call(b, func.getLoc(), "hkemu_lds_region",
               {calls.string(b, func.getLoc(), r.name),
                calls.i32(b, func.getLoc(), r.base),
                calls.i32(b, func.getLoc(), r.bytes)});
}

/// The memory spaces of the GPU (global, workgroup, fat raw buffer) mean
/// nothing on the host: every memref left is a host memref.
void stripMemorySpaces(Operation *op) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](MemRefType t) -> std::optional<Type> {
    if (!t.getMemorySpace())
      return std::nullopt;
    return MemRefType::get(t.getShape(), t.getElementType(), t.getLayout());
  });
  replacer.recursivelyReplaceElementsIn(op, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

/// Builds the host lane function of `kernel` in `top` and moves the body;
/// `layout` receives its LDS allocations.
FailureOr<func::FuncOp> convertKernel(gpu::GPUFuncOp kernel, ModuleOp top,
                                      LdsLayout &layout) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b = OpBuilder::atBlockEnd(top.getBody());
  auto func = func::FuncOp::create(b, loc, (kernel.getName() + "__lane").str(),
                                   b.getFunctionType({ptr, ptr}, {}));
  for (NamedAttribute attr : kernel->getDiscardableAttrs())
    if (attr.getName().strref().starts_with("hk."))
      func->setAttr(attr.getName(), attr.getValue());

  Block *entry = func.addEntryBlock();
  Block &oldEntry = kernel.getBody().front();
  b.setInsertionPointToStart(entry);
  unsigned numArgs = kernel.getFunctionType().getNumInputs();
  SmallVector<Value> replacements;
  for (unsigned i = 0; i < numArgs; ++i) {
    Type type = kernel.getArgument(i).getType();
    auto v = kernelArgument(b, loc, func.getArgument(1), i, type);
    if (failed(v))
      return kernel.emitError()
             << kPassName << ": argument " << i << " of type " << type
             << " cannot be passed to a lane function";
    replacements.push_back(*v);
  }
  if (!kernel.getPrivateAttributions().empty())
    return kernel.emitError()
           << kPassName << ": private attributions have no emulation";
  if (failed(placeLds(kernel, oldEntry, numArgs, b, layout)))
    return failure();
  func->setAttr(hk::HKDialect::kEmulatorLdsBytesAttrName,
                b.getI64IntegerAttr(layout.size));
  for (BlockArgument attribution : kernel.getWorkgroupAttributions())
    replacements.push_back(attribution); // already without uses

  // The body follows the prologue: the old entry block's ops are spliced
  // into the new one, later blocks move over.
  for (auto [arg, v] : llvm::zip(oldEntry.getArguments(), replacements))
    if (arg != v)
      arg.replaceAllUsesWith(v);
  entry->getOperations().splice(entry->end(), oldEntry.getOperations());
  Region &body = func.getBody();
  body.getBlocks().splice(body.end(), kernel.getBody().getBlocks(),
                          std::next(kernel.getBody().begin()),
                          kernel.getBody().end());
  func.walk([&](gpu::ReturnOp ret) {
    OpBuilder at(ret);
    func::ReturnOp::create(at, ret.getLoc());
    ret.erase();
  });
  return func;
}

/// An op of a GPU dialect that no rewrite handles.
bool isUnhandledGpuOp(Operation *op) {
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return ns == "gpu" || ns == "amdgpu" || ns == "rocdl" || ns == "nvvm";
}

LogicalResult convertModule(gpu::GPUModuleOp gpuModule, ModuleOp top) {
  for (Operation &op : gpuModule.getBody()->getOperations()) {
    auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
    if (kernel && !kernel.isKernel())
      return kernel.emitError()
             << kPassName << ": device functions (non-kernel gpu.func) "
             << "have no emulation";
    auto global = dyn_cast<memref::GlobalOp>(op);
    if (!kernel && !(global && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
                                   global.getType())))
      return op.emitError() << kPassName << ": '" << op.getName()
                            << "' in a gpu.module has no emulation";
  }
  for (auto kernel :
       llvm::make_early_inc_range(gpuModule.getOps<gpu::GPUFuncOp>())) {
    LdsLayout layout;
    auto func = convertKernel(kernel, top, layout);
    if (failed(func))
      return failure();
    EmulatorCalls calls(top, *func);
    declareLds(*func, layout, calls);
    if (failed(expandTransposeLoads(*func)) ||
        failed(rewriteMemoryAccesses(*func, calls)) ||
        failed(rewriteLaneOps(*func, calls)) ||
        failed(predicateDivergentBranches(*func)))
      return failure();
    WalkResult left = func->walk([](Operation *op) {
      if (!isUnhandledGpuOp(op))
        return WalkResult::advance();
      (void)noEmulation(op);
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      return failure();
    stripMemorySpaces(*func);
  }
  gpuModule.erase();
  return success();
}

struct ConvertLaneToEmulator
    : hk::impl::ConvertLaneToEmulatorBase<ConvertLaneToEmulator> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    for (auto gpuModule :
         llvm::make_early_inc_range(top.getOps<gpu::GPUModuleOp>()))
      if (failed(convertModule(gpuModule, top)))
        return signalPassFailure();
    top->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};

} // namespace
