//===- TunedTable.h - tables of tuned template instances ------------------===//
//
// The one C++ definition of the tuned tables (docs/kernels.md, "Tuned
// tables"): hk-run reads them to choose the instance of a template it
// launches, hkc --tune writes them; python/hk/autotune.py writes and reads
// the same JSON. One table per kernel and chip:
//
//   {
//     "kernel": "gemm_bf16",
//     "chip": "gfx950",
//     "entries": [
//       {
//         "bucket": [512, 512, 4096],       // shapeBucket of the shapes
//         "shapes": [[512, 512, 4096]],     // the shapes tuned
//         "params": {"BM": 128, "BN": 128}, // the instance ({}: default)
//         "microseconds": 30.7159,          // summed over the shapes
//         "default_microseconds": 63.032,   // the default, the same way
//         "speedup": 2.0521
//       }
//     ],
//     "measured_on": "model",               // or "hip": what timed it
//     "bucketing": "each dimension above 1 rounded up to a power of two"
//   }
//
// (each array one element a line, as Python's json.dump with indent 2
// writes it). A launch needs only "bucket" and "params" of each entry; the
// rest records how the choice was made. Parameter values are JSON integers
// for integer parameters and strings for keywords.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_TUNEDTABLE_H
#define HK_BASE_TUNEDTABLE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hk::tuned {

/// A shape's bucket: each dimension above 1 rounded up to a power of two
/// (0 and 1 stay).
std::vector<int64_t> shapeBucket(const std::vector<int64_t> &shape);

struct Entry {
  std::vector<int64_t> bucket;
  std::vector<std::vector<int64_t>> shapes;
  /// Parameter name -> value as `--param NAME=VALUE` takes it.
  std::map<std::string, std::string> params;
  double microseconds = 0;
  double defaultMicroseconds = 0;
};

/// The user's table of `kernel` on `chip` under `dir`
/// (<dir>/<kernel>/<chip>.json, the layout of $HK_TUNED_DIR and of
/// hk.autotune's cache).
std::string userTablePath(const std::string &dir, const std::string &kernel,
                          const std::string &chip);
/// The library's table beside a template in `kernelDir`
/// (<kernelDir>/tuned/<chip>.json).
std::string libraryTablePath(const std::string &kernelDir,
                             const std::string &chip);

/// The entry of the table at `path` for `bucket`: nothing when the file
/// does not exist or has no entry for it. A malformed table throws
/// std::runtime_error naming the file.
std::optional<Entry> findEntry(const std::string &path,
                               const std::vector<int64_t> &bucket);

/// Merges `entries` into the table at `path` (created with its directories
/// if missing; an entry of the same bucket replaced; entries kept in
/// bucket order) and writes it through a temporary file renamed over it.
/// Throws std::runtime_error on a malformed table or a failed write.
void mergeEntries(const std::string &path, const std::string &kernel,
                  const std::string &chip, const std::string &measuredOn,
                  const std::vector<Entry> &entries);

} // namespace hk::tuned

#endif // HK_BASE_TUNEDTABLE_H
