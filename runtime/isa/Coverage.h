//===- Coverage.h - which AMDGPU opcodes the ISA simulator runs ----------===//
//
// The opcodes of a chip are those LLVM's AMDGPU disassembler produces for
// it: every encoding format's opcode field is swept, with variants of the
// fields that select alternative forms, and a seeded random sweep adds
// anything the variants miss. Each opcode is classified into a family,
// some families are excluded (graphics-only or not emitted for compute
// kernels), and an opcode counts as covered when the simulator decodes a
// typical encoding of it into a semantic function without a fault.
// docs/isa-simulator.md ("Coverage") describes the rules.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_ISA_COVERAGE_H
#define HK_RUNTIME_ISA_COVERAGE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hk::rt::isa {

/// One opcode (a base name: encoding-family suffixes stripped, the key of
/// the simulator's table) the chip's disassembler produces.
struct OpcodeCoverage {
  std::string name;
  std::string family;   ///< SOP1, ..., VOP3P, MFMA, DS, GLOBAL, ...
  std::string excluded; ///< why it is left out of the coverage, or ""
  bool covered = false;
  std::string why;     ///< for an uncovered opcode, the simulator's reason
  std::string sample;  ///< a swept encoding of it, as LLVM prints it
  bool random = false; ///< found by the random sweep only
};

struct SweepOptions {
  uint64_t randomEncodings = 300000; ///< on top of the format sweep
  uint64_t seed = 1;
};

/// Every opcode of `chip` ("gfx942", "gfx950"), sorted by family and name.
std::vector<OpcodeCoverage> opcodeCoverage(const std::string &chip,
                                           const SweepOptions &options = {});

/// The families in the order tables list them; the excluded ones last.
const std::vector<std::string> &coverageFamilies();

/// An instruction of a code object that the simulator cannot run: its
/// opcode is not simulated, or an operand of it is not.
struct Unsimulated {
  uint64_t pc = 0;
  std::string opcode; ///< base name
  std::string text;   ///< the instruction as LLVM prints it
  std::string why;
};

/// Decodes the code object `elf` for `chip` as the simulator does and lists
/// the instructions it cannot run; `total` gets the number decoded. Throws
/// hk::rt::Error for a file that is no code object or an unknown chip.
std::vector<Unsimulated> unsimulatedInstructions(const std::string &elf,
                                                 const std::string &chip,
                                                 size_t &total);

} // namespace hk::rt::isa

#endif // HK_RUNTIME_ISA_COVERAGE_H
