//===- hkc.cpp - the hk compiler driver -----------------------------------===//
//
// Compiles hk tile kernels, or lane-level gpu.modules, into AMD code objects
// for one or more chips, in process; or into one artifact for the runtime
// that also carries each chip's lane program compiled for the emulator.
//===----------------------------------------------------------------------===//

#include "Artifact.h"
#include "ReportOption.h"

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Runtime/Artifact.h"
#include "hk/Runtime/Error.h"
#include "hk/Target/AMDGPU/Compiler.h"
#include "hk/Target/AMDGPU/ResourceUsage.h"
#include "hk/Target/Chip.h"
#include "hk/Target/Host/HostObject.h"
#include "hk/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace mlir;
using namespace ::hk::target;
namespace rt = ::hk::rt;
namespace cl = llvm::cl;

namespace {

enum class EmitKind {
  LaneMlir,
  EmulatorMlir,
  LlvmIr,
  Assembly,
  CodeObject,
  Artifact
};

cl::OptionCategory hkcCategory("hkc options");

cl::opt<std::string> inputOption(cl::Positional, cl::desc("<input.mlir>"),
                                 cl::init("-"), cl::cat(hkcCategory));

cl::opt<std::string> outputOption(
    "o", cl::value_desc("prefix"),
    cl::desc("Output prefix: each chip's output goes to "
             "<prefix>.<chip>.<ext> (ext: mlir, emu.mlir, ll, s or hsaco; a "
             "<prefix> that already ends in .<ext> loses it first); an "
             "artifact goes to <prefix>.hkrt. '-' writes every chip's output "
             "to stdout, in --chip order. Default: the input file name "
             "without .mlir, or '-' for stdin."),
    cl::cat(hkcCategory));

cl::list<std::string> chipOption(
    "chip", cl::CommaSeparated, cl::value_desc("gfx942,gfx950"),
    cl::desc("Chips to compile for, comma separated (default gfx950)"),
    cl::cat(hkcCategory));

cl::opt<EmitKind> emitOption(
    "emit", cl::desc("What to produce (default obj)"),
    cl::values(
        clEnumValN(EmitKind::LaneMlir, "lane-mlir",
                   "lane-level MLIR after convert-hk-to-amdgpu (.mlir); "
                   "needs that pass when the input holds hk.kernel ops"),
        clEnumValN(EmitKind::EmulatorMlir, "emulator-mlir",
                   "the lane-level IR rewritten for the emulator by "
                   "convert-lane-to-emulator (.emu.mlir)"),
        clEnumValN(EmitKind::LlvmIr, "llvm", "optimized LLVM IR (.ll)"),
        clEnumValN(EmitKind::Assembly, "asm", "AMDGPU assembly (.s)"),
        clEnumValN(EmitKind::CodeObject, "obj",
                   "linked ELF code object, loadable by HIP/HSA (.hsaco)"),
        clEnumValN(EmitKind::Artifact, "artifact",
                   "one runtime artifact (.hkrt): kernel metadata, a code "
                   "object per chip and, per chip, the lane program "
                   "compiled for the host emulator")),
    cl::init(EmitKind::CodeObject), cl::cat(hkcCategory));

cl::opt<unsigned> optOption("O", cl::Prefix, cl::value_desc("0-3"),
                            cl::desc("Optimization level of the LLVM IR and "
                                     "code generation pipelines (default 3)"),
                            cl::init(3), cl::cat(hkcCategory));

cl::opt<unsigned> codeObjectVersionOption(
    "code-object-version", cl::value_desc("5|6"),
    cl::desc("AMDHSA code object version (default 5; 6 needs ROCm >= 6.3 "
             "to load)"),
    cl::init(5), cl::cat(hkcCategory));

cl::opt<bool> resourceUsageOption(
    "resource-usage",
    cl::desc("Print, per chip and kernel, the VGPRs, AGPRs, SGPRs, LDS and "
             "scratch bytes read from the code object's AMDHSA metadata, and "
             "the waves per SIMD they allow. Goes to stdout, or to stderr "
             "when the output itself goes to stdout"),
    cl::cat(hkcCategory));

cl::opt<bool> reportOption(
    "report",
    cl::desc("Print, per chip and kernel, the code-quality report: the "
             "instructions of the hot loop (MFMAs, LDS and global memory, "
             "barriers, waits, scratch) and the resources; see "
             "docs/report.md. Goes where --resource-usage goes"),
    cl::cat(hkcCategory));

cl::opt<bool> noScheduleOption(
    "no-schedule",
    cl::desc("Lower tile IR without hk-schedule; kernels holding "
             "hk.ping_pong or hk.interleave are then an error"),
    cl::cat(hkcCategory));

/// The command line, copied out of the cl::opts once parsed: lld resets
/// every llvm::cl option of the process to its default when it links.
struct Request {
  std::string input;
  std::string outputPrefix;
  std::vector<std::string> chips;
  EmitKind emit;
  unsigned optLevel;
  unsigned codeObjectVersion;
  bool resourceUsage;
  bool report;
  bool schedule;
};

const char *overview = R"(hkc: compiles hk kernels to AMD GPU code objects

The input is either tile-level IR (hk.kernel ops), which hkc first lowers with
hk-check-target and convert-hk-to-amdgpu for each chip, or lane-level IR: a
gpu.module whose gpu.func kernels use the gpu, amdgpu, rocdl, arith, vector,
memref and scf dialects. Lane-level IR is lowered to the LLVM dialect
(convert-gpu-to-rocdl), translated to LLVM IR, optimized, compiled by LLVM's
AMDGPU backend and linked by lld, all in this process: no ROCm is needed.

Examples:
  hkc gemm.mlir --chip gfx942,gfx950 -o gemm
      writes gemm.gfx942.hsaco and gemm.gfx950.hsaco
  hkc gemm.mlir --chip gfx950 --emit=asm -o -
      prints the gfx950 assembly
  hkc gemm.mlir --chip gfx942 --resource-usage -o gemm
  hkc gemm.mlir --chip gfx942,gfx950 --emit=artifact -o gemm
      writes gemm.hkrt: metadata, both code objects and, per chip, the lane
      program compiled for the host (the emulator runs it; docs/emulator.md)

Exit status: 0 on success, 1 on any error (reported with its location).
)";

