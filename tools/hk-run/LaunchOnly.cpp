//===- LaunchOnly.cpp - hk-run --launch-only ------------------------------===//
//
// The kernel's metadata (argument kinds, dtypes, ranks; the grid over
// argument sizes and scalar values) says what to build from --args: a
// buffer of seeded random contents per memref, a value per scalar. hkrt then
// checks the arguments and computes the grid as for any launch; the grid is
// also evaluated here only to print it.
//===----------------------------------------------------------------------===//

#include "LaunchOnly.h"
#include "Npy.h"

#include "hk/Base/Artifact.h"
#include "hk/Base/Chip.h"
#include "hk/Base/Formats.h"
#include "hk/Base/KernelInfo.h"
#include "hk/Runtime/Kernels.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

namespace hk::run {

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> items;
  size_t pos = 0;
  while (true) {
    size_t next = text.find(sep, pos);
    items.push_back(text.substr(
        pos, next == std::string::npos ? std::string::npos : next - pos));
    if (next == std::string::npos)
      return items;
    pos = next + 1;
  }
}

namespace {

using rt::ArgInfo;
using rt::KernelInfo;

std::string argLabel(const KernelInfo &k, size_t i) {
  return "argument " + std::to_string(i) + " '" + k.args[i].name + "'";
}

/// What the kernel takes, for an error that asks for --args.
std::string signatureText(const KernelInfo &k) {
  std::string s;
  for (const ArgInfo &a : k.args)
    s += (s.empty() ? "" : ", ") + a.name + ": " + rt::argTypeText(a);
  return s;
}

/// The range of an integer scalar of type `t`.
std::pair<int64_t, int64_t> integerRange(hkrt_dtype t) {
  switch (t) {
  case HKRT_DTYPE_BOOL:
    return {0, 1};
  case HKRT_DTYPE_I8:
    return {INT8_MIN, INT8_MAX};
  case HKRT_DTYPE_I16:
    return {INT16_MIN, INT16_MAX};
  case HKRT_DTYPE_I32:
    return {INT32_MIN, INT32_MAX};
  default:
    return {INT64_MIN, INT64_MAX};
  }
}

/// A decimal integer in [min, max], all of `text` (no space, '+', base
/// prefix or exponent).
int64_t parseInteger(const std::string &label, const std::string &text,
                     int64_t min, int64_t max) {
  size_t digits = !text.empty() && text[0] == '-' ? 1 : 0;
  bool decimal = digits < text.size() &&
                 std::all_of(
                     text.begin() + digits, text.end(),
                     [](unsigned char c) { return std::isdigit(c); });
  errno = 0;
  long long v = decimal ? std::strtoll(text.c_str(), nullptr, 10) : 0;
  if (!decimal || errno == ERANGE || v < min || v > max)
    throw std::invalid_argument(
        "--args: " + label + ": '" + text + "' is not an integer in [" +
        std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

std::vector<int64_t> parseSizes(const KernelInfo &k, size_t i,
                                const std::string &item) {
  std::vector<int64_t> sizes;
  if (!item.empty())
    for (const std::string &part : split(item, 'x'))
      sizes.push_back(parseInteger(argLabel(k, i), part, 0, INT64_MAX));
  if (int64_t(sizes.size()) != k.args[i].rank)
    throw std::invalid_argument(
        "--args: " + argLabel(k, i) + " is a " + rt::argTypeText(k.args[i]) +
        ", which takes " + std::to_string(k.args[i].rank) +
        (k.args[i].rank == 1 ? " size" : " sizes joined by x") + "; got '" +
        item + "'");
  return sizes;
}

/// The largest finite value of a float type.
double largestFinite(hkrt_dtype t) {
  switch (t) {
  case HKRT_DTYPE_F16:
    return 65504.0;
  case HKRT_DTYPE_BF16:
    return 3.3895313892515355e38;
  case HKRT_DTYPE_F32:
    return FLT_MAX;
  default:
    return DBL_MAX;
  }
}

hkrt_arg parseScalar(const KernelInfo &k, size_t i, const std::string &item,
                     int64_t &intValue) {
  hkrt_dtype t = k.args[i].dtype;
  bool isFloat = t == HKRT_DTYPE_BF16 || t == HKRT_DTYPE_F16 ||
                 t == HKRT_DTYPE_F32 || t == HKRT_DTYPE_F64;
  if (isFloat) {
    char *end = nullptr;
    double v = std::strtod(item.c_str(), &end);
    if (item.empty() || std::isspace((unsigned char)item[0]) || *end ||
        !std::isfinite(v))
      throw std::invalid_argument("--args: " + argLabel(k, i) + ": '" + item +
                                  "' is not a number");
    if (std::fabs(v) > largestFinite(t))
      throw std::invalid_argument("--args: " + argLabel(k, i) + ": '" + item +
                                  "' is out of range for " + rt::dtypeName(t));
    return hkrt_arg_float(t, v);
  }
  auto [min, max] = integerRange(t);
  intValue = parseInteger(argLabel(k, i), item, min, max);
  return hkrt_arg_int(t, intValue);
}

/// One random element of `t` in little-endian bytes: floats k/256 in
/// [-1, 1) (exact in every float type), integers in [0, 16), fp8 a byte with
/// 1..0x37 in its low 7 bits and a random sign: finite and nonzero in all
/// four fp8 formats (no 0x80, 0x7F, 0xFF, no E5M2 exponent of all ones).
void randomElement(hkrt_dtype t, std::mt19937 &gen, uint8_t *out) {
  int64_t bytes = rt::dtypeBytes(t);
  if (t == HKRT_DTYPE_F32 || t == HKRT_DTYPE_F64 || t == HKRT_DTYPE_BF16 ||
      t == HKRT_DTYPE_F16) {
    float v = float(std::uniform_int_distribution<int>(-256, 255)(gen)) / 256;
    double d = v;
    uint16_t h = t == HKRT_DTYPE_BF16 ? fmt::encodeBF16(v) : fmt::encodeF16(v);
    std::memcpy(out,
                t == HKRT_DTYPE_F32   ? static_cast<const void *>(&v)
                : t == HKRT_DTYPE_F64 ? static_cast<const void *>(&d)
                                      : static_cast<const void *>(&h),
                bytes);
  } else if (t >= HKRT_DTYPE_F8E4M3FNUZ && t <= HKRT_DTYPE_F8E5M2) {
    out[0] = uint8_t(std::uniform_int_distribution<int>(1, 0x37)(gen) |
                     (gen() & 1 ? 0x80 : 0));
  } else {
    uint64_t v = std::uniform_int_distribution<int>(0, 15)(gen);
    for (int64_t b = 0; b < bytes; ++b)
      out[b] = uint8_t(v >> (8 * b));
  }
}

/// Elements of a memref argument of `sizes`, refused before anything is
/// allocated when its buffer would be more than a kernel addresses.
int64_t checkedElements(const KernelInfo &k, size_t i,
                        const std::vector<int64_t> &sizes,
                        const std::string &item) {
  int64_t elementBytes = rt::dtypeBytes(k.args[i].dtype);
  rt::ContiguousBytes c = rt::contiguousBytes(sizes, elementBytes);
  if (c.overflow || c.bytes > HKRT_MAX_MEMREF_BYTES)
    throw std::invalid_argument(
        "--args: " + argLabel(k, i) + ": " + item + " elements of " +
        rt::dtypeName(k.args[i].dtype) + " are more than the " +
        std::to_string(HKRT_MAX_MEMREF_BYTES) + " bytes a kernel addresses");
  if (!c.fits())
    throw std::invalid_argument(
        "--args: " + argLabel(k, i) + ": " + item + " elements of " +
        rt::dtypeName(k.args[i].dtype) + " (" + std::to_string(c.bytes) +
        " bytes); with the last dimension's span and " +
        std::to_string(rt::kOutOfRangeSlackBytes) + " more (" +
        std::to_string(c.lastSpanBytes + rt::kOutOfRangeSlackBytes) +
        " bytes), past the " + std::to_string(HKRT_MAX_MEMREF_BYTES) +
        " bytes a kernel addresses");
  return int64_t(c.bytes / uint64_t(elementBytes));
}

bool isNpyItem(const std::string &item) {
  return item.size() > 4 && item.compare(item.size() - 4, 4, ".npy") == 0;
}

/// The .npy file of memref argument `i`, checked against the metadata:
/// element type, rank and the sizes the kernel's type fixes.
NpyArray readNpyArgument(const KernelInfo &k, size_t i,
                         const std::string &path) {
  const ArgInfo &info = k.args[i];
  NpyArray array = readNpyFile(path);
  std::string want = npyDescr(info.dtype);
  // Single bytes have no byte order: '|i1' and '<i1' are the same type.
  bool same = array.descr == want ||
              (want.size() == 3 && want[0] == '|' && array.descr.size() == 3 &&
               array.descr.substr(1) == want.substr(1));
  if (!same)
    throw std::invalid_argument(
        argLabel(k, i) + ": " + path + " holds '" + array.descr +
        "' elements, but a " + rt::argTypeText(info) + " takes '" + want + "'" +
        (info.dtype == HKRT_DTYPE_BF16 ? " (uint16 arrays of bf16 bit "
                                         "patterns, as NumPy has no bfloat16)"
                                       : ""));
  if (int64_t(array.shape.size()) != info.rank)
    throw std::invalid_argument(argLabel(k, i) + ": " + path + " has " +
                                std::to_string(array.shape.size()) +
                                " dimensions, but a " + rt::argTypeText(info) +
                                " has rank " + std::to_string(info.rank));
  for (size_t d = 0; d < info.shape.size(); ++d)
    if (info.shape[d] != rt::kDynamic && info.shape[d] != array.shape[d])
      throw std::invalid_argument(argLabel(k, i) + ": " + path + " has size " +
                                  std::to_string(array.shape[d]) +
                                  " in dimension " + std::to_string(d) +
                                  ", but a " + rt::argTypeText(info) +
                                  " needs " + std::to_string(info.shape[d]));
  return array;
}

std::string sizesText(const std::vector<int64_t> &sizes) {
  std::string s;
  for (int64_t v : sizes)
    s += (s.empty() ? "" : "x") + std::to_string(v);
  return s;
}

/// The launch's arguments, owning their buffers.
struct Arguments {
  std::vector<hkrt::Buffer> buffers;
  std::vector<hkrt_arg> args;
  std::vector<std::vector<int64_t>> sizes; ///< per argument (memrefs)
  std::vector<int64_t> scalars;            ///< per argument (integers)
  std::map<size_t, size_t> memrefBuffer;   ///< argument -> buffers index
  std::string text;                        ///< for the report
};

/// The --save items: memref argument -> file, checked before the launch.
std::vector<std::pair<size_t, std::string>>
parseSaves(const KernelInfo &k, const std::vector<std::string> &saves) {
  std::vector<std::pair<size_t, std::string>> result;
  for (const std::string &item : saves) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || !isNpyItem(item.substr(eq + 1)))
      throw std::invalid_argument("--save: expected ARG=FILE.npy, got '" +
                                  item + "'");
    std::string arg = item.substr(0, eq);
    std::optional<size_t> index;
    for (size_t i = 0; i < k.args.size(); ++i)
      if (k.args[i].name == arg || std::to_string(i) == arg)
        index = i;
    if (!index)
      throw std::invalid_argument("--save: kernel '" + k.name +
                                  "' has no argument '" + arg + "' (it takes " +
                                  signatureText(k) + ")");
    if (k.args[*index].kind != HKRT_ARG_MEMREF)
      throw std::invalid_argument("--save: " + argLabel(k, *index) +
                                  " is a scalar; only memrefs are saved");
    if (!*npyDescr(k.args[*index].dtype))
      throw std::invalid_argument("--save: " + argLabel(k, *index) +
                                  " has no .npy element type");
    result.emplace_back(*index, item.substr(eq + 1));
  }
  return result;
}

Arguments buildArguments(hkrt::Device &dev, const KernelInfo &k,
                         const std::vector<std::string> &items,
                         std::mt19937 &gen) {
  Arguments a;
  a.sizes.resize(k.args.size());
  a.scalars.resize(k.args.size());
  for (size_t i = 0; i < k.args.size(); ++i) {
    const ArgInfo &info = k.args[i];
    std::string shown = info.name + ": ";
    if (info.kind == HKRT_ARG_SCALAR) {
      a.args.push_back(parseScalar(k, i, items[i], a.scalars[i]));
      shown += std::string(rt::dtypeName(info.dtype)) + " = " + items[i];
    } else {
      std::vector<uint8_t> host;
      std::string source = "random";
      if (isNpyItem(items[i])) {
        NpyArray array = readNpyArgument(k, i, items[i]);
        a.sizes[i] = array.shape;
        checkedElements(k, i, a.sizes[i], sizesText(a.sizes[i]));
        host = std::move(array.data);
        source = items[i];
      } else {
        // zeros:SIZES: a buffer of zeros (large inputs for a timed launch,
        // whose values do not matter), else random contents.
        bool zeros = items[i].compare(0, 6, "zeros:") == 0;
        std::string text = zeros ? items[i].substr(6) : items[i];
        a.sizes[i] = parseSizes(k, i, text);
        int64_t n = checkedElements(k, i, a.sizes[i], text),
                bytes = rt::dtypeBytes(info.dtype);
        if (zeros) {
          source = "zeros";
          host.assign(size_t(n * bytes), 0);
        } else {
          host.resize(size_t(n * bytes));
          for (int64_t e = 0; e < n; ++e)
            randomElement(info.dtype, gen, &host[size_t(e * bytes)]);
        }
      }
      a.buffers.push_back(dev.alloc(host.size()));
      a.memrefBuffer[i] = a.buffers.size() - 1;
      if (!host.empty())
        a.buffers.back().write(host.data(), host.size());
      a.args.push_back(a.buffers.back().memref(info.dtype, a.sizes[i]));
      std::string sizes = sizesText(a.sizes[i]);
      shown += "memref<" + (sizes.empty() ? "" : sizes + "x") +
               rt::dtypeName(info.dtype) + "> (" + source + ")";
    }
    a.text += (a.text.empty() ? "" : ", ") + shown;
  }
  return a;
}

/// The grid as hkrt computes it from the metadata, for the report.
std::string gridText(const KernelInfo &k, const Arguments &a) {
  std::vector<int64_t> symbols;
  for (const rt::GridSymbol &s : k.gridSymbols)
    symbols.push_back(s.isScalar() ? a.scalars[size_t(s.arg)]
                                   : a.sizes[size_t(s.arg)][size_t(s.dim)]);
  std::string s;
  for (size_t d = 0; d < 3; ++d)
    s += (d ? " x " : "") +
         std::to_string(d < k.grid.size() ? k.grid[d].evaluate(symbols) : 1);
  return s + " workgroups; per workgroup " + std::to_string(k.waves) + " x " +
         std::to_string(hk::kWaveSize) + " lanes, " +
         std::to_string(k.ldsBytes) + " bytes of LDS";
}

const KernelInfo &findKernelInfo(const rt::Artifact &art,
                                 const std::string &path,
                                 const std::string &name) {
  if (const KernelInfo *k = art.findKernel(name))
    return *k;
  std::string known;
  for (const KernelInfo &k : art.kernels)
    known += (known.empty() ? "" : ", ") + k.name;
  throw std::invalid_argument(path + " has no kernel '" + name +
                              "'; it has: " + known);
}

} // namespace

