//===- ProblemSupport.h - building problems for the kernel table ----------===//
//
// Shared by the kernels' Reference.cpp files: shape checks, random bf16
// inputs, tensors.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_KERNELS_PROBLEMSUPPORT_H
#define HK_RUNTIME_KERNELS_PROBLEMSUPPORT_H

#include "hk/Base/KernelInfo.h"
#include "hk/Runtime/Kernels.h"

#include <stdexcept>

namespace hk::kernels {

/// The table entry of every kernel: each Reference.cpp defines its own and
/// passes it to the checks below.
namespace entries {
#define HK_KERNEL(name) const KernelEntry &name();
#include "Kernels.def"
} // namespace entries

/// Throws unless the shape has entry.shapeNames's length and no negative
/// size.
inline void checkShape(const KernelEntry &entry, const Problem &problem) {
  std::string names = entry.shapeNames;
  size_t expected = 1;
  for (char c : names)
    expected += c == ',';
  if (problem.shape.size() != expected)
    throw std::invalid_argument(std::string(entry.name) + " takes --shape " +
                                names + " (" + std::to_string(expected) +
                                " sizes), got " +
                                std::to_string(problem.shape.size()));
  for (int64_t s : problem.shape)
    if (s < 0)
      throw std::invalid_argument("sizes must not be negative");
}

/// A tensor of a problem, before anything is allocated for it.
struct TensorShape {
  const char *name;
  std::vector<int64_t> sizes;
  hkrt_dtype dtype = HKRT_DTYPE_BF16;
};

/// Throws std::invalid_argument naming --shape unless every tensor fits in
/// a buffer a kernel can address (HKRT_MAX_MEMREF_BYTES, with room for the
/// out-of-range offsets past it, as hkrt checks at launch): called before the
/// problem allocates anything, so that absurd sizes are a usage error
/// rather than an allocation failure.
inline void checkTensorSizes(const KernelEntry &entry, const Problem &problem,
                             std::initializer_list<TensorShape> tensors) {
  for (const TensorShape &t : tensors) {
    hk::rt::ContiguousBytes c =
        hk::rt::contiguousBytes(t.sizes, hk::rt::dtypeBytes(t.dtype));
    if (c.fits())
      continue;
    std::string dims;
    for (int64_t s : t.sizes)
      dims += (dims.empty() ? "" : "x") + std::to_string(s);
    std::string shape;
    for (int64_t s : problem.shape)
      shape += (shape.empty() ? "" : ",") + std::to_string(s);
    std::string tensor = "--shape " + shape + ": " + entry.name + "'s " +
                         t.name + " would be a " + dims + " " +
                         hk::rt::dtypeName(t.dtype) + " tensor";
    if (!c.overflow && c.bytes <= HKRT_MAX_MEMREF_BYTES)
      throw std::invalid_argument(
          tensor + " of " + std::to_string(c.bytes) +
          " bytes; with its last dimension's span and " +
          std::to_string(hk::rt::kOutOfRangeSlackBytes) + " more (" +
          std::to_string(c.lastSpanBytes + hk::rt::kOutOfRangeSlackBytes) +
          " bytes), past the " + std::to_string(HKRT_MAX_MEMREF_BYTES) +
          " bytes a kernel addresses");
    throw std::invalid_argument(tensor + ", more than the " +
                                std::to_string(HKRT_MAX_MEMREF_BYTES) +
                                " bytes a kernel addresses");
  }
}

/// Uniform in [lo, hi), rounded to bf16.
inline std::vector<double> randomBF16(int64_t n, double lo, double hi,
                                      std::mt19937 &gen) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (double &x : v)
    x = roundToBF16(dist(gen));
  return v;
}

inline HostTensor input(std::string name, std::vector<int64_t> sizes,
                        std::vector<double> values) {
  HostTensor t;
  t.name = std::move(name);
  t.sizes = std::move(sizes);
  t.values = std::move(values);
  return t;
}

inline HostTensor output(std::string name, std::vector<int64_t> sizes) {
  HostTensor t;
  t.name = std::move(name);
  t.sizes = std::move(sizes);
  t.output = true;
  int64_t n = t.numElements();
  t.exact.assign(size_t(n), 0.0);
  t.errorScale.assign(size_t(n), 0.0);
  return t;
}

} // namespace hk::kernels

#endif // HK_RUNTIME_KERNELS_PROBLEMSUPPORT_H
