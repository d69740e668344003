//===- ReportOption.cpp - hkc --report -----------------------------------===//

#include "ReportOption.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Target/AMDGPU/Report.h"
#include "hk/Target/AMDGPU/ResourceUsage.h"
#include "hk/Target/Chip.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ::hk::target;

namespace hk::hkc {

/// A copy of `module` that compiles to the same code. CloneModule does not
/// keep the order of each value's uses, which the backend's choices (register
/// assignment among them) depend on; a bitcode round trip that preserves it
/// does, so the report sees the instructions `--emit=asm` prints.
static FailureOr<std::unique_ptr<llvm::Module>>
copyModule(const llvm::Module &module, Location loc) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(module, stream, /*ShouldPreserveUseListOrder=*/true);
  auto copy = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                            module.getModuleIdentifier()),
      module.getContext());
  if (!copy)
    return emitError(loc) << "cannot copy the LLVM module for the report: "
                          << llvm::toString(copy.takeError());
  return std::move(*copy);
}

LogicalResult printCodeQualityReport(const llvm::Module &llvmModule,
                                     const TargetOptions &options,
                                     bool toStderr, Location loc) {
  // Code generation changes the module it runs on: each output gets a copy.
  auto forAssembly = copyModule(llvmModule, loc);
  auto forObject = copyModule(llvmModule, loc);
  if (failed(forAssembly) || failed(forObject))
    return failure();
  auto assembly =
      emitMachineCode(**forAssembly, options, CodeGenFileKind::Assembly, loc);
  if (failed(assembly))
    return failure();
  auto object =
      emitMachineCode(**forObject, options, CodeGenFileKind::Object, loc);
  if (failed(object))
    return failure();
  auto codeObject = linkCodeObject(*object, loc);
  if (failed(codeObject))
    return failure();

  auto kernels =
      analyzeAssembly(llvm::StringRef(assembly->data(), assembly->size()));
  if (!kernels)
    return emitError(loc) << "cannot analyse the assembly for the report: "
                          << llvm::toString(kernels.takeError());
  auto resources = readKernelResources(*codeObject);
  if (!resources)
    return emitError(loc) << "cannot read the code object's metadata: "
                          << llvm::toString(resources.takeError());
  const ::hk::ChipInfo *info = ::hk::lookupChip(options.chip);
  llvm::raw_ostream &os = toStderr ? llvm::errs() : llvm::outs();
  printReport(os, options.chip, *kernels, *resources, info->ldsBytes);
  os.flush();
  return success();
}

} // namespace hk::hkc
