//===- Objects.h - the objects behind the C API's handles (internal) ------===//
//
// A handle is not a pointer to its object: it is a token that the registry
// (Handles) maps to the object while it is live. Tokens are never reused, so
// a stale handle (freed, unloaded, closed) or a foreign pointer is refused
// with a message instead of being dereferenced. Lookups hand out shared
// ownership, so an object closed by one thread stays alive until the calls
// of other threads that already hold it return.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_CORE_OBJECTS_H
#define HK_RUNTIME_CORE_OBJECTS_H

#include "Device.h"

#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace hk::rt {

struct DeviceObject {
  std::unique_ptr<Device> device;
};

struct ModuleObject;

struct KernelObject {
  ModuleObject *module; ///< its owner
  const KernelInfo *info;
  hkrt_kernel handle = nullptr;
};

struct ModuleObject {
  /// Keeps the device alive for `loaded` (destroyed first: declared last).
  std::shared_ptr<DeviceObject> device;
  hkrt_device deviceHandle = nullptr;
  /// Loaded from a raw code object (no metadata, no kernel handles) rather
  /// than from an artifact.
  bool rawCodeObject = false;
  Artifact artifact;
  std::unique_ptr<LoadedModule> loaded;
  /// One per kernel of the artifact, made at load.
  std::map<std::string, KernelObject> kernels;
};

struct BufferObject {
  BufferObject(std::shared_ptr<DeviceObject> device, hkrt_device deviceHandle,
               void *address, size_t size)
      : device(std::move(device)), deviceHandle(deviceHandle), address(address),
        size(size) {}
  BufferObject(const BufferObject &) = delete;
  BufferObject &operator=(const BufferObject &) = delete;
  /// Device memory goes when the last holder lets go: after the free, or
  /// after a launch still using it on another thread returns.
  ~BufferObject() {
    if (address)
      device->device->release(address);
  }

  std::shared_ptr<DeviceObject> device;
  hkrt_device deviceHandle;
  void *address;
  size_t size;
};

/// The registry of live handles; every member is thread-safe. The find
/// functions return null for a handle that is not live (never returned, or
/// released since), whatever its value.
class Handles {
public:
  static Handles &get();

  hkrt_device add(std::shared_ptr<DeviceObject> device);
  /// Registers the module and each of its kernels (their `handle`s).
  hkrt_module add(std::shared_ptr<ModuleObject> module, hkrt_device device);
  hkrt_buffer add(std::shared_ptr<BufferObject> buffer, hkrt_device device);

  std::shared_ptr<DeviceObject> find(hkrt_device handle) const;
  std::shared_ptr<ModuleObject> find(hkrt_module handle) const;
  /// Shares ownership of the kernel's module.
  std::shared_ptr<KernelObject> find(hkrt_kernel handle) const;
  std::shared_ptr<BufferObject> find(hkrt_buffer handle) const;

  /// Each remove makes the handle and those that depend on it stale and
  /// returns whether it was live. The objects are destroyed outside the
  /// registry's lock, once no other call holds them.
  /// A device takes its modules, their kernels and its buffers with it.
  bool remove(hkrt_device handle);
  /// A module takes its kernels with it.
  bool remove(hkrt_module handle);
  bool remove(hkrt_buffer handle);

private:
  enum class Kind { Device, Module, Kernel, Buffer };
  struct Entry {
    Kind kind;
    std::shared_ptr<void> object;
    uintptr_t device = 0; ///< modules, kernels, buffers: their device
    uintptr_t module = 0; ///< kernels: their module
  };
  uintptr_t insert(Entry entry);
  std::shared_ptr<void> lookup(const void *handle, Kind kind) const;
  /// Removes the entry for `handle` if it is of `kind`, and every entry
  /// whose `Entry::*owner` is `handle`.
  bool removeWithDependents(const void *handle, Kind kind,
                            uintptr_t Entry::*owner);

  mutable std::mutex mutex_;
  std::unordered_map<uintptr_t, Entry> entries_;
  uint64_t nextId_ = 1;
};

/// The object behind a live handle; a null or stale handle throws
/// HKRT_ERROR_INVALID_ARGUMENT saying which.
std::shared_ptr<DeviceObject> live(hkrt_device handle);
std::shared_ptr<ModuleObject> live(hkrt_module handle);
std::shared_ptr<KernelObject> live(hkrt_kernel handle);
std::shared_ptr<BufferObject> live(hkrt_buffer handle);

} // namespace hk::rt

#endif // HK_RUNTIME_CORE_OBJECTS_H
