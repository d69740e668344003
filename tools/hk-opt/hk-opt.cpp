//===- hk-opt.cpp - the mlir-opt of the hk dialect ------------------------===//
//
// Every upstream and hk pass, and the compiler's pipelines by name
// (hk-tile-to-lane, hk-lane-to-rocdl): hk-opt replays
// exactly what hkc runs.
//===----------------------------------------------------------------------===//

#include "hk/Compiler/Compiler.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  hk::compiler::registerDialects(registry);
  hk::compiler::registerPassesAndPipelines();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "hk-opt: optimizer driver for hk tile programs\n", registry));
}
