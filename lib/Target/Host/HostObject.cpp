//===- HostObject.cpp - lane-level IR to a host shared object -------------===//

#include "hk/Target/Host/HostObject.h"
#include "hk/Target/Common/Optimize.h"
#include "hk/Target/Common/SharedObjectLink.h"
#include "hk/Target/Common/TargetMachine.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>
#include <mutex>

using namespace mlir;

namespace hk::target {

std::string laneFunctionName(StringRef kernel) {
  return (kernel + "__lane").str();
}

static std::unique_ptr<llvm::TargetMachine>
createHostTargetMachine(unsigned optLevel, std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  // Generic CPU: the object must run on any machine of the triple, not only
  // on the one that compiled it.
  std::unique_ptr<llvm::TargetMachine> machine = createPICTargetMachine(
      triple, "generic", llvm::TargetOptions(), optLevel, error);
  if (!machine && error.empty())
    error = "cannot create the host target machine for " + triple.str();
  return machine;
}

std::unique_ptr<llvm::Module> translateForHost(ModuleOp module,
                                               llvm::LLVMContext &context,
                                               unsigned optLevel) {
  std::string error;
  auto machine = createHostTargetMachine(optLevel, error);
  if (!machine) {
    module.emitError() << error;
    return nullptr;
  }
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "hk_emulator");
  if (!llvmModule)
    return nullptr;
  optimizeForTarget(*llvmModule, *machine, optLevel);
  return llvmModule;
}

/// Whether the process that loads a host object resolves `symbol`: hkrt
/// defines the hkemu_* functions, and every process has libc and libm. Any
/// other library (libgcc_s, compiler-rt) may be missing or too old there.
static bool resolvesAtLoad(StringRef symbol) {
  if (symbol.starts_with("hkemu_"))
    return true;
  static void *libm = dlopen("libm.so.6", RTLD_LAZY | RTLD_LOCAL);
  std::string name = symbol.str();
  // libm's handle reaches libc too (its dependency).
  return libm && dlsym(libm, name.c_str());
}

/// Links the object and checks that it needs nothing but what
/// resolvesAtLoad promises.
static FailureOr<llvm::SmallVector<char, 0>>
linkHostObject(ArrayRef<char> object, Location loc) {
  FailureOr<llvm::SmallVector<char, 0>> shared =
      linkSharedObject(object, {}, "host object", loc);
  if (failed(shared))
    return failure();
  llvm::MemoryBufferRef buffer(StringRef(shared->data(), shared->size()),
                               "host object");
  auto file = llvm::object::ObjectFile::createObjectFile(buffer);
  auto *elf =
      file ? dyn_cast<llvm::object::ELFObjectFileBase>(file->get()) : nullptr;
  if (!elf) {
    llvm::consumeError(file.takeError());
    return emitError(loc) << "the linked host object is not an ELF file";
  }
  for (const llvm::object::ELFSymbolRef &symbol :
       elf->getDynamicSymbolIterators()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<StringRef> name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      return emitError(loc) << "cannot read the host object's symbols";
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) && !name->empty() &&
        !resolvesAtLoad(*name))
      return emitError(loc)
             << "the emulator's host code calls '" << *name
             << "', which neither hkrt nor libc/libm provides (a lowering "
                "left an operation the host has no instruction for)";
  }
  return shared;
}

FailureOr<llvm::SmallVector<char, 0>>
emitHostSharedObject(llvm::Module &llvmModule, unsigned optLevel,
                     Location loc) {
  std::string error;
  auto machine = createHostTargetMachine(optLevel, error);
  if (!machine)
    return emitError(loc) << error;
  llvm::SmallVector<char, 0> object;
  {
    llvm::raw_svector_ostream stream(object);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, stream, nullptr,
                                     llvm::CodeGenFileType::ObjectFile))
      return emitError(loc) << "the host target cannot emit an object file";
    codegen.run(llvmModule);
  }
  return linkHostObject(object, loc);
}

} // namespace hk::target
