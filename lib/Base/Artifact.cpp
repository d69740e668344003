//===- Artifact.cpp - the artifact container: writer and checked reader ---===//

#include "hk/Base/Artifact.h"
#include "hk/Base/Error.h"

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

using namespace hk::rt;

namespace {
constexpr char kMagic[8] = {'H', 'K', 'R', 'T', 'A', 'R', 'T', '\0'};
constexpr size_t kHeaderBytes = 24;
constexpr size_t kEntryBytes = 64;
constexpr size_t kKeyBytes = 32;
constexpr uint32_t kMaxEntries = 256;

/// Kind 3 held the lane-level MLIR of the CPU emulator, which was removed;
/// the reader refuses it by name, as it does any other kind.
enum EntryKind : uint32_t { Metadata = 1, CodeObject = 2, OldEmulatorMlir = 3 };

uint64_t fnv1a(const char *p, size_t n, uint64_t h = 0xcbf29ce484222325ULL) {
  for (size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(p[i]);
    h *= 0x100000001b3ULL;
  }
  return h;
}

void put(std::string &out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out += char((v >> (8 * i)) & 0xFF);
}

uint64_t get(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= uint64_t(p[i]) << (8 * i);
  return v;
}

[[noreturn]] void corrupt(const std::string &what) {
  throw Error(HKRT_ERROR_INVALID_ARTIFACT, "invalid artifact: " + what);
}

/// The entry hash covers its kind, its key (all 32 bytes) and its payload,
/// so that a damaged key cannot silently move a code object to another chip.
uint64_t entryHash(uint32_t kind, const char *key, const char *payload,
                   size_t size) {
  char k[4] = {char(kind), char(kind >> 8), char(kind >> 16), char(kind >> 24)};
  return fnv1a(payload, size, fnv1a(key, kKeyBytes, fnv1a(k, 4)));
}

struct Entry {
  uint32_t kind;
  std::string key;
  const std::string *payload;
};
} // namespace

