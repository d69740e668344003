//===- KernelArguments.cpp - the kernarg segment of a code object launch --===//
//
// One definition for both devices that run code objects: HIP (the segment
// is handed to hipModuleLaunchKernel) and the ISA simulator (the segment the
// kernel's kernarg pointer addresses).
//===----------------------------------------------------------------------===//

#include "Device.h"

#include "hk/Base/Error.h"

using namespace hk::rt;

/// Kernel arguments in the layout of convert-gpu-to-rocdl's default memref
/// lowering: a memref becomes (allocated ptr, aligned ptr, i64 offset,
/// i64 sizes[rank], i64 strides[rank]); scalars keep their size; every
/// field is naturally aligned.
std::vector<char>
hk::rt::packKernelArguments(const std::vector<LaunchArg> &args) {
  std::vector<char> out;
  auto put = [&](const void *p, size_t n, size_t align = 8) {
    out.resize((out.size() + align - 1) / align * align);
    out.insert(out.end(), static_cast<const char *>(p),
               static_cast<const char *>(p) + n);
  };
  for (const LaunchArg &a : args) {
    const hkrt_arg &arg = *a.arg;
    if (a.info->kind == HKRT_ARG_MEMREF) {
      int64_t zero = 0;
      put(&a.address, 8);
      put(&a.address, 8);
      put(&zero, 8);
      put(arg.sizes, 8 * arg.rank);
      put(arg.strides, 8 * arg.rank);
      continue;
    }
    int64_t bytes = dtypeBytes(arg.dtype);
    if (arg.dtype == HKRT_DTYPE_F32) {
      float f = float(arg.f);
      put(&f, 4, 4);
    } else if (arg.dtype == HKRT_DTYPE_F64) {
      put(&arg.f, 8);
    } else if (arg.dtype == HKRT_DTYPE_BOOL) {
      // An i1 kernel argument is one byte (.size 1 in the code object's
      // .args) of which the kernel tests bit 0 (s_bitcmp1_b32 ..., 0).
      uint8_t flag = arg.i != 0;
      put(&flag, 1, 1);
    } else if (arg.dtype == HKRT_DTYPE_I8 || arg.dtype == HKRT_DTYPE_I16 ||
               arg.dtype == HKRT_DTYPE_I32 || arg.dtype == HKRT_DTYPE_I64 ||
               arg.dtype == HKRT_DTYPE_INDEX) {
      put(&arg.i, size_t(bytes), size_t(bytes)); // little-endian: low bytes
    } else {
      throw Error(HKRT_ERROR_UNSUPPORTED,
                  std::string("scalar arguments of type ") +
                      dtypeName(arg.dtype) +
                      " are not supported by code objects");
    }
  }
  out.resize((out.size() + 7) / 8 * 8);
  return out;
}
