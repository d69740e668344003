//===- Objects.h - the C API's handle types (internal) --------------------===//

#ifndef HK_RUNTIME_CORE_OBJECTS_H
#define HK_RUNTIME_CORE_OBJECTS_H

#include "Backend.h"

#include "hk/Runtime/Emulator.h"

#include <map>

struct hkrt_device_t {
  std::unique_ptr<hk::rt::Backend> backend;
};

struct hkrt_kernel_t {
  hkrt_module module;
  const hk::rt::KernelInfo *info;
};

struct hkrt_module_t {
  hkrt_device device;
  hk::rt::Artifact artifact;
  std::unique_ptr<hk::rt::LoadedModule> loaded;
  std::map<std::string, std::unique_ptr<hkrt_kernel_t>> kernels;
};

struct hkrt_buffer_t {
  hkrt_device device;
  void *address;
  size_t size;
};

namespace hk::rt {
/// The emulator's module: lane code registered per kernel name.
class EmulatorModule : public LoadedModule {
public:
  std::map<std::string, hkemu_lane_fn> laneCode;
  bool hasLaneLevelIR = false;
};
} // namespace hk::rt

#endif // HK_RUNTIME_CORE_OBJECTS_H
