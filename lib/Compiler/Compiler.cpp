//===- Compiler.cpp - from a module of hk kernels to code and artifacts ---===//

#include "hk/Compiler/Compiler.h"
#include "KernelInfoCollection.h"
#include "Reports.h"

#include "hk/Compiler/Pipelines.h"
#include "hk/Conversion/HKToAMDGPU/Passes.h"
#include "hk/Conversion/LaneToROCDL/Passes.h"
#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Target/AMDGPU/Backend.h"
#include "hk/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace mlir;
using namespace hk::target;

namespace hk::compiler {

StringRef extensionOf(Output output) {
  switch (output) {
  case Output::LaneIR:
    return "mlir";
  case Output::LLVMIR:
    return "ll";
  case Output::Assembly:
    return "s";
  case Output::CodeObject:
    return "hsaco";
  }
  llvm_unreachable("unknown output");
}

void registerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  // Dialect extensions carry the ConvertToLLVM interfaces that upstream
  // lowerings such as convert-gpu-to-rocdl rely on.
  registerAllExtensions(registry);
  registerBackendTranslations(registry);
  registry.insert<hk::HKDialect>();
}

void registerPassesAndPipelines() {
  registerAllPasses();
  hk::registerHKTransformsPasses();
  hk::registerHKConversionPasses();
  hk::registerHKLaneToROCDLPasses();
  registerPipelines();
}

LogicalResult checkOptions(const Options &options, Output output,
                           std::string &error) {
  if (options.optLevel > 3)
    error = "-O" + std::to_string(options.optLevel) +
            " is not a level; use -O0 to -O3";
  else if (options.codeObjectVersion != 5 && options.codeObjectVersion != 6)
    error = "the code object version must be 5 or 6, got " +
            std::to_string(options.codeObjectVersion);
  else if (options.chips.empty())
    error = "no chip to compile for";
  else if ((options.report || options.resourceUsage) &&
           output == Output::LaneIR)
    error = "reports need machine code, which lane-level IR is not";
  for (const std::string &chip : options.chips)
    if (error.empty() && !lookupChip(chip))
      error = "unsupported chip '" + chip + "'; expected one of " +
              supportedChipNames();
  return failure(!error.empty());
}

static bool containsTileKernels(ModuleOp module) {
  return module.walk([](hk::KernelOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

static TargetOptions targetOptions(const Options &options, StringRef chip) {
  TargetOptions target;
  target.chip = chip.str();
  target.optLevel = options.optLevel;
  target.codeObjectVersion = options.codeObjectVersion;
  return target;
}

/// Runs `build`'s pipeline on `module`. Some upstream patterns report an op
/// the chip cannot run (an MFMA shape, a transpose load) and leave it to a
/// partial conversion, which then succeeds: any error reported on the way is
/// a failure.
static LogicalResult runPipeline(ModuleOp module,
                                 function_ref<void(OpPassManager &)> build) {
  bool reportedError = false;
  ScopedDiagnosticHandler errorWatch(module.getContext(), [&](Diagnostic &d) {
    reportedError |= d.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // let the enclosing handler print it
  });
  PassManager pm(module.getContext());
  build(pm);
  return failure(failed(pm.run(module)) || reportedError);
}

/// Tile-level kernels of `module`, if any, lowered to lane level in place.
static LogicalResult lowerToLaneLevel(ModuleOp module, const Options &options,
                                      StringRef chip) {
  if (!containsTileKernels(module))
    return success();
  TileToLaneOptions pipeline;
  pipeline.chip = chip.str();
  pipeline.schedule = options.schedule;
  return runPipeline(module, [&](OpPassManager &pm) {
    buildTileToLanePipeline(pm, pipeline);
  });
}

static std::string toString(ArrayRef<char> bytes) {
  return std::string(bytes.data(), bytes.size());
}

/// Warns, at each kernel of `module` whose code spills VGPRs to scratch
/// memory, with the counts of the code object's metadata. SGPR spills, which
/// go to VGPR lanes and not to memory, are part of the message only.
static void warnAboutSpills(ModuleOp module, StringRef chip,
                            ArrayRef<KernelResources> kernels) {
  for (const KernelResources &k : kernels) {
    if (k.vgprSpills == 0 && k.scratchBytes == 0)
      continue;
    Location loc = module.getLoc();
    // The gpu.func of the kernel, an llvm.func by now.
    module.walk([&](SymbolOpInterface func) {
      if (isa<ModuleOp, gpu::GPUModuleOp>(func) || func.getName() != k.name)
        return WalkResult::advance();
      loc = func.getLoc();
      return WalkResult::interrupt();
    });
    emitWarning(loc) << "kernel '" << k.name << "' spills on " << chip << ": "
                     << k.vgprSpills << " VGPRs and " << k.sgprSpills
                     << " SGPRs spilled, " << k.scratchBytes
                     << " bytes of scratch per lane, " << k.archVgprs()
                     << " VGPRs and " << k.agprs << " AGPRs used";
  }
}

/// The code object of `llvmModule` (consumed), and its resource table if
/// asked. Warns about kernels that spill (`module` is the lane-level IR the
/// code was generated from, for the kernels' locations).
static FailureOr<std::string> emitCodeObject(llvm::Module &llvmModule,
                                             const TargetOptions &target,
                                             ModuleOp module, ChipOutput &out,
                                             bool resourceUsage) {
  Location loc = module.getLoc();
  auto object =
      emitMachineCode(llvmModule, target, CodeGenFileKind::Object, loc);
  if (failed(object))
    return failure();
  auto codeObject = linkCodeObject(*object, loc);
  if (failed(codeObject))
    return failure();
  auto kernels = readKernelResources(*codeObject);
  if (!kernels)
    return emitError(loc) << "cannot read the code object's metadata: "
                          << llvm::toString(kernels.takeError());
  warnAboutSpills(module, target.chip, *kernels);
  if (resourceUsage)
    out.resourceUsage = resourceUsageTable(target.chip, *kernels);
  return toString(*codeObject);
}

/// A copy of `llvmModule` without its debug information, or null. Through
/// bitcode that keeps the order of use lists, on which code generation
/// depends (CloneModule does not keep it): the copy compiles to the same
/// code.
static std::unique_ptr<llvm::Module>
copyWithoutDebugInfo(const llvm::Module &llvmModule) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(llvmModule, stream,
                           /*ShouldPreserveUseListOrder=*/true);
  auto copy = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                            llvmModule.getModuleIdentifier()),
      llvmModule.getContext());
  if (!copy) {
    llvm::consumeError(copy.takeError());
    return nullptr;
  }
  llvm::StripDebugInfo(**copy);
  return std::move(*copy);
}

