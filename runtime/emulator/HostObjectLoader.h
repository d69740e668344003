//===- HostObjectLoader.h - lane code from a host object ------------------===//
//
// hkc --emit=artifact stores, for each chip, the host shared object of that
// chip's lane-level IR under the code object key "emulator-<chip>"; it
// exports `<kernel>__lane` with the hkemu_lane_fn ABI. See docs/emulator.md.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_EMULATOR_HOSTOBJECTLOADER_H
#define HK_RUNTIME_EMULATOR_HOSTOBJECTLOADER_H

#include "../core/Objects.h"

namespace hk::rt {

/// The artifact key of the host object for `chip`.
std::string emulatorObjectKey(const std::string &chip);

/// An emulator module whose lane code is the artifact's host object for
/// `chip`, loaded with dlopen (from a private temporary file, removed at
/// once) and unloaded with the module. Without such an object the module
/// has no lane code (it can still be given some with
/// hkrt_emulator_set_lane_code). Throws hk::rt::Error
/// (HKRT_ERROR_INVALID_ARTIFACT) if the object cannot be loaded or lacks a
/// kernel's lane function.
std::unique_ptr<EmulatorModule> loadEmulatorModule(const Artifact &artifact,
                                                   const std::string &chip);

} // namespace hk::rt

#endif // HK_RUNTIME_EMULATOR_HOSTOBJECTLOADER_H
