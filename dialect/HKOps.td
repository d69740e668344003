//===- HKOps.td - hk operations ----------------------------*- tablegen -*-===//

#ifndef HK_OPS_TD
#define HK_OPS_TD

include "HKDialect.td"
include "HKAttrs.td"
include "HKTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// i1 tiles and vectors (masks: results of arith.cmpf/cmpi, conditions of
// arith.select) live in registers too, but hk ops move and compute on data
// only.
def HK_NotMask : CPred<
    "!::llvm::cast<::mlir::ShapedType>($_self).getElementType().isInteger(1)">;
def HK_RegTile : Type<And<[CPred<"::hk::isRegTile($_self)">, HK_NotMask]>,
    "register tile of data (tensor with #hk.rt encoding, not i1)",
    "::mlir::RankedTensorType">;
def HK_RegVec : Type<And<[CPred<"::hk::isRegVec($_self)">, HK_NotMask]>,
    "register vector of data (tensor with #hk.rv encoding, not i1)",
    "::mlir::RankedTensorType">;
def HK_Register : AnyTypeOf<[HK_RegTile, HK_RegVec]>;
def HK_RegMask : Type<And<[CPred<"::hk::isRegTile($_self) || ::hk::isRegVec($_self)">,
    CPred<"::llvm::cast<::mlir::ShapedType>($_self).getElementType().isInteger(1)">]>,
    "register tile or vector of i1 (#hk.rt or #hk.rv encoding)",
    "::mlir::RankedTensorType">;
def HK_Global : Type<CPred<"::llvm::isa<::mlir::MemRefType>($_self)">,
    "global memory (memref)", "::mlir::MemRefType">;
