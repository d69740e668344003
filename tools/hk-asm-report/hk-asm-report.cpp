//===- hk-asm-report.cpp - code-quality report of a foreign compile -------===//
//
// Prints the report of `hkc --report` (docs/report.md) for a kernel compiled
// elsewhere, for example HipKittens C++ compiled by clang: the hot loop is
// found in the assembly (`clang -S`), the resources are read from the AMDHSA
// metadata of the code object of the same compile (`clang -c`). Both come
// from lib/Target/AMDGPU (analyzeAssembly, readKernelResources), so the
// figures are counted exactly as hkc counts its own kernels.
//
//   hk-asm-report --chip gfx950 kernel.s kernel.co
//===----------------------------------------------------------------------===//

#include "hk/Target/AMDGPU/Report.h"
#include "hk/Target/AMDGPU/ResourceUsage.h"
#include "hk/Target/Chip.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

cl::OptionCategory category("hk-asm-report options");

cl::opt<std::string> chipOption(
    "chip", cl::Required, cl::value_desc("gfx942|gfx950"),
    cl::desc("The chip the kernel was compiled for (its LDS per CU bounds "
             "the occupancy)"),
    cl::cat(category));
cl::opt<std::string> assemblyPath(cl::Positional, cl::Required,
                                  cl::desc("<assembly.s>"), cl::cat(category));
cl::opt<std::string> objectPath(cl::Positional, cl::Required,
                                cl::desc("<code-object>"), cl::cat(category));

int fail(const Twine &message) {
  errs() << "hk-asm-report: " << message << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "hk-asm-report: the code-quality report of hkc --report for the "
      "assembly and the code object of one compile done elsewhere\n");
  const hk::ChipInfo *chip = hk::lookupChip(chipOption);
  if (!chip)
    return fail("unknown chip '" + chipOption +
                "'; supported: " + hk::supportedChipNames());

  auto assembly = MemoryBuffer::getFileOrSTDIN(assemblyPath);
  if (!assembly)
    return fail(assemblyPath + ": " + assembly.getError().message());
  auto object = MemoryBuffer::getFile(objectPath, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!object)
    return fail(objectPath + ": " + object.getError().message());

  auto kernels = hk::target::analyzeAssembly((*assembly)->getBuffer());
  if (!kernels)
    return fail(assemblyPath + ": " + toString(kernels.takeError()));
  StringRef bytes = (*object)->getBuffer();
  auto resources = hk::target::readKernelResources(
      ArrayRef<char>(bytes.data(), bytes.size()));
  if (!resources)
    return fail(objectPath + ": " + toString(resources.takeError()));
  if (kernels->empty())
    return fail(assemblyPath + ": no function (no `.type NAME,@function`)");
  hk::target::printReport(outs(), chip->name, *kernels, *resources,
                          chip->ldsBytes);
  return 0;
}