const KernelInfo *Artifact::findKernel(const std::string &name) const {
  for (const KernelInfo &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

const std::string &Artifact::codeObjectFor(const std::string &chip,
                                           const std::string &device) const {
  auto it = codeObjects.find(chip);
  if (it != codeObjects.end())
    return it->second;
  std::string have;
  for (const auto &[name, bytes] : codeObjects)
    have += (have.empty() ? "" : ", ") + name;
  throw Error(HKRT_ERROR_NO_DEVICE,
              "the artifact has no code object for " + chip + device +
                  "; it has: " + (have.empty() ? "none" : have));
}

std::string hk::rt::stripTargetFeatures(const std::string &gcnArchName) {
  return gcnArchName.substr(0, gcnArchName.find(':'));
}

std::string hk::rt::writeArtifact(const Artifact &a) {
  std::string metadata = kernelInfoToJson(a.kernels);
  std::vector<Entry> entries{{Metadata, "", &metadata}};
  for (const auto &[chip, bytes] : a.codeObjects) {
    if (chip.empty() || chip.size() >= kKeyBytes ||
        chip.find('\0') != std::string::npos)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "code object key '" + chip + "' must have 1 to " +
                      std::to_string(kKeyBytes - 1) + " characters");
    entries.push_back({CodeObject, chip, &bytes});
  }

  uint64_t offset = kHeaderBytes + kEntryBytes * entries.size();
  uint64_t total = offset;
  for (const Entry &e : entries)
    total += e.payload->size();

  std::string out(kMagic, sizeof(kMagic));
  put(out, kArtifactVersion, 4);
  put(out, entries.size(), 4);
  put(out, total, 8);
  for (const Entry &e : entries) {
    put(out, e.kind, 4);
    put(out, 0, 4);
    put(out, offset, 8);
    put(out, e.payload->size(), 8);
    std::string key = e.key;
    key.resize(kKeyBytes, '\0');
    put(out,
        entryHash(e.kind, key.data(), e.payload->data(), e.payload->size()), 8);
    out += key;
    offset += e.payload->size();
  }
  for (const Entry &e : entries)
    out += *e.payload;
  return out;
}

Artifact hk::rt::readArtifact(const void *data, size_t size) {
  const auto *p = static_cast<const unsigned char *>(data);
  if (!p || size < kHeaderBytes)
    corrupt("truncated: " + std::to_string(size) + " bytes, shorter than the " +
            std::to_string(kHeaderBytes) + "-byte header");
  if (memcmp(p, kMagic, sizeof(kMagic)) != 0)
    corrupt("bad magic (not an hkrt artifact)");
  uint32_t version = get(p + 8, 4);
  if (version != kArtifactVersion)
    corrupt("version " + std::to_string(version) + ", this runtime reads " +
            std::to_string(kArtifactVersion));
  uint32_t count = get(p + 12, 4);
  if (count == 0 || count > kMaxEntries)
    corrupt("entry count " + std::to_string(count) + " outside [1, " +
            std::to_string(kMaxEntries) + "]");
  uint64_t total = get(p + 16, 8);
  if (total != size)
    corrupt("header says " + std::to_string(total) + " bytes, the data has " +
            std::to_string(size) + (total > size ? " (truncated)" : ""));
  uint64_t tableEnd = kHeaderBytes + uint64_t(count) * kEntryBytes;
  if (tableEnd > size)
    corrupt("truncated entry table");

  Artifact a;
  bool sawMetadata = false;
  std::set<std::string> keys;
  for (uint32_t i = 0; i < count; ++i) {
    const unsigned char *e = p + kHeaderBytes + i * kEntryBytes;
    std::string which = "entry " + std::to_string(i);
    uint32_t kind = get(e, 4);
    uint64_t offset = get(e + 8, 8), bytes = get(e + 16, 8);
    if (get(e + 4, 4) != 0)
      corrupt(which + ": reserved field is not 0");
    if (offset < tableEnd || offset > size || bytes > size - offset)
      corrupt(which + ": payload [" + std::to_string(offset) + ", +" +
              std::to_string(bytes) + ") outside the file's payload area");
    const char *payload = reinterpret_cast<const char *>(p + offset);
    const char *keyBytes = reinterpret_cast<const char *>(e + 32);
    if (entryHash(kind, keyBytes, payload, bytes) != get(e + 24, 8))
      corrupt(which + ": hash mismatch (corrupt data)");
    size_t keyLen = strnlen(keyBytes, kKeyBytes);
    if (keyLen == kKeyBytes)
      corrupt(which + ": key is not NUL-terminated");
    for (size_t k = keyLen; k < kKeyBytes; ++k)
      if (keyBytes[k] != '\0')
        corrupt(which + ": key padding is not zero");
    std::string key(keyBytes, keyLen), body(payload, bytes);
    if (kind != CodeObject && !key.empty())
      corrupt(which + ": only code objects have a key");
    if (kind == Metadata) {
      if (sawMetadata)
        corrupt("two metadata entries");
      sawMetadata = true;
      a.kernels = kernelInfoFromJson(body);
    } else if (kind == CodeObject) {
      if (key.empty())
        corrupt(which + ": code object without a chip name");
      // Artifacts of the removed emulator carried a host shared object
      // per chip under this key: native host code, never loaded.
      if (key.rfind("emulator-", 0) == 0)
        corrupt(which + ": '" + key +
                "' is a host object of the removed emulator (an artifact "
                "holds metadata and GPU code objects only)");
      if (!keys.insert(key).second)
        corrupt("two code objects for " + key);
      a.codeObjects[key] = std::move(body);
    } else if (kind == OldEmulatorMlir) {
      corrupt(which + ": kind 3 is the lane-level MLIR of the removed "
                      "emulator (an artifact holds metadata and GPU code "
                      "objects only)");
    } else {
      corrupt(which + ": unknown kind " + std::to_string(kind));
    }
  }
  if (!sawMetadata)
    corrupt("no metadata entry");
  return a;
}

Artifact hk::rt::readArtifactFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(HKRT_ERROR_NOT_FOUND, "cannot open artifact '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string bytes = ss.str();
  try {
    return readArtifact(bytes.data(), bytes.size());
  } catch (const Error &e) {
    throw Error(e.status(), path + ": " + e.what());
  }
}

void hk::rt::writeArtifactFile(const Artifact &a, const std::string &path) {
  std::string bytes = writeArtifact(a);
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), bytes.size());
  if (!out)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "cannot write '" + path + "'");
}
