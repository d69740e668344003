//===- Report.cpp - code-quality report from AMDGPU assembly --------------===//
//
// Reads the assembly line by line: labels, directives and instructions. A
// function runs from its label (a symbol declared `.type NAME,@function`) to
// `.Lfunc_end*` or `.size NAME`. A loop is a label and a later branch back to
// it; the innermost ones hold no other backward branch. The hot loop is the
// innermost loop holding MFMAs, where an inner loop without MFMAs (the retry
// loop LLVM expands an atomic into) does not count. Nothing here knows
// the kernels: it is a pure function of the text, so the rules can be tested
// on hand-written snippets.
//===----------------------------------------------------------------------===//

#include "hk/Target/AMDGPU/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace hk::target;
using llvm::StringRef;

InstructionClass hk::target::classifyInstruction(StringRef mnemonic,
                                                 StringRef operands) {
  auto startsWithAny = [&](std::initializer_list<StringRef> prefixes) {
    return llvm::any_of(prefixes,
                        [&](StringRef p) { return mnemonic.starts_with(p); });
  };
  if (mnemonic.starts_with("v_mfma"))
    return InstructionClass::Mfma;
  if (startsWithAny({"ds_read", "ds_load"}))
    return InstructionClass::LdsRead;
  if (startsWithAny({"ds_write", "ds_store"}))
    return InstructionClass::LdsWrite;
  if (mnemonic.starts_with("ds_"))
    return InstructionClass::LdsOther;
  if (startsWithAny({"buffer_load", "global_load", "flat_load"})) {
    // LDS DMA: `buffer_load_dword v1, s[4:7], 0 offen lds` on gfx942/gfx950,
    // `global_load_lds_dwordx4` on gfx950.
    llvm::SmallVector<StringRef> tokens;
    operands.split(tokens, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    bool toLds = mnemonic.starts_with("global_load_lds") ||
                 llvm::any_of(tokens, [](StringRef t) { return t == "lds"; });
    return toLds ? InstructionClass::GlobalLoadToLds
                 : InstructionClass::GlobalLoad;
  }
  if (startsWithAny({"buffer_store", "global_store", "flat_store"}))
    return InstructionClass::GlobalStore;
  if (startsWithAny({"buffer_atomic", "global_atomic", "flat_atomic"}))
    return InstructionClass::GlobalAtomic;
  if (mnemonic.starts_with("scratch_"))
    return InstructionClass::Scratch;
  if (mnemonic == "s_barrier")
    return InstructionClass::Barrier;
  if (mnemonic.starts_with("s_waitcnt"))
    return InstructionClass::Wait;
  return InstructionClass::Other;
}

size_t KernelReport::innermostLoops() const {
  return llvm::count_if(loops,
                        [](const Loop &loop) { return loop.isInnermost(); });
}

size_t KernelReport::waterfallLoops() const {
  return llvm::count_if(loops, [](const Loop &loop) { return loop.waterfall; });
}

void InstructionCounts::add(InstructionClass kind) {
  ++instructions;
  switch (kind) {
  case InstructionClass::Mfma:
    ++mfma;
    break;
  case InstructionClass::LdsRead:
    ++ldsReads;
    break;
  case InstructionClass::LdsWrite:
    ++ldsWrites;
    break;
  case InstructionClass::LdsOther:
    ++ldsOther;
    break;
  case InstructionClass::GlobalLoadToLds:
    ++globalLoadsToLds;
    ++globalLoads;
    break;
  case InstructionClass::GlobalLoad:
    ++globalLoads;
    break;
  case InstructionClass::GlobalStore:
    ++globalStores;
    break;
  case InstructionClass::GlobalAtomic:
    ++globalAtomics;
    break;
  case InstructionClass::Scratch:
    ++scratch;
    break;
  case InstructionClass::Barrier:
    ++barriers;
    break;
  case InstructionClass::Wait:
    ++waits;
    break;
  case InstructionClass::Other:
    break;
  }
}

namespace {

/// One label or instruction of a function, in text order.
struct Entry {
  unsigned line;
  bool isLabel;
  std::string label;                 ///< for labels
  InstructionClass kind;             ///< for instructions
  std::optional<std::string> target; ///< for branches
  bool readFirstLane = false;        ///< v_readfirstlane_b32
  bool execBranch = false;           ///< s_cbranch_execnz
};

/// A function being read.
struct Function {
  std::string name;
  unsigned firstLine;
  std::vector<Entry> entries;
};

/// `s_branch L` and `s_cbranch_* L` go to L; nothing else branches to a
/// label (s_setpc_b64 and s_swappc_b64 take registers).
std::optional<std::string> branchTarget(StringRef mnemonic,
                                        StringRef operands) {
  if (mnemonic != "s_branch" && !mnemonic.starts_with("s_cbranch_"))
    return std::nullopt;
  return operands.trim().str();
}

/// The function name of a `.type NAME,@function` directive.
std::optional<StringRef> declaredFunction(StringRef directive) {
  if (!directive.consume_front(".type"))
    return std::nullopt;
  auto [name, kind] = directive.split(',');
  if (kind.trim() != "@function")
    return std::nullopt;
  return name.trim();
}

bool endsFunction(StringRef text, bool isLabel, const Function &function) {
  if (isLabel)
    return text.starts_with(".Lfunc_end");
  StringRef rest = text;
  return rest.consume_front(".size") &&
         rest.trim().starts_with(function.name + ",");
}

InstructionCounts countRange(const std::vector<Entry> &entries, size_t begin,
                             size_t end) {
  InstructionCounts counts;
  for (size_t i = begin; i < end; ++i)
    if (!entries[i].isLabel)
      counts.add(entries[i].kind);
  return counts;
}

/// Is `a` a better hot loop than `b`? Loops with as many MFMAs and as many
/// barriers, or as many MFMAs and vector memory instructions, are versions
/// of one loop: the steady state without bounds checks or masks and the
/// checked iterations (hk-peel-bounds; a checked copy may load its edge
/// columns element by element, so it can hold more vector memory
/// instructions). The steady state, with fewer instructions, is the one
/// that runs.
bool hotter(const InstructionCounts &a, const InstructionCounts &b) {
  if (a.mfma != b.mfma)
    return a.mfma > b.mfma;
  if (a.barriers == b.barriers && a.mfma > 0)
    return a.instructions < b.instructions;
  if (a.vectorMemory() != b.vectorMemory())
    return a.vectorMemory() > b.vectorMemory();
  return a.instructions < b.instructions;
}

/// Does `inner` lie within `outer` (and is not `outer` itself)?
bool isNestedIn(const Loop &inner, const Loop &outer) {
  return inner.branchLine > outer.headerLine &&
         inner.branchLine < outer.branchLine;
}

/// KernelReport::hotLoop's rule.
std::optional<size_t> chooseHotLoop(const std::vector<Loop> &loops) {
  bool anyMfma = llvm::any_of(
      loops, [](const Loop &loop) { return loop.counts.mfma > 0; });
  auto isCandidate = [&](const Loop &loop) {
    if (!anyMfma)
      return loop.isInnermost();
    return loop.counts.mfma > 0 && llvm::none_of(loops, [&](const Loop &inner) {
             return inner.counts.mfma > 0 && isNestedIn(inner, loop);
           });
  };
  std::optional<size_t> hot;
  for (auto [index, loop] : llvm::enumerate(loops))
    if (isCandidate(loop) && (!hot || hotter(loop.counts, loops[*hot].counts)))
      hot = index;
  return hot;
}

llvm::Expected<KernelReport> analyzeFunction(const Function &function,
                                             unsigned lastLine) {
  KernelReport report;
  report.name = function.name;
  report.firstLine = function.firstLine;
  report.lastLine = lastLine;
  const std::vector<Entry> &entries = function.entries;
  report.whole = countRange(entries, 0, entries.size());

  llvm::StringMap<size_t> labels;
  for (auto [index, entry] : llvm::enumerate(entries))
    if (entry.isLabel)
      labels[entry.label] = index;

  // (label index, branch index) of every backward branch.
  std::vector<std::pair<size_t, size_t>> backward;
  for (auto [index, entry] : llvm::enumerate(entries)) {
    if (entry.isLabel || !entry.target)
      continue;
    auto it = labels.find(*entry.target);
    if (it == labels.end())
      return llvm::createStringError(
          llvm::formatv("line {0}: branch to '{1}', which function '{2}' "
                        "does not define",
                        entry.line, *entry.target, function.name)
              .str());
    if (it->second < index)
      backward.push_back({it->second, index});
  }
  for (const std::pair<size_t, size_t> &range : backward) {
    size_t label = range.first, branch = range.second;
    unsigned nested = llvm::count_if(backward, [&](const auto &other) {
      return other.second > label && other.second < branch;
    });
    bool readsFirstLane =
        std::any_of(entries.begin() + label + 1, entries.begin() + branch,
                    [](const Entry &entry) { return entry.readFirstLane; });
    report.loops.push_back(Loop{entries[label].label, entries[label].line,
                                entries[branch].line, nested,
                                entries[branch].execBranch && readsFirstLane,
                                countRange(entries, label + 1, branch + 1)});
  }
  report.hotLoop = chooseHotLoop(report.loops);
  return report;
}

/// The text of a line without its `;` comment.
StringRef withoutComment(StringRef line) { return line.split(';').first; }

} // namespace

llvm::Expected<std::vector<KernelReport>>
hk::target::analyzeAssembly(StringRef assembly) {
  std::vector<KernelReport> reports;
  llvm::StringSet<> declared;
  std::optional<Function> current;
  unsigned lastInstructionLine = 0;
  unsigned lineNumber = 0;

  auto finish = [&]() -> llvm::Error {
    auto report = analyzeFunction(*current, lastInstructionLine);
    current.reset();
    if (!report)
      return report.takeError();
    reports.push_back(std::move(*report));
    return llvm::Error::success();
  };

  llvm::SmallVector<StringRef> lines;
  assembly.split(lines, '\n');
  for (StringRef rawLine : lines) {
    ++lineNumber;
    StringRef text = withoutComment(rawLine).trim();
    if (text.empty())
      continue;
    bool isLabel = !llvm::isSpace(rawLine.front()) && text.ends_with(":");
    StringRef label = isLabel ? text.drop_back() : StringRef();

    if (current && endsFunction(text, isLabel, *current))
      if (llvm::Error error = finish())
        return std::move(error);
    if (isLabel && declared.contains(label)) {
      if (current)
        if (llvm::Error error = finish())
          return std::move(error);
      current = Function{label.str(), lineNumber, {}};
      continue;
    }
    if (text.starts_with(".")) {
      if (!isLabel) {
        if (std::optional<StringRef> name = declaredFunction(text))
          declared.insert(*name);
        continue;
      }
    }
    if (!current)
      continue;
    if (isLabel) {
      current->entries.push_back(
          Entry{lineNumber, true, label.str(), InstructionClass::Other, {}});
      continue;
    }
    auto [mnemonic, operands] = text.split(' ');
    mnemonic = mnemonic.split('\t').first;
    operands = text.drop_front(mnemonic.size()).trim();
    current->entries.push_back(Entry{lineNumber, false, "",
                                     classifyInstruction(mnemonic, operands),
                                     branchTarget(mnemonic, operands),
                                     mnemonic.starts_with("v_readfirstlane"),
                                     mnemonic == "s_cbranch_execnz"});
    lastInstructionLine = lineNumber;
  }
  if (current)
    return llvm::createStringError(
        "function '" + current->name +
        "' does not end (no .Lfunc_end label or .size directive)");
  return reports;
}

namespace {

std::string share(int64_t part, int64_t whole) {
  if (whole == 0)
    return "-";
  return llvm::formatv("{0:F1}%", 100.0 * part / whole).str();
}

void printCounts(llvm::raw_ostream &os, const InstructionCounts &c,
                 StringRef per) {
  os << llvm::formatv("  {0}: {1} instructions, {2} mfma ({3})\n", per,
                      c.instructions, c.mfma, share(c.mfma, c.instructions));
  os << llvm::formatv("    lds:     {0} reads, {1} writes, {2} other ds\n",
                      c.ldsReads, c.ldsWrites, c.ldsOther);
  os << llvm::formatv("    global:  {0} loads ({1} to lds), {2} stores, {3} "
                      "atomics\n",
                      c.globalLoads, c.globalLoadsToLds, c.globalStores,
                      c.globalAtomics);
  os << llvm::formatv("    sync:    {0} s_barrier, {1} s_waitcnt\n", c.barriers,
                      c.waits);
  os << llvm::formatv("    scratch: {0} loads/stores\n", c.scratch);
}

void printResources(llvm::raw_ostream &os, const KernelResources &r,
                    const hk::ChipInfo &chip) {
  Occupancy occupancy = computeOccupancy(r, chip);
  StringRef bound = r.ldsBytes > 0 && occupancy.byLds < occupancy.byRegisters
                        ? "lds"
                        : "registers";
  os << llvm::formatv("  resources: {0} vgpr, {1} agpr, {2} sgpr, {3} lds "
                      "bytes, {4} scratch bytes, {5} spills, {6} waves/SIMD "
                      "(limited by {7})\n",
                      r.archVgprs(), r.agprs, r.sgprs, r.ldsBytes,
                      r.scratchBytes, r.vgprSpills + r.sgprSpills,
                      occupancy.wavesPerSimd, bound);
}

} // namespace

void hk::target::printReport(llvm::raw_ostream &os, const hk::ChipInfo &chip,
                             llvm::ArrayRef<KernelReport> kernels,
                             llvm::ArrayRef<KernelResources> resources) {
  os << "code-quality report for " << chip.name
     << " (static counts from the assembly, see docs/report.md)\n";
  for (const KernelReport &kernel : kernels) {
    os << kernel.name << ": ";
    if (kernel.hotLoop) {
      const Loop &loop = kernel.loops[*kernel.hotLoop];
      os << llvm::formatv("hot loop {0}, assembly lines {1}-{2} (of {3} "
                          "loops, {4} innermost)\n",
                          loop.header, loop.headerLine, loop.branchLine,
                          kernel.loops.size(), kernel.innermostLoops());
      if (!loop.isInnermost())
        os << llvm::formatv("  the hot loop holds {0} nested loops, each "
                            "counted once\n",
                            loop.nestedLoops);
      printCounts(os, loop.counts, "per iteration");
    } else {
      os << llvm::formatv("no loop, whole kernel, assembly lines {0}-{1}\n",
                          kernel.firstLine, kernel.lastLine);
      printCounts(os, kernel.whole, "whole kernel");
    }
    const KernelResources *match =
        llvm::find_if(resources, [&](const KernelResources &r) {
          return r.name == kernel.name;
        });
    if (match != resources.end())
      printResources(os, *match, chip);
    else
      os << "  resources: not in the code object's metadata\n";
    os << llvm::formatv("  waterfall loops: {0}\n", kernel.waterfallLoops());
  }
}
