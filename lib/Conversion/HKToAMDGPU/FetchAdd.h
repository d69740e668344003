//===- FetchAdd.h - hk.fetch_add's lowering ---------------------*- C++ -*-===//

#ifndef HK_CONVERSION_HKTOAMDGPU_FETCHADD_H
#define HK_CONVERSION_HKTOAMDGPU_FETCHADD_H

#include "hk/Conversion/HKToAMDGPU/HKToAMDGPU.h"

namespace hk {

/// hk.fetch_add: one atomic per wave, its old value in every lane.
void populateFetchAddPatterns(mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns,
                              LoweringState &state);

} // namespace hk

#endif // HK_CONVERSION_HKTOAMDGPU_FETCHADD_H
