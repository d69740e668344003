//===- CodeObjectRun.cpp - hk-run --code-object ---------------------------===//
//
// Runs one kernel of any AMDGPU code object (an ELF that HIP would load, such
// as one clang compiled from HipKittens C++) on the ISA simulator, with a
// kernarg segment built item by item from the command line and buffers read
// from and written to .npy files. Nothing about the kernel is assumed: the
// caller says the grid, the block, the dynamic LDS bytes and the bytes of the
// kernarg segment, which must add up to the kernel descriptor's kernarg size.
//===----------------------------------------------------------------------===//

#include "CodeObjectRun.h"
#include "LaunchOnly.h"
#include "Npy.h"

#include "isa/IsaSimulator.h"
#include "isa/Timing.h"

#include "hk/Base/Error.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

using namespace hk::run;

namespace {

uint64_t parseUnsigned(const std::string &what, const std::string &text,
                       uint64_t max) {
  bool digits = !text.empty();
  for (char c : text)
    digits = digits && c >= '0' && c <= '9';
  errno = 0;
  unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || v > max)
    throw std::invalid_argument(what + ": '" + text +
                                "' is not an integer in [0, " +
                                std::to_string(max) + "]");
  return v;
}

std::array<uint32_t, 3> parseDims(const std::string &what,
                                  const std::string &text) {
  std::vector<std::string> items = split(text, ',');
  if (items.empty() || items.size() > 3)
    throw std::invalid_argument(what + ": expected X[,Y[,Z]], got '" + text +
                                "'");
  std::array<uint32_t, 3> dims{1, 1, 1};
  for (size_t i = 0; i < items.size(); ++i) {
    dims[i] = uint32_t(parseUnsigned(what, items[i], UINT16_MAX));
    if (dims[i] == 0)
      throw std::invalid_argument(what + ": a size of 0 in '" + text + "'");
  }
  return dims;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::invalid_argument("cannot read '" + path + "'");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};

/// A device buffer of the launch: 256-byte aligned host memory.
struct Buffer {
  NpyArray array;
  std::unique_ptr<void, FreeDeleter> data;
  size_t bytes = 0;
};

void checkOptions(const CodeObjectOptions &o) {
  if (o.chip.empty())
    throw std::invalid_argument("--code-object needs --chip gfx942|gfx950");
  if (o.kernel.empty())
    throw std::invalid_argument("--code-object needs --kernel SYMBOL");
  if (!o.kernarg)
    throw std::invalid_argument(
        "--code-object needs --kernarg ITEM,... (use --kernarg '' for a "
        "kernel without arguments)");
}

/// The kernarg segment of `launch`, built item by item at each item's
/// natural alignment, and the buffers its pointers point to.
class KernargBuilder {
public:
  explicit KernargBuilder(hk::rt::isa::Launch &launch) : launch(launch) {}

  /// Appends --kernarg item `index`; returns its offset.
  size_t add(size_t index, const std::string &item) {
    size_t colon = item.find(':');
    std::string kind = item.substr(0, colon);
    std::string value =
        colon == std::string::npos ? "" : item.substr(colon + 1);
    std::string label =
        "--kernarg item " + std::to_string(index) + " '" + item + "'";
    bufferOfItem.push_back(-1);
    if (kind == "ptr" || kind == "zeros")
      return addBuffer(kind == "ptr", value, label);
    if (kind == "u64") {
      uint64_t v = parseUnsigned(label, value, UINT64_MAX);
      return place(&v, 8, 8);
    }
    if (kind == "u32") {
      uint32_t v = uint32_t(parseUnsigned(label, value, UINT32_MAX));
      return place(&v, 4, 4);
    }
    if (kind == "pad") {
      size_t n = parseUnsigned(label, value, 4096);
      std::vector<char> zeros(n, 0);
      return place(zeros.data(), n, 1);
    }
    throw std::invalid_argument(label +
                                ": expected ptr:FILE.npy, zeros:N, u64:V, "
                                "u32:V or pad:N");
  }

  std::vector<Buffer> buffers;
  /// Per item, its buffer in `buffers`, or -1 for an item that is none.
  std::vector<int> bufferOfItem;

private:
  size_t place(const void *bytes, size_t n, size_t align) {
    while (launch.kernarg.size() % align)
      launch.kernarg.push_back(0);
    size_t at = launch.kernarg.size();
    launch.kernarg.resize(at + n);
    std::memcpy(launch.kernarg.data() + at, bytes, n);
    return at;
  }

  /// A pointer to a new buffer: the contents of the .npy file `value`
  /// (`fromFile`), or `value` zero bytes.
  size_t addBuffer(bool fromFile, const std::string &value,
                   const std::string &label) {
    Buffer b;
    if (fromFile)
      b.array = readNpyFile(value);
    b.bytes = fromFile ? b.array.data.size()
                       : size_t(parseUnsigned(label, value, 1ull << 40));
    b.data.reset(std::aligned_alloc(256, (b.bytes + 255) / 256 * 256 + 256));
    if (!b.data)
      throw std::bad_alloc();
    if (fromFile)
      std::memcpy(b.data.get(), b.array.data.data(), b.bytes);
    else
      std::memset(b.data.get(), 0, b.bytes);
    uint64_t address = reinterpret_cast<uint64_t>(b.data.get());
    size_t at = place(&address, 8, 8);
    bufferOfItem.back() = int(buffers.size());
    launch.memory.push_back({address, address + b.bytes});
    buffers.push_back(std::move(b));
    return at;
  }