StringRef extensionFor(EmitKind kind) {
  switch (kind) {
  case EmitKind::LaneMlir:
    return "mlir";
  case EmitKind::EmulatorMlir:
    return "emu.mlir";
  case EmitKind::LlvmIr:
    return "ll";
  case EmitKind::Assembly:
    return "s";
  case EmitKind::CodeObject:
    return "hsaco";
  case EmitKind::Artifact:
    return "hkrt";
  }
  llvm_unreachable("unknown emit kind");
}

std::string outputPathFor(const Request &request, StringRef chip) {
  StringRef prefix = request.outputPrefix;
  if (prefix == "-")
    return "-";
  std::string dotExt = ("." + extensionFor(request.emit)).str();
  prefix.consume_back(dotExt);
  if (request.emit == EmitKind::Artifact)
    return (prefix + dotExt).str();
  return (prefix + "." + chip + dotExt).str();
}

std::string defaultOutputPrefix(StringRef input) {
  if (input == "-")
    return "-";
  StringRef name = input;
  name.consume_back(".mlir");
  return name.str();
}

/// Writes one chip's output; stdout output is shared by all chips.
LogicalResult writeOutput(const Request &request, StringRef chip,
                          StringRef data) {
  std::string path = outputPathFor(request, chip);
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "hkc: " << error << "\n";
    return failure();
  }
  file->os() << data;
  file->keep();
  return success();
}

void printResourceUsage(const Request &request, StringRef chip,
                        ArrayRef<KernelResources> kernels) {
  const ::hk::ChipInfo *info = ::hk::lookupChip(chip.str());
  llvm::raw_ostream &os =
      request.outputPrefix == "-" ? llvm::errs() : llvm::outs();
  os << "resource usage for " << chip
     << " (AMDHSA metadata; waves/SIMD from 512 unified registers per lane, "
        "granule 8, max 8, and "
     << info->ldsBytes / 1024 << " KiB of LDS per CU)\n";
  os << llvm::formatv("{0,-24} {1,5} {2,5} {3,5} {4,10} {5,13} {6,6} {7}\n",
                      "kernel", "vgpr", "agpr", "sgpr", "lds_bytes",
                      "scratch_bytes", "spills", "waves/SIMD");
  for (const KernelResources &kernel : kernels) {
    Occupancy occupancy = computeOccupancy(kernel, info->ldsBytes);
    std::string bound = "registers";
    if (kernel.ldsBytes > 0 && occupancy.byLds < occupancy.byRegisters)
      bound = "lds";
    os << llvm::formatv("{0,-24} {1,5} {2,5} {3,5} {4,10} {5,13} {6,6} {7} "
                        "(limited by {8})\n",
                        kernel.name, kernel.archVgprs(), kernel.agprs,
                        kernel.sgprs, kernel.ldsBytes, kernel.scratchBytes,
                        kernel.vgprSpills + kernel.sgprSpills,
                        occupancy.wavesPerSimd, bound);
  }
}

