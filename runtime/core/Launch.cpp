//===- Launch.cpp - argument checks and grid computation ------------------===//

#include "Objects.h"

#include "hk/Runtime/Error.h"

using namespace hk::rt;

static std::string argName(size_t i, const ArgInfo &a) {
  return "argument " + std::to_string(i) + " '" + a.name + "'";
}

static std::string describe(const ArgInfo &a) {
  if (a.kind == HKRT_ARG_SCALAR)
    return std::string("scalar ") + dtypeName(a.dtype);
  return "memref of rank " + std::to_string(a.rank) + " with dtype " +
         dtypeName(a.dtype);
}

[[noreturn]] static void mismatch(size_t i, const ArgInfo &a,
                                  const std::string &what) {
  throw Error(HKRT_ERROR_INVALID_ARGUMENT, argName(i, a) + ": " + what);
}

static std::string shapeText(const hkrt_arg &arg) {
  std::string s;
  for (int d = 0; d < arg.rank; ++d)
    s += (d ? "x" : "") + std::to_string(arg.sizes[d]);
  return arg.rank ? s : "0-d";
}

/// Bytes a memref reaches from element 0: (sum of (size-1)*stride + 1) *
/// element size, or 0 if it has no elements.
static uint64_t memrefExtent(size_t i, const ArgInfo &info,
                             const hkrt_arg &arg) {
  uint64_t last = 0;
  for (int d = 0; d < arg.rank; ++d) {
    if (arg.sizes[d] < 0)
      mismatch(i, info, "negative size " + std::to_string(arg.sizes[d]) +
                            " in dimension " + std::to_string(d));
    if (arg.strides[d] < 0)
      mismatch(i, info, "negative stride in dimension " + std::to_string(d) +
                            " is not supported");
    if (arg.sizes[d] == 0)
      return 0;
    uint64_t step;
    if (__builtin_mul_overflow(uint64_t(arg.sizes[d] - 1),
                               uint64_t(arg.strides[d]), &step) ||
        __builtin_add_overflow(last, step, &last))
      mismatch(i, info, "sizes and strides overflow 64 bits");
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(last + 1, uint64_t(dtypeBytes(info.dtype)),
                             &bytes))
    mismatch(i, info, "sizes and strides overflow 64 bits");
  return bytes;
}

static LaunchArg checkMemref(size_t i, const ArgInfo &info,
                             const hkrt_arg &arg, const void *device) {
  if (arg.kind != HKRT_ARG_MEMREF)
    mismatch(i, info, "expected " + describe(info) + ", got scalar " +
                          dtypeName(arg.dtype));
  bool dtypeOk = arg.dtype == info.dtype, rankOk = arg.rank == info.rank;
  if (!dtypeOk || !rankOk) {
    std::string got = !rankOk && !dtypeOk
                          ? "memref of rank " + std::to_string(arg.rank) +
                                " with dtype " + dtypeName(arg.dtype)
                      : !rankOk ? "rank " + std::to_string(arg.rank)
                                : std::string(dtypeName(arg.dtype));
    mismatch(i, info, "expected " + describe(info) + ", got " + got);
  }
  if (!arg.buffer)
    mismatch(i, info, "null buffer");
  if (arg.buffer->device != device)
    mismatch(i, info, "buffer belongs to another device");
  LaunchArg out{&info, &arg};
  out.extentBytes = memrefExtent(i, info, arg);
  uint64_t end;
  if (__builtin_add_overflow(arg.offset_bytes, out.extentBytes, &end) ||
      end > arg.buffer->size) {
    std::string strides;
    for (int d = 0; d < arg.rank; ++d)
      strides += (d ? ", " : "") + std::to_string(arg.strides[d]);
    mismatch(i, info,
             "a " + shapeText(arg) + " memref of " + dtypeName(info.dtype) +
                 " with strides (" + strides + ") at offset " +
                 std::to_string(arg.offset_bytes) + " needs " +
                 std::to_string(out.extentBytes) + " bytes, but its buffer " +
                 "has " + std::to_string(arg.buffer->size) + " bytes");
  }
  out.address = static_cast<char *>(arg.buffer->address) + arg.offset_bytes;
  return out;
}

std::vector<LaunchArg> hk::rt::checkLaunchArguments(const KernelInfo &kernel,
                                                    const hkrt_arg *args,
                                                    size_t numArgs,
                                                    const void *device) {
  if (numArgs != kernel.args.size())
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "kernel '" + kernel.name + "' takes " +
                    std::to_string(kernel.args.size()) + " arguments, got " +
                    std::to_string(numArgs));
  if (numArgs && !args)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "null argument array");
  std::vector<LaunchArg> out;
  for (size_t i = 0; i < numArgs; ++i) {
    const ArgInfo &info = kernel.args[i];
    const hkrt_arg &arg = args[i];
    if (info.kind == HKRT_ARG_MEMREF) {
      out.push_back(checkMemref(i, info, arg, device));
      continue;
    }
    if (arg.kind != HKRT_ARG_SCALAR)
      mismatch(i, info, "expected " + describe(info) + ", got memref of rank " +
                            std::to_string(arg.rank) + " with dtype " +
                            dtypeName(arg.dtype));
    if (arg.dtype != info.dtype)
      mismatch(i, info, "expected " + describe(info) + ", got scalar " +
                            dtypeName(arg.dtype));
    out.push_back(LaunchArg{&info, &arg});
  }
  return out;
}

std::array<uint32_t, 3>
hk::rt::computeGrid(const KernelInfo &kernel,
                    const std::vector<LaunchArg> &args) {
  std::vector<int64_t> symbols;
  for (const GridSymbol &s : kernel.gridSymbols) {
    const hkrt_arg &a = *args[s.arg].arg;
    symbols.push_back(s.isScalar() ? a.i : a.sizes[s.dim]);
  }
  std::array<uint32_t, 3> grid{1, 1, 1};
  static const char *axes[] = {"x", "y", "z"};
  for (size_t d = 0; d < kernel.grid.size(); ++d) {
    std::string where = "grid of kernel '" + kernel.name + "' along " +
                        axes[d] + " (" + kernel.grid[d].print() + ")";
    int64_t v;
    try {
      v = kernel.grid[d].evaluate(symbols);
    } catch (const Error &e) {
      throw Error(HKRT_ERROR_INVALID_ARGUMENT, where + ": " + e.what());
    }
    if (v < 0 || v > INT32_MAX)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  where + " is " + std::to_string(v) +
                      ", outside [0, 2^31 - 1]");
    grid[d] = uint32_t(v);
  }
  return grid;
}