  hk::rt::isa::Launch &launch;
};

/// Builds the kernarg segment of `launch` from the --kernarg items, printing
/// each item's offset, and checks its size against the kernel descriptor's.
void buildKernarg(const CodeObjectOptions &o,
                  const hk::rt::isa::KernelDescriptor &kd,
                  hk::rt::isa::Launch &launch, KernargBuilder &kernarg) {
  std::vector<std::string> items =
      o.kernarg->empty() ? std::vector<std::string>{} : split(*o.kernarg, ',');
  for (size_t i = 0; i < items.size(); ++i) {
    size_t at = kernarg.add(i, items[i]);
    std::printf("kernarg:   [%zu] offset %zu: %s\n", i, at, items[i].c_str());
  }
  if (launch.kernarg.size() != kd.kernargSize)
    throw std::invalid_argument("--kernarg: the items make " +
                                std::to_string(launch.kernarg.size()) +
                                " bytes; the kernel descriptor of " + o.kernel +
                                " says its kernarg "
                                "segment is " +
                                std::to_string(kd.kernargSize) + " bytes");
  std::sort(
      launch.memory.begin(), launch.memory.end(),
      [](const hk::rt::isa::MemoryRange &a, const hk::rt::isa::MemoryRange &b) {
        return a.begin < b.begin;
      });
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// --timing: the cycle model's report instead of a run of the whole grid.
void runTimedLaunch(const CodeObjectOptions &o,
                    const hk::rt::isa::CodeObject &code,
                    const hk::rt::isa::Launch &launch) {
  auto start = std::chrono::steady_clock::now();
  hk::rt::isa::TimingOptions t;
  t.tracePath = o.trace;
  hk::rt::isa::TimingReport r = hk::rt::isa::runTimed(code, launch, t);
  std::fputs(r.text().c_str(), stdout);
  std::printf("TIMING %s\n", r.json().c_str());
  std::printf("TIMED %s %s isa: %.2f us modelled, %.1f TFLOP/s, host time "
              "%.3f s\n",
              o.kernel.c_str(), o.chip.c_str(), r.microseconds, r.tflops,
              secondsSince(start));
}

void runLaunch(const CodeObjectOptions &o, const hk::rt::isa::CodeObject &code,
               const hk::rt::isa::Launch &launch) {
  auto start = std::chrono::steady_clock::now();
  try {
    hk::rt::isa::run(code, launch);
  } catch (...) {
    std::printf("FAULT %s\n", o.kernel.c_str());
    std::fflush(stdout);
    throw;
  }
  std::printf("LAUNCHED %s %s isa: time %.3f s\n", o.kernel.c_str(),
              o.chip.c_str(), secondsSince(start));
}

/// --save ITEM=FILE.npy: writes ptr item ITEM's buffer.
void saveBuffers(const CodeObjectOptions &o, KernargBuilder &kernarg) {
  for (const std::string &save : o.saves) {
    size_t eq = save.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("--save: expected ITEM=FILE.npy, got '" +
                                  save + "'");
    size_t item = parseUnsigned("--save", save.substr(0, eq), 1u << 20);
    if (item >= kernarg.bufferOfItem.size() || kernarg.bufferOfItem[item] < 0)
      throw std::invalid_argument("--save: --kernarg item " +
                                  save.substr(0, eq) + " is not a ptr item");
    Buffer &b = kernarg.buffers[kernarg.bufferOfItem[item]];
    std::memcpy(b.array.data.data(), b.data.get(), b.bytes);
    writeNpyFile(save.substr(eq + 1), b.array);
    std::printf("saved:     [%zu] to %s\n", item, save.substr(eq + 1).c_str());
  }
}

} // namespace

int hk::run::runCodeObject(const CodeObjectOptions &o) {
  checkOptions(o);
  auto code = hk::rt::isa::loadCodeObject(readFile(o.path), o.chip);
  const hk::rt::isa::KernelDescriptor &kd =
      hk::rt::isa::kernelDescriptor(*code, o.kernel);

  hk::rt::isa::Launch launch;
  launch.kernel = o.kernel;
  launch.grid = parseDims("--grid", o.grid);
  launch.block = parseDims("--block", o.block);
  launch.dynamicLds =
      uint32_t(parseUnsigned("--lds", o.lds.empty() ? "0" : o.lds, UINT32_MAX));
  std::printf("kernel:    %s (%s in %s)\n", o.kernel.c_str(), o.chip.c_str(),
              o.path.c_str());
  KernargBuilder kernarg(launch);
  buildKernarg(o, kd, launch, kernarg);
  std::printf("launch:    grid %u,%u,%u block %u,%u,%u, LDS %u static + %u "
              "dynamic bytes\n",
              launch.grid[0], launch.grid[1], launch.grid[2], launch.block[0],
              launch.block[1], launch.block[2], kd.groupSegmentSize,
              launch.dynamicLds);
  std::fflush(stdout);
  if (o.timing) {
    runTimedLaunch(o, *code, launch);
    return 0;
  }
  runLaunch(o, *code, launch);
  saveBuffers(o, kernarg);
  return 0;
}