std::string toString(ArrayRef<char> bytes) {
  return std::string(bytes.data(), bytes.size());
}

/// Everything after the lane-level IR for one chip: returns the bytes to
/// write for `request.emit`, and prints the resource usage if asked.
FailureOr<std::string> compileLaneLevel(ModuleOp module, const Request &request,
                                        const TargetOptions &options) {
  if (failed(lowerLaneLevelToLLVMDialect(module, options)))
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateToLLVMIR(module, llvmContext, options);
  if (!llvmModule)
    return failure();
  Location loc = module.getLoc();
  if (request.report &&
      failed(::hk::hkc::printCodeQualityReport(
          *llvmModule, options, request.outputPrefix == "-", loc)))
    return failure();

  std::string result;
  if (request.emit == EmitKind::LlvmIr) {
    llvm::raw_string_ostream os(result);
    llvmModule->print(os, nullptr);
  } else if (request.emit == EmitKind::Assembly) {
    // Code generation changes the module: the object for the resource
    // report is built from a copy.
    std::unique_ptr<llvm::Module> copy =
        request.resourceUsage ? llvm::CloneModule(*llvmModule) : nullptr;
    auto assembly =
        emitMachineCode(*llvmModule, options, CodeGenFileKind::Assembly, loc);
    if (failed(assembly))
      return failure();
    result = toString(*assembly);
    llvmModule = std::move(copy);
  }
  if (request.emit != EmitKind::CodeObject && !request.resourceUsage)
    return result;

  auto object =
      emitMachineCode(*llvmModule, options, CodeGenFileKind::Object, loc);
  if (failed(object))
    return failure();
  auto codeObject = linkCodeObject(*object, loc);
  if (failed(codeObject))
    return failure();
  if (request.emit == EmitKind::CodeObject)
    result = toString(*codeObject);
  if (request.resourceUsage) {
    auto kernels = readKernelResources(*codeObject);
    if (!kernels)
      return emitError(loc) << "cannot read the code object's metadata: "
                            << llvm::toString(kernels.takeError());
    printResourceUsage(request, options.chip, *kernels);
  }
  return result;
}

FailureOr<std::string> compileForChip(ModuleOp input, const Request &request,
                                      const TargetOptions &options) {
  OwningOpRef<ModuleOp> module = input.clone();
  if (containsTileKernels(*module) &&
      failed(lowerTileToLaneLevel(*module, options)))
    return failure();
  if (request.emit == EmitKind::EmulatorMlir &&
      failed(convertLaneLevelToEmulator(*module)))
    return failure();
  if (request.emit == EmitKind::LaneMlir ||
      request.emit == EmitKind::EmulatorMlir) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }
  return compileLaneLevel(*module, request, options);
}

/// The emulator form of one chip's lane-level IR: a host shared object.
FailureOr<std::string> compileEmulatorObject(ModuleOp laneLevel,
                                             const Request &request,
                                             ArrayRef<rt::KernelInfo> kernels) {
  if (failed(convertLaneLevelToEmulator(laneLevel)) ||
      failed(::hk::hkc::checkEmulatorLds(laneLevel, kernels)) ||
      failed(lowerEmulatorToLLVMDialect(laneLevel)))
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateForHost(laneLevel, llvmContext, request.optLevel);
  if (!llvmModule)
    return failure();
  auto object =
      emitHostSharedObject(*llvmModule, request.optLevel, laneLevel.getLoc());
  if (failed(object))
    return failure();
  return toString(*object);
}

