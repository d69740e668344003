//===- HKDialect.h - the hk dialect ---------------------------------------===//

#ifndef HK_DIALECT_HK_HKDIALECT_H
#define HK_DIALECT_HK_HKDIALECT_H

#include "hk/Support/MLIR.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "hk/Dialect/HK/HKDialect.h.inc"
#include "hk/Dialect/HK/HKEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "hk/Dialect/HK/HKAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "hk/Dialect/HK/HKTypes.h.inc"

#include "hk/Dialect/HK/Layout.h"
#include "hk/Dialect/HK/SharedLayout.h"

namespace hk {
/// A ranked tensor with a #hk.rt encoding.
bool isRegTile(Type type);
/// A ranked tensor with a #hk.rv encoding.
bool isRegVec(Type type);
/// The lane layout of a register tile type.
TileLayout getTileLayout(RankedTensorType type);
/// The lane layout of a register vector type.
VectorLayout getVectorLayout(RankedTensorType type);
/// The lane layout of a tile described by an #hk.rt attribute.
BaseTileLayout getBaseLayout(RegTileLayoutAttr attr);
/// The type hk.transpose gives a register tile: `CxR`, the other layout
/// (row <-> col), base `BCxBR`, the same group.
RankedTensorType transposedTileType(RankedTensorType tile);
/// SharedLayout.h's layout of a shared tile type.
SharedLayout sharedLayoutOf(Type sharedTile);
/// How many elements of a register tile of `tileElement` a group of
/// globalLoadPackedUnits() elements of a memref of `memoryElement` holds
/// when hk.load reads the tile from global memory: 1 (in 1) for the same
/// type, and for an i8 memref read as an 8-bit float (OCP MX data and e8m0
/// scales passed as bytes); 2 (in 1) for an i8 memref read as f4E2M1FN, two
/// elements per byte, the first in the low nibble (OCP MX packing); 4 (in
/// 3) for an i8 memref read as f6E2M3FN or f6E3M2FN, element j of a row at
/// bits 6j to 6j + 5 of the row's bytes taken as one little-endian number;
/// the memref's last dimension counting bytes; 0 when the load cannot read
/// one as the other.
int64_t globalLoadPacking(Type memoryElement, Type tileElement);
/// The memref elements of one group of globalLoadPacking() tile elements:
/// 3 bytes for the 6-bit floats, else 1.
int64_t globalLoadPackedUnits(Type memoryElement, Type tileElement);
} // namespace hk

#define GET_OP_CLASSES
#include "hk/Dialect/HK/HKOps.h.inc"

#endif // HK_DIALECT_HK_HKDIALECT_H
