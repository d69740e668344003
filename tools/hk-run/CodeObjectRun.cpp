//===- CodeObjectRun.cpp - hk-run --code-object ---------------------------===//
//
// Runs one kernel of any AMDGPU code object (an ELF that HIP would load, such
// as one clang compiled from HipKittens C++) on the ISA simulator through
// the runtime's raw code-object API (hkrt_module_load_code_object), with a
// kernarg segment built item by item from the command line and buffers read
// from and written to .npy files. Nothing about the kernel is assumed: the
// caller says the grid, the block, the dynamic LDS bytes and the bytes of the
// kernarg segment, which must add up to the kernel descriptor's kernarg size.
//===----------------------------------------------------------------------===//

#include "CodeObjectRun.h"
#include "LaunchOnly.h"
#include "Npy.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"
#include "hk/Runtime/hkrt.hpp"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
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

/// A device buffer of the launch and the .npy array it was read from (or
/// an empty one for zeros:N).
struct Buffer {
  NpyArray array;
  hkrt::Buffer device;
};

void checkOptions(const CodeObjectOptions &o) {
  if (o.chip.empty())
    throw std::invalid_argument("--code-object needs --chip " +
                                hk::supportedChipNames());
  if (o.kernel.empty())
    throw std::invalid_argument("--code-object needs --kernel SYMBOL");
  if (!o.kernarg)
    throw std::invalid_argument(
        "--code-object needs --kernarg ITEM,... (use --kernarg '' for a "
        "kernel without arguments)");
}

/// The kernarg segment of a launch, built item by item at each item's
/// natural alignment, and the device buffers its pointers point to.
class KernargBuilder {
public:
  explicit KernargBuilder(hkrt::Device &device) : device(device) {}

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

  /// Every buffer, the memory the kernel may touch besides the segment.
  std::vector<hkrt_buffer> handles() const {
    std::vector<hkrt_buffer> h;
    for (const Buffer &b : buffers)
      h.push_back(b.device.get());
    return h;
  }

  std::vector<char> kernarg;
  std::vector<Buffer> buffers;
  /// Per item, its buffer in `buffers`, or -1 for an item that is none.
  std::vector<int> bufferOfItem;

private:
  size_t place(const void *bytes, size_t n, size_t align) {
    while (kernarg.size() % align)
      kernarg.push_back(0);
    size_t at = kernarg.size();
    kernarg.resize(at + n);
    std::memcpy(kernarg.data() + at, bytes, n);
    return at;
  }

  /// A pointer to a new device buffer: the contents of the .npy file
  /// `value` (`fromFile`), or `value` zero bytes (the device zeroes it).
  size_t addBuffer(bool fromFile, const std::string &value,
                   const std::string &label) {
    NpyArray array;
    if (fromFile)
      array = readNpyFile(value);
    size_t bytes = fromFile ? array.data.size()
                            : size_t(parseUnsigned(label, value, 1ull << 40));
    hkrt::Buffer b = device.alloc(bytes);
    if (fromFile)
      b.write(array.data.data(), bytes);
    uint64_t address = b.address();
    size_t at = place(&address, 8, 8);
    bufferOfItem.back() = int(buffers.size());
    buffers.push_back({std::move(array), std::move(b)});
    return at;
  }

  hkrt::Device &device;
};

