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

def HK_TokenType : HK_Type<"Token", "token"> {
  let summary = "names an asynchronous copy";
  let description = [{
    Returned by `hk.load_async`; `hk.wait` takes tokens, so every wait says
    which copies it waits for.
  }];
}

#endif // HK_TYPES_TD
