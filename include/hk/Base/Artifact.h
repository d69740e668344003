//===- Artifact.h - one file carrying a kernel set for every target -------===//
//
// An artifact holds the metadata of its kernels and one code object per chip
// (keyed by the gfx name, e.g. "gfx942"); nothing else.
//
// Container (all integers little-endian):
//   offset 0   magic "HKRTART\0" (8 bytes)
//   offset 8   u32 version (1)
//   offset 12  u32 number of entries N (1 <= N <= 256)
//   offset 16  u64 total file size in bytes
//   offset 24  N entries of 64 bytes:
//                u32 kind (1 metadata JSON, 2 code object)
//                u32 reserved (0)
//                u64 payload offset from the start of the file
//                u64 payload size
//                u64 FNV-1a 64-bit hash of kind (4 bytes LE), key (32)
//                    and payload
//                char key[32], NUL-padded (the gfx name of a code object;
//                empty for the other kinds; padding must be zero)
//   payloads, after the table, in entry order.
// Exactly one metadata entry; code object keys unique. The reader checks
// every field and the hashes, and refuses any other kind, naming it: kind 3
// and code objects keyed "emulator-<chip>" were the removed CPU emulator's
// lane-level MLIR and host objects.
//===----------------------------------------------------------------------===//

#ifndef HK_BASE_ARTIFACT_H
#define HK_BASE_ARTIFACT_H

#include "hk/Base/KernelInfo.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hk::rt {

constexpr uint32_t kArtifactVersion = 1;

struct Artifact {
  std::vector<KernelInfo> kernels;
  std::map<std::string, std::string> codeObjects; ///< gfx name -> ELF bytes

  const KernelInfo *findKernel(const std::string &name) const;
  /// The code object for `chip`. Throws hk::rt::Error (HKRT_ERROR_NO_DEVICE)
  /// naming the chip, `device` (how the caller describes itself) and the
  /// code objects the artifact has.
  const std::string &codeObjectFor(const std::string &chip,
                                   const std::string &device) const;
};

/// The container bytes. Throws hk::rt::Error on a key longer than 31 bytes,
/// an empty key or invalid metadata.
std::string writeArtifact(const Artifact &a);
/// Throws hk::rt::Error (HKRT_ERROR_INVALID_ARTIFACT) with what is wrong and
/// where; never reads outside `data`.
Artifact readArtifact(const void *data, size_t size);
Artifact readArtifactFile(const std::string &path);
void writeArtifactFile(const Artifact &a, const std::string &path);

/// "gfx942:sramecc+:xnack-" -> "gfx942".
std::string stripTargetFeatures(const std::string &gcnArchName);

} // namespace hk::rt

#endif // HK_BASE_ARTIFACT_H
