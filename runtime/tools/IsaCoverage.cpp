//===- IsaCoverage.cpp - the ISA simulator's opcode coverage --------------===//
//
//   hk-isa-coverage [--chip gfx942,gfx950] [--missing] [--all]
//                   [--write-missing PREFIX] [--random N] [--seed S]
//   hk-isa-coverage --opcodes-of FILE... [--chip gfx9xx]
//
// The first form sweeps each chip's encodings through LLVM's AMDGPU
// disassembler and prints, per family, how many of the opcodes found the
// simulator runs; it ends with "coverage: gfx942 X%, gfx950 Y%" (of the
// opcodes not excluded). The second lists the opcodes of code objects
// (.hsaco, or every code object of a .hkrt artifact) the simulator cannot
// run, and exits with status 1 if there is any.
//===----------------------------------------------------------------------===//

#include "isa/Coverage.h"

#include "hk/Base/Artifact.h"
#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace hk::rt;
using namespace hk::rt::isa;

namespace {

struct Options {
  std::vector<std::string> chips;
  bool missing = false, all = false;
  std::string writeMissing;
  std::vector<std::string> opcodesOf;
  SweepOptions sweep;
};

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(HKRT_ERROR_NOT_FOUND, "cannot open '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> splitCommas(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

const char *usage =
    "usage: hk-isa-coverage [--chip CHIP,...] [--missing] [--all]\n"
    "                       [--write-missing PREFIX] [--random N] [--seed S]\n"
    "       hk-isa-coverage --opcodes-of FILE... [--chip gfx9xx]\n";

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw Error(HKRT_ERROR_INVALID_ARGUMENT, "missing value for " + a);
      return argv[++i];
    };
    if (a == "--chip")
      o.chips = splitCommas(value());
    else if (a == "--missing")
      o.missing = true;
    else if (a == "--all")
      o.all = true;
    else if (a == "--write-missing")
      o.writeMissing = value();
    else if (a == "--random")
      o.sweep.randomEncodings = std::stoull(value());
    else if (a == "--seed")
      o.sweep.seed = std::stoull(value());
    else if (a == "--opcodes-of") {
      o.opcodesOf.push_back(value());
      while (i + 1 < argc && argv[i + 1][0] != '-')
        o.opcodesOf.push_back(argv[++i]);
    } else if (a == "--help" || a == "-h") {
      fputs(usage, stdout);
      exit(0);
    } else
      throw Error(HKRT_ERROR_INVALID_ARGUMENT, "unknown option " + a);
  }
  if (o.chips.empty() && o.opcodesOf.empty())
    o.chips = hk::supportedChips();
  return o;
}

/// Covered and counted opcodes of one family on one chip.
struct Count {
  unsigned covered = 0, total = 0, excluded = 0;
};

/// One table row: the first cell 8 wide, the others 16, no trailing blanks.
void printRow(const std::string &first, const std::vector<std::string> &cells) {
  std::string line = first;
  line.resize(std::max<size_t>(line.size(), 8), ' ');
  for (const std::string &cell : cells) {
    line += "  " + cell;
    line.resize(std::max<size_t>(line.size(), line.size() - cell.size() + 16),
                ' ');
  }
  line.erase(line.find_last_not_of(' ') + 1);
  printf("%s\n", line.c_str());
}

/// "covered / total", "-" for none, and "(+N)" for N excluded.
std::string cellOf(const Count &c) {
  std::string cell =
      c.total ? std::to_string(c.covered) + " / " + std::to_string(c.total)
              : "-";
  if (c.excluded)
    cell += " (+" + std::to_string(c.excluded) + ")";
  return cell;
}

void printTable(const std::vector<std::string> &chips,
                const std::vector<std::vector<OpcodeCoverage>> &results) {
  printRow("family", chips);
  std::vector<Count> totals(chips.size());
  for (const std::string &family : coverageFamilies()) {
    std::vector<Count> counts(chips.size());
    bool any = false;
    for (size_t k = 0; k < chips.size(); ++k)
      for (const OpcodeCoverage &c : results[k]) {
        if (c.family != family)
          continue;
        any = true;
        if (!c.excluded.empty()) {
          ++counts[k].excluded;
          continue;
        }
        ++counts[k].total;
        counts[k].covered += c.covered;
      }
    if (!any)
      continue;
    std::vector<std::string> cells;
    for (size_t k = 0; k < chips.size(); ++k) {
      cells.push_back(cellOf(counts[k]));
      totals[k].covered += counts[k].covered;
      totals[k].total += counts[k].total;
    }
    printRow(family, cells);
  }
  std::vector<std::string> cells;
  for (const Count &t : totals)
    cells.push_back(cellOf(t));
  printRow("total", cells);
  printf("(+N): N opcodes of the family excluded, not counted\n");
}

/// The exclusions, each with its opcode count per chip.
void printExclusions(const std::vector<std::string> &chips,
                     const std::vector<std::vector<OpcodeCoverage>> &results) {
  std::map<std::string, std::vector<unsigned>> reasons;
  for (size_t k = 0; k < chips.size(); ++k)
    for (const OpcodeCoverage &c : results[k])
      if (!c.excluded.empty()) {
        auto &n = reasons[c.excluded];
        n.resize(chips.size());
        ++n[k];
      }
  printf("excluded:\n");
  for (const auto &[reason, n] : reasons) {
    printf("  %s:", reason.c_str());
    for (size_t k = 0; k < chips.size(); ++k)
      printf(" %s %u", chips[k].c_str(), n[k]);
    printf("\n");
  }
}

