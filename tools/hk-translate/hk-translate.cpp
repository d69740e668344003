//===- hk-translate.cpp - the mlir-translate of the hk dialect ------------===//
//
// The translation refuses input nested deeper than --max-nesting-depth
// before parsing it; everything runs on a stack sized for the largest limit
// that option accepts, since the options are only read inside
// mlirTranslateMain (hk/Base/InputLimits.h).
//===----------------------------------------------------------------------===//

#include "hk/Base/InputLimits.h"
#include "hk/Target/HipKittens/HipKittensEmitter.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  hk::registerToHipKittensTranslation();
  int status = 1;
  hk::runOnCompileStack(hk::kMaxNestingDepthLimit, [&] {
    std::optional<std::string> fatal = hk::runCatchingFatalErrors([&] {
      status = mlir::failed(mlir::mlirTranslateMain(
                   argc, argv, "hk-translate: hk IR to C++\n"))
                   ? 1
                   : 0;
    });
    if (fatal) {
      llvm::errs() << "hk-translate: error: LLVM failed: " << *fatal << "\n";
      status = 1;
    }
  });
  return status;
}
