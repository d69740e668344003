//===- Passes.td - hk passes -------------------------------*- tablegen -*-===//

#ifndef HK_PASSES_TD
#define HK_PASSES_TD

include "mlir/Pass/PassBase.td"

def HKCheckTarget : Pass<"hk-check-target", "::mlir::ModuleOp"> {
  let summary = "checks that every kernel fits the limits of a chip";
  let description = [{
    Rejects, with an error naming the op, the chip and the reason, what the
    chip cannot run: more LDS than the chip has (64 KiB on gfx942, 160 KiB on
    gfx950), 8-bit float formats the chip's MFMAs do not take (FNUZ on
    gfx942, OCP on gfx950), and 16x128 fp8 base tiles on gfx942.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx950\"",
           "target chip: gfx942 or gfx950">
  ];
}

#endif // HK_PASSES_TD
