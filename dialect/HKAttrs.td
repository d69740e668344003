//===- HKAttrs.td - hk attributes and enums ----------------*- tablegen -*-===//

#ifndef HK_ATTRS_TD
#define HK_ATTRS_TD

include "HKDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def HK_Layout : I32EnumAttr<"Layout", "register tile layout", [
    I32EnumAttrCase<"Row", 0, "row">,
    I32EnumAttrCase<"Col", 1, "col">]> {
  let cppNamespace = "::hk";
}

def HK_MmaKind : I32EnumAttr<"MmaKind", "which operands of an MMA are transposed", [
    I32EnumAttrCase<"AB", 0, "ab">,
    I32EnumAttrCase<"ABt", 1, "abt">,
    I32EnumAttrCase<"AtB", 2, "atb">,
    I32EnumAttrCase<"AtBt", 3, "atbt">]> {
  let cppNamespace = "::hk";
}

def HK_ReduceKind : I32EnumAttr<"ReduceKind", "reduction operator", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Min", 1, "min">,
    I32EnumAttrCase<"Sum", 2, "sum">]> {
  let cppNamespace = "::hk";
}

def HK_BroadcastKind : I32EnumAttr<"BroadcastKind",
    "binary operator applied between a tile and a broadcast vector", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Sub", 1, "sub">,
    I32EnumAttrCase<"Mul", 2, "mul">,
    I32EnumAttrCase<"Div", 3, "div">,
    I32EnumAttrCase<"Max", 4, "max">,
    I32EnumAttrCase<"Min", 5, "min">,
    I32EnumAttrCase<"Copy", 6, "copy">]> {
  let cppNamespace = "::hk";
}

def HK_GridDim : I32EnumAttr<"GridDim", "grid dimension", [
    I32EnumAttrCase<"X", 0, "x">,
    I32EnumAttrCase<"Y", 1, "y">,
    I32EnumAttrCase<"Z", 2, "z">]> {
  let cppNamespace = "::hk";
}

def HK_ClusterKind : I32EnumAttr<"ClusterKind", "schedule cluster kind", [
    I32EnumAttrCase<"Compute", 0, "compute">,
    I32EnumAttrCase<"Memory", 1, "memory">]> {
  let cppNamespace = "::hk";
}

def HK_Pairing : I32EnumAttr<"Pairing",
    "what a compute cluster's MFMAs alternate with", [
    I32EnumAttrCase<"MfmaExp", 0, "mfma_exp">,
    I32EnumAttrCase<"MfmaValu", 1, "mfma_valu">]> {
  let cppNamespace = "::hk";
  let genSpecializedAttr = 0;
}

def HK_PairingAttr : EnumAttr<HK_Dialect, HK_Pairing, "pairing"> {
  let summary = "MFMA pairing of a compute cluster";
  let description = [{
    Asks `hk-schedule` to alternate the MFMAs of an `hk.cluster compute` with
    transcendental instructions (`mfma_exp`: `v_exp_f32`, `v_log_f32`,
    `v_rcp_f32`, ..., sched_group mask 0x400) or with other VALU instructions
    (`mfma_valu`, mask 0x2), one of each in turn, as HipKittens' attention
    kernels do with `__builtin_amdgcn_sched_group_barrier` to hide the
    softmax's `exp2` under the score MFMAs. Written on the cluster as
    `hk.cluster compute pair = mfma_exp`; standalone (the generic form) it
    prints `#hk<pairing mfma_exp>`. See docs/schedules.md.
  }];
}

//===----------------------------------------------------------------------===//
// Register tile and vector layouts (tensor encodings)
//===----------------------------------------------------------------------===//

