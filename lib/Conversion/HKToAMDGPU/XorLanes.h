//===- XorLanes.h - the value of lane l ^ d, with the cheapest instruction ===//

#ifndef HK_LIB_CONVERSION_HKTOAMDGPU_XORLANES_H
#define HK_LIB_CONVERSION_HKTOAMDGPU_XORLANES_H

#include "hk/Base/Chip.h"

#include "mlir/IR/Builders.h"

namespace hk {

/// The value of vector `v` in lane `lane ^ d`, for every lane: DPP for
/// d = 1, 2, 8, v_permlane16/32_swap on chips that have it for 16 and 32,
/// gpu.shuffle xor otherwise (Reductions.cpp).
mlir::Value xorLanes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                     int64_t d, const hk::ChipInfo &chip);

} // namespace hk

#endif // HK_LIB_CONVERSION_HKTOAMDGPU_XORLANES_H
