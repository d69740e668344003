//===- ProblemSupport.h - building problems for the kernel table ----------===//
//
// Shared by the kernel files: shape checks, random bf16 inputs, tensors.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_KERNELS_PROBLEMSUPPORT_H
#define HK_RUNTIME_KERNELS_PROBLEMSUPPORT_H

#include "hk/Runtime/Kernels.h"

#include <stdexcept>

namespace hk::kernels {

#define HK_KERNEL(id) const KernelEntry &id##Entry();
#include "Kernels.def"

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
