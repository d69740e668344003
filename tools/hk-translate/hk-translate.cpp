//===- hk-translate.cpp - the mlir-translate of the hk dialect ------------===//

#include "hk/Target/HipKittens/HipKittensEmitter.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  hk::registerToHipKittensTranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv,
                                              "hk-translate: hk IR to C++\n"))
             ? 1
             : 0;
}
