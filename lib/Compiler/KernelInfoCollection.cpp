//===- KernelInfoCollection.cpp - the KernelInfo of a module's kernels ----===//

#include "KernelInfoCollection.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Target/KernelInfo/KernelInfoExtraction.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
namespace rt = hk::rt;

namespace hk::compiler {

FailureOr<std::vector<rt::KernelInfo>> collectKernelInfo(ModuleOp module) {
  std::vector<rt::KernelInfo> kernels;
  bool failedAny = false;
  module.walk([&](hk::KernelOp kernel) {
    auto info = hk::extractKernelInfo(kernel);
    if (failed(info))
      failedAny = true;
    else
      kernels.push_back(std::move(*info));
  });
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    auto info = hk::extractKernelInfo(kernel);
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

void recordChipLds(ModuleOp laneLevel, const std::string &chip,
                   std::vector<rt::KernelInfo> &kernels) {
  for (rt::KernelInfo &k : kernels) {
    int64_t bytes = 0;
    laneLevel.walk([&](gpu::GPUFuncOp func) {
      if (func.getName() != k.name)
        return;
      if (auto lds = func->getAttrOfType<IntegerAttr>(
              hk::HKDialect::kLdsBytesAttrName))
        bytes = lds.getInt();
    });
    k.ldsBytesByChip[chip] = bytes;
    k.ldsBytes = std::max(k.ldsBytes, bytes);
  }
}

void dropUniformChipLds(std::vector<rt::KernelInfo> &kernels) {
  for (rt::KernelInfo &k : kernels) {
    bool same = llvm::all_of(k.ldsBytesByChip, [&](const auto &entry) {
      return entry.second == k.ldsBytes;
    });
    if (same)
      k.ldsBytesByChip.clear();
  }
}

} // namespace hk::compiler
