//===- Tune.h - hkc --tune ------------------------------------------------===//
//
// Searches a kernel template's parameter space for the instance the ISA
// simulator's timing model (docs/timing.md) rates fastest at one or more
// shapes, and optionally writes the choice into the tuned table a launch
// reads (hk/Base/TunedTable.h).
//
// Each instance is compiled in process, for one chip, by a worker process
// forked from hkc (at most `jobs` at a time: compiling holds LLVM state
// that is not safe to share between threads, and a crash stays in its
// worker); the worker then times its artifact at every shape with
// `hk-run KERNEL --shape S --artifact FILE --timing`, the timing mode of
// the kernel library's harness, which sets up the kernel's arguments for a
// shape. hkc does not link that harness: the library's artifacts it loads
// are built by hkc itself.
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKC_TUNE_H
#define HK_TOOLS_HKC_TUNE_H

#include "hk/Dialect/HK/Template.h"

#include <string>
#include <vector>

namespace hk::hkc {

struct TuneRequest {
  std::string input; ///< the template's path
  /// The harness (a kernel of the library, hk-run's name); default: the
  /// input's file name without .mlir.
  std::string kernel;
  std::vector<std::string> chips;
  std::vector<std::vector<int64_t>> shapes;
  /// Parameters held at one value (--param).
  ParamValues fixed;
  /// Parameters searched over a subset of their values (--space).
  std::map<std::string, std::vector<std::string>> space;
  unsigned jobs = 1;
  bool write = false;
  /// Where --write puts tables: <dir>/<kernel>/<chip>.json; empty: the
  /// library's layout beside the template, <dir of input>/tuned/<chip>.json.
  std::string tunedDir;
  unsigned maxNesting = 0;
};

/// Parses `--shape` text ("M,N,K"); false with `error` when malformed.
bool parseShape(llvm::StringRef text, std::vector<int64_t> &shape,
                std::string &error);

/// Parses `--space NAME=V1,V2,...` into `space`; false with `error`.
bool addSpace(llvm::StringRef text,
              std::map<std::string, std::vector<std::string>> &space,
              std::string &error);

/// Runs the search and prints its table to stdout; the exit status.
int tune(const TuneRequest &request);

} // namespace hk::hkc

#endif // HK_TOOLS_HKC_TUNE_H
