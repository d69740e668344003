//===- Report.h - code-quality report from AMDGPU assembly ----------------===//
//
// Until kernels run on a GPU, the instructions the backend emits for the hot
// loop are the measure of a kernel: how many there are, how many of them are
// MFMAs, and how much LDS traffic, global traffic, synchronisation and spill
// code comes with each iteration. This reads that from the assembly text
// (what `hkc --emit=asm` prints) with no other input. docs/report.md states
// the rules.
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_AMDGPU_REPORT_H
#define HK_TARGET_AMDGPU_REPORT_H

#include "hk/Target/AMDGPU/ResourceUsage.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hk::target {

/// What one instruction does, from its mnemonic (and, for LDS DMA, its
/// `lds` operand).
enum class InstructionClass {
  Mfma,            ///< v_mfma*
  LdsRead,         ///< ds_read*, ds_load*
  LdsWrite,        ///< ds_write*, ds_store*
  LdsOther,        ///< any other ds_* (atomics, permutes, swizzles)
  GlobalLoad,      ///< buffer_load*, global_load*, flat_load* to registers
  GlobalLoadToLds, ///< the same with `lds`, or global_load_lds_* (LDS DMA)
  GlobalStore,     ///< buffer_store*, global_store*, flat_store*
  GlobalAtomic,    ///< buffer_atomic*, global_atomic*, flat_atomic*
  Scratch,         ///< scratch_load*, scratch_store* (spills, stack)
  Barrier,         ///< s_barrier
  Wait,            ///< s_waitcnt*
  Other
};

/// `mnemonic` and the rest of the line after it (comments stripped).
InstructionClass classifyInstruction(llvm::StringRef mnemonic,
                                     llvm::StringRef operands);

/// Static counts over a range of instructions.
struct InstructionCounts {
  int64_t instructions = 0;
  int64_t mfma = 0;
  int64_t ldsReads = 0;
  int64_t ldsWrites = 0;
  int64_t ldsOther = 0;
  int64_t globalLoads = 0;      ///< includes globalLoadsToLds
  int64_t globalLoadsToLds = 0; ///< LDS DMA
  int64_t globalStores = 0;
  int64_t globalAtomics = 0;
  int64_t scratch = 0;
  int64_t barriers = 0;
  int64_t waits = 0;

  void add(InstructionClass kind);
  /// Buffer, global and flat instructions: what the hot loop of a kernel
  /// without MFMAs is chosen by.
  int64_t vectorMemory() const {
    return globalLoads + globalStores + globalAtomics;
  }
};

/// A range of the assembly from a label to a later branch back to it.
struct Loop {
  std::string header;       ///< the label the backward branch goes to
  unsigned headerLine;      ///< 1-based line of the label in the assembly
  unsigned branchLine;      ///< 1-based line of the backward branch
  unsigned nestedLoops = 0; ///< backward branches strictly inside the range
  /// A waterfall loop: the backward branch is `s_cbranch_execnz` and the
  /// range holds a `v_readfirstlane_b32`, the loop the backend builds when an
  /// operand that must be uniform (a buffer resource, an LDS base) lives in
  /// VGPRs: one iteration per distinct value among the active lanes.
  bool waterfall = false;
  InstructionCounts counts; ///< instructions strictly after the label, up to
                            ///< and including the branch (nested loops'
                            ///< instructions once)

  bool isInnermost() const { return nestedLoops == 0; }
};

struct KernelReport {
  std::string name;
  unsigned firstLine = 0; ///< the function's label
  unsigned lastLine = 0;  ///< its last instruction
  InstructionCounts whole;
  /// One per backward branch, in text order.
  std::vector<Loop> loops;
  /// Index into `loops` of the hot loop, chosen by mnemonic counts alone:
  ///  - if a loop holds MFMAs: among the loops that hold MFMAs but hold no
  ///    nested loop that does, the one with the most MFMAs (a retry loop of
  ///    an atomic inside the MFMA loop does not hide it);
  ///  - otherwise: among the innermost loops, the one with the most buffer,
  ///    global and flat instructions;
  /// ties go to the fewest instructions (of two versions of one loop, the
  /// one without bounds checks: hk-peel-bounds), then to the first in the
  /// text.
  std::optional<size_t> hotLoop;

  /// The hot loop's counts, or the whole kernel's if it has no loop.
  const InstructionCounts &hotCounts() const {
    return hotLoop ? loops[*hotLoop].counts : whole;
  }
  size_t innermostLoops() const;
  size_t waterfallLoops() const;
};

/// Analyses every function of an AMDGPU assembly file. Fails on text it
/// cannot follow: a branch to a label the function does not define, or a
/// function that never ends.
llvm::Expected<std::vector<KernelReport>>
analyzeAssembly(llvm::StringRef assembly);

/// Prints the report of one chip: per kernel, the hot loop's counts and the
/// resources (matched by kernel name; the occupancy from `chip`'s table).
void printReport(llvm::raw_ostream &os, const hk::ChipInfo &chip,
                 llvm::ArrayRef<KernelReport> kernels,
                 llvm::ArrayRef<KernelResources> resources);

} // namespace hk::target

#endif // HK_TARGET_AMDGPU_REPORT_H
