//===- Tuned.cpp - hk-run's choice of a template instance -----------------===//

#include "Tuned.h"

#include "hk/Base/TunedTable.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace hk::run {

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

std::optional<TunedChoice> findTuned(const std::string &kernel,
                                     const std::string &chip,
                                     const std::vector<int64_t> &shape) {
  std::vector<int64_t> bucket = tuned::shapeBucket(shape);
  std::vector<std::string> tables;
  if (const char *user = std::getenv("HK_TUNED_DIR"); user && *user)
    tables.push_back(tuned::userTablePath(user, kernel, chip));
  llvm::SmallString<256> lib(
      envOr("HK_KERNELS_SOURCE_DIR", HK_KERNELS_SOURCE_DIR));
  llvm::sys::path::append(lib, kernel);
  tables.push_back(tuned::libraryTablePath(lib.str().str(), chip));
  for (const std::string &table : tables)
    if (std::optional<tuned::Entry> entry = tuned::findEntry(table, bucket))
      return TunedChoice{entry->params, table, bucket};
  return std::nullopt;
}

} // namespace hk::run
