//===- Passes.td - lane-level IR to the LLVM dialect -------*- tablegen -*-===//
//
// The hk passes of the hk-lane-to-rocdl pipeline, around upstream's
// convert-gpu-to-rocdl: one that prepares the vector ops for it, and two on
// the LLVM dialect it produces.
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_LANETOROCDL_PASSES_TD
#define HK_CONVERSION_LANETOROCDL_PASSES_TD

include "mlir/Pass/PassBase.td"

def HKLowerVectorForLLVM : Pass<"hk-lower-vector-for-llvm"> {
  let summary = "rewrites the vector ops the LLVM conversions have no pattern for";
  let description = [{
    Strided slices (insert/extract), n-D shape casts and broadcasts, and
    `vector.step` become ops that `convert-gpu-to-rocdl` and
    `convert-vector-to-llvm` lower (upstream's own rewrite patterns, which
    `convert-vector-to-llvm` applies inside its run and
    `convert-gpu-to-rocdl` does not). Part of the `hk-lane-to-rocdl`
    pipeline, before `convert-gpu-to-rocdl`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def HKSplitLdsOffsets : Pass<"hk-split-lds-offsets"> {
  let summary = "moves the constant part of LDS addresses into a GEP of its own";
  let description = [{
    On the LLVM dialect, after the conversion to LLVM: every
    `llvm.getelementptr` into LDS (address space 3) whose one index is a sum
    with constant terms (through `add`, and `mul` and `shl` by constants)
    becomes a GEP by the sum of the other terms followed by a GEP by the
    constant. The reads and writes of one tile then share one address
    register per lane, and each reaches its element through the LDS
    instruction's immediate offset. Left as one index, LLVM hoists each
    lane-dependent `index + constant` out of the loop as a value of its own
    (a register per access), drops its `disjoint` flag on the way, and then
    can no longer separate the constant again, so every access inside the
    loop pays an address instruction. Part of the `hk-lane-to-rocdl`
    pipeline.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def HKFencePackedTruncs : Pass<"hk-fence-packed-truncs"> {
  let summary = "keeps vectors rounded to 16-bit floats in packed registers";
  let description = [{
    On the LLVM dialect, after the conversion to LLVM: the result of every
    `llvm.fptrunc` to a vector of more than two 16-bit floats goes through
    an `llvm.arithmetic.fence` (a no-op on its value), which all its users
    read instead. LLVM's InstCombine otherwise rewrites each scalar extract
    of the rounded vector as the rounding of that f32 element: one
    conversion per element where gfx950's `v_cvt_pk_bf16_f32` rounds a pair,
    and a `v_perm_b32` per pair to pack the scalars again for an MFMA.
    Through the fence, the extracts read halves of the packed registers
    (`ds_write_b16` and `ds_write_b16_d16_hi`). Part of the
    `hk-lane-to-rocdl` pipeline.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // HK_CONVERSION_LANETOROCDL_PASSES_TD
