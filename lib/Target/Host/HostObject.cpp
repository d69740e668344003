//===- HostObject.cpp - lane-level IR to a host shared object -------------===//

#include "hk/Target/Host/HostObject.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

#include "lld/Common/Driver.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>
#include <vector>

LLD_HAS_DRIVER(elf)

using namespace mlir;

namespace hk::target {

std::string laneFunctionName(StringRef kernel) {
  return (kernel + "__lane").str();
}

LogicalResult convertLaneLevelToEmulator(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(mlir::hk::createConvertLaneToEmulator());
  return pm.run(module);
}

static LogicalResult lowerVectorOps(ModuleOp module) {
  RewritePatternSet patterns(module.getContext());
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorStepLoweringPatterns(patterns);
  return applyPatternsGreedily(module, std::move(patterns));
}

LogicalResult lowerEmulatorToLLVMDialect(ModuleOp module) {
  PassManager prepare(module.getContext());
  prepare.addPass(createCanonicalizerPass());
  prepare.addPass(createCSEPass());
  prepare.addPass(memref::createExpandStridedMetadataPass());
  prepare.addPass(createLowerAffinePass());
  prepare.addPass(createSCFToControlFlowPass());
  // bf16 (and f8E8M0/f4) conversions as integer code: x86 has no bf16
  // instructions, and a libcall (__truncsfbf2) may be missing at load time.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  prepare.addPass(arith::createArithExpandOpsPass(expand));
  if (failed(prepare.run(module)) || failed(lowerVectorOps(module)))
    return failure();

  PassManager pm(module.getContext());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  return pm.run(module);
}

static std::unique_ptr<llvm::TargetMachine>
createHostTargetMachine(unsigned optLevel, std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  static const llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  // Generic CPU: the object must run on any machine of the triple, not only
  // on the one that compiled it. PIC: it is linked into a shared object.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, levels[std::min(optLevel, 3u)]));
  if (!machine)
    error = "cannot create the host target machine for " + triple.str();
  return machine;
}

static void optimize(llvm::Module &llvmModule, llvm::TargetMachine &machine,
                     unsigned optLevel) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
  llvm::ModulePassManager passes =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  passes.run(llvmModule, modules);
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
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  optimize(*llvmModule, *machine, optLevel);
  return llvmModule;
}

/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  llvm::FileRemover remover;
};

static LogicalResult createTempFile(StringRef suffix, TempFile &file,
                                    Location loc) {
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hkc-host", suffix, file.path))
    return emitError(loc) << "cannot create a temporary file: " << ec.message();
  file.remover.setFile(file.path);
  return success();
}

static FailureOr<llvm::SmallVector<char, 0>>
linkSharedObject(ArrayRef<char> object, Location loc) {
  TempFile input, output;
  if (failed(createTempFile("o", input, loc)) ||
      failed(createTempFile("so", output, loc)))
    return failure();
  {
    std::error_code ec;
    llvm::raw_fd_ostream stream(input.path, ec, llvm::sys::fs::OF_None);
    if (!ec)
      stream.write(object.data(), object.size());
    if (ec || stream.has_error())
      return emitError(loc) << "cannot write " << input.path;
  }
  // Undefined symbols stay: hkemu_* and libm resolve when the runtime
  // loads the object into its own process. compiler-rt's builtins (see
  // CMakeLists.txt) supply the conversions x86-64 has no instructions for.
  std::vector<const char *> args = {"ld.lld", "-shared", input.path.c_str(),
                                    "-o", output.path.c_str()};
#ifdef HK_HOST_BUILTINS
  args.push_back(HK_HOST_BUILTINS);
#endif
  std::string messages;
  llvm::raw_string_ostream messageStream(messages);
  // lld keeps global state: one link at a time in this library. (hkc links
  // code objects and host objects one after the other, never at once.)
  static std::mutex linkerMutex;
  lld::Result result;
  {
    std::lock_guard<std::mutex> lock(linkerMutex);
    result = lld::lldMain(args, messageStream, messageStream,
                          {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0)
    return emitError(loc) << "linking the host object failed: " << messages;
  auto linked = llvm::MemoryBuffer::getFile(output.path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!linked)
    return emitError(loc) << "cannot read the linked host object: "
                          << linked.getError().message();
  StringRef bytes = (*linked)->getBuffer();
  return llvm::SmallVector<char, 0>(bytes.begin(), bytes.end());
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
  return linkSharedObject(object, loc);
}

FailureOr<llvm::SmallVector<char, 0>> compileEmulatorObject(ModuleOp module,
                                                            unsigned optLevel) {
  if (failed(convertLaneLevelToEmulator(module)) ||
      failed(lowerEmulatorToLLVMDialect(module)))
    return failure();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateForHost(module, context, optLevel);
  if (!llvmModule)
    return failure();
  return emitHostSharedObject(*llvmModule, optLevel, module.getLoc());
}

} // namespace hk::target
