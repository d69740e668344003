//===- hk-chips.cpp - prints the chip table -------------------------------===//
//
// The supported chips as the table of hk/Base/Chip.h has them, for what
// cannot include it: CMake (cmake/HKChips.cmake builds and runs this file at
// configure time), lit's configuration and the scripts. Plain C++ over
// lib/Base/Chip.cpp alone, so that configure can compile it without LLVM.
//===----------------------------------------------------------------------===//

#include "hk/Base/Chip.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static const char *kUsage =
    R"(usage: hk-chips [--join SEP | --table]
  (none)      the supported chips, one a line
  --join SEP  the supported chips on one line, separated by SEP
  --table     one line per chip: name, CDNA family, HipKittens tree
              (cdna3, main or none), LDS bytes, lanes per wave
)";

int main(int argc, char **argv) {
  std::vector<std::string> chips = hk::supportedChips();
  if (argc == 1) {
    for (const std::string &chip : chips)
      std::printf("%s\n", chip.c_str());
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--join") == 0) {
    std::string line;
    for (const std::string &chip : chips)
      line += (line.empty() ? "" : argv[2]) + chip;
    std::printf("%s\n", line.c_str());
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--table") == 0) {
    for (const std::string &name : chips) {
      const hk::ChipInfo &chip = *hk::lookupChip(name);
      std::printf("%s %s %s %lld %lld\n", chip.name, chip.family,
                  hk::hipKittensTreeName(chip.hipKittens),
                  (long long)chip.ldsBytes, (long long)chip.waveSize);
    }
    return 0;
  }
  std::fputs(kUsage, argc == 2 && (std::strcmp(argv[1], "--help") == 0 ||
                                   std::strcmp(argv[1], "-h") == 0)
                         ? stdout
                         : stderr);
  return argc == 2 && std::strcmp(argv[1], "--help") == 0 ? 0 : 2;
}
