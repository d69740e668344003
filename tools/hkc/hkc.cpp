//===- hkc.cpp - the hk compiler driver -----------------------------------===//
//
// Compiles hk tile kernels, or lane-level gpu.modules, into AMD code objects
// for one or more chips, in process; or into one artifact for the runtime
// (the kernels' metadata and a code object per chip).
//===----------------------------------------------------------------------===//

#include "CLibrary.h"
#include "Tune.h"

#include "hk/Base/Artifact.h"
#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"
#include "hk/Base/InputLimits.h"
#include "hk/Compiler/Compiler.h"
#include "hk/Dialect/HK/Template.h"
#include "hk/Runtime/hkrt.h"
#include "hk/Target/AMDGPU/Report.h"
#include "hk/Target/AMDGPU/ResourceUsage.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace compiler = hk::compiler;
namespace rt = hk::rt;
namespace cl = llvm::cl;

namespace {

enum class EmitKind {
  LaneMlir,
  LlvmIr,
  Assembly,
  CodeObject,
  Artifact,
  CLibrary
};

cl::OptionCategory hkcCategory("hkc options");

cl::opt<std::string> inputOption(cl::Positional, cl::desc("<input.mlir>"),
                                 cl::init("-"), cl::cat(hkcCategory));

cl::opt<std::string> outputOption(
    "o", cl::value_desc("prefix"),
    cl::desc("Output prefix: each chip's output goes to "
             "<prefix>.<chip>.<ext> (ext: mlir, ll, s or hsaco; a "
             "<prefix> that already ends in .<ext> loses it first); an "
             "artifact goes to <prefix>.hkrt. '-' writes every chip's output "
             "to stdout, in --chip order. Default: the input file name "
             "without .mlir, or '-' for stdin."),
    cl::cat(hkcCategory));

// cl::desc keeps a StringRef: the text must outlive the option.
const std::string chipHelp = "Chips to compile for, comma separated (default " +
                             std::string(hk::kDefaultChip) + ")";
cl::list<std::string> chipOption("chip", cl::CommaSeparated,
                                 cl::value_desc("gfx942,gfx950"),
                                 cl::desc(chipHelp), cl::cat(hkcCategory));

cl::opt<EmitKind> emitOption(
    "emit", cl::desc("What to produce (default obj)"),
    cl::values(
        clEnumValN(EmitKind::LaneMlir, "lane-mlir",
                   "lane-level IR after the hk-tile-to-lane pipeline "
                   "(.mlir); lane-level input is printed unchanged"),
        clEnumValN(EmitKind::LlvmIr, "llvm", "optimized LLVM IR (.ll)"),
        clEnumValN(EmitKind::Assembly, "asm", "AMDGPU assembly (.s)"),
        clEnumValN(EmitKind::CodeObject, "obj",
                   "linked ELF code object, loadable by HIP/HSA (.hsaco)"),
        clEnumValN(EmitKind::Artifact, "artifact",
                   "one runtime artifact (.hkrt): kernel metadata and a "
                   "code object per chip"),
        clEnumValN(EmitKind::CLibrary, "c-library",
                   "the artifact as a C library: <prefix>.h (a typed launch "
                   "function per kernel) and <prefix>.c (the artifact's "
                   "bytes, loaded through hkrt.h)")),
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

cl::opt<std::string> reportAsmOption(
    "report-asm", cl::value_desc("file.s"),
    cl::desc("Print the code-quality report (as --report does) of an AMDGPU "
             "assembly file compiled elsewhere, for example by clang -S, "
             "with the resources read from its .amdgpu_metadata block, for "
             "the one chip given with --chip; no MLIR input. See "
             "docs/report.md"),
    cl::cat(hkcCategory));
cl::opt<bool> noScheduleOption(
    "no-schedule",
    cl::desc("Lower tile IR with the plain expansion of hk.ping_pong and "
             "hk.interleave (hk-tile-to-lane{schedule=false}: their "
             "barriers, without stagger, priorities, fences or hints), to "
             "see what the schedule changes; not for --emit=artifact"),
    cl::cat(hkcCategory));

cl::opt<bool> lineTablesOption(
    "line-tables",
    cl::desc("DWARF line tables (.debug_line) from the ops' locations: each "
             "instruction's .mlir file, line and column, which the ISA "
             "simulator names in its faults. Default: in code objects and "
             "artifacts, not in --emit=llvm or asm; --line-tables adds them "
             "there too (!dbg, .loc), --line-tables=false leaves them out "
             "everywhere"),
    cl::cat(hkcCategory));

cl::opt<bool> checkSimulatedOption(
    "check-simulated",
    cl::desc("Decode each chip's code object with the ISA simulator's "
             "decoder and list every instruction the simulator cannot run "
             "(opcode, PC, instruction, reason); exit status 1 if there is "
             "any. Goes where --resource-usage goes. Needs --emit=obj or "
             "--emit=artifact; see docs/isa-simulator.md, \"Coverage\""),
    cl::cat(hkcCategory));

// A cl::desc keeps a StringRef, as chipHelp above.
const std::string nestingHelp =
    "Refuse input nested deeper than N levels of brackets ({, (, [, <) "
    "with a located error, before parsing it (default " +
    std::to_string(hk::kDefaultMaxNestingDepth) + ", at most " +
    std::to_string(hk::kMaxNestingDepthLimit) + ")";
cl::list<std::string> paramOption(
    "param", cl::value_desc("NAME=VALUE"),
    cl::desc("Instantiate a kernel template with parameter NAME at VALUE "
             "(repeatable; the others keep their defaults). A value outside "
             "the parameter's declared set, or one breaking a constraint, "
             "is an error located at the declaration"),
    cl::cat(hkcCategory));

cl::opt<bool> verifyOption(
    "verify",
    cl::desc("Parse and verify the input only (a template's declaration "
             "and the instance at any --param included), as hk-opt and "
             "hkc_verify do: nothing is compiled or written; exit status 0 "
             "when it verifies"),
    cl::cat(hkcCategory));

cl::OptionCategory tuneCategory(
    "hkc --tune options",
    "Searches a kernel template's parameter space for the instance the ISA "
    "simulator's timing model rates fastest at given shapes (the model's "
    "time, not a GPU's; docs/hkc.md, \"Tuning a template\")");

cl::opt<bool> tuneOption(
    "tune",
    cl::desc("Time every instance of the input template (each combination "
             "of its parameters' values that satisfies its constraints, and "
             "the default) at each --shape on each --chip with the ISA "
             "simulator's timing model, in parallel; print one row per "
             "instance and shape (chip, shape, modelled microseconds, "
             "instance) and, per bucket of the shapes, the fastest instance "
             "over the bucket's shapes. The kernel's arguments for a shape "
             "come from its harness in the kernel library (hk-run --list). "
             "--param NAME=VALUE holds a parameter at one value"),
    cl::cat(tuneCategory));

cl::list<std::string>
    shapeOption("shape", cl::value_desc("D1,D2,..."),
                cl::desc("A shape to tune at, as hk-run --shape takes it for "
                         "the kernel (repeatable; required with --tune)"),
                cl::cat(tuneCategory));

cl::list<std::string> spaceOption(
    "space", cl::value_desc("NAME=V1,V2,..."),
    cl::desc("Search parameter NAME over these of its values only "
             "(repeatable); a parameter not named keeps all its declared "
             "values (a range of more than 64 values must be narrowed)"),
    cl::cat(tuneCategory));

cl::opt<unsigned> jobsOption(
    "j", cl::value_desc("N"),
    cl::desc("Instances compiled and timed at once, each in its own process "
             "(default: the host's cores)"),
    cl::init(0), cl::cat(tuneCategory));

cl::opt<std::string> kernelOption(
    "kernel", cl::value_desc("NAME"),
    cl::desc("The library kernel whose harness sets up the arguments "
             "(default: the input's file name without .mlir)"),
    cl::cat(tuneCategory));

cl::opt<bool> writeOption(
    "write",
    cl::desc("Merge each bucket's fastest instance into the tuned table "
             "that hk-run and hk.TunedKernel read: <dir>/<kernel>/<chip>.json "
             "under --tuned-dir or $HK_TUNED_DIR (the user's tables), else "
             "tuned/<chip>.json beside the input (the library's)"),
    cl::cat(tuneCategory));

cl::opt<std::string> tunedDirOption(
    "tuned-dir", cl::value_desc("DIR"),
    cl::desc("Where --write puts the user's tables (default $HK_TUNED_DIR)"),
    cl::cat(tuneCategory));

cl::opt<unsigned> maxNestingOption("max-nesting-depth", cl::value_desc("N"),
                                   cl::desc(nestingHelp),
                                   cl::init(hk::kDefaultMaxNestingDepth),
                                   cl::cat(hkcCategory));

/// The command line, copied out of the cl::opts once parsed: lld resets
/// every llvm::cl option of the process to its default when it links.
struct Request {
  std::string input;
  std::string outputPrefix;
  EmitKind emit;
  compiler::Options options;
  bool checkSimulated = false;
  bool verifyOnly = false;
  unsigned maxNesting = hk::kDefaultMaxNestingDepth;
  hk::ParamValues params;
};

const char *overview = R"(hkc: compiles hk kernels to AMD GPU code objects

The input is either tile-level IR (hk.kernel ops) or lane-level IR (a
gpu.module whose gpu.func kernels use the gpu, amdgpu, rocdl, arith, vector,
memref and scf dialects). For each chip, hkc runs the same pipelines that
hk-opt runs by name:
  hk-tile-to-lane{chip}   tile-level IR to lane-level IR (tile input only)
  hk-lane-to-rocdl{chip}  lane-level IR to the LLVM dialect
(hk-opt --hk-tile-to-lane --dump-pass-pipeline lists a pipeline's passes,
docs/reference/HKPipelines.md both), then translates to LLVM IR, optimizes,
compiles with LLVM's AMDGPU backend and links with lld, all in this process:
no ROCm is needed. An artifact holds the kernels' metadata and each chip's
code object, which a GPU or the ISA simulator runs. docs/hkc.md has the
details.

Examples:
  hkc gemm.mlir --chip gfx942,gfx950 -o gemm
      writes gemm.gfx942.hsaco and gemm.gfx950.hsaco
  hkc gemm.mlir --chip gfx950 --emit=asm -o -
      prints the gfx950 assembly
  hkc gemm.mlir --chip gfx942 --resource-usage -o gemm
  hkc gemm.mlir --chip gfx942,gfx950 --emit=artifact -o gemm
      writes gemm.hkrt: metadata and both code objects (a GPU or the ISA
      simulator runs them; docs/isa-simulator.md)
  hkc gemm.mlir --chip gfx942,gfx950 --check-simulated -o gemm
      also lists each instruction of the two code objects that the ISA
      simulator cannot run (docs/isa-simulator.md)

  hkc gemm.mlir --verify
      parses and verifies only (a template's declaration included)
  hkc kernels/gemm_bf16/gemm_bf16.mlir --tune --shape 512,512,4096
      --chip gfx950 --space BM=128,256 --write
      times each instance of the template at the shape on the ISA
      simulator's timing model (the model's time, not a GPU's), prints
      them and writes the fastest into kernels/gemm_bf16/tuned/gfx950.json

Exit status: 0 on success, 1 on any error (reported with its location) or,
with --check-simulated, on any instruction the ISA simulator cannot run.
)";

compiler::Output outputOf(EmitKind kind) {
  switch (kind) {
  case EmitKind::LaneMlir:
    return compiler::Output::LaneIR;
  case EmitKind::LlvmIr:
    return compiler::Output::LLVMIR;
  case EmitKind::Assembly:
    return compiler::Output::Assembly;
  case EmitKind::CodeObject:
  case EmitKind::Artifact:
  case EmitKind::CLibrary:
    return compiler::Output::CodeObject;
  }
  llvm_unreachable("unknown emit kind");
}

std::string outputPathFor(const Request &request, StringRef chip) {
  StringRef prefix = request.outputPrefix;
  if (prefix == "-")
    return "-";
  std::string dotExt = request.emit == EmitKind::Artifact
                           ? ".hkrt"
                           : ("." + extensionOf(outputOf(request.emit))).str();
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

/// --check-simulated for one chip's code object: prints the instructions
/// the ISA simulator cannot run, or that it runs all of them; false if
/// there is any it cannot.
bool checkSimulated(StringRef chip, const std::string &elf,
                    llvm::raw_ostream &os) {
  size_t total = 0, unsimulated = 0;
  const char *report = nullptr;
  if (hkrt_check_simulated(elf.data(), elf.size(), chip.str().c_str(), &total,
                           &unsimulated, &report) != HKRT_SUCCESS) {
    os << "hkc: " << chip << ": the ISA simulator cannot decode the code "
       << "object: " << hkrt_last_error() << "\n";
    return false;
  }
  // One line per instruction: opcode, pc, text and reason, tab-separated.
  SmallVector<StringRef> lines, fields;
  StringRef(report).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    fields.clear();
    line.split(fields, '\t', 3);
    if (fields.size() != 4) {
      os << chip << ": not simulated: " << line << "\n";
      continue;
    }
    os << chip << ": not simulated: " << fields[0] << " at pc " << fields[1]
       << ": " << fields[2] << " (" << fields[3] << ")\n";
  }
  if (unsimulated == 0)
    os << chip << ": all " << total << " instructions simulated\n";
  else
    os << chip << ": " << unsimulated << " of " << total
       << " instructions not simulated\n";
  os.flush();
  return unsimulated == 0;
}

/// Reports go to stdout, or to stderr when the output itself does.
llvm::raw_ostream &reportStream(const Request &request) {
  return request.outputPrefix == "-" ? llvm::errs() : llvm::outs();
}

LogicalResult compileArtifact(ModuleOp input, const Request &request) {
  FailureOr<rt::Artifact> artifact =
      compiler::compileArtifact(input, request.options);
  if (failed(artifact))
    return failure();
  std::string bytes;
  try {
    bytes = rt::writeArtifact(*artifact);
  } catch (const rt::Error &error) {
    llvm::errs() << "hkc: cannot write the artifact: " << error.what() << "\n";
    return failure();
  }
  if (request.emit == EmitKind::CLibrary) {
    if (llvm::Error error = hk::hkc::writeCLibrary(
            *artifact, bytes, request.outputPrefix, request.input)) {
      llvm::errs() << "hkc: " << llvm::toString(std::move(error)) << "\n";
      return failure();
    }
  } else if (failed(writeOutput(request, "", bytes))) {
    return failure();
  }
  bool simulated = true;
  if (request.checkSimulated)
    for (const auto &[chip, elf] : artifact->codeObjects)
      simulated &= checkSimulated(chip, elf, reportStream(request));
  return success(simulated);
}

LogicalResult compileChips(ModuleOp input, const Request &request) {
  auto outputs =
      compiler::compile(input, outputOf(request.emit), request.options);
  if (failed(outputs))
    return failure();
  llvm::raw_ostream &reports = reportStream(request);
  bool simulated = true;
  for (const compiler::ChipOutput &out : *outputs) {
    reports << out.report << out.resourceUsage;
    reports.flush();
    if (failed(writeOutput(request, out.chip, out.bytes)))
      return failure();
    if (request.checkSimulated)
      simulated &= checkSimulated(out.chip, out.bytes, reports);
  }
  return success(simulated);
}

/// Checked before the input is read: the combinations of flags that only
/// hkc has, then the option values (by the compiler library).
LogicalResult checkRequest(const Request &request) {
  auto fail = [](const llvm::Twine &message) {
    llvm::errs() << "hkc: " << message << "\n";
    return failure();
  };
  const compiler::Options &options = request.options;
  bool artifact =
      request.emit == EmitKind::Artifact || request.emit == EmitKind::CLibrary;
  if (!options.schedule && artifact)
    return fail("--no-schedule does not apply to --emit=artifact or "
                "c-library");
  if (request.emit == EmitKind::CLibrary && request.outputPrefix == "-")
    return fail("--emit=c-library writes two files, <prefix>.h and "
                "<prefix>.c: give -o <prefix>");
  if (request.checkSimulated && request.emit != EmitKind::CodeObject &&
      !artifact)
    return fail("--check-simulated needs code objects: --emit=obj or "
                "--emit=artifact");
  if (options.report && request.emit == EmitKind::LaneMlir)
    return fail("--report needs machine code, which --emit=lane-mlir does "
                "not produce");
  if (request.maxNesting < 1 || request.maxNesting > hk::kMaxNestingDepthLimit)
    return fail("--max-nesting-depth must be 1 to " +
                llvm::Twine(hk::kMaxNestingDepthLimit));
  std::string error;
  if (failed(compiler::checkOptions(options, outputOf(request.emit), error)))
    return fail(error);
  return success();
}

/// --report-asm: the report of an assembly file, with no compilation.
int reportAssembly(StringRef path, ArrayRef<std::string> chips) {
  auto fail = [&](const llvm::Twine &message) {
    llvm::errs() << "hkc: " << message << "\n";
    return 1;
  };
  if (chips.size() != 1)
    return fail("--report-asm needs exactly one --chip (the chip the "
                "assembly is for: its LDS bounds the occupancy)");
  const hk::ChipInfo *chip = hk::lookupChip(chips.front());
  if (!chip)
    return fail("unknown chip '" + chips.front() +
                "'; supported: " + hk::supportedChipNames());
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &error);
  if (!buffer)
    return fail(error);
  StringRef assembly = buffer->getBuffer();
  auto kernels = hk::target::analyzeAssembly(assembly);
  if (!kernels)
    return fail(path + ": " + llvm::toString(kernels.takeError()));
  auto resources = hk::target::readKernelResourcesFromAssembly(assembly);
  if (!resources)
    return fail(path + ": " + llvm::toString(resources.takeError()));
  hk::target::printReport(llvm::outs(), *chip, *kernels, *resources);
  return 0;
}

/// Reads, checks, parses and compiles the input; the exit status.
int compileInput(const Request &request) {
  DialectRegistry registry;
  compiler::registerDialects(registry);
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
  if (!hk::checkNestingDepth(sourceMgr, request.maxNesting,
                             "--max-nesting-depth=N", llvm::errs()))
    return 1;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      hk::parseInstance(sourceMgr, &context, request.params);
  if (!module)
    return 1;
  if (request.verifyOnly)
    return 0;
  LogicalResult result =
      request.emit == EmitKind::Artifact || request.emit == EmitKind::CLibrary
          ? compileArtifact(*module, request)
          : compileChips(*module, request);
  return failed(result) ? 1 : 0;
}

/// Options of compilation that --tune does not take.
bool compileOptionsGiven() {
  return outputOption.getNumOccurrences() || emitOption.getNumOccurrences() ||
         optOption.getNumOccurrences() ||
         codeObjectVersionOption.getNumOccurrences() || resourceUsageOption ||
         reportOption || noScheduleOption || checkSimulatedOption ||
         lineTablesOption.getNumOccurrences() ||
         reportAsmOption.getNumOccurrences();
}

/// The --tune request from the command line; false after an error.
bool readTuneRequest(hk::hkc::TuneRequest &request) {
  auto fail = [](const llvm::Twine &message) {
    llvm::errs() << "hkc: " << message << "\n";
    return false;
  };
  if (!tuneOption)
    return fail("--shape, --space, -j, --kernel, --write and --tuned-dir "
                "belong to --tune");
  if (compileOptionsGiven())
    return fail("--tune compiles each instance for the timing model only: "
                "it takes no -o, --emit, -O, --report or other output option");
  if (!inputOption.getNumOccurrences() || inputOption == "-")
    return fail("--tune needs the template as a file");
  if (shapeOption.empty())
    return fail("--tune needs at least one --shape");
  request.input = inputOption;
  llvm::StringRef stem = llvm::sys::path::stem(request.input);
  request.kernel =
      kernelOption.getNumOccurrences() ? kernelOption.getValue() : stem.str();
  request.chips =
      chipOption.getNumOccurrences()
          ? std::vector<std::string>(chipOption.begin(), chipOption.end())
          : std::vector<std::string>{hk::kDefaultChip};
  for (const std::string &chip : request.chips)
    if (!hk::lookupChip(chip))
      return fail("unknown chip '" + chip +
                  "'; supported: " + hk::supportedChipNames());
  std::string error;
  for (const std::string &text : shapeOption) {
    request.shapes.emplace_back();
    if (!hk::hkc::parseShape(text, request.shapes.back(), error))
      return fail(error);
  }
  for (const std::string &text : spaceOption)
    if (!hk::hkc::addSpace(text, request.space, error))
      return fail(error);
  for (const std::string &assignment : paramOption)
    if (!hk::addParamAssignment(assignment, request.fixed, error))
      return fail("--param: " + error);
  request.jobs = jobsOption
                     ? jobsOption.getValue()
                     : llvm::hardware_concurrency().compute_thread_count();
  request.write = writeOption;
  const char *env = std::getenv("HK_TUNED_DIR");
  request.tunedDir = tunedDirOption.getNumOccurrences()
                         ? tunedDirOption.getValue()
                         : std::string(env ? env : "");
  request.maxNesting = maxNestingOption;
  if (request.maxNesting < 1 || request.maxNesting > hk::kMaxNestingDepthLimit)
    return fail("--max-nesting-depth must be 1 to " +
                llvm::Twine(hk::kMaxNestingDepthLimit));
  return true;
}

/// hkc --tune: the exit status.
int tuneMain() {
  hk::hkc::TuneRequest request;
  if (!readTuneRequest(request))
    return 1;
  int status = 1;
  hk::runOnCompileStack(request.maxNesting, [&] {
    std::optional<std::string> fatal =
        hk::runCatchingFatalErrors([&] { status = hk::hkc::tune(request); });
    if (fatal) {
      llvm::errs() << request.input
                   << ": error: LLVM failed to compile it: " << *fatal << "\n";
      status = 1;
    }
  });
  return status;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&hkcCategory, &tuneCategory});
  cl::ParseCommandLineOptions(argc, argv, overview);
  if (tuneOption || shapeOption.getNumOccurrences() ||
      spaceOption.getNumOccurrences() || jobsOption.getNumOccurrences() ||
      kernelOption.getNumOccurrences() || writeOption ||
      tunedDirOption.getNumOccurrences())
    return tuneMain();
  Request request;
  request.input = inputOption;
  request.outputPrefix = outputOption.getNumOccurrences()
                             ? outputOption.getValue()
                             : defaultOutputPrefix(inputOption.getValue());
  if (reportAsmOption.getNumOccurrences()) {
    if (inputOption.getNumOccurrences()) {
      llvm::errs() << "hkc: --report-asm reads assembly, not an MLIR input\n";
      return 1;
    }
    return reportAssembly(
        reportAsmOption,
        std::vector<std::string>(chipOption.begin(), chipOption.end()));
  }
  request.emit = emitOption;
  if (chipOption.getNumOccurrences())
    request.options.chips.assign(chipOption.begin(), chipOption.end());
  request.options.optLevel = optOption;
  request.options.codeObjectVersion = codeObjectVersionOption;
  request.options.resourceUsage = resourceUsageOption;
  request.options.report = reportOption;
  request.options.schedule = !noScheduleOption;
  request.checkSimulated = checkSimulatedOption;
  request.verifyOnly = verifyOption;
  if (request.verifyOnly &&
      (compileOptionsGiven() || chipOption.getNumOccurrences())) {
    llvm::errs() << "hkc: --verify compiles nothing: it takes no --chip, -o, "
                    "--emit, --report or other output option\n";
    return 1;
  }
  request.maxNesting = maxNestingOption;
  for (const std::string &assignment : paramOption) {
    std::string error;
    if (!hk::addParamAssignment(assignment, request.params, error)) {
      llvm::errs() << "hkc: --param: " << error << "\n";
      return 1;
    }
  }
  if (lineTablesOption.getNumOccurrences())
    request.options.lineTables = lineTablesOption;
  if (failed(checkRequest(request)))
    return 1;

  int status = 1;
  // Parsing and compiling recurse per level of nesting: they run on a stack
  // sized for the nesting limit, and an LLVM fatal error on the way is an
  // error like any other, not an abort.
  hk::runOnCompileStack(request.maxNesting, [&] {
    std::optional<std::string> fatal =
        hk::runCatchingFatalErrors([&] { status = compileInput(request); });
    if (fatal) {
      llvm::errs() << request.input
                   << ": error: LLVM failed to compile it: " << *fatal << "\n";
      status = 1;
    }
  });
  return status;
}