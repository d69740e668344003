//===- ReplayMain.cpp - a fuzz target's inputs, run once each -------------===//
//
// The main of a fuzz target outside the libFuzzer build: each argument is an
// input file, or a directory whose regular files (in name order) are inputs,
// and each input goes through LLVMFuzzerTestOneInput once. The suite runs
// fuzz/regressions this way (test/Fuzz), so an input that once crashed a
// target is replayed by every build, not only the sanitizer build.
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);

namespace fs = std::filesystem;

namespace {

/// The input files an argument names, or an empty list (with a message) if
/// it names nothing readable.
std::vector<fs::path> inputsOf(const fs::path &arg) {
  std::error_code ec;
  if (!fs::is_directory(arg, ec))
    return {arg};
  std::vector<fs::path> files;
  for (const fs::directory_entry &e : fs::directory_iterator(arg, ec))
    if (e.is_regular_file(ec))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

bool replay(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "error: cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(),
               bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                         bytes.size());
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  size_t count = 0;
  bool ok = true;
  for (int i = 1; i < argc; ++i)
    for (const fs::path &p : inputsOf(argv[i])) {
      ok = replay(p) && ok;
      ++count;
    }
  std::fprintf(stderr, "replayed %zu inputs\n", count);
  return ok && count ? 0 : 1;
}
