//===- Tuned.cpp - hk-run's choice of a template instance -----------------===//

#include "Tuned.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <stdexcept>

namespace hk::run {

std::vector<int64_t> shapeBucket(const std::vector<int64_t> &shape) {
  std::vector<int64_t> bucket;
  for (int64_t d : shape) {
    int64_t b = 1;
    while (b < d)
      b *= 2;
    bucket.push_back(d <= 1 ? d : b);
  }
  return bucket;
}

static std::string envOr(const char *name, const std::string &fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string kernelSourcePath(const std::string &kernel) {
  std::string dir = envOr("HK_KERNELS_SOURCE_DIR", HK_KERNELS_SOURCE_DIR);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, kernel, kernel + ".mlir");
  return path.str().str();
}

/// A JSON parameter value as hkc --param takes it.
static std::string paramText(const llvm::json::Value &v,
                             const std::string &table) {
  if (std::optional<int64_t> i = v.getAsInteger())
    return std::to_string(*i);
  if (std::optional<llvm::StringRef> s = v.getAsString())
    return s->str();
  throw std::runtime_error(table + ": a parameter value is neither an "
                                   "integer nor a string");
}

static std::optional<std::vector<int64_t>>
integers(const llvm::json::Array *array) {
  if (!array)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const llvm::json::Value &v : *array) {
    std::optional<int64_t> i = v.getAsInteger();
    if (!i)
      return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

/// The entry of `path` for `bucket`, if the table has one.
static std::optional<TunedChoice> lookup(const std::string &path,
                                         const std::vector<int64_t> &bucket) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    throw std::runtime_error(path + ": " + llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *entries = root ? root->getArray("entries") : nullptr;
  if (!entries)
    throw std::runtime_error(path + ": no \"entries\" array");
  for (const llvm::json::Value &e : *entries) {
    const llvm::json::Object *entry = e.getAsObject();
    std::optional<std::vector<int64_t>> b =
        entry ? integers(entry->getArray("bucket")) : std::nullopt;
    const llvm::json::Object *params =
        entry ? entry->getObject("params") : nullptr;
    if (!b || !params)
      throw std::runtime_error(path +
                               ": an entry without \"bucket\" (integers) "
                               "or \"params\"");
    if (*b != bucket)
      continue;
    TunedChoice choice{{}, path, bucket};
    for (const auto &[name, value] : *params)
      choice.params[name.str()] = paramText(value, path);
    return choice;
  }
  return std::nullopt;
}

std::optional<TunedChoice> findTuned(const std::string &kernel,
                                     const std::string &chip,
                                     const std::vector<int64_t> &shape) {
  std::vector<int64_t> bucket = shapeBucket(shape);
  std::vector<std::string> tables;
  if (const char *user = std::getenv("HK_TUNED_DIR"); user && *user) {
    llvm::SmallString<256> p(user);
    llvm::sys::path::append(p, kernel, chip + ".json");
    tables.push_back(p.str().str());
  }
  llvm::SmallString<256> lib(
      envOr("HK_KERNELS_SOURCE_DIR", HK_KERNELS_SOURCE_DIR));
  llvm::sys::path::append(lib, kernel, "tuned", chip + ".json");
  tables.push_back(lib.str().str());
  for (const std::string &table : tables)
    if (std::optional<TunedChoice> choice = lookup(table, bucket))
      return choice;
  return std::nullopt;
}

} // namespace hk::run
