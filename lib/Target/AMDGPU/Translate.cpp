//===- Translate.cpp - LLVM dialect gpu.modules to one LLVM module --------===//

#include "AMDGPUTargetMachine.h"
#include "Optimize.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

namespace hk::target {

void registerBackendTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
}

/// convert-gpu-to-rocdl turns math ops into calls to ROCm's device library
/// (ocml). For these the AMDGPU backend has a native, correctly rounded
/// lowering of the LLVM intrinsic (math.exp2 on f32 becomes v_exp_f32 with
/// its denormal fix-up), so the call becomes the intrinsic and needs no
/// library. Only f32 and f16: f64 forms would expand to library calls.
static void replaceDeviceLibraryCalls(llvm::Module &llvmModule) {
  static const std::pair<const char *, llvm::Intrinsic::ID> kIntrinsics[] = {
      {"exp2", llvm::Intrinsic::exp2},   {"exp", llvm::Intrinsic::exp},
      {"log2", llvm::Intrinsic::log2},   {"log", llvm::Intrinsic::log},
      {"log10", llvm::Intrinsic::log10}, {"sqrt", llvm::Intrinsic::sqrt},
      {"fabs", llvm::Intrinsic::fabs},   {"floor", llvm::Intrinsic::floor},
      {"ceil", llvm::Intrinsic::ceil},   {"trunc", llvm::Intrinsic::trunc},
      {"rint", llvm::Intrinsic::rint},   {"fma", llvm::Intrinsic::fma}};
  for (auto [name, id] : kIntrinsics) {
    for (const char *suffix : {"_f32", "_f16"}) {
      llvm::Function *callee =
          llvmModule.getFunction(std::string("__ocml_") + name + suffix);
      if (!callee || !callee->isDeclaration())
        continue;
      llvm::Function *intrinsic = llvm::Intrinsic::getOrInsertDeclaration(
          &llvmModule, id, {callee->getReturnType()});
      callee->replaceAllUsesWith(intrinsic);
      callee->eraseFromParent();
    }
  }
}

/// A call to a function that is neither defined nor an intrinsic would be
/// left undefined in the code object: ROCm's device libraries (ocml, ockl)
/// would have to provide it, and they are not part of this compiler.
static LogicalResult checkNoExternalCalls(llvm::Module &llvmModule,
                                          Location loc) {
  for (llvm::Function &function : llvmModule) {
    if (!function.isDeclaration() || function.isIntrinsic() ||
        function.use_empty())
      continue;
    return emitError(loc) << "the kernel calls the external function '"
                          << function.getName()
                          << "', which needs ROCm's device libraries; hkc "
                             "does not link them";
  }
  return success();
}

