//===- LaunchOnly.h - hk-run --launch-only --------------------------------===//
//
// Launches one kernel of an artifact with arguments built from its metadata
// and the sizes and values given on the command line, without a reference:
// what runs a kernel that has none, such as the planted faults of
// test/Run/faults.test.
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HKRUN_LAUNCHONLY_H
#define HK_TOOLS_HKRUN_LAUNCHONLY_H

#include "hk/Runtime/hkrt.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hk::run {

/// `text` split at every `sep`, empty items kept ("" gives one empty item).
std::vector<std::string> split(const std::string &text, char sep);

/// The --device name of the device's kind: "hip" or "isa".
const char *deviceName(const hkrt::Device &dev);

/// Launches `kernel` of the artifact at `path` on `dev`. `args` is the
/// --args text (one comma-separated item per argument; may be absent only
/// for a kernel without arguments): a memref's sizes (random contents) or a
/// .npy file (its contents), a scalar's value. `saves` are the --save
/// items, ARG=FILE.npy (ARG an argument's name or position): after the
/// launch, each memref is written to its file. Prints the kernel, device,
/// arguments and grid, then LAUNCHED or FAULT with the time, then the files
/// saved. Returns 0 when the launch completes; a kernel fault is thrown as
/// hkrt::Error after the FAULT line, other runtime errors as hkrt::Error,
/// bad --args, --save or .npy files as std::invalid_argument.
int launchOnly(hkrt::Device &dev, const std::string &path,
               const std::string &kernel,
               const std::optional<std::string> &args,
               const std::vector<std::string> &saves, uint32_t seed);

} // namespace hk::run

#endif // HK_TOOLS_HKRUN_LAUNCHONLY_H
