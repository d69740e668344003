//===- HKPositionOps.td - positions, scans and arg reductions -*- tablegen -*-===//
//
// Ops that depend on where an element sits in its tile: the position of
// every element (hk.iota), prefix scans along rows and columns
// (hk.row_scan, hk.col_scan) and the position of a row's or column's
// largest or smallest element (hk.row_arg, hk.col_arg). Included from
// HKOps.td, after the type constraints and the reductions they build on.
//===----------------------------------------------------------------------===//

#ifndef HK_POSITION_OPS_TD
#define HK_POSITION_OPS_TD

def HK_Axis : I32EnumAttr<"Axis", "axis of a register tile", [
    I32EnumAttrCase<"Row", 0, "row">,
    I32EnumAttrCase<"Col", 1, "col">]> {
  let cppNamespace = "::hk";
}

def HK_ScanMode : I32EnumAttr<"ScanMode",
    "whether a scan includes the element itself", [
    I32EnumAttrCase<"Inclusive", 0, "inclusive">,
    I32EnumAttrCase<"Exclusive", 1, "exclusive">]> {
  let cppNamespace = "::hk";
}

// f32 and i32 tiles and vectors: what scans and arg reductions take.
def HK_ScanElement : CPred<
    "::llvm::cast<::mlir::ShapedType>($_self).getElementType().isF32() || "
    "::llvm::cast<::mlir::ShapedType>($_self).getElementType().isSignlessInteger(32)">;
def HK_ScanTile : Type<And<[CPred<"::hk::isRegTile($_self)">, HK_ScanElement]>,
    "register tile of f32 or i32", "::mlir::RankedTensorType">;
def HK_ScanVec : Type<And<[CPred<"::hk::isRegVec($_self)">, HK_ScanElement]>,
    "register vector of f32 or i32", "::mlir::RankedTensorType">;
def HK_IndexVec : Type<And<[CPred<"::hk::isRegVec($_self)">,
    CPred<"::llvm::cast<::mlir::ShapedType>($_self).getElementType()"
          ".isSignlessInteger(32)">]>,
    "register vector of i32", "::mlir::RankedTensorType">;

