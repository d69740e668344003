//===- MfmaTypes.h - MLIR element types as MFMA inputs of a chip ----------===//
//
// The bridge between MLIR element types and the MFMA table of
// hk/Base/Chip.h, for the passes that choose or check an MFMA.
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_MFMATYPES_H
#define HK_DIALECT_HK_MFMATYPES_H

#include "hk/Support/MLIR.h"

#include "hk/Base/Chip.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace hk {

/// What MFMAs of `chip` take `element` as, or nullopt if none can: an 8-bit
/// float must be in the chip's format (FNUZ on gfx942, OCP on gfx950).
std::optional<hk::MfmaInput> mfmaInputOf(Type element,
                                         const hk::ChipInfo &chip);

/// The chip's 8-bit float formats, for messages: "FNUZ formats (f8E4M3FNUZ,
/// f8E5M2FNUZ)" or "OCP formats (f8E4M3FN, f8E5M2)".
const char *fp8FormatNames(hk::Fp8Format format);

/// The builtin type `chipFloat` (!hk.fp8 or !hk.bf8) stands for on `chip`
/// (f8E4M3FNUZ / f8E5M2FNUZ on gfx942, f8E4M3FN / f8E5M2 on gfx950); null
/// if the chip has no 8-bit float formats. Any other type is returned as is.
Type resolveChipFloat8(Type chipFloat, const hk::ChipInfo &chip);

/// Whether `type` is !hk.fp8 or !hk.bf8.
bool isChipFloat8(Type type);

} // namespace hk

#endif // HK_DIALECT_HK_MFMATYPES_H
