//===- Reports.cpp - the resource table and the code-quality report -------===//

#include "Reports.h"

#include "hk/Base/Chip.h"
#include "hk/Target/AMDGPU/Report.h"
#include "hk/Target/AMDGPU/ResourceUsage.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hk::target;

namespace hk::compiler {

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

std::string resourceUsageTable(StringRef chip,
                               ArrayRef<KernelResources> kernels) {
  const hk::ChipInfo *info = hk::lookupChip(chip.str());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "resource usage for " << chip
     << llvm::formatv(" (AMDHSA metadata; waves/SIMD from {0} unified "
                      "registers per lane, granule {1}, max {2}, and {3} KiB "
                      "of LDS per CU)\n",
                      info->unifiedRegisters, info->registerGranule,
                      info->wavesPerSimd, info->ldsBytes / 1024);
  os << llvm::formatv("{0,-24} {1,5} {2,5} {3,5} {4,10} {5,13} {6,6} {7}\n",
                      "kernel", "vgpr", "agpr", "sgpr", "lds_bytes",
                      "scratch_bytes", "spills", "waves/SIMD");
  for (const KernelResources &kernel : kernels) {
    Occupancy occupancy = computeOccupancy(kernel, *info);
    const char *bound =
        kernel.ldsBytes > 0 && occupancy.byLds < occupancy.byRegisters
            ? "lds"
            : "registers";
    os << llvm::formatv("{0,-24} {1,5} {2,5} {3,5} {4,10} {5,13} {6,6} {7} "
                        "(limited by {8})\n",
                        kernel.name, kernel.archVgprs(), kernel.agprs,
                        kernel.sgprs, kernel.ldsBytes, kernel.scratchBytes,
                        kernel.vgprSpills + kernel.sgprSpills,
                        occupancy.wavesPerSimd, bound);
  }
  return text;
}

FailureOr<std::string> codeQualityReport(const llvm::Module &llvmModule,
                                         const TargetOptions &options,
                                         Location loc) {
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
  const hk::ChipInfo *info = hk::lookupChip(options.chip);
  std::string text;
  llvm::raw_string_ostream os(text);
  printReport(os, *info, *kernels, *resources);
  return text;
}

} // namespace hk::compiler
