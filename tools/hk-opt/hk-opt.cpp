//===- hk-opt.cpp - the mlir-opt of the hk dialect ------------------------===//
//
// Every upstream and hk pass, and the compiler's pipelines by name
// (hk-tile-to-lane, hk-lane-to-rocdl): hk-opt replays
// exactly what hkc runs. As hkc, it refuses input nested deeper than
// --max-nesting-depth before parsing it, and parses and runs the passes on
// a stack sized for that depth (hk/Base/InputLimits.h).
//===----------------------------------------------------------------------===//

#include "hk/Base/InputLimits.h"
#include "hk/Compiler/Compiler.h"

#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace {

// A cl::desc keeps a StringRef: the text must outlive the option.
const std::string nestingHelp =
    "Refuse input nested deeper than N levels of brackets ({, (, [, <) "
    "with a located error, before parsing it (default " +
    std::to_string(hk::kDefaultMaxNestingDepth) + ", at most " +
    std::to_string(hk::kMaxNestingDepthLimit) + ")";
llvm::cl::opt<unsigned>
    maxNestingOption("max-nesting-depth", llvm::cl::value_desc("N"),
                     llvm::cl::desc(nestingHelp),
                     llvm::cl::init(hk::kDefaultMaxNestingDepth));

/// The input checked for its nesting, then processed as mlir-opt does.
mlir::LogicalResult run(llvm::StringRef input, llvm::StringRef output,
                        mlir::DialectRegistry &registry,
                        const mlir::MlirOptMainConfig &config) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(input, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return mlir::failure();
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  if (!hk::checkNestingDepth(sourceMgr, maxNestingOption,
                             "--max-nesting-depth=N", llvm::errs()))
    return mlir::failure();
  auto out = mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return mlir::failure();
  }
  if (failed(mlir::MlirOptMain(out->os(), std::move(file), registry, config)))
    return mlir::failure();
  out->keep();
  return mlir::success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  hk::compiler::registerDialects(registry);
  hk::compiler::registerPassesAndPipelines();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "hk-opt: optimizer driver for hk tile programs\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  if (maxNestingOption < 1 || maxNestingOption > hk::kMaxNestingDepthLimit) {
    llvm::errs() << "hk-opt: --max-nesting-depth must be 1 to "
                 << hk::kMaxNestingDepthLimit << "\n";
    return 1;
  }
  int status = 1;
  hk::runOnCompileStack(maxNestingOption, [&] {
    std::optional<std::string> fatal = hk::runCatchingFatalErrors([&] {
      status = mlir::asMainReturnCode(run(input, output, registry, config));
    });
    if (fatal) {
      llvm::errs() << input << ": error: LLVM failed on it: " << *fatal << "\n";
      status = 1;
    }
  });
  return status;
}
