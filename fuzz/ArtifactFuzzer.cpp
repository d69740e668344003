//===- ArtifactFuzzer.cpp - artifact bytes into the reader and hkrt -------===//
//
// The input is an artifact (.hkrt, include/hk/Base/Artifact.h). It is read
// twice: as it is, which tries the container's checks, and after its entry
// hashes and total size are recomputed, so that mutated payloads get past
// the hashes into the metadata's JSON, the kernel metadata's checks and the
// ISA simulator's loader. Each time the C++ reader and hkrt's C API must
// agree on whether the artifact is valid, and a valid one is loaded on the
// ISA simulator of each of its chips, where every kernel its metadata names
// must be found.
//===----------------------------------------------------------------------===//

#include "hk/Base/Artifact.h"
#include "hk/Base/Error.h"
#include "hk/Runtime/hkrt.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "hk-fuzz-artifact: %s: %s\n", what.c_str(),
               hkrt_last_error());
  std::abort();
}

std::map<std::string, hkrt_device> &devices() {
  static std::map<std::string, hkrt_device> open;
  return open;
}

// The container's layout (Artifact.h): a 24-byte header, then entries of
// 64 bytes: kind, reserved, payload offset, payload size, hash, key.
constexpr size_t kHeader = 24, kEntry = 64, kKey = 32;

uint64_t load64(const std::string &s, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | static_cast<uint8_t>(s[at + i]);
  return v;
}

void store64(std::string &s, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i, v >>= 8)
    s[at + i] = static_cast<char>(v & 0xff);
}

uint64_t fnv1a(const char *p, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; ++i)
    h = (h ^ static_cast<uint8_t>(p[i])) * 0x100000001b3ULL;
  return h;
}

/// `bytes` with the total size and every in-bounds entry's hash made right.
std::string rehashed(std::string bytes) {
  if (bytes.size() < kHeader)
    return bytes;
  store64(bytes, 16, bytes.size());
  uint32_t n = 0;
  std::memcpy(&n, bytes.data() + 12, 4);
  for (uint64_t i = 0; i < n && kHeader + (i + 1) * kEntry <= bytes.size();
       ++i) {
    size_t e = kHeader + i * kEntry;
    uint64_t offset = load64(bytes, e + 8), size = load64(bytes, e + 16);
    if (offset > bytes.size() || size > bytes.size() - offset)
      continue;
    uint64_t h = fnv1a(bytes.data() + e, 4, 0xcbf29ce484222325ULL);
    h = fnv1a(bytes.data() + e + 32, kKey, h);
    store64(bytes, e + 24, fnv1a(bytes.data() + offset, size, h));
  }
  return bytes;
}

/// Loads `a` (read from `bytes`) on each of its chips' simulators.
void load(const std::string &bytes, const hk::rt::Artifact &a) {
  for (const auto &[chip, code] : a.codeObjects) {
    auto device = devices().find(chip);
    if (device == devices().end())
      continue;
    hkrt_module module = nullptr;
    if (hkrt_module_load(device->second, bytes.data(), bytes.size(), &module) !=
        HKRT_SUCCESS)
      continue; // a code object the simulator refuses, with a message
    for (const hk::rt::KernelInfo &k : a.kernels) {
      hkrt_kernel kernel = nullptr;
      if (hkrt_kernel_get(module, k.name.c_str(), &kernel) != HKRT_SUCCESS)
        fail("the loaded module lacks its metadata's kernel " + k.name);
    }
    if (hkrt_module_unload(module) != HKRT_SUCCESS)
      fail("unloading a loaded module");
  }
}

void check(const std::string &bytes) {
  std::optional<hk::rt::Artifact> artifact;
  try {
    artifact = hk::rt::readArtifact(bytes.data(), bytes.size());
  } catch (const hk::rt::Error &e) {
    if (e.status() != HKRT_ERROR_INVALID_ARTIFACT)
      fail(std::string("the reader's status for bad bytes: ") + e.what());
  }
  const char *json = nullptr;
  hkrt_status status =
      hkrt_artifact_metadata(bytes.data(), bytes.size(), &json);
  if (artifact.has_value() != (status == HKRT_SUCCESS))
    fail("the reader and hkrt_artifact_metadata disagree");
  if (!artifact) {
    if (status != HKRT_ERROR_INVALID_ARTIFACT || !*hkrt_last_error())
      fail("a refused artifact without HKRT_ERROR_INVALID_ARTIFACT");
    return;
  }
  const char *chips = nullptr;
  if (hkrt_artifact_chips(bytes.data(), bytes.size(), &chips) != HKRT_SUCCESS)
    fail("hkrt_artifact_chips on a valid artifact");
  load(bytes, *artifact);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  for (const char *chip : {"gfx942", "gfx950"}) {
    hkrt_device device = nullptr;
    if (hkrt_device_open_isa(chip, &device) != HKRT_SUCCESS)
      fail(std::string("opening the ISA simulator of ") + chip);
    devices()[chip] = device;
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  check(bytes);
  std::string fixed = rehashed(bytes);
  if (fixed != bytes)
    check(fixed);
  return 0;
}