def HK_IotaOp : HK_Op<"iota", [Pure]> {
  let summary = "the position of every element of a register tile or vector";
  let description = [{
    For a register tile, `row` gives every element its row index in the
    tile and `col` its column index (`0 .. R-1`, `0 .. C-1`); for a
    register vector, no axis is given and every element gets its index
    (`0 .. N-1`). The result is i32 or f32 (exact: tiles are far below
    2^24 elements long). The positions follow the layout: each lane gets
    the indices of the elements it holds, so adding a splat of the tile's
    offset gives global positions, for masks or index arithmetic.
    ```mlir
    %cols = hk.iota col : tensor<32x64xi32, #hk.rt<col, 16x16>>
    %rows = hk.iota row : tensor<32x64xf32, #hk.rt<row, 16x32>>
    %idx = hk.iota : tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
    ```
  }];
  let arguments = (ins OptionalAttr<HK_Axis>:$axis);
  let results = (outs HK_Register:$result);
  let assemblyFormat = "($axis^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

class HK_ScanOp<string mnemonic, string axis, string other> : HK_Op<mnemonic,
    [Pure, AllTypesMatch<["source", "result"]>]> {
  let summary = "prefix scan along each " # axis # " of a register tile";
  let arguments = (ins HK_ReduceKind:$kind, HK_ScanMode:$mode,
    HK_ScanTile:$source, Optional<HK_ScanVec>:$init);
  let results = (outs HK_ScanTile:$result);
  let assemblyFormat = [{
    $kind $mode $source (`init` $init^ `:` type($init))? attr-dict `:`
    type($source)
  }];
  let hasVerifier = 1;
}

def HK_RowScanOp : HK_ScanOp<"row_scan", "row", "column"> {
  let description = [{
    `inclusive`: `result[i][j] = source[i][0] <kind> ... <kind> source[i][j]`;
    `exclusive`: the same over `source[i][0 .. j-1]`, so that `result[i][0]`
    is the identity of `kind`: 0 for `sum`, -inf for `max` and +inf for
    `min` on f32, the smallest and largest i32 for `max` and `min` on i32.
    With `init` (a `row` vector of the tile's layout), every element is
    combined with `init[i]` as well: `result[i][j] = init[i] <kind>
    (scan)`, so a scan over several tiles of one row carries the total of
    the tiles before it (`hk.row_reduce` with `init` gives that total);
    an exclusive scan's first column is then `init[i]`.

    `max` and `min` are IEEE maxNum and minNum, as in `hk.row_reduce`: NaNs
    are ignored, so a prefix of NaNs only gives the identity (-inf for
    `max`, +inf for `min`; `hk.row_reduce` of a row of NaNs gives NaN, as it
    starts from no identity). Float sums are
    computed in f32 in an order the lowering picks (within a lane, then
    across lanes, then across base tiles): the error of each result is at
    most `(n - 1) 2^-24` times the sum of the magnitudes of its `n` terms.
    Element types f32 and i32.
    ```mlir
    %c = hk.row_scan sum inclusive %x : tensor<32x64xf32, #hk.rt<col, 16x16>>
    %m = hk.row_scan max exclusive %x init %carry : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>> : tensor<32x64xf32, #hk.rt<col, 16x16>>
    ```
  }];
}

def HK_ColScanOp : HK_ScanOp<"col_scan", "column", "row"> {
  let description = [{
    The scan of `hk.row_scan` down each column: `inclusive` gives
    `result[i][j] = source[0][j] <kind> ... <kind> source[i][j]`,
    `exclusive` the same over rows `0 .. i-1` (first row: 0 for `sum`, -inf
    for `max`, +inf for `min`, or `init[j]` when a `col` vector `init` is
    given).
    ```mlir
    %c = hk.col_scan sum exclusive %x : tensor<32x64xf32, #hk.rt<row, 16x32>>
    ```
  }];
}

class HK_ArgOp<string mnemonic, string axis, string along> : HK_Op<mnemonic,
    [Pure]> {
  let summary = "the largest or smallest element of each " # axis #
                " and its position";
  let arguments = (ins HK_ReduceKind:$kind, HK_ScanTile:$source);
  let results = (outs HK_ScanVec:$value, HK_IndexVec:$index);
  let assemblyFormat = [{
    $kind $source attr-dict `:` type($source) `->` type($value) `,`
    type($index)
  }];
  let hasVerifier = 1;
}

def HK_RowArgOp : HK_ArgOp<"row_arg", "row", "column"> {
  let description = [{
    For each row `i`, the largest (`max`) or smallest (`min`) element and
    its column index `j` (i32, in the tile: add the tile's column offset
    for a global index), as two `row` vectors of the tile's layout.
    Ties go to the lowest index. NaN elements are ignored, as in
    `hk.row_reduce`; a row of NaNs only gives NaN at index 0. `+0` and `-0`
    are equal (the lower index wins). Kinds `max` and `min`; element types
    f32 and i32 (signed). Elements past the end of a ragged tile read 0:
    mask them (`hk.bounds_mask` with -inf for `max`) so they cannot win.
    ```mlir
    %v, %j = hk.row_arg max %x : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, tensor<32xi32, #hk.rv<row, #hk.rt<col, 16x16>>>
    ```
  }];
}

def HK_ColArgOp : HK_ArgOp<"col_arg", "column", "row"> {
  let description = [{
    For each column `j`, the largest or smallest element and its row index
    (i32), as two `col` vectors; ties, NaNs and zeros as in `hk.row_arg`.
    ```mlir
    %v, %i = hk.col_arg min %x : tensor<32x64xf32, #hk.rt<row, 16x32>> -> tensor<64xf32, #hk.rv<col, #hk.rt<row, 16x32>>>, tensor<64xi32, #hk.rv<col, #hk.rt<row, 16x32>>>
    ```
  }];
}

#endif // HK_POSITION_OPS_TD
