//===- CompileSource.cpp - hk-run --artifact FILE.mlir --------------------===//

#include "CompileSource.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"
#include "hk/Compiler/Compiler.h"
#include "hk/Dialect/HK/Template.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace hk::run {

bool isSource(const std::string &path) {
  return llvm::StringRef(path).ends_with(".mlir");
}

/// The temporary artifacts of this process, removed at exit.
static std::vector<std::string> &temporaries() {
  static std::vector<std::string> *paths = [] {
    auto *v = new std::vector<std::string>;
    std::atexit([] {
      for (const std::string &p : temporaries())
        llvm::sys::fs::remove(p);
    });
    return v;
  }();
  return *paths;
}

void addParam(const std::string &assignment,
              std::map<std::string, std::string> &params) {
  std::string error;
  if (!hk::addParamAssignment(assignment, params, error))
    throw std::invalid_argument("--param: " + error);
}

std::string compileSource(const std::string &path,
                          const std::map<std::string, std::string> &params,
                          const std::vector<std::string> &chips) {
  mlir::DialectRegistry registry;
  compiler::registerDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  std::string error;
  auto buffer = mlir::openInputFile(path, &error);
  if (!buffer)
    throw std::runtime_error(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      hk::parseInstance(sourceMgr, &context, params);
  compiler::Options options;
  options.chips = chips.empty() ? supportedChips() : chips;
  mlir::FailureOr<rt::Artifact> artifact =
      module ? compiler::compileArtifact(*module, options)
             : mlir::FailureOr<rt::Artifact>(mlir::failure());
  if (mlir::failed(artifact))
    throw std::runtime_error("cannot compile " + path + " (diagnostics above)");

  llvm::SmallString<128> out;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("hk-run", "hkrt", fd, out))
    throw std::runtime_error("cannot create a temporary artifact file");
  temporaries().push_back(out.str().str());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << rt::writeArtifact(*artifact);
  os.close();
  if (os.has_error())
    throw std::runtime_error("cannot write " + out.str().str());
  return out.str().str();
}

} // namespace hk::run