/// --emit=artifact: metadata, then per chip its code object and the host
/// object of the same lane-level IR.
LogicalResult compileArtifact(ModuleOp input, const Request &request) {
  auto kernels = ::hk::hkc::collectKernelInfo(input);
  if (failed(kernels))
    return failure();
  rt::Artifact artifact;
  artifact.kernels = *kernels;
  Request codeObjectRequest = request;
  codeObjectRequest.emit = EmitKind::CodeObject;
  for (const std::string &chip : request.chips) {
    TargetOptions options;
    options.chip = chip;
    options.optLevel = request.optLevel;
    options.codeObjectVersion = request.codeObjectVersion;
    options.schedule = request.schedule;
    OwningOpRef<ModuleOp> module = input.clone();
    if (containsTileKernels(*module) &&
        failed(lowerTileToLaneLevel(*module, options)))
      return failure();
    OwningOpRef<ModuleOp> laneLevel = module->clone();
    auto codeObject = compileLaneLevel(*module, codeObjectRequest, options);
    auto emulator = compileEmulatorObject(*laneLevel, request, *kernels);
    if (failed(codeObject) || failed(emulator))
      return failure();
    artifact.codeObjects[chip] = std::move(*codeObject);
    artifact.codeObjects["emulator-" + chip] = std::move(*emulator);
  }
  std::string bytes;
  try {
    bytes = rt::writeArtifact(artifact);
  } catch (const rt::Error &error) {
    llvm::errs() << "hkc: cannot write the artifact: " << error.what() << "\n";
    return failure();
  }
  return writeOutput(request, "", bytes);
}

LogicalResult checkRequest(const Request &request) {
  auto fail = [](const llvm::Twine &message) {
    llvm::errs() << "hkc: " << message << "\n";
    return failure();
  };
  if (request.optLevel > 3)
    return fail("-O" + llvm::Twine(request.optLevel) +
                " is not a level; use -O0 to -O3");
  if (request.codeObjectVersion != 5 && request.codeObjectVersion != 6)
    return fail("--code-object-version must be 5 or 6, got " +
                llvm::Twine(request.codeObjectVersion));
  if (request.chips.empty())
    return fail("--chip names no chip");
  if (!request.schedule && request.emit == EmitKind::Artifact)
    return fail("--no-schedule does not apply to --emit=artifact");
  if (request.report && (request.emit == EmitKind::LaneMlir ||
                         request.emit == EmitKind::EmulatorMlir))
    return fail("--report needs machine code, which --emit=lane-mlir and "
                "--emit=emulator-mlir do not produce");
  for (const std::string &chip : request.chips)
    if (!::hk::lookupChip(chip))
      return fail("unsupported chip '" + chip + "'; expected one of " +
                  ::hk::supportedChipNames());
  return success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(hkcCategory);
  cl::ParseCommandLineOptions(argc, argv, overview);
  Request request{
      inputOption,
      outputOption.getNumOccurrences()
          ? outputOption.getValue()
          : defaultOutputPrefix(inputOption.getValue()),
      chipOption.getNumOccurrences()
          ? std::vector<std::string>(chipOption.begin(), chipOption.end())
          : std::vector<std::string>{"gfx950"},
      emitOption,
      optOption,
      codeObjectVersionOption,
      resourceUsageOption,
      reportOption,
      !noScheduleOption};
  if (failed(checkRequest(request)))
    return 1;

  DialectRegistry registry;
  registerCompilerDialects(registry);
  registry.insert<mlir::hk::HKDialect>();
  registerAllPasses();
  mlir::hk::registerHKPasses();
  MLIRContext context(registry);
  // A located message is enough; the generic form of the failing op, with
  // its operands already converted, would only confuse.
  context.printOpOnDiagnostic(false);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(request.input, &error);
  if (!buffer) {
    llvm::errs() << "hkc: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  if (request.emit == EmitKind::Artifact)
    return failed(compileArtifact(*module, request)) ? 1 : 0;
  for (const std::string &chip : request.chips) {
    TargetOptions options;
    options.chip = chip;
    options.optLevel = request.optLevel;
    options.codeObjectVersion = request.codeObjectVersion;
    options.schedule = request.schedule;
    FailureOr<std::string> output = compileForChip(*module, request, options);
    if (failed(output) || failed(writeOutput(request, chip, *output)))
      return 1;
  }
  return 0;
}
