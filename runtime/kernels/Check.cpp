//===- Check.cpp - runs a library kernel and compares with float64 --------===//

#include "hk/Runtime/Kernels.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Formats.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace hk::kernels {
namespace {

/// Elements after each output that a store past its end would hit.
constexpr int64_t kGuardElements = 4096;
/// NaN patterns no kernel computes (arithmetic NaNs are 0x7FC0 / 0x7FC00000).
constexpr uint16_t kSentinelBF16 = 0x7FC1;
constexpr uint32_t kSentinelF32 = 0x7FC00A5Au;

/// bf16 and f32 tensors, i8 inputs and i32 outputs (integer MFMAs).
size_t elementBytes(hkrt_dtype dtype) {
  switch (dtype) {
  case HKRT_DTYPE_F32:
  case HKRT_DTYPE_I32:
    return 4;
  case HKRT_DTYPE_I8:
  case HKRT_DTYPE_FP8:
  case HKRT_DTYPE_BF8:
    return 1;
  default:
    return 2;
  }
}

/// The format of the chip's !hk.fp8 / !hk.bf8 inputs: what the compiler
/// resolved them to for the code object the device runs.
const fmt::Format &chipFloat8(hkrt_dtype dtype, const std::string &chip) {
  const ChipInfo *info = lookupChip(chip);
  if (!info || info->fp8 == Fp8Format::None)
    throw std::invalid_argument(chip + " has no 8-bit float formats");
  bool fnuz = info->fp8 == Fp8Format::FNUZ;
  if (dtype == HKRT_DTYPE_FP8)
    return fnuz ? fmt::kE4M3Fnuz : fmt::kE4M3;
  return fnuz ? fmt::kE5M2Fnuz : fmt::kE5M2;
}

std::vector<uint8_t> encode(const HostTensor &t, const std::string &chip) {
  std::vector<uint8_t> raw(t.values.size() * elementBytes(t.dtype));
  for (size_t i = 0; i < t.values.size(); ++i) {
    if (t.dtype == HKRT_DTYPE_F32) {
      float f = float(t.values[i]);
      std::memcpy(&raw[i * 4], &f, 4);
    } else if (t.dtype == HKRT_DTYPE_I32) {
      int32_t v = int32_t(t.values[i]);
      std::memcpy(&raw[i * 4], &v, 4);
    } else if (t.dtype == HKRT_DTYPE_I8) {
      raw[i] = uint8_t(int8_t(t.values[i]));
    } else if (t.dtype == HKRT_DTYPE_FP8 || t.dtype == HKRT_DTYPE_BF8) {
      raw[i] =
          uint8_t(fmt::encode(float(t.values[i]), chipFloat8(t.dtype, chip)));
    } else {
      uint16_t h = fmt::encodeBF16(float(t.values[i]));
      std::memcpy(&raw[i * 2], &h, 2);
    }
  }
  return raw;
}

/// An i32 output is filled with the bits of kSentinelF32 (2143292506),
/// beyond what the integer kernels compute for their problems.
std::vector<uint8_t> sentinelFill(hkrt_dtype dtype, int64_t n) {
  std::vector<uint8_t> raw(size_t(n) * elementBytes(dtype));
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == HKRT_DTYPE_F32 || dtype == HKRT_DTYPE_I32)
      std::memcpy(&raw[i * 4], &kSentinelF32, 4);
    else if (dtype == HKRT_DTYPE_I8)
      raw[i] = 0x80;
    else
      std::memcpy(&raw[i * 2], &kSentinelBF16, 2);
  }
  return raw;
}

bool isSentinel(hkrt_dtype dtype, const uint8_t *p) {
  if (dtype == HKRT_DTYPE_I8)
    return *p == 0x80;
  return elementBytes(dtype) == 4 ? std::memcmp(p, &kSentinelF32, 4) == 0
                                  : std::memcmp(p, &kSentinelBF16, 2) == 0;
}

double decode(hkrt_dtype dtype, const uint8_t *p) {
  if (dtype == HKRT_DTYPE_F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (dtype == HKRT_DTYPE_I32) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (dtype == HKRT_DTYPE_I8)
    return int8_t(*p);
  uint16_t h;
  std::memcpy(&h, p, 2);
  return fmt::decodeBF16(h);
}

std::string describeIndex(const HostTensor &t, int64_t flat) {
  std::string s = t.name;
  std::vector<int64_t> idx(t.sizes.size());
  for (size_t d = t.sizes.size(); d-- > 0;) {
    idx[d] = flat % t.sizes[d];
    flat /= t.sizes[d];
  }
  for (int64_t i : idx)
    s += "[" + std::to_string(i) + "]";
  return s;
}

/// Compares one output read back as `raw` (elements then guard zone).
CheckResult::Output compare(HostTensor &t, const std::vector<uint8_t> &raw,
                            const Tolerance &tol, double scale) {
  CheckResult::Output o;
  o.name = t.name;
  o.elements = t.numElements();
  size_t eb = elementBytes(t.dtype);
  t.values.assign(o.elements, NAN);
  for (int64_t i = 0; i < o.elements; ++i) {
    if (isSentinel(t.dtype, &raw[i * eb])) {
      ++o.unwritten;
      continue;
    }
    double got = decode(t.dtype, &raw[i * eb]), exact = t.exact[i];
    t.values[i] = got;
    // Equal values, infinities among them (an exclusive max starts at
    // -inf), pass with no error: inf - inf and 0 * inf would be NaN.
    bool equal = got == exact;
    double err = equal ? 0.0 : std::fabs(got - exact);
    double bound =
        scale * (tol.rel * std::fabs(exact) + tol.abs * t.errorScale[i]);
    if (!equal && !(err <= bound)) { // NaN fails too
      if (o.mismatches++ == 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "got %.8g, expected %.8g (tolerance %.3g)", got, exact,
                      bound);
        o.firstMismatch = describeIndex(t, i) + ": " + buf;
      }
    }
    o.maxAbsError = std::fmax(o.maxAbsError, err);
    if (exact != 0)
      o.maxRelError = std::fmax(o.maxRelError, err / std::fabs(exact));
    if (bound > 0)
      o.worstRatio = std::fmax(o.worstRatio, err / bound);
    else if (err > 0)
      o.worstRatio = INFINITY;
  }
  for (int64_t g = 0; g < kGuardElements; ++g)
    o.guardWrites += !isSentinel(t.dtype, &raw[(o.elements + g) * eb]);
  return o;
}

} // namespace

std::vector<hkrt::Buffer> launchProblem(Library &lib, const KernelEntry &entry,
                                        Problem &problem) {
  hkrt::Device &dev = lib.device();
  std::vector<hkrt::Buffer> buffers;
  for (const HostTensor &t : problem.tensors) {
    int64_t n = t.numElements() + (t.output ? kGuardElements : 0);
    size_t bytes = size_t(n) * elementBytes(t.dtype);
    // hkrt refuses empty buffers; a zero-sized tensor still gets one byte.
    buffers.push_back(dev.alloc(bytes ? bytes : 1));
    std::vector<uint8_t> raw =
        t.output ? sentinelFill(t.dtype, n) : encode(t, dev.chip());
    if (!raw.empty())
      buffers.back().write(raw.data(), raw.size());
  }

  entry.launch(lib, problem, buffers);
  dev.synchronize();
  return buffers;
}

CheckResult runAndCheck(Library &lib, const KernelEntry &entry,
                        Problem &problem, double toleranceScale) {
  auto start = std::chrono::steady_clock::now();
  std::vector<hkrt::Buffer> buffers = launchProblem(lib, entry, problem);
  CheckResult result;
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  entry.reference(problem);
  Tolerance tol = entry.tolerance(problem);
  result.pass = true;
  for (size_t i = 0; i < problem.tensors.size(); ++i) {
    HostTensor &t = problem.tensors[i];
    if (!t.output)
      continue;
    int64_t n = t.numElements() + kGuardElements;
    std::vector<uint8_t> raw(size_t(n) * elementBytes(t.dtype));
    buffers[i].read(raw.data(), raw.size());
    CheckResult::Output o = compare(t, raw, tol, toleranceScale);
    result.maxAbsError = std::fmax(result.maxAbsError, o.maxAbsError);
    result.maxRelError = std::fmax(result.maxRelError, o.maxRelError);
    result.worstRatio = std::fmax(result.worstRatio, o.worstRatio);
    result.pass &= o.mismatches == 0 && o.unwritten == 0 && o.guardWrites == 0;
    result.outputs.push_back(std::move(o));
  }
  return result;
}

} // namespace hk::kernels
