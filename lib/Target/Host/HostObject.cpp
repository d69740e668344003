//===- HostObject.cpp - lane-level IR to a host shared object -------------===//

#include "hk/Target/Host/HostObject.h"
#include "hk/Target/Common/Optimize.h"
#include "hk/Target/Common/SharedObjectLink.h"
#include "hk/Target/Common/TargetMachine.h"
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

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

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

/// Undefined symbols stay: hkemu_* and libm resolve when the runtime loads
/// the object into its own process. compiler-rt's builtins (see
/// CMakeLists.txt) supply the conversions x86-64 has no instructions for.
static FailureOr<llvm::SmallVector<char, 0>>
linkHostObject(ArrayRef<char> object, Location loc) {
  llvm::SmallVector<const char *, 1> extraArgs;
#ifdef HK_HOST_BUILTINS
  extraArgs.push_back(HK_HOST_BUILTINS);
#endif
  return linkSharedObject(object, extraArgs, "host object", loc);
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