/// Everything after the lane-level IR for one chip, for `output` (LLVM IR,
/// assembly or code object).
static LogicalResult compileLaneLevel(ModuleOp module, Output output,
                                      const Options &options, ChipOutput &out) {
  TargetOptions target = targetOptions(options, out.chip);
  // Line tables go into what runs (the ISA simulator locates faults with
  // them); the text outputs keep them only when asked for.
  target.lineTables = options.lineTables.value_or(output == Output::CodeObject);
  if (module.getOps<gpu::GPUModuleOp>().empty())
    return module.emitError()
           << "no gpu.module to compile; the compiler compiles the gpu.func "
              "kernels of the gpu.modules at the top level of the input";
  LaneToROCDLOptions pipeline;
  pipeline.chip = out.chip;
  if (failed(runPipeline(module, [&](OpPassManager &pm) {
        buildLaneToROCDLPipeline(pm, pipeline);
      })))
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateToLLVMIR(module, llvmContext, target);
  if (!llvmModule)
    return failure();
  Location loc = module.getLoc();
  if (options.report) {
    // The report names lines of the assembly --emit=asm prints, which has
    // no line tables unless asked for: it reads a copy without them.
    std::unique_ptr<llvm::Module> plain;
    if (target.lineTables && !options.lineTables.value_or(false)) {
      plain = copyWithoutDebugInfo(*llvmModule);
      if (!plain)
        return emitError(loc) << "cannot copy the LLVM module for the report";
    }
    auto report = codeQualityReport(plain ? *plain : *llvmModule, target, loc);
    if (failed(report))
      return failure();
    out.report = std::move(*report);
  }

  if (output == Output::LLVMIR) {
    llvm::raw_string_ostream os(out.bytes);
    llvmModule->print(os, nullptr);
  } else if (output == Output::Assembly) {
    // Code generation changes the module: the object for the resource
    // table is built from a copy.
    std::unique_ptr<llvm::Module> copy =
        options.resourceUsage ? llvm::CloneModule(*llvmModule) : nullptr;
    auto assembly =
        emitMachineCode(*llvmModule, target, CodeGenFileKind::Assembly, loc);
    if (failed(assembly))
      return failure();
    out.bytes = toString(*assembly);
    llvmModule = std::move(copy);
  }
  if (output != Output::CodeObject && !options.resourceUsage)
    return success();
  auto codeObject =
      emitCodeObject(*llvmModule, target, module, out, options.resourceUsage);
  if (failed(codeObject))
    return failure();
  if (output == Output::CodeObject)
    out.bytes = std::move(*codeObject);
  return success();
}

static std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  os << "\n"; // as hk-opt prints it
  return text;
}

FailureOr<std::vector<ChipOutput>> compile(ModuleOp input, Output output,
                                           const Options &options) {
  std::string error;
  if (failed(checkOptions(options, output, error)))
    return input.emitError() << error;
  std::vector<ChipOutput> outputs;
  for (const std::string &chip : options.chips) {
    ChipOutput &out = outputs.emplace_back();
    out.chip = chip;
    OwningOpRef<ModuleOp> module = input.clone();
    if (failed(lowerToLaneLevel(*module, options, chip)))
      return failure();
    if (output == Output::LaneIR)
      out.bytes = print(*module);
    else if (failed(compileLaneLevel(*module, output, options, out)))
      return failure();
  }
  return outputs;
}

FailureOr<rt::Artifact> compileArtifact(ModuleOp input,
                                        const Options &options) {
  std::string error;
  if (failed(checkOptions(options, Output::CodeObject, error)))
    return input.emitError() << error;
  if (!options.schedule)
    return input.emitError()
           << "an artifact holds scheduled kernels; the unscheduled "
              "lowering is for comparing code only";
  auto kernels = collectKernelInfo(input);
  if (failed(kernels))
    return failure();
  rt::Artifact artifact;
  artifact.kernels = *kernels;
  Options codeOnly = options;
  codeOnly.report = codeOnly.resourceUsage = false;
  // Lowered once per chip: the per-chip LDS goes into the metadata.
  std::vector<std::pair<std::string, OwningOpRef<ModuleOp>>> lowered;
  for (const std::string &chip : options.chips) {
    OwningOpRef<ModuleOp> module = input.clone();
    if (failed(lowerToLaneLevel(*module, options, chip)))
      return failure();
    recordChipLds(*module, chip, artifact.kernels);
    lowered.emplace_back(chip, std::move(module));
  }
  dropUniformChipLds(artifact.kernels);
  for (auto &[chip, module] : lowered) {
    ChipOutput code;
    code.chip = chip;
    if (failed(compileLaneLevel(*module, Output::CodeObject, codeOnly, code)))
      return failure();
    artifact.codeObjects[chip] = std::move(code.bytes);
  }
  return artifact;
}

} // namespace hk::compiler
