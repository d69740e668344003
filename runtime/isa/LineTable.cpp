//===- LineTable.cpp - source positions from a code object's .debug_line --===//
//
// The DWARF line table (DWARF 5, section 6.2) is a matrix of rows, each the
// address of an instruction and its file, line and column, in sequences of
// contiguous code; a row holds for the addresses up to the next row of its
// sequence, and the sequence's last row (end_sequence) marks the first
// address past it. LLVM's DWARF library parses it (relocations applied,
// file names resolved against the compilation directory); here the rows of
// every unit become one map from address to position.
//===----------------------------------------------------------------------===//

#include "LineTable.h"
#include "Internal.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"
#include "llvm/Object/Decompressor.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fstream>
#include <sstream>
#include <tuple>

using namespace hk::rt::isa;

namespace {

using FileLineInfoKind = llvm::DILineInfoSpecifier::FileLineInfoKind;

bool hasDebugLine(const llvm::object::ObjectFile &object) {
  for (const llvm::object::SectionRef &section : object.sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == ".debug_line")
      return true;
  }
  return false;
}

/// Debug sections LLVM's DWARF library may inflate: at most this many bytes
/// in all. Far above what a kernel's line table takes, far below what a
/// hostile size field claims.
constexpr uint64_t kMaxDecompressedDebugBytes = 64ull << 20;

/// Whether the compressed sections (SHF_COMPRESSED) inflate to at most
/// kMaxDecompressedDebugBytes. DWARFContext::create allocates the size a
/// section's compression header claims before inflating it: a mutated
/// header claiming 104 GiB ended the process (found by hk-fuzz-isa).
bool compressedDebugFits(const llvm::object::ObjectFile &object) {
  uint64_t total = 0;
  // Every compressed section, whatever its name (a name past the end of the
  // string table too): DWARFContext inflates them all.
  for (const llvm::object::SectionRef &section : object.sections()) {
    if (!section.isCompressed())
      continue;
    llvm::Expected<llvm::StringRef> data = section.getContents();
    if (!data) {
      llvm::consumeError(data.takeError());
      continue; // DWARFContext skips it too
    }
    llvm::Expected<llvm::object::Decompressor> decompressor =
        llvm::object::Decompressor::create("", *data, object.isLittleEndian(),
                                           object.getBytesInAddress() == 8);
    if (!decompressor) {
      llvm::consumeError(decompressor.takeError());
      continue;
    }
    if (__builtin_add_overflow(total, decompressor->getDecompressedSize(),
                               &total) ||
        total > kMaxDecompressedDebugBytes)
      return false;
  }
  return true;
}

/// Reads the whole file at `path`; false if it cannot be read.
bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

bool isOpNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

} // namespace

std::shared_ptr<const LineTable>
LineTable::read(const llvm::object::ObjectFile &object) {
  auto table = std::make_shared<LineTable>();
  // Without its line table a fault is reported by address only, as for a
  // code object without debug information.
  if (!hasDebugLine(object) || !compressedDebugFits(object))
    return table;
  auto ignore = [](llvm::Error error) { llvm::consumeError(std::move(error)); };
  std::unique_ptr<llvm::DWARFContext> dwarf = llvm::DWARFContext::create(
      object, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
      ignore, ignore);
  for (const std::unique_ptr<llvm::DWARFUnit> &unit : dwarf->compile_units()) {
    const llvm::DWARFDebugLine::LineTable *lines =
        dwarf->getLineTableForUnit(unit.get());
    if (!lines)
      continue;
    const char *compDir = unit->getCompilationDir();
    llvm::StringRef dir = compDir ? compDir : "";
    // Positions of this unit already made: (file, line, column) -> index.
    std::map<std::tuple<uint64_t, uint32_t, uint32_t>, int32_t> made;
    auto positionOf = [&](const llvm::DWARFDebugLine::Row &row) -> int32_t {
      auto key =
          std::make_tuple(uint64_t(row.File), row.Line, uint32_t(row.Column));
      auto it = made.find(key);
      if (it != made.end())
        return it->second;
      SourcePosition position;
      position.line = row.Line;
      position.column = row.Column;
      if (!lines->getFileNameByIndex(
              row.File, dir, FileLineInfoKind::AbsoluteFilePath, position.file))
        return made[key] = -1;
      table->positions.push_back(std::move(position));
      return made[key] = int32_t(table->positions.size() - 1);
    };
    for (const llvm::DWARFDebugLine::Sequence &sequence : lines->Sequences) {
      if (!sequence.isValid())
        continue;
      for (unsigned r = sequence.FirstRowIndex; r < sequence.LastRowIndex;
           ++r) {
        const llvm::DWARFDebugLine::Row &row = lines->Rows[r];
        uint64_t address = row.Address.Address;
        // The end of a sequence gives way to a row of another sequence
        // starting at the same address; of rows at one address, the last
        // holds.
        if (row.EndSequence)
          table->starts.emplace(address, -1);
        else
          table->starts[address] = row.Line ? positionOf(row) : -1;
      }
    }
  }
  return table;
}

const SourcePosition *LineTable::find(uint64_t pc) const {
  auto it = starts.upper_bound(pc);
  if (it == starts.begin())
    return nullptr;
  --it;
  return it->second < 0 ? nullptr : &positions[it->second];
}

std::string hk::rt::isa::opAt(const std::string &source, uint32_t line,
                              uint32_t column) {
  size_t begin = 0;
  for (uint32_t l = 1; l < line; ++l) {
    begin = source.find('\n', begin);
    if (begin == std::string::npos)
      return "";
    ++begin;
  }
  size_t end = source.find('\n', begin);
  std::string text = source.substr(
      begin, end == std::string::npos ? std::string::npos : end - begin);
  size_t at = column ? column - 1 : text.find_first_not_of(" \t");
  if (at == std::string::npos || at >= text.size())
    return "";
  // `%a, %b:2 = op ...`: the op follows the `=`.
  if (text[at] == '%') {
    at = text.find('=', at);
    if (at == std::string::npos)
      return "";
    at = text.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos)
      return "";
  }
  if (text[at] == '"') // the generic form, "dialect.op"(...)
    ++at;
  size_t stop = at;
  while (stop < text.size() && isOpNameChar(text[stop]))
    ++stop;
  return text.substr(at, stop - at);
}

std::string hk::rt::isa::faultPrefix(const SourcePosition &position) {
  std::string prefix = position.file + ":" + std::to_string(position.line);
  if (position.column)
    prefix += ":" + std::to_string(position.column);
  prefix += ": ";
  std::string source;
  if (readFile(position.file, source)) {
    std::string op = opAt(source, position.line, position.column);
    if (!op.empty())
      prefix += op + ": ";
  }
  return prefix;
}

std::shared_ptr<const LineTable>
hk::rt::isa::readLineTable(const std::string &elf) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(elf.data(), elf.size()), "code object", false);
  auto object = llvm::object::ObjectFile::createObjectFile(*buffer);
  if (!object) {
    llvm::consumeError(object.takeError());
    return std::make_shared<LineTable>();
  }
  return LineTable::read(**object);
}

std::string hk::rt::isa::sourcePrefix(const CodeObject &code, uint64_t pc) {
  const SourcePosition *position = code.lines ? code.lines->find(pc) : nullptr;
  return position ? faultPrefix(*position) : "";
}
