//===- CodeObjectRun.h - hk-run --code-object -----------------------------===//
//
// Runs one kernel of a foreign AMDGPU code object on the ISA simulator with
// a kernarg segment given item by item (docs/isa-simulator.md).
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKRUN_CODEOBJECTRUN_H
#define HK_TOOLS_HKRUN_CODEOBJECTRUN_H

#include <optional>
#include <string>
#include <vector>

namespace hk::run {

struct CodeObjectOptions {
  std::string path, chip, kernel;
  std::string grid = "1", block = "64", lds;
  /// The --kernarg items: ptr:FILE.npy (an 8-byte pointer to a buffer
  /// holding the file's contents), zeros:N (a pointer to N zero bytes),
  /// u64:V, u32:V, pad:N (N zero bytes); each
  /// at the next offset aligned to its size (pad: 1).
  std::optional<std::string> kernarg;
  /// ITEM=FILE.npy: after the launch, ptr item ITEM's buffer, in the shape
  /// and element type of the file it was read from.
  std::vector<std::string> saves;
  /// --timing: run the cycle model (docs/timing.md) instead of the whole
  /// grid; --trace FILE: its Chrome trace of the first simulated batch.
  bool timing = false;
  std::string trace;
};

/// Loads the code object, builds the kernarg segment (its size must be the
/// kernel descriptor's), runs the launch and saves the buffers asked for.
/// Prints each item's offset, the launch, then LAUNCHED or FAULT with the
/// time. Returns 0; faults and runtime errors are thrown as hk::rt::Error,
/// bad options as std::invalid_argument.
int runCodeObject(const CodeObjectOptions &options);

} // namespace hk::run

#endif // HK_TOOLS_HKRUN_CODEOBJECTRUN_H
