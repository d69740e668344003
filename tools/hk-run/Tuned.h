//===- Tuned.h - hk-run's choice of a template instance -------------------===//
//
// A library kernel that is a template (docs/kernels.md, "Templates") runs
// at the instance a tuned table names for the shape's bucket, when one
// does: `--param` chooses by hand, `--no-tuned` keeps the default instance.
// Tables are JSON (hk/Base/TunedTable.h; python/hk/autotune.py and hkc
// --tune write them): the user's, in $HK_TUNED_DIR/<kernel>/<chip>.json
// (hk.autotune's cache directory), come before the library's,
// kernels/<kernel>/tuned/<chip>.json.
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKRUN_TUNED_H
#define HK_TOOLS_HKRUN_TUNED_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hk::run {

struct TunedChoice {
  std::map<std::string, std::string> params;
  std::string table; ///< the file it came from
  std::vector<int64_t> bucket;
};

/// The tuned instance of `kernel` on `chip` for `shape`, if a table has
/// its bucket. A malformed table is an error (std::runtime_error).
std::optional<TunedChoice> findTuned(const std::string &kernel,
                                     const std::string &chip,
                                     const std::vector<int64_t> &shape);

/// The library's template of `kernel`: kernels/<kernel>/<kernel>.mlir in
/// $HK_KERNELS_SOURCE_DIR, else in the source tree hk-run was built from.
std::string kernelSourcePath(const std::string &kernel);

} // namespace hk::run

#endif // HK_TOOLS_HKRUN_TUNED_H
