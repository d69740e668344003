//===- HKTypes.td - hk types -------------------------------*- tablegen -*-===//

#ifndef HK_TYPES_TD
#define HK_TYPES_TD

include "HKDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def HK_SharedTileType : HK_Type<"SharedTile", "st"> {
  let summary = "a tile in shared memory (LDS)";
  let description = [{
    `!hk.st<RxCxT, SRxSC>` is an `R x C` tile of element type `T` in the LDS
    of the workgroup, stored as a row-major grid of `SR x SC` subtiles. The
    subtile shape fixes the XOR swizzle inside each subtile and how many bytes
    each lane moves in a global-to-shared load (`SR*SC*sizeof(T)/64`).
    All waves of the workgroup see the same tile.

    Example:
    ```mlir
    %a = hk.alloc_shared : !hk.st<256x64xbf16, 16x32>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "Type":$elementType,
    ArrayRefParameter<"int64_t">:$subtileShape);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRows() const { return getShape()[0]; }
    int64_t getCols() const { return getShape()[1]; }
    /// Size of the tile in LDS.
    int64_t getSizeInBytes() const;
    /// Bytes one lane moves when the wave copies one subtile.
    int64_t getBytesPerLane() const;
  }];
}

// The chip's 8-bit floats. gfx942's MFMAs and conversions take AMD's FNUZ
// formats, gfx950's the OCP ones, with the same exponent and mantissa widths;
// a kernel written with these types compiles for both.
class HK_ChipFloat8Type<string name, string typeMnemonic, string format,
                        string fnuz, string ocp>
    : HK_Type<name, typeMnemonic,
              [VectorElementTypeInterface,
               DeclareTypeInterfaceMethods<FloatTypeInterface,
                                           ["getFloatSemantics"]>,
               MemRefElementTypeInterface]> {
  let summary = "the chip's " # format # " 8-bit float";
  let description = [{
    `!hk.}] # typeMnemonic # [{` is the }] # format # [{ format of the chip a
    kernel is compiled for: `}] # fnuz # [{` on chips whose MFMAs take
    AMD's FNUZ formats (gfx942), `}] # ocp # [{` on those that take the OCP
    ones (gfx950). `hk-resolve-fp8` replaces it by the chip's type (and
    refuses it, at the first op that uses it, on a chip with no 8-bit float
    formats), so one kernel source serves every chip. Until then it is a
    float of the OCP format's semantics: constants of it are re-encoded in
    the chip's format when it is resolved.

    Example:
    ```mlir
    %a = hk.load %A[%m, %k] : memref<?x?x!hk.}] # typeMnemonic # [{>
        -> tensor<16x32x!hk.}] # typeMnemonic # [{, #hk.rt<row, 16x32>>
    ```
  }];
}

def HK_Fp8Type : HK_ChipFloat8Type<"Fp8", "fp8", "E4M3", "f8E4M3FNUZ",
                                   "f8E4M3FN">;
def HK_Bf8Type : HK_ChipFloat8Type<"Bf8", "bf8", "E5M2", "f8E5M2FNUZ",
                                   "f8E5M2">;

def HK_TokenType : HK_Type<"Token", "token"> {
  let summary = "names an asynchronous copy";
  let description = [{
    Returned by `hk.load_async`; `hk.wait` takes tokens, so every wait says
    which copies it waits for.
  }];
}

#endif // HK_TYPES_TD
