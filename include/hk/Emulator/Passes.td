//===- Passes.td - lane-level IR as host code ---------------*- tablegen -*-===//

#ifndef HK_EMULATOR_PASSES_TD
#define HK_EMULATOR_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLaneToEmulator : Pass<"convert-lane-to-emulator", "::mlir::ModuleOp"> {
  let summary = "rewrites lane-level kernels into host lane functions for the emulator";
  let description = [{
    Rewrites every kernel `gpu.func` of the lane-level `gpu.module`s (the
    output of `convert-hk-to-amdgpu`) into a host function
    `func.func @<kernel>__lane(%lane: !llvm.ptr, %args: !llvm.ptr)` with the
    ABI of `hkemu_lane_fn` (include/hk/Runtime/Emulator.h): the same lane
    program, whose ids, barriers, MFMAs, cross-lane ops, fat raw buffer
    accesses, workgroup memory accesses and LDS DMA call the emulator
    engine. Scheduling hints and waits are dropped (the engine completes
    every access at once). Any other GPU op is an error naming it. The
    result is ordinary host IR for the upstream lowering to LLVM.
    See docs/emulator.md.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def HKExpandHostFloats : Pass<"hk-expand-host-floats"> {
  let summary = "leaves no bf16 or f16 value for the emulator's host code generation";
  let description = [{
    The emulator's host object is built for the generic x86-64 CPU, which
    has no bf16 instructions and no f16 conversions: LLVM would call
    `__truncsfbf2`, `__extendhfsf2` or `__truncsfhf2` for conversions and for
    bf16/f16 vectors live across blocks, and a process loading the object may
    lack them. This pass rewrites `arith.extf` from and `arith.truncf` to
    bf16 and f16 into integer code (round to nearest even; overflow to
    infinity; a NaN stays a quiet NaN), then retypes every remaining bf16 or
    f16 value, which by then is only moved (arith.select, constants, vector,
    memref, scf, cf and func ops), as i16. An op that still computes on a
    16-bit float is an error naming it, and so is a truncation to bf16 or
    f16 from a type other than f32 (through f32 it would round twice). Run
    after `math-extend-to-supported-types` and
    `arith-emulate-unsupported-floats{source-types=bf16,f16}`, which move the
    arithmetic to f32. See docs/emulator.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // HK_EMULATOR_PASSES_TD