const char *deviceName(const hkrt::Device &dev) {
  switch (dev.kind()) {
  case HKRT_DEVICE_HIP:
    return "hip";
  case HKRT_DEVICE_ISA:
    return "isa";
  default:
    return "unknown";
  }
}

int launchOnly(hkrt::Device &dev, const std::string &path,
               const std::string &kernel,
               const std::optional<std::string> &argsText,
               const std::vector<std::string> &saveItems, uint32_t seed) {
  rt::Artifact art = rt::readArtifactFile(path);
  const KernelInfo &info = findKernelInfo(art, path, kernel);
  std::vector<std::pair<size_t, std::string>> saves =
      parseSaves(info, saveItems);
  if (!argsText && !info.args.empty())
    throw std::invalid_argument("--launch-only: kernel '" + kernel +
                                "' takes (" + signatureText(info) +
                                "); give one --args item per argument");
  std::vector<std::string> items =
      argsText ? split(*argsText, ',') : std::vector<std::string>();
  if (info.args.empty() && argsText && *argsText == "")
    items.clear();
  if (items.size() != info.args.size())
    throw std::invalid_argument("--args: kernel '" + kernel + "' takes " +
                                std::to_string(info.args.size()) +
                                " arguments (" + signatureText(info) +
                                "), got " + std::to_string(items.size()));

  hkrt::Module mod = dev.loadFile(path);
  hkrt::Kernel k = mod.kernel(kernel);
  std::mt19937 gen(seed);
  Arguments args = buildArguments(dev, info, items, gen);
  const char *device = deviceName(dev);
  std::printf("kernel:    %s in %s, launch only\n", kernel.c_str(),
              path.c_str());
  std::printf("device:    %s %s\n", device, dev.chip().c_str());
  std::printf("arguments: %s; seed %u\n",
              args.text.empty() ? "none" : args.text.c_str(), seed);
  std::printf("grid:      %s\n", gridText(info, args).c_str());
  std::fflush(stdout);

  auto start = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  try {
    k.launch(args.args);
    dev.synchronize();
  } catch (const hkrt::Error &e) {
    if (e.status() != HKRT_ERROR_KERNEL_FAULT)
      throw;
    std::printf("FAULT %s %s %s: time %.3f s\n", kernel.c_str(),
                dev.chip().c_str(), device, seconds());
    std::fflush(stdout);
    throw;
  }
  std::printf("LAUNCHED %s %s %s: time %.3f s\n", kernel.c_str(),
              dev.chip().c_str(), device, seconds());
  for (const auto &[i, file] : saves) {
    NpyArray array;
    array.descr = npyDescr(info.args[i].dtype);
    array.shape = args.sizes[i];
    hkrt::Buffer &buffer = args.buffers[args.memrefBuffer.at(i)];
    array.data.resize(buffer.size());
    if (!array.data.empty())
      buffer.read(array.data.data(), array.data.size());
    writeNpyFile(file, array);
    std::printf("saved:     %s (%s, '%s') to %s\n", info.args[i].name.c_str(),
                rt::argTypeText(info.args[i]).c_str(), array.descr.c_str(),
                file.c_str());
  }
  return 0;
}

} // namespace hk::run
