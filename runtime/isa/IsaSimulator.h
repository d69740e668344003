//===- IsaSimulator.h - CDNA3/CDNA4 code objects executed on the CPU ------===//
//
// A code object (the ELF that HIP would load) is decoded once, instruction by
// instruction, with LLVM's AMDGPU MC disassembler; a launch sets up each
// wave as the AMDHSA ABI does from the kernel descriptor and interprets the
// decoded instructions through a table of semantic functions. Memory results
// land in registers only when an s_waitcnt requires them. Faults throw
// hk::rt::Error(HKRT_ERROR_KERNEL_FAULT) naming the instruction and its PC.
// docs/isa-simulator.md describes what is simulated.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_ISA_ISASIMULATOR_H
#define HK_RUNTIME_ISA_ISASIMULATOR_H

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hk::rt::isa {

/// The fields of an AMDHSA kernel descriptor (<name>.kd) that a dispatch
/// uses.
struct KernelDescriptor {
  uint32_t groupSegmentSize = 0;   ///< LDS bytes
  uint32_t privateSegmentSize = 0; ///< scratch bytes per lane
  uint32_t kernargSize = 0;
  uint64_t entry = 0; ///< address of the first instruction
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  uint16_t codeProperties = 0;
  uint16_t kernargPreload = 0;
};

class CodeObject;

/// Memory a kernel may touch outside LDS: the device's allocations plus the
/// launch's kernarg segment and dispatch packet.
struct MemoryRange {
  uint64_t begin, end;
};

/// The launch-wide budget (docs/isa-simulator.md, "What a code object can
/// do to the host"): a launch that executes more instructions, over all its
/// waves and workgroups, or runs longer on the host, ends with a kernel
/// fault naming the budget it exhausted.
constexpr uint64_t kDefaultMaxInstructions = uint64_t(1) << 36;
constexpr double kDefaultMaxSeconds = 600;
/// The most private (scratch) bytes per lane a kernel descriptor may ask
/// for: 64 waves of 64 lanes then hold 256 MiB of host memory.
constexpr uint32_t kMaxPrivateSegmentBytes = 64 * 1024;

struct Launch {
  std::string kernel;
  /// The budget; unset: the environment variables HK_ISA_MAX_INSTRUCTIONS
  /// and HK_ISA_MAX_SECONDS, else the defaults above.
  std::optional<uint64_t> maxInstructions;
  std::optional<double> maxSeconds;
  std::array<uint32_t, 3> grid{1, 1, 1};   ///< workgroups
  std::array<uint32_t, 3> block{64, 1, 1}; ///< work-items per workgroup
  /// Dynamic LDS bytes (extern __shared__), after the kernel's static
  /// group segment, as hipLaunchKernel's sharedMemBytes gives them.
  uint32_t dynamicLds = 0;
  std::vector<char> kernarg;
  std::vector<MemoryRange> memory; ///< sorted, disjoint
};

/// Decodes `elf` for `chip` ("gfx942", "gfx950"). Throws
/// HKRT_ERROR_INVALID_ARTIFACT for an unreadable code object.
std::shared_ptr<const CodeObject> loadCodeObject(const std::string &elf,
                                                 const std::string &chip);

const KernelDescriptor &kernelDescriptor(const CodeObject &code,
                                         const std::string &kernel);

/// Runs the launch to completion, workgroup after workgroup.
void run(const CodeObject &code, const Launch &launch);

/// Bit-level definitions the unit tests check against AMD's ISA guides.
uint32_t permB32(uint32_t s0, uint32_t s1, uint32_t selector);
uint16_t f32ToBF16(float f);
uint32_t bitop3(uint32_t a, uint32_t b, uint32_t c, uint8_t table);

} // namespace hk::rt::isa

#endif // HK_RUNTIME_ISA_ISASIMULATOR_H
