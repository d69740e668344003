//===- CodeGen.cpp - AMDGPU assembly and objects from LLVM IR -------------===//

#include "AMDGPUTargetMachine.h"

#include "hk/Base/InputLimits.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <mutex>

using namespace mlir;

namespace hk::target {

/// Backend options hk's kernels compile with, unless given on the command
/// line (hkc takes LLVM's options, e.g. --amdgpu-use-amdgpu-trackers=0):
///  * amdgpu-use-amdgpu-trackers: the scheduler tracks register pressure
///    with the backend's own (GCN) trackers, which count the registers the
///    allocator will use. With the generic ones, attention forward
///    (hk-peel-bounds' steady state and its checked copy at 256 VGPRs)
///    spilled 95 (gfx950) and 109 (gfx942) registers per kernel and 112-172
///    bytes to scratch at D = 128, 38 and 65 at D = 64; with these, 38/25
///    and 36/24 bytes at D = 128, 0 and 32 at D = 64, and the attention
///    backward prep kernel fits 80 instead of 161 VGPRs (6 waves per SIMD
///    instead of 3). docs/lowering.md, Register pressure.
/// Called before every target machine is made: the options' values are
/// process-wide and something may reset them between compilations (a reset
/// puts an option back to its default and clears its occurrences). Whether
/// the user gave an option is decided once, at the first call.
static void setBackendOptionDefaults() {
  static const std::pair<const char *, const char *> defaults[] = {
      {"amdgpu-use-amdgpu-trackers", "1"}};
  static std::mutex mutex;
  static llvm::StringSet<> givenByUser;
  static bool first = true;
  std::lock_guard<std::mutex> lock(mutex);
  auto &registered = llvm::cl::getRegisteredOptions();
  for (auto [name, value] : defaults) {
    auto it = registered.find(name);
    if (it == registered.end())
      continue;
    llvm::cl::Option *option = it->second;
    if (first && option->getNumOccurrences() > 0)
      givenByUser.insert(name);
    if (!givenByUser.contains(name) && option->getNumOccurrences() == 0)
      option->addOccurrence(0, name, value);
  }
  first = false;
}

void initializeAMDGPUBackend() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
  });
  setBackendOptionDefaults();
}

/// Position-independent code, since a code object is an ELF shared object.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetOptions &options, std::string &error) {
  initializeAMDGPUBackend();
  llvm::Triple triple(kTargetTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  // Verbose assembly keeps the backend's comments: scheduling fences and
  // each kernel's register and LDS summary are only visible through them.
  llvm::TargetOptions targetOptions;
  targetOptions.MCOptions.AsmVerbose = true;
  static const llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.chip, /*Features=*/"", targetOptions, llvm::Reloc::PIC_,
      std::nullopt, levels[std::min(options.optLevel, 3u)]));
  if (!machine)
    error = "cannot create the AMDGPU target machine for " + options.chip;
  return machine;
}

/// Collects the backend's errors (an instruction the chip lacks, LDS over
/// the limit, ...) instead of letting LLVM print them and exit.
static void collectBackendDiagnostic(const llvm::DiagnosticInfo *info,
                                     void *context) {
  if (info->getSeverity() != llvm::DS_Error)
    return;
  auto &errors = *static_cast<std::string *>(context);
  llvm::raw_string_ostream stream(errors);
  llvm::DiagnosticPrinterRawOStream printer(stream);
  if (!errors.empty())
    stream << "; ";
  info->print(printer);
}

FailureOr<llvm::SmallVector<char, 0>>
emitMachineCode(llvm::Module &llvmModule, const TargetOptions &options,
                CodeGenFileKind kind, Location loc) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options, error);
  if (!machine)
    return emitError(loc) << error;

  llvm::SmallVector<char, 0> result;
  llvm::raw_svector_ostream stream(result);
  auto codegen = std::make_unique<llvm::legacy::PassManager>();
  llvm::CodeGenFileType fileType = kind == CodeGenFileKind::Assembly
                                       ? llvm::CodeGenFileType::AssemblyFile
                                       : llvm::CodeGenFileType::ObjectFile;
  if (machine->addPassesToEmitFile(*codegen, stream, nullptr, fileType))
    return emitError(loc) << "the AMDGPU backend cannot emit this file type";
  std::string backendErrors;
  llvm::LLVMContext &context = llvmModule.getContext();
  context.setDiagnosticHandlerCallBack(collectBackendDiagnostic,
                                       &backendErrors);
  // Some inputs make the backend stop with a fatal error after an error it
  // reported (an illegal VGPR to SGPR copy, then an instruction the encoder
  // cannot emit): both reach the user as one located error.
  std::optional<std::string> fatal =
      hk::runCatchingFatalErrors([&] { codegen->run(llvmModule); });
  context.setDiagnosticHandlerCallBack(nullptr, nullptr);
  if (fatal) {
    // The passes stopped half way: they and the target machine they use
    // are left as they are rather than destroyed in an unknown state.
    (void)codegen.release();
    (void)machine.release();
    return emitError(loc) << "the AMDGPU backend failed for " << options.chip
                          << ": "
                          << (backendErrors.empty() ? "" : backendErrors + "; ")
                          << "LLVM stopped with: " << *fatal;
  }
  if (!backendErrors.empty())
    return emitError(loc) << "the AMDGPU backend failed for " << options.chip
                          << ": " << backendErrors;
  return result;
}

} // namespace hk::target