def HK_TileSource : AnyTypeOf<[HK_Global, HK_SharedTileType]>;
def HK_TileValue : AnyTypeOf<[HK_RegTile, HK_RegVec, HK_SharedTileType]>;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def HK_KernelOp : HK_Op<"kernel", [
    IsolatedFromAbove, FunctionOpInterface, AutomaticAllocationScope,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a GPU kernel written from the point of view of one wave";
  let description = [{
    Every wave of every workgroup runs the body. `waves` is the number of
    waves in a workgroup (64 lanes each); `grid` says how many workgroups a
    launch has, as a function of the arguments (see `#hk.grid`). Arguments are
    global memory (`memref`) or scalars (integer, index, float). The kernel
    returns nothing. The names of the arguments are kept (as `hk.name`
    argument attributes, printed as the arguments' names) so that runtime
    messages and generated code can use them.

    `min_waves_per_simd` (optional, from `ceil(waves / 4)` to 8) asks for
    at least that many waves per SIMD: the code generator keeps the
    kernel's registers within what that occupancy allows (512 / N per
    lane, in granules of 8), and spills rather than exceed them. Without
    it, only a whole workgroup must fit (`ceil(waves / 4)` waves per SIMD).
    HipKittens' `__launch_bounds__(threads, N)` says the same.

    Example:
    ```mlir
    hk.kernel @scale(%x: memref<?x?xf32>, %s: f32) attributes {
        waves = 4 : i32,
        grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
      hk.return
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs,
    ConfinedAttr<I32Attr, [IntPositive]>:$waves,
    HK_GridAttr:$grid,
    OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$min_waves_per_simd);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// FunctionOpInterface.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// Bytes of LDS allocated by the `hk.alloc_shared` ops of the kernel.
    int64_t getSharedMemoryBytes();
    /// Waves per SIMD that one workgroup needs: its waves spread over the
    /// CU's four SIMDs, ceil(waves / 4). The least min_waves_per_simd.
    int64_t getWorkgroupWavesPerSimd() { return (getWaves() + 3) / 4; }
  }];
}

def HK_ReturnOp : HK_Op<"return", [Pure, HasParent<"KernelOp">, ReturnLike,
    Terminator]> {
  let summary = "ends a kernel";
  let description = [{
    ```mlir
    hk.return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

class HK_IdOp<string mnemonic, string what> : HK_Op<mnemonic, [Pure]> {
  let summary = what;
  let arguments = (ins HK_GridDim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
  let hasVerifier = 1;
}

def HK_BlockIdOp : HK_IdOp<"block_id", "workgroup id along a grid dimension"> {
  let description = [{
    ```mlir
    %bx = hk.block_id x
    ```
  }];
}

def HK_NumBlocksOp : HK_IdOp<"num_blocks",
    "number of workgroups along a grid dimension"> {
  let description = [{
    The kernel's `#hk.grid` evaluated on its arguments: the grid the runtime
    launches it with.
    ```mlir
    %nx = hk.num_blocks x
    ```
  }];
}

def HK_WaveIdOp : HK_Op<"wave_id", [Pure]> {
  let summary = "index of the executing wave in its workgroup";
  let description = [{
    In `[0, waves)`. Branching on it is how waves of one workgroup take
    different roles.
    ```mlir
    %w = hk.wave_id
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def HK_XcdRemapOp : HK_Op<"xcd_remap", [Pure]> {
  let summary = "remaps a workgroup id so neighbours share a chiplet (XCD)";
  let description = [{
    Workgroups are dispatched round-robin over `xcds` chiplets. This remap
    (HipKittens' `chiplet_transform_chunked`) gives chunks of `chunk`
    consecutive new ids to one chiplet:
    `new = (id / (xcds*chunk)) * (xcds*chunk) + (id % xcds) * chunk +
    (id / xcds) % chunk` for ids below `(count / (xcds*chunk)) * (xcds*chunk)`
    (the whole blocks of `xcds*chunk` ids); ids in the incomplete last block
    are left as they are, so the remap is a permutation of `[0, count)`.

    ```mlir
    %id2 = hk.xcd_remap %id, %count xcds = 8, chunk = 64
    ```
  }];
  let arguments = (ins Index:$id, Index:$count,
    ConfinedAttr<I64Attr, [IntPositive]>:$xcds,
    ConfinedAttr<I64Attr, [IntPositive]>:$chunk);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $id `,` $count `xcds` `=` $xcds `,` `chunk` `=` $chunk attr-dict
  }];
}

def HK_GroupRemapOp : HK_Op<"group_remap", [Pure]> {
  let summary = "maps a linear workgroup id to a tile in grouped (WGM) order";
  let description = [{
    Walks a `rows x cols` grid of output tiles in groups of `group` tile rows,
    column by column inside a group (Triton's and HipKittens' WGM order), so
    that workgroups running together reuse the same input tiles:
    `g = id / (group*cols)`, `first = g*group`, `size = min(rows - first,
    group)`, `row = first + (id % (group*cols)) % size`,
    `col = (id % (group*cols)) / size`. Assumes `rows, cols >= 1`; for ids
    past the grid (`id >= rows*cols`) `size` is taken as at least 1, which
    maps them to rows past the last one, outside the grid.

    ```mlir
    %row, %col = hk.group_remap %id, %rows, %cols group = 8
    ```
  }];
  let arguments = (ins Index:$id, Index:$rows, Index:$cols,
    ConfinedAttr<I64Attr, [IntPositive]>:$group);
  let results = (outs Index:$row, Index:$col);
  let assemblyFormat = "$id `,` $rows `,` $cols `group` `=` $group attr-dict";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def HK_AllocSharedOp : HK_Op<"alloc_shared",
    [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocates a shared tile in LDS";
  let description = [{
    Allocates a tile in the workgroup's LDS; every wave of the workgroup gets
    the same tile. The sum of a kernel's allocations must fit the LDS of the
    target (checked per kernel against the largest chip, and per chip by
    `hk-check-target`).
    ```mlir
    %as = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
    ```
  }];
  let results = (outs HK_SharedTileType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def HK_SubtileOp : HK_Op<"subtile", [Pure]> {
  let summary = "a view of part of a shared tile";
  let description = [{
    The tile of the result's shape at tile coordinates `[i, j]` (in units of
    the result's shape) inside the source. The subtile shape (and hence the
    swizzle) is the source's.
    ```mlir
    %q = hk.subtile %as[%i, %c0] : !hk.st<256x64xbf16, 16x32> -> !hk.st<64x64xbf16, 16x32>
    ```
  }];
  let arguments = (ins HK_SharedTileType:$source, Index:$row, Index:$col);
  let results = (outs HK_SharedTileType:$result);
  let assemblyFormat = [{
    $source `[` $row `,` $col `]` attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def HK_LoadAsyncOp : HK_Op<"load_async"> {
  let summary = "cooperative asynchronous copy of a global tile into LDS";
  let description = [{
    The first `waves` waves of the workgroup (all of them by default) copy
    the tile of the destination's shape at tile coordinates `indices` of the
    global memref into the shared tile, without going through registers
    where the chip allows it. Every wave of the group must execute it. The
    indices address the memref's leading dimensions directly and its last two
    dimensions in units of the tile's rows and columns. Parts of the tile
    outside the memref read as zero. Returns a token to wait on before
    reading the shared tile.
    ```mlir
    %t = hk.load_async %A[%m, %k], %as : memref<?x?xbf16>, !hk.st<256x64xbf16, 16x32>
    ```
  }];
  let arguments = (ins Arg<HK_Global, "", [MemRead]>:$source,
    Variadic<Index>:$indices,
    Arg<HK_SharedTileType, "", [MemWrite]>:$dest,
    OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$waves);
  let results = (outs HK_TokenType:$token);
  let assemblyFormat = [{
    $source `[` $indices `]` `,` $dest (`waves` `=` $waves^)? attr-dict `:`
    type($source) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def HK_WaitOp : HK_Op<"wait"> {
  let summary = "waits for asynchronous copies";
  let description = [{
    Returns when the copies named by the tokens have landed in LDS for this
    wave. It does not synchronise waves with each other: put an `hk.barrier`
    after it when other waves' copies are read.
    ```mlir
    hk.wait %t0, %t1
    ```
  }];
  let arguments = (ins Variadic<HK_TokenType>:$tokens);
  let assemblyFormat = "$tokens attr-dict";
  let hasVerifier = 1;
}

def HK_LoadOp : HK_Op<"load"> {
  let summary = "loads a register tile or vector";
  let description = [{
    From global memory (`memref`, indexed like `hk.load_async`; for a vector,
    the last dimension is in units of the vector's length), or from a shared
    tile of the same shape (no indices). Parts outside the memref read as
    zero.
    ```mlir
    %a = hk.load %as : !hk.st<64x64xbf16, 16x32> -> tensor<64x64xbf16, #hk.rt<row, 16x32>>
    %q = hk.load %Q[%b, %h, %i, %c0] : memref<?x?x?x?xbf16> -> tensor<32x128xbf16, #hk.rt<row, 32x16>>
    ```
  }];
  let arguments = (ins Arg<HK_TileSource, "", [MemRead]>:$source,
    Variadic<Index>:$indices);
  let results = (outs HK_Register:$result);
  let assemblyFormat = [{
    $source (`[` $indices^ `]`)? attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def HK_StoreOp : HK_Op<"store"> {
  let summary = "stores a register tile or vector, or a shared tile";
  let description = [{
    Register tile to a shared tile of the same shape, or register tile,
    register vector or shared tile to global memory (indexed like
    `hk.load`). Parts outside the memref are dropped.
    ```mlir
    hk.store %c, %C[%m, %n] : tensor<64x64xbf16, #hk.rt<col, 16x16>>, memref<?x?xbf16>
    ```
  }];
  let arguments = (ins HK_TileValue:$value,
    Arg<HK_TileSource, "", [MemWrite]>:$dest, Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $dest (`[` $indices^ `]`)? attr-dict `:` type($value) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def HK_AtomicAddOp : HK_Op<"atomic_add"> {
  let summary = "atomically adds a register tile or vector into global memory";
  let description = [{
    Each element is added with an atomic f32 add, so several workgroups may
    accumulate into one tile (attention backward accumulates dQ this way).
    A register vector (indexed in vector units in the memref's last
    dimension, like `hk.store`) is added once per element, although several
    lanes hold each element.
    ```mlir
    hk.atomic_add %dq, %dQ[%b, %h, %i, %c0] : tensor<32x128xf32, #hk.rt<col, 16x16>>, memref<?x?x?x?xf32>
    hk.atomic_add %rowsum, %S[%i] : tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>, memref<?xf32>
    ```
  }];
  let arguments = (ins HK_Register:$value,
    Arg<HK_Global, "", [MemRead, MemWrite]>:$dest, Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` attr-dict `:` type($value) `,` type($dest)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def HK_MmaOp : HK_Op<"mma", [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "matrix multiply-accumulate on register tiles";
  let description = [{
    `result = op(a) * op(b) + c` with `kind` saying which operands are given
    transposed: `ab` (A is `MxK` row, B is `KxN` col), `abt` (B given as
    `NxK` row), `atb` (A given as `KxM` col), `atbt` (both). Inputs are bf16,
    f16, f32, i8 or 8-bit floats of one type; the accumulator is a `col` tile
    with 16x16 or 32x32 (`group = 4`) base tiles, the D layouts of the MFMAs,
    of i32 for i8 inputs and of f32 otherwise. Base
    tiles of A and B must match the accumulator along M and N and each other
    along K, and A and B must have the same `group`. Since an MFMA sums over
    K, any order in which lanes and registers walk K serves, as long as A and
    B share it: a 32x32 `group = 4` accumulator, relabelled by
    `hk.transpose` or converted to bf16, feeds an MMA directly. The lowering
    picks the MFMA for the chip.
    ```mlir
    %d = hk.mma abt %a, %b, %c : tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x64xbf16, #hk.rt<row, 16x32>>, tensor<64x64xf32, #hk.rt<col, 16x16>>
    ```
  }];
  let arguments = (ins HK_MmaKind:$kind, HK_RegTile:$a, HK_RegTile:$b,
    HK_RegTile:$c);
  let results = (outs HK_RegTile:$result);
  let assemblyFormat = [{
    $kind $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

class HK_ReduceOp<string mnemonic, string axis> : HK_Op<mnemonic, [Pure,
    OptionalTypesMatchWith<"init has the result type", "result", "init",
                           "$_self">]> {
  let summary = "reduces each " # axis # " of a register tile";
  let arguments = (ins HK_ReduceKind:$kind, HK_RegTile:$source,
    Optional<HK_RegVec>:$init);
  let results = (outs HK_RegVec:$result);
  let assemblyFormat = [{
    $kind $source (`init` $init^)? attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def HK_RowReduceOp : HK_ReduceOp<"row_reduce", "row"> {
  let description = [{
    One value per row (`max`, `min` or `sum` over the columns), combined with
    `init` when given (HK's `row_max(dst, src, accum)`). The result is a
    `row` vector of the tile's layout.
    ```mlir
    %m = hk.row_reduce max %s init %m0 : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
    ```
  }];
}

def HK_ColReduceOp : HK_ReduceOp<"col_reduce", "column"> {
  let description = [{
    One value per column, combined with `init` when given. The result is a
    `col` vector of the tile's layout.
    ```mlir
    %s = hk.col_reduce sum %t : tensor<32x64xf32, #hk.rt<col, 16x16>> -> tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
    ```
  }];
}

def HK_AnyOp : HK_Op<"any", [Pure]> {
  let summary = "whether any element of an i1 tile or vector is true";
  let description = [{
    One `i1`, the same in every lane of the wave: true when at least one
    element of `mask` is true. This is the wave vote behind a branch that
    all lanes take together, as attention's rescale of its output when a
    row maximum grew by more than a threshold (HK's attention kernels use
    `__all` for the same test). Each lane ORs the elements it holds; one
    `ballot` combines the lanes. `expect` states the usual result (HK's
    `__builtin_expect`): LLVM then lays out the branches on the other
    result away from the straight path.
    ```mlir
    %grew = arith.cmpf ogt, %d, %threshold : tensor<32xf32, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
    %any = hk.any %grew expect false : tensor<32xi1, #hk.rv<row, #hk.rt<row, 32x32, group = 4>>>
    ```
  }];
  let arguments = (ins HK_RegMask:$mask, OptionalAttr<BoolAttr>:$expected);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $mask (`expect` $expected^)? attr-dict `:` type($mask)
  }];
}

class HK_BroadcastOp<string mnemonic, string axis> : HK_Op<mnemonic, [Pure,
    AllTypesMatch<["source", "result"]>]> {
  let summary = "combines each " # axis # " of a tile with one vector value";
  let arguments = (ins HK_BroadcastKind:$kind, HK_RegTile:$source,
    HK_RegVec:$vector);
  let results = (outs HK_RegTile:$result);
  let assemblyFormat = [{
    $kind $source `,` $vector attr-dict `:` type($source) `,` type($vector)
  }];
  let hasVerifier = 1;
}

def HK_RowBroadcastOp : HK_BroadcastOp<"row_broadcast", "row"> {
  let description = [{
    `result[i][j] = source[i][j] <kind> vector[i]` (HK's `sub_row`,
    `mul_row`, `div_row`, ...). The vector must be a `row` vector of the
    tile's layout.
    ```mlir
    %p = hk.row_broadcast sub %s, %m : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<32xf32, #hk.rv<row, #hk.rt<col, 16x16>>>
    ```
  }];
}

def HK_ColBroadcastOp : HK_BroadcastOp<"col_broadcast", "column"> {
  let description = [{
    `result[i][j] = source[i][j] <kind> vector[j]` (HK's `sub_col`, ...).
    ```mlir
    %p = hk.col_broadcast mul %s, %v : tensor<32x64xf32, #hk.rt<col, 16x16>>, tensor<64xf32, #hk.rv<col, #hk.rt<col, 16x16>>>
    ```
  }];
}

class HK_TriangleMaskOp<string mnemonic, string keep> : HK_Op<mnemonic, [Pure,
    AllTypesMatch<["source", "result"]>,
    TypesMatchWith<"fill is the element type", "source", "fill",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "replaces elements " # keep # " a diagonal";
  let arguments = (ins HK_RegTile:$source, Index:$rowOffset, Index:$colOffset,
    AnyType:$fill, DefaultValuedAttr<I64Attr, "0">:$diagonal);
  let results = (outs HK_RegTile:$result);
  let assemblyFormat = [{
    $source `at` ` ` `[` $rowOffset `,` $colOffset `]` `fill` $fill
    (`diagonal` `=` $diagonal^)? attr-dict `:` type($source)
  }];
}

def HK_TrilOp : HK_TriangleMaskOp<"tril", "above"> {
  let description = [{
    Element `(i, j)` sits at global position `(rowOffset + i, colOffset + j)`;
    it is kept when `col - row <= diagonal` and replaced by `fill` otherwise.
    A causal attention mask is `hk.tril` with diagonal 0 at the tile's query
    and key offsets (HK's `make_causal`).
    ```mlir
    %s2 = hk.tril %s at [%q0, %k0] fill %neginf : tensor<32x64xf32, #hk.rt<col, 16x16>>
    ```
  }];
}

def HK_TriuOp : HK_TriangleMaskOp<"triu", "below"> {
  let description = [{
    Keeps element `(i, j)` when `col - row >= diagonal` (global positions as
    for `hk.tril`) and replaces it by `fill` otherwise.
    ```mlir
    %u = hk.triu %s at [%r0, %c0] fill %zero diagonal = 1 : tensor<32x64xf32, #hk.rt<col, 16x16>>
    ```
  }];
}

def HK_BoundsMaskOp : HK_Op<"bounds_mask", [Pure,
    AllTypesMatch<["source", "result"]>,
    TypesMatchWith<"fill is the element type", "source", "fill",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "replaces elements outside a rows x cols extent";
  let description = [{
    Element `(i, j)` at global position `(rowOffset + i, colOffset + j)` is
    kept when that position is inside `[0, rows) x [0, cols)` and replaced by
    `fill` otherwise: this is how a ragged last tile (a key block past the
    sequence end) stops contributing to a softmax.
    ```mlir
    %s2 = hk.bounds_mask %s at [%q0, %k0] within [%n, %n] fill %neginf : tensor<32x64xf32, #hk.rt<col, 16x16>>
    ```
  }];
  let arguments = (ins HK_RegTile:$source, Index:$rowOffset, Index:$colOffset,
    Index:$rows, Index:$cols, AnyType:$fill);
  let results = (outs HK_RegTile:$result);
  let assemblyFormat = [{
    $source `at` ` ` `[` $rowOffset `,` $colOffset `]` `within` ` ` `[` $rows `,` $cols `]`
    `fill` $fill attr-dict `:` type($source)
  }];
}

def HK_TransposeOp : HK_Op<"transpose", [Pure]> {
  let summary = "relabels a register tile as its transpose";
  let description = [{
    A `row` `RxC` tile with base `BRxBC` is, with no data movement, a `col`
    `CxR` tile with base `BCxBR` (and the same `group`), and vice versa.
    ```mlir
    %kt = hk.transpose %k : tensor<64x128xbf16, #hk.rt<row, 16x32>> -> tensor<128x64xbf16, #hk.rt<col, 32x16>>
    ```
  }];
  let arguments = (ins HK_RegTile:$source);
  let results = (outs HK_RegTile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def HK_SwapLayoutOp : HK_Op<"swap_layout", [Pure]> {
  let summary = "moves a register tile's data into another lane layout";
  let description = [{
    Same shape and element type, different `#hk.rt` layout; lanes exchange
    data (HK's `swap_layout`).
    ```mlir
    %b = hk.swap_layout %a : tensor<64x64xbf16, #hk.rt<row, 16x32>> -> tensor<64x64xbf16, #hk.rt<col, 32x16>>
    ```
  }];
  let arguments = (ins HK_RegTile:$source);
  let results = (outs HK_RegTile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Synchronisation and scheduling
//===----------------------------------------------------------------------===//

def HK_BarrierOp : HK_Op<"barrier"> {
  let summary = "workgroup barrier";
  let description = [{
    Every wave of the workgroup waits until all have reached a barrier
    (`s_barrier`). Waves must execute the same sequence of barriers.
    ```mlir
    hk.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def HK_SetPrioOp : HK_Op<"set_prio"> {
  let summary = "sets the wave's instruction-issue priority";
  let description = [{
    `s_setprio`: priority 0 (lowest) to 3. HK raises it around MFMA clusters
    so the wave doing math wins issue slots over the wave doing loads.
    ```mlir
    hk.set_prio 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr,
    [IntMinValue<0>, IntMaxValue<3>]>:$priority);
  let assemblyFormat = "$priority attr-dict";
}

def HK_SchedBarrierOp : HK_Op<"sched_barrier"> {
  let summary = "scheduling fence for the instruction scheduler";
  let description = [{
    `__builtin_amdgcn_sched_barrier(mask)`: instructions whose class is not in
    `mask` may not be moved across it (0: nothing may cross).
    ```mlir
    hk.sched_barrier 0
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr,
    [IntMinValue<0>, IntMaxValue<2047>]>:$mask);
  let assemblyFormat = "$mask attr-dict";
}

def HK_SchedGroupOp : HK_Op<"sched_group"> {
  let summary = "asks the scheduler for a group of instructions of one class";
  let description = [{
    `__builtin_amdgcn_sched_group_barrier(mask, size, sync)`: place `size`
    instructions of the classes in `mask` here, in pipeline `sync`.
    ```mlir
    hk.sched_group mask = 8, size = 1, sync = 0
    ```
  }];
  let arguments = (ins
    ConfinedAttr<I32Attr, [IntMinValue<1>, IntMaxValue<2047>]>:$mask,
    ConfinedAttr<I32Attr, [IntPositive]>:$size,
    ConfinedAttr<I32Attr, [IntMinValue<0>]>:$sync);
  let assemblyFormat = "`mask` `=` $mask `,` `size` `=` $size `,` `sync` `=` $sync attr-dict";
}

class HK_ScheduleRegionOp<string mnemonic, string what, int waveCount>
    : HK_Op<mnemonic, [SingleBlockImplicitTerminator<"YieldOp">,
        RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = what;
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`->` type($results)^)? $body attr-dict";
  let hasVerifier = 1;
  int requiredWaves = waveCount;
}

def HK_PingPongOp : HK_ScheduleRegionOp<"ping_pong",
    "8-wave ping-pong schedule region", 8> {
  let description = [{
    The body (typically the main loop) is run by two groups of four waves,
    0-3 and 4-7, one cluster apart: while one group executes a `compute`
    cluster at raised priority, the other executes the `memory` cluster
    before it. Only in kernels with `waves = 8`; the body holds
    `hk.cluster` regions and no `hk.barrier`. `hk-schedule` inlines the
    region and its clusters and makes the schedule explicit: waves 4-7
    execute one extra `hk.barrier` right before the region and waves 0-3
    one right after it; every cluster ends with `hk.barrier`; compute
    clusters run between `hk.set_prio 1` and `hk.set_prio 0`; and
    `hk.sched_barrier 0` fences separate the clusters. An access in
    cluster `i` is then ordered before the accesses of other waves in
    cluster `i + 2` and later, not `i + 1` (see docs/schedules.md).
    ```mlir
    hk.ping_pong {
      scf.for %k = %c0 to %n step %c1 {
        hk.cluster memory { ... }
        hk.cluster compute { ... }
      }
    }
    ```
  }];
}

def HK_InterleaveOp : HK_ScheduleRegionOp<"interleave",
    "4-wave interleave schedule region", 4> {
  let description = [{
    One wave per SIMD alternates single MFMAs of a `compute` cluster with
    single memory instructions of the `memory` cluster that follows it.
    Only in kernels with `waves = 4`. `hk-schedule` inlines the region and
    its clusters; a compute cluster and the memory cluster after it share
    one region between `hk.sched_barrier 0` fences that ends with
    `hk.sched_group` pairs (one MFMA, one instruction of the memory
    cluster's classes) for the backend scheduler, one pair per MFMA of the
    compute cluster; other clusters are fenced alone. No barrier is
    inserted: the kernel keeps its own (see docs/schedules.md).
    ```mlir
    hk.interleave {
      hk.cluster memory { ... }
      hk.cluster compute { ... }
      hk.cluster memory { ... }
    }
    ```
  }];
}

def HK_ClusterOp : HK_Op<"cluster", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "a compute or memory cluster of a schedule";
  let description = [{
    A `compute` cluster holds math (MMA, maps, reductions) and no memory
    movement; a `memory` cluster holds loads and stores and no MMA. Clusters
    live inside `hk.ping_pong` or `hk.interleave`. Values leave a cluster
    through `hk.yield`.
    ```mlir
    %d = hk.cluster compute -> tensor<64x64xf32, #hk.rt<col, 16x16>> {
      %x = hk.mma abt %a, %b, %c : ...
      hk.yield %x : tensor<64x64xf32, #hk.rt<col, 16x16>>
    }
    ```

    A compute cluster that holds an `hk.mma` may ask for its MFMAs to be
    paired with other ALU work: `pair = mfma_exp` alternates one MFMA with
    one transcendental instruction (the `exp2` of a softmax), `pair =
    mfma_valu` with one other VALU instruction. `hk-schedule` expands it into
    `hk.sched_group` hints after the cluster's body (docs/schedules.md).
    ```mlir
    %p = hk.cluster compute pair = mfma_exp -> !p_rt {
      %s = hk.mma abt %k, %q, %z : ...
      ...
      %e = math.exp2 %d : !s_rt
      ...
    }
    ```
  }];
  let arguments = (ins HK_ClusterKind:$kind,
                       OptionalAttr<HK_PairingAttr>:$pair);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "$kind (`pair` `=` $pair^)? (`->` type($results)^)? $body attr-dict";
  let hasVerifier = 1;
}

def HK_YieldOp : HK_Op<"yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["PingPongOp", "InterleaveOp", "ClusterOp"]>]> {
  let summary = "yields values out of a schedule region or cluster";
  let description = [{
    ```mlir
    hk.yield %x : tensor<64x64xf32, #hk.rt<col, 16x16>>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

include "HKPositionOps.td"
include "HKScaledMmaOps.td"
include "HKAtomicOps.td"

#endif // HK_OPS_TD
