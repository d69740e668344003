//===- Launch.cpp - argument checks and grid computation ------------------===//

#include "Guard.h"
#include "Objects.h"

#include "hk/Base/Error.h"

#include <algorithm>

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

static std::string listText(const int64_t *values, int64_t rank) {
  std::string s;
  for (int64_t d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(values[d]);
  return "(" + s + ")";
}

static void checkNonNegative(size_t i, const ArgInfo &info,
                             const hkrt_arg &arg) {
  for (int d = 0; d < arg.rank; ++d) {
    if (arg.sizes[d] < 0)
      mismatch(i, info,
               "negative size " + std::to_string(arg.sizes[d]) +
                   " in dimension " + std::to_string(d));
    if (arg.strides[d] < 0)
      mismatch(i, info,
               "negative stride in dimension " + std::to_string(d) +
                   " is not supported");
  }
}

/// The kernel's code has the static sizes of its type built in.
static void checkStaticSizes(size_t i, const ArgInfo &info,
                             const hkrt_arg &arg) {
  for (size_t d = 0; d < info.shape.size(); ++d)
    if (info.shape[d] != kDynamic && arg.sizes[d] != info.shape[d])
      mismatch(i, info,
               "dimension " + std::to_string(d) + " of " + argTypeText(info) +
                   " must be " + std::to_string(info.shape[d]) + ", got " +
                   std::to_string(arg.sizes[d]));
}

/// The strides hkrt_arg_memref computes when given none: contiguous
/// row-major, a size of 0 counting as 1.
static std::vector<int64_t> rowMajorStrides(size_t i, const ArgInfo &info,
                                            const hkrt_arg &arg) {
  std::vector<int64_t> strides(size_t(arg.rank));
  int64_t stride = 1;
  for (int d = arg.rank - 1; d >= 0; --d) {
    strides[d] = stride;
    if (__builtin_mul_overflow(stride, std::max<int64_t>(arg.sizes[d], 1),
                               &stride) &&
        d > 0)
      mismatch(i, info, "sizes " + shapeText(arg) + " overflow 64 bits");
  }
  return strides;
}

/// The kernel's code takes the strides of its type's layout: row-major
/// ones computed from the sizes, or the static strides of strided<[...]>
/// as constants. Other strides would be ignored, and the kernel would
/// address memory the buffer check below did not cover.
static void checkStrides(size_t i, const ArgInfo &info, const hkrt_arg &arg) {
  if (info.layout == MemrefLayout::RowMajor) {
    std::vector<int64_t> expected = rowMajorStrides(i, info, arg);
    if (!std::equal(expected.begin(), expected.end(), arg.strides))
      mismatch(i, info,
               argTypeText(info) +
                   " is contiguous row-major: its strides must be " +
                   listText(expected.data(), arg.rank) + " for sizes " +
                   shapeText(arg) + ", got " + listText(arg.strides, arg.rank));
  } else if (info.layout == MemrefLayout::Strided) {
    for (size_t d = 0; d < info.strides.size(); ++d)
      if (info.strides[d] != kDynamic && arg.strides[d] != info.strides[d])
        mismatch(i, info,
                 "stride of dimension " + std::to_string(d) + " of " +
                     argTypeText(info) + " must be " +
                     std::to_string(info.strides[d]) + ", got " +
                     std::to_string(arg.strides[d]));
  }
}

/// Bytes a memref reaches from element 0: (sum of (size-1)*stride + 1) *
/// element size, or 0 if it has no elements. Sizes and strides are
/// non-negative.
static uint64_t memrefExtent(size_t i, const ArgInfo &info,
                             const hkrt_arg &arg) {
  uint64_t last = 0;
  for (int d = 0; d < arg.rank; ++d) {
    if (arg.sizes[d] == 0)
      return 0;
    uint64_t step;
    if (__builtin_mul_overflow(uint64_t(arg.sizes[d] - 1),
                               uint64_t(arg.strides[d]), &step) ||
        __builtin_add_overflow(last, step, &last))
      mismatch(i, info, "sizes and strides overflow 64 bits");
  }
  uint64_t elements, bytes;
  if (__builtin_add_overflow(last, 1, &elements) ||
      __builtin_mul_overflow(elements, uint64_t(dtypeBytes(info.dtype)),
                             &bytes))
    mismatch(i, info, "sizes and strides overflow 64 bits");
  return bytes;
}

/// The live buffer of a memref argument, on `device`.
static std::shared_ptr<BufferObject> liveBuffer(size_t i, const ArgInfo &info,
                                                const hkrt_arg &arg,
                                                hkrt_device device) {
  if (!arg.buffer)
    mismatch(i, info, "null buffer");
  std::shared_ptr<BufferObject> buffer = Handles::get().find(arg.buffer);
  if (!buffer)
    mismatch(i, info, "unknown or already freed buffer handle");
  if (buffer->deviceHandle != device)
    mismatch(i, info, "buffer belongs to another device");
  return buffer;
}

static LaunchArg checkMemref(size_t i, const ArgInfo &info, const hkrt_arg &arg,
                             hkrt_device device) {
  if (arg.kind != HKRT_ARG_MEMREF)
    mismatch(i, info,
             "expected " + describe(info) + ", got scalar " +
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
  checkNonNegative(i, info, arg);
  checkStaticSizes(i, info, arg);
  checkStrides(i, info, arg);
  std::shared_ptr<BufferObject> buffer = liveBuffer(i, info, arg, device);
  // Kernels load whole elements at the alignment of their type (a dword
  // load of an f32): element 0 off that alignment would be read across two
  // elements.
  if (arg.offset_bytes % uint64_t(dtypeBytes(info.dtype)) != 0)
    mismatch(i, info,
             "offset " + std::to_string(arg.offset_bytes) +
                 " is not a multiple of the size of " + dtypeName(info.dtype) +
                 " (" + std::to_string(dtypeBytes(info.dtype)) + " bytes)");
  LaunchArg out{&info, &arg};
  out.extentBytes = memrefExtent(i, info, arg);
  if (out.extentBytes > HKRT_MAX_MEMREF_BYTES)
    mismatch(i, info,
             "a " + shapeText(arg) + " memref of " + dtypeName(info.dtype) +
                 " with strides " + listText(arg.strides, arg.rank) +
                 " reaches " + std::to_string(out.extentBytes) +
                 " bytes; a kernel addresses at most " +
                 std::to_string(HKRT_MAX_MEMREF_BYTES) +
                 " (HKRT_MAX_MEMREF_BYTES) through its 32-bit buffer "
                 "descriptor");
  // Out-of-range positions get the reach as their offset, to which two
  // forms add a column origin or an atomic's immediate offset.
  if (arg.rank >= 2 && out.extentBytes > 0) {
    int last = arg.rank - 1;
    uint64_t span = uint64_t(arg.sizes[last] - 1) *
                    uint64_t(arg.strides[last]) *
                    uint64_t(dtypeBytes(info.dtype));
    if (!outOfRangeOffsetsFit(out.extentBytes, span))
      mismatch(i, info,
               "a " + shapeText(arg) + " memref of " + dtypeName(info.dtype) +
                   " with strides " + listText(arg.strides, arg.rank) +
                   " reaches " + std::to_string(out.extentBytes) +
                   " bytes; with its last dimension's span (" +
                   std::to_string(span) + " bytes) and " +
                   std::to_string(kOutOfRangeSlackBytes) +
                   " more, the offsets a kernel gives positions out of range "
                   "must stay within " +
                   std::to_string(HKRT_MAX_MEMREF_BYTES) +
                   " (HKRT_MAX_MEMREF_BYTES)");
  }
  uint64_t end;
  if (__builtin_add_overflow(arg.offset_bytes, out.extentBytes, &end) ||
      end > buffer->size)
    mismatch(i, info,
             "a " + shapeText(arg) + " memref of " + dtypeName(info.dtype) +
                 " with strides " + listText(arg.strides, arg.rank) +
                 " at offset " + std::to_string(arg.offset_bytes) + " needs " +
                 std::to_string(out.extentBytes) + " bytes, but its buffer " +
                 "has " + std::to_string(buffer->size) + " bytes");
  out.address = static_cast<char *>(buffer->address) + arg.offset_bytes;
  out.buffer = std::move(buffer);
  return out;
}

/// The argument's kind and dtype name enumerators. A C caller may store any
/// integer in them, and reading one outside the enum's range as the C++ enum
/// is undefined, so they are read as integers (rawValue) before anything
/// else looks at them.
static void checkEnumerators(size_t i, const ArgInfo &info,
                             const hkrt_arg &arg) {
  auto kind = rawValue(arg.kind);
  if (kind != HKRT_ARG_MEMREF && kind != HKRT_ARG_SCALAR)
    mismatch(i, info, "unknown argument kind " + std::to_string(int(kind)));
  auto dtype = rawValue(arg.dtype);
  if (dtype >= HKRT_DTYPE_COUNT || !dtypeBytes(hkrt_dtype(dtype)))
    mismatch(i, info, "unknown dtype " + std::to_string(int(dtype)));
}

std::vector<LaunchArg> hk::rt::checkLaunchArguments(const KernelInfo &kernel,
                                                    const hkrt_arg *args,
                                                    size_t numArgs,
                                                    hkrt_device device) {
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
    checkEnumerators(i, info, arg);
    if (info.kind == HKRT_ARG_MEMREF) {
      out.push_back(checkMemref(i, info, arg, device));
      continue;
    }
    if (arg.kind != HKRT_ARG_SCALAR)
      mismatch(i, info,
               "expected " + describe(info) + ", got memref of rank " +
                   std::to_string(arg.rank) + " with dtype " +
                   dtypeName(arg.dtype));
    if (arg.dtype != info.dtype)
      mismatch(i, info,
               "expected " + describe(info) + ", got scalar " +
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
      throw Error(HKRT_ERROR_INVALID_ARGUMENT, where + " is " +
                                                   std::to_string(v) +
                                                   ", outside [0, 2^31 - 1]");
    grid[d] = uint32_t(v);
  }
  return grid;
}