/// Uncovered opcodes, one family to a paragraph.
void printMissing(const std::string &chip,
                  const std::vector<OpcodeCoverage> &result, bool all) {
  printf("%s %s:\n", all ? "opcodes of" : "missing on", chip.c_str());
  for (const OpcodeCoverage &c : result) {
    if (!all && (c.covered || !c.excluded.empty()))
      continue;
    std::string note = c.covered ? "covered" : c.why;
    if (!c.excluded.empty())
      note = "excluded: " + c.excluded;
    if (c.random)
      note += " [random sweep only]";
    printf("  %-8s %-44s %s\n", c.family.c_str(), c.name.c_str(), note.c_str());
  }
}

void writeMissing(const std::string &path,
                  const std::vector<OpcodeCoverage> &result) {
  std::ofstream out(path);
  if (!out)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "cannot write '" + path + "'");
  for (const OpcodeCoverage &c : result) {
    if (c.covered || !c.excluded.empty())
      continue;
    out << c.name << " " << c.family;
    // A handler that exists but refuses the typical operand form.
    if (c.why.rfind("instruction ", 0) != 0)
      out << "  # " << c.why;
    out << "\n";
  }
}

int coverage(const Options &o) {
  std::vector<std::vector<OpcodeCoverage>> results;
  for (const std::string &chip : o.chips)
    results.push_back(opcodeCoverage(chip, o.sweep));
  printTable(o.chips, results);
  for (size_t k = 0; k < o.chips.size(); ++k) {
    if (o.missing || o.all)
      printMissing(o.chips[k], results[k], o.all);
    if (!o.writeMissing.empty())
      writeMissing(o.writeMissing + "-" + o.chips[k] + ".txt", results[k]);
  }
  printExclusions(o.chips, results);
  printf("coverage:");
  for (size_t k = 0; k < o.chips.size(); ++k) {
    unsigned covered = 0, total = 0;
    for (const OpcodeCoverage &c : results[k])
      if (c.excluded.empty()) {
        ++total;
        covered += c.covered;
      }
    printf("%s %s %.1f%%", k ? "," : "", o.chips[k].c_str(),
           total ? 100.0 * covered / total : 0.0);
  }
  printf("\n");
  return 0;
}

/// The chip an AMDGPU ELF was linked for (EF_AMDGPU_MACH in e_flags).
std::string chipOfElf(const std::string &elf) {
  uint32_t flags = 0;
  if (elf.size() >= 52)
    memcpy(&flags, elf.data() + 48, 4);
  const hk::ChipInfo *chip = hk::lookupChipByElfMach(flags & 0xFF);
  return chip ? chip->name : "";
}

/// Prints the unsimulated opcodes of one code object; true if it has any.
bool reportCodeObject(const std::string &file, const std::string &chip,
                      const std::string &elf) {
  size_t total = 0;
  std::vector<Unsimulated> missing = unsimulatedInstructions(elf, chip, total);
  if (missing.empty()) {
    printf("%s %s: all %zu instructions simulated\n", file.c_str(),
           chip.c_str(), total);
    return false;
  }
  std::map<std::string, std::vector<const Unsimulated *>> byOpcode;
  for (const Unsimulated &u : missing)
    byOpcode[u.opcode].push_back(&u);
  printf("%s %s: %zu of %zu instructions not simulated (%zu opcodes)\n",
         file.c_str(), chip.c_str(), missing.size(), total, byOpcode.size());
  for (const auto &[opcode, uses] : byOpcode)
    printf("  %s: %zu use%s, first at pc 0x%llx: %s (%s)\n", opcode.c_str(),
           uses.size(), uses.size() == 1 ? "" : "s",
           (unsigned long long)uses[0]->pc, uses[0]->text.c_str(),
           uses[0]->why.c_str());
  return true;
}

int opcodesOf(const Options &o) {
  std::set<std::string> chips(o.chips.begin(), o.chips.end());
  bool any = false;
  for (const std::string &file : o.opcodesOf) {
    std::string bytes = readFile(file);
    if (bytes.compare(0, 4, "\177ELF") == 0) {
      std::string chip = chipOfElf(bytes);
      if (o.chips.size() == 1)
        chip = o.chips.front();
      if (chip.empty())
        throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                    file + ": give the code object's chip with --chip");
      any |= reportCodeObject(file, chip, bytes);
      continue;
    }
    Artifact artifact = readArtifact(bytes.data(), bytes.size());
    for (const auto &[chip, elf] : artifact.codeObjects)
      if (chips.empty() || chips.count(chip))
        any |= reportCodeObject(file, chip, elf);
  }
  return any ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    Options o = parse(argc, argv);
    return o.opcodesOf.empty() ? coverage(o) : opcodesOf(o);
  } catch (const std::exception &e) {
    fprintf(stderr, "hk-isa-coverage: error: %s\n", e.what());
    return 2;
  }
}
