//===- hk-opt.cpp - the mlir-opt of the hk dialect ------------------------===//

#include "hk/Dialect/HK/HKDialect.h"
#include "hk/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  // Dialect extensions carry the ConvertToLLVM interfaces that upstream
  // lowerings such as convert-gpu-to-rocdl rely on.
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::hk::HKDialect>();
  mlir::registerAllPasses();
  mlir::hk::registerHKPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "hk-opt: optimizer driver for hk tile programs\n", registry));
}
