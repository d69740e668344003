//===- ResourceUsage.h - per-kernel resources of a code object ------------===//
//
// Reads what each kernel of an AMDGPU code object uses from the AMDHSA
// metadata note the backend wrote into it, and derives the occupancy those
// resources allow on a CDNA3/CDNA4 SIMD.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_AMDGPU_RESOURCEUSAGE_H
#define HK_TARGET_AMDGPU_RESOURCEUSAGE_H

#include "hk/Base/Chip.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hk::target {

struct KernelResources {
  std::string name;
  int64_t unifiedVgprs = 0;     ///< `.vgpr_count`: architectural + accumulation
  int64_t agprs = 0;            ///< `.agpr_count`
  int64_t sgprs = 0;            ///< `.sgpr_count`
  int64_t ldsBytes = 0;         ///< `.group_segment_fixed_size`
  int64_t scratchBytes = 0;     ///< `.private_segment_fixed_size`, per lane
  int64_t vgprSpills = 0;       ///< `.vgpr_spill_count`
  int64_t sgprSpills = 0;       ///< `.sgpr_spill_count`
  int64_t maxWorkgroupSize = 0; ///< `.max_flat_workgroup_size`

  /// Architectural VGPRs. On gfx90a and later the AGPRs are allocated after
  /// the VGPRs rounded up to 4, so this is the VGPR count with that rounding
  /// when the kernel uses AGPRs.
  int64_t archVgprs() const { return unifiedVgprs - agprs; }
};

/// The occupancy of one kernel and what bounds it.
struct Occupancy {
  int64_t wavesPerSimd = 0;
  int64_t byRegisters = 0; ///< the bound set by the unified register file
  int64_t byLds = 0;       ///< the bound set by LDS (0 if no LDS is used)
};

/// Waves per SIMD on `chip`: its unified registers per lane allocated in its
/// granules, at most its waves per SIMD, and the workgroups that fit in its
/// LDS, each spreading its waves over the SIMDs of a CU.
Occupancy computeOccupancy(const KernelResources &kernel,
                           const hk::ChipInfo &chip);

/// The kernels described by the `amdhsa.kernels` list of the NT_AMDGPU_METADATA
/// note of `elf`, a relocatable or linked code object.
llvm::Expected<std::vector<KernelResources>>
readKernelResources(llvm::ArrayRef<char> elf);

/// The same, from the YAML between `.amdgpu_metadata` and
/// `.end_amdgpu_metadata` of an AMDGPU assembly file (what clang -S and
/// `hkc --emit=asm` print).
llvm::Expected<std::vector<KernelResources>>
readKernelResourcesFromAssembly(llvm::StringRef assembly);

} // namespace hk::target

#endif // HK_TARGET_AMDGPU_RESOURCEUSAGE_H
