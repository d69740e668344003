//===- LineTable.h - source positions of a code object's instructions -----===//
//
// A code object compiled with line tables (DWARF .debug_line, hkc's default
// for code objects) maps each instruction address to the file, line and
// column it came from: for hkc's kernels, the position of the op in the
// .mlir source. The simulator reads the table once per code object and
// puts the position of the faulting instruction in front of each fault.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_ISA_LINETABLE_H
#define HK_RUNTIME_ISA_LINETABLE_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm::object {
class ObjectFile;
} // namespace llvm::object

namespace hk::rt::isa {

/// One source position of the line table.
struct SourcePosition {
  /// The file's path: its name as the compiler recorded it, joined with
  /// its directory and the compilation directory when relative.
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

class LineTable {
public:
  /// The line table of an ELF code object; empty when it has none or it
  /// cannot be read (the positions are a help, never required).
  static std::shared_ptr<const LineTable>
  read(const llvm::object::ObjectFile &object);

  /// The position of the instruction at `pc`, or null when the table has
  /// none: no row covers it, or its row has line 0 (code the compiler
  /// attributes to no source line).
  const SourcePosition *find(uint64_t pc) const;
  bool empty() const { return starts.empty(); }

private:
  /// Each range of addresses, by its first: the index of its position in
  /// `positions`, or -1 for addresses without one (up to the next range).
  std::map<uint64_t, int32_t> starts;
  std::vector<SourcePosition> positions;
};

/// The op at `column` of `line` in the source text: the token there, or the
/// one after `%results = ` when the position names the results (`hk.load`
/// in `%a = hk.load %A[...]`, `gpu.barrier`); empty when there is none.
std::string opAt(const std::string &source, uint32_t line, uint32_t column);

/// The prefix a fault at `position` carries: `FILE:LINE:COL: OP: `, where OP
/// is read from the source file when it is readable (else left out).
std::string faultPrefix(const SourcePosition &position);

} // namespace hk::rt::isa

#endif // HK_RUNTIME_ISA_LINETABLE_H