/// The first file position in `loc`, through names, fusions and call
/// sites; null when it has none.
static FileLineColLoc firstFileLoc(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    found = dyn_cast<FileLineColLoc>(inner);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Gives each function defined in `gpuModule` a DISubprogram, in one
/// DICompileUnit that asks for line tables only, unless it has one. MLIR's
/// translation keeps an op's location (FileLineColLoc: the .mlir file, line
/// and column of the op it was lowered from) as the LLVM instruction's
/// DILocation only inside such a scope, and LLVM's code generator turns
/// those into the code object's DWARF line table (.debug_line), which the
/// ISA simulator reads to locate a fault. MLIR's
/// ensure-debug-info-scope-on-llvm-func pass does the same; here it is done
/// at translation, where TargetOptions::lineTables decides it per output,
/// so the registered pipelines and the LLVM dialect they print stay as
/// they were.
static void addLineTableScopes(gpu::GPUModuleOp gpuModule) {
  MLIRContext *context = gpuModule.getContext();
  llvm::SmallString<128> cwd;
  if (llvm::sys::fs::current_path(cwd))
    cwd.clear();
  LLVM::DICompileUnitAttr unit;
  for (auto func : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
    Location loc = func.getLoc();
    if (func.isExternal() ||
        loc->findInstanceOf<FusedLocWith<LLVM::DISubprogramAttr>>())
      continue;
    FileLineColLoc fileLoc = firstFileLoc(loc);
    if (!fileLoc)
      fileLoc = firstFileLoc(gpuModule.getLoc());
    if (!fileLoc)
      continue; // no source to name: the function gets no line table
    auto file =
        LLVM::DIFileAttr::get(context, fileLoc.getFilename().getValue(), cwd);
    // DWARF has no language code for MLIR; C is what MLIR's own pass uses.
    if (!unit)
      unit = LLVM::DICompileUnitAttr::get(
          DistinctAttr::create(UnitAttr::get(context)), llvm::dwarf::DW_LANG_C,
          file, StringAttr::get(context, "hkc"),
          /*isOptimized=*/true, LLVM::DIEmissionKind::LineTablesOnly,
          LLVM::DINameTableKind::None);
    auto type =
        LLVM::DISubroutineTypeAttr::get(context, llvm::dwarf::DW_CC_normal, {});
    auto subprogram = LLVM::DISubprogramAttr::get(
        context, DistinctAttr::create(UnitAttr::get(context)), unit, file,
        func.getNameAttr(), func.getNameAttr(), file, fileLoc.getLine(),
        fileLoc.getLine(),
        LLVM::DISubprogramFlags::Definition |
            LLVM::DISubprogramFlags::Optimized,
        type, /*retainedNodes=*/{}, /*annotations=*/{});
    func->setLoc(FusedLoc::get(context, {loc}, subprogram));
  }
}

/// The module flags LLVM's DWARF emission reads: DWARF 5, as clang uses
/// for AMDGPU, and the debug metadata version.
static void addDebugInfoFlags(llvm::Module &llvmModule) {
  if (!llvmModule.getModuleFlag("Dwarf Version"))
    llvmModule.addModuleFlag(llvm::Module::Max, "Dwarf Version", 5);
  if (!llvmModule.getModuleFlag("Debug Info Version"))
    llvmModule.addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                             llvm::DEBUG_METADATA_VERSION);
}

/// Translates each gpu.module and links them into one module, so that a
/// code object holds every kernel of the input; with `lineTables`, the ops'
/// locations become debug locations (addLineTableScopes).
static std::unique_ptr<llvm::Module>
translateGpuModules(ModuleOp module, llvm::LLVMContext &context,
                    bool lineTables) {
  std::unique_ptr<llvm::Module> linked;
  for (gpu::GPUModuleOp gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    if (lineTables)
      addLineTableScopes(gpuModule);
    std::unique_ptr<llvm::Module> part =
        translateModuleToLLVMIR(gpuModule, context, gpuModule.getName());
    if (!part)
      return nullptr;
    replaceDeviceLibraryCalls(*part);
    if (failed(checkNoExternalCalls(*part, gpuModule.getLoc())))
      return nullptr;
    if (!linked) {
      linked = std::move(part);
      continue;
    }
    if (llvm::Linker::linkModules(*linked, std::move(part))) {
      gpuModule.emitError() << "cannot link this gpu.module with the others "
                               "(a symbol defined twice?)";
      return nullptr;
    }
  }
  return linked;
}

std::unique_ptr<llvm::Module> translateToLLVMIR(ModuleOp module,
                                                llvm::LLVMContext &context,
                                                const TargetOptions &options) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options, error);
  if (!machine) {
    module.emitError() << error;
    return nullptr;
  }
  std::unique_ptr<llvm::Module> llvmModule =
      translateGpuModules(module, context, options.lineTables);
  if (!llvmModule)
    return nullptr;
  if (options.lineTables)
    addDebugInfoFlags(*llvmModule);

  // Stamp the chip on every function, as clang does, so that the LLVM IR
  // that --emit=llvm prints compiles the same way under llc. Kernels run
  // with the IEEE mode bit clear: v_max_f32 / v_min_f32 then return the
  // other operand for any NaN, signaling or quiet, which is maxNum /
  // minNum as hk defines them, so LLVM need not quiet every operand first
  // (a v_max_f32 x, x per operand not known canonical, such as an MFMA
  // result). The one other effect of the bit is that arithmetic passes a
  // signaling NaN on unquieted: a NaN either way.
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration()) {
      function.addFnAttr("target-cpu", options.chip);
      function.addFnAttr("amdgpu-ieee", "false");
    }
  // The backend reads the code object version (the AMDHSA ABI) from here.
  llvmModule->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                            options.codeObjectVersion * 100);
  optimizeForTarget(*llvmModule, *machine, options.optLevel);
  return llvmModule;
}

} // namespace hk::target
