//===- HKDialect.td - the hk tile dialect ------------------*- tablegen -*-===//
//
// The `hk` dialect: HipKittens-style tile programs for AMD CDNA GPUs.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_TD
#define HK_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def HK_Dialect : Dialect {
  let name = "hk";
  let cppNamespace = "::hk";
  let summary = "Tile programs for AMD CDNA GPUs, after HipKittens";
  let description = [{
    The `hk` dialect describes GPU kernels the way HipKittens writes them: from
    the point of view of one wave of 64 lanes, with register tiles sized to the
    MFMA units, swizzled shared (LDS) tiles, asynchronous global-to-shared
    loads, and explicit or structured schedules.

    * A **register tile** is a ranked tensor whose encoding is `#hk.rt`; its
      elements are spread over the 64 lanes of the wave that owns it.
    * A **register vector** is a rank-1 tensor whose encoding is `#hk.rv`; it
      holds one value per row (or column) of a register tile, laid out so that
      it broadcasts back onto that tile without data movement.
    * A **shared tile** (`!hk.st`) is an LDS allocation of the workgroup.
    * **Global memory** is a plain `memref`; tile loads and stores index its
      last two dimensions in tile units.
    * A **token** (`!hk.token`) names an asynchronous copy so that waits say
      what they wait for.

    Elementwise math on tiles is plain `arith`/`math` on the tensors.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The attributes of other ops that hk stages write and read; the
    /// dialect verifies their types wherever they appear.
    /// On a lowered kernel gpu.func:
    /// its #hk.grid, its waves per workgroup (integer), the LDS bytes it
    /// allocates (integer).
    static constexpr ::llvm::StringLiteral kGridAttrName = "hk.grid";
    static constexpr ::llvm::StringLiteral kWavesAttrName = "hk.waves";
    static constexpr ::llvm::StringLiteral kLdsBytesAttrName = "hk.lds_bytes";
    /// On a kernel argument (hk.kernel or gpu.func): its name (string).
    static constexpr ::llvm::StringLiteral kArgNameAttrName = "hk.name";
    /// On an hk.load from a memref, an hk.load_async or an hk.atomic_add of
    /// a register tile (unit, written by hk-peel-bounds): every column the
    /// tile covers is within the memref's last dimension.
    static constexpr ::llvm::StringLiteral kColsInBoundsAttrName =
        "hk.cols_in_bounds";
    /// On an hk.load_async, or an hk.load of a register tile from a memref,
    /// that also carries hk.cols_in_bounds (unit, written by
    /// hk-peel-bounds): every row and every index of the leading dimensions
    /// is in range too, so the access needs no check at all.
    static constexpr ::llvm::StringLiteral kInBoundsAttrName =
        "hk.in_bounds";

  private:
    // Defined beside the generated storage classes they instantiate.
    void registerAttributes();
    void registerTypes();
  public:
  }];
}

class HK_Op<string mnemonic, list<Trait> traits = []>
    : Op<HK_Dialect, mnemonic, traits>;

class HK_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<HK_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class HK_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<HK_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

#endif // HK_DIALECT_TD
