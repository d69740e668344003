//===- Artifact.cpp - kernel metadata for hkc --emit=artifact -------------===//

#include "Artifact.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Runtime/Error.h"
#include "hk/Runtime/KernelInfoExtraction.h"
#include "hk/Target/Host/HostObject.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
namespace rt = ::hk::rt;

namespace hk::hkc {

static std::string printed(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

static LogicalResult describeArgument(gpu::GPUFuncOp kernel, unsigned i,
                                      rt::ArgInfo &arg) {
  Type type = kernel.getArgument(i).getType();
  arg.name = "arg" + std::to_string(i);
  Type element = type;
  if (auto memref = dyn_cast<MemRefType>(type)) {
    arg.kind = HKRT_ARG_MEMREF;
    arg.rank = memref.getRank();
    element = memref.getElementType();
  } else {
    arg.kind = HKRT_ARG_SCALAR;
  }
  // The runtime names element types as MLIR prints them.
  auto dtype = rt::parseDType(printed(element));
  if (!dtype)
    return kernel.emitError() << "argument " << i << " has type " << type
                              << ", which the runtime cannot pass";
  arg.dtype = *dtype;
  return success();
}

/// The grid as the runtime evaluates it: the affine results, in the
/// spelling GridExpr parses.
static FailureOr<rt::KernelInfo> laneKernelInfo(gpu::GPUFuncOp kernel) {
  auto waves = kernel->getAttrOfType<IntegerAttr>("hk.waves");
  auto grid = kernel->getAttrOfType<mlir::hk::GridAttr>("hk.grid");
  if (!waves || !grid)
    return kernel.emitError()
           << "kernel has no hk.waves and hk.grid attributes (which "
              "convert-hk-to-amdgpu sets); the runtime could not launch it";
  rt::KernelInfo info;
  info.name = kernel.getName().str();
  info.waves = waves.getInt();
  info.workgroupSize = info.waves * 64;
  if (auto lds = kernel->getAttrOfType<IntegerAttr>("hk.lds_bytes"))
    info.ldsBytes = lds.getInt();
  for (unsigned i = 0; i < kernel.getFunctionType().getNumInputs(); ++i) {
    rt::ArgInfo arg;
    if (failed(describeArgument(kernel, i, arg)))
      return failure();
    info.args.push_back(arg);
  }
  for (auto [a, d] : llvm::zip(grid.getSymbolArgs(), grid.getSymbolDims()))
    info.gridSymbols.push_back(
        rt::GridSymbol{a, d == mlir::hk::GridAttr::kScalarArg ? -1 : d});
  try {
    for (AffineExpr e : grid.getMap().getResults()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      e.print(os);
      info.grid.push_back(rt::GridExpr::parse(text));
    }
    info.validate();
  } catch (const rt::Error &err) {
    return kernel.emitError() << "kernel metadata: " << err.what();
  }
  return info;
}

FailureOr<std::vector<rt::KernelInfo>> collectKernelInfo(ModuleOp module) {
  std::vector<rt::KernelInfo> kernels;
  bool failedAny = false;
  module.walk([&](mlir::hk::KernelOp kernel) {
    auto info = mlir::hk::extractKernelInfo(kernel);
    if (failed(info))
      failedAny = true;
    else
      kernels.push_back(std::move(*info));
  });
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    auto info = laneKernelInfo(kernel);
    if (failed(info))
      failedAny = true;
    else
      kernels.push_back(std::move(*info));
  });
  if (failedAny)
    return failure();
  if (kernels.empty())
    return module.emitError() << "no kernel to put in the artifact";
  return kernels;
}

LogicalResult checkEmulatorLds(ModuleOp emulatorModule,
                               const std::vector<rt::KernelInfo> &kernels) {
  for (const rt::KernelInfo &k : kernels) {
    auto func = emulatorModule.lookupSymbol<func::FuncOp>(
        ::hk::target::laneFunctionName(k.name));
    if (!func)
      return emulatorModule.emitError()
             << "kernel '" << k.name << "' has no lane function";
    auto lds = func->getAttrOfType<IntegerAttr>("hk.emulator_lds_bytes");
    if (lds && lds.getInt() > k.ldsBytes)
      return func.emitError()
             << "kernel '" << k.name << "' uses " << lds.getInt()
             << " bytes of LDS in its lane-level IR but its metadata "
             << "declares " << k.ldsBytes;
  }
  return success();
}

} // namespace hk::hkc