def HK_RegTileLayoutAttr : HK_Attr<"RegTileLayout", "rt",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "lane layout of a register tile";
  let description = [{
    The encoding of a register tile `tensor<RxCxT, #hk.rt<layout, BRxBC>>`.
    The tile is a row-major grid of `(R/BR) x (C/BC)` base tiles; every base
    tile is spread over the 64 lanes of the wave the same way, and a lane keeps
    `E = BR*BC/64` elements of each base tile.

    With `row` layout, lane `l` holds row `l % BR` of each base tile, and its
    `E` elements run along that row. With `col` layout, lane `l` holds column
    `l % BC` and its elements run down that column. Along the run, the `Q`
    lane groups (`Q = 64/BR` for row, `64/BC` for col, group `q = l / BR` or
    `l / BC`) take turns in chunks of `group` consecutive elements: element `i`
    of lane `l` lies at position `(i / group) * group * Q + q * group +
    i % group` along the run. `group` defaults to `E` (one contiguous chunk
    per lane).

    These are exactly AMD's MFMA register layouts: a `row` 16x32 tile is the A
    operand of `v_mfma_f32_16x16x32_bf16`, a `col` 16x16 tile is the D operand
    of the 16x16 MFMAs, and `col` 32x32 with `group = 4` the D operand of the
    32x32 MFMAs. The mapping is implemented once, in
    `include/hk/Dialect/HK/Layout.h`.

    Base tiles: 16x16, 16x32, 32x16, 32x32; 16x128 and 32x64 (and their
    transposes) for 8-bit types and the 6- and 4-bit floats of
    `hk.mma_scaled`, and 16x4 and 32x2 (one element per lane) for its e8m0
    scales.

    Example:
    ```mlir
    tensor<64x64xbf16, #hk.rt<row, 16x32>>
    tensor<32x32xf32, #hk.rt<col, 32x32, group = 4>>
    ```
  }];
  let parameters = (ins
    EnumParameter<HK_Layout>:$layout,
    "int64_t":$baseRows,
    "int64_t":$baseCols,
    "int64_t":$group);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "Layout":$layout, "int64_t":$baseRows,
                     "int64_t":$baseCols), [{
      return $_get($_ctxt, layout, baseRows, baseCols,
                   baseRows * baseCols / 64);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Elements of one base tile kept by each lane.
    int64_t getElemsPerLane() const { return getBaseRows() * getBaseCols() / 64; }
    bool isRow() const { return getLayout() == Layout::Row; }
    bool isCol() const { return getLayout() == Layout::Col; }
  }];
}

def HK_RegVecLayoutAttr : HK_Attr<"RegVecLayout", "rv",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "lane layout of a register vector";
  let description = [{
    The encoding of a register vector `tensor<NxT, #hk.rv<axis, tile>>`: one
    value per row (`axis` = `row`) or per column (`axis` = `col`) of a
    register tile whose layout is `tile`. Each lane keeps exactly the values
    of the rows (columns) whose elements it holds in that tile, so a vector
    produced by `hk.row_reduce` broadcasts back onto its tile with no data
    movement.

    Example: the row maxima of a 16x16 MFMA accumulator.
    ```mlir
    tensor<64xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
    ```
  }];
  let parameters = (ins
    EnumParameter<HK_Layout>:$axis,
    "RegTileLayoutAttr":$tile);
  let assemblyFormat = "`<` $axis `,` qualified($tile) `>`";
}

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

def HK_GridAttr : HK_Attr<"Grid", "grid"> {
  let summary = "how a kernel's launch grid derives from its arguments";
  let description = [{
    A kernel's grid as a function of its arguments, so that a runtime can
    launch it without host code. Symbols `s0, s1, ...` are bound, in order, to
    a size of a memref argument (`dim(arg, d)`, argument and dimension counted
    from 0) or to the value of an integer/index argument (`arg(i)`). The
    results are the workgroup counts along x, y and z (missing trailing
    dimensions are 1).

    Example: one workgroup per 256x256 tile of the output `C` (argument 2).
    ```mlir
    #hk.grid<[dim(2, 0), dim(2, 1)] -> (s0 ceildiv 256, s1 ceildiv 256)>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$symbolArgs,
    ArrayRefParameter<"int64_t">:$symbolDims,
    "AffineMap":$map);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Dimension value in `symbolDims` for a scalar argument `arg(i)`.
    static constexpr int64_t kScalarArg = -1;
  }];
}

#endif // HK_ATTRS_TD