/// Builds the kernarg segment from the --kernarg items, printing each
/// item's offset, and checks its size against the kernel descriptor's.
void buildKernarg(const CodeObjectOptions &o,
                  const hkrt_code_object_kernel &info,
                  KernargBuilder &kernarg) {
  std::vector<std::string> items =
      o.kernarg->empty() ? std::vector<std::string>{} : split(*o.kernarg, ',');
  for (size_t i = 0; i < items.size(); ++i) {
    size_t at = kernarg.add(i, items[i]);
    std::printf("kernarg:   [%zu] offset %zu: %s\n", i, at, items[i].c_str());
  }
  if (kernarg.kernarg.size() != info.kernarg_bytes)
    throw std::invalid_argument("--kernarg: the items make " +
                                std::to_string(kernarg.kernarg.size()) +
                                " bytes; the kernel descriptor of " + o.kernel +
                                " says its kernarg segment is " +
                                std::to_string(info.kernarg_bytes) + " bytes");
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// A number of the timing report's JSON.
double reportNumber(const llvm::json::Object &report, llvm::StringRef key) {
  std::optional<double> v = report.getNumber(key);
  if (!v)
    throw std::runtime_error("the timing report has no number '" + key.str() +
                             "'");
  return *v;
}

/// --timing: the cycle model's report instead of a run of the whole grid.
void runTimedLaunch(const CodeObjectOptions &o, hkrt::Device &device,
                    hkrt::CodeObject &code, const hkrt_dispatch &dispatch,
                    const KernargBuilder &kernarg) {
  auto start = std::chrono::steady_clock::now();
  device.setTiming(true, o.trace);
  code.launch(o.kernel, dispatch, kernarg.kernarg, kernarg.handles());
  std::string json = device.timingReport();
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    throw std::runtime_error("the timing report is not JSON: " +
                             llvm::toString(parsed.takeError()));
  const llvm::json::Object *report = parsed->getAsObject();
  if (!report)
    throw std::runtime_error("the timing report is not a JSON object");
  std::fputs(device.timingText().c_str(), stdout);
  std::printf("TIMING %s\n", json.c_str());
  std::printf("TIMED %s %s isa: %.2f us modelled, %.1f TFLOP/s, host time "
              "%.3f s\n",
              o.kernel.c_str(), o.chip.c_str(),
              reportNumber(*report, "microseconds"),
              reportNumber(*report, "tflops"), secondsSince(start));
}

void runLaunch(const CodeObjectOptions &o, hkrt::CodeObject &code,
               const hkrt_dispatch &dispatch, const KernargBuilder &kernarg) {
  auto start = std::chrono::steady_clock::now();
  try {
    code.launch(o.kernel, dispatch, kernarg.kernarg, kernarg.handles());
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
    b.device.read(b.array.data.data(), b.array.data.size());
    writeNpyFile(save.substr(eq + 1), b.array);
    std::printf("saved:     [%zu] to %s\n", item, save.substr(eq + 1).c_str());
  }
}

} // namespace

int hk::run::runCodeObject(const CodeObjectOptions &o) {
  checkOptions(o);
  hkrt::Device device = hkrt::Device::isa(o.chip);
  std::string elf = readFile(o.path);
  hkrt::CodeObject code = device.loadCodeObject(elf.data(), elf.size());
  hkrt_code_object_kernel info = code.kernelInfo(o.kernel);

  hkrt_dispatch dispatch{};
  std::array<uint32_t, 3> grid = parseDims("--grid", o.grid);
  std::array<uint32_t, 3> block = parseDims("--block", o.block);
  std::copy(grid.begin(), grid.end(), dispatch.grid);
  std::copy(block.begin(), block.end(), dispatch.block);
  dispatch.dynamic_lds_bytes =
      uint32_t(parseUnsigned("--lds", o.lds.empty() ? "0" : o.lds, UINT32_MAX));
  std::printf("kernel:    %s (%s in %s)\n", o.kernel.c_str(), o.chip.c_str(),
              o.path.c_str());
  KernargBuilder kernarg(device);
  buildKernarg(o, info, kernarg);
  std::printf("launch:    grid %u,%u,%u block %u,%u,%u, LDS %u static + %u "
              "dynamic bytes\n",
              grid[0], grid[1], grid[2], block[0], block[1], block[2],
              info.lds_bytes, dispatch.dynamic_lds_bytes);
  std::fflush(stdout);
  if (o.timing) {
    runTimedLaunch(o, device, code, dispatch, kernarg);
    return 0;
  }
  runLaunch(o, code, dispatch, kernarg);
  saveBuffers(o, kernarg);
  return 0;
}
