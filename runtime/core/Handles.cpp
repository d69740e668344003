//===- Handles.cpp - the registry of live C API handles -------------------===//

#include "Objects.h"

#include "hk/Base/Error.h"

using namespace hk::rt;

/// Tokens are kTokenBase + 16 * id. kTokenBase sets bits 48-62, so a token
/// is no canonical x86-64 or AArch64 user-space address: a pointer to any
/// real object (a struct mistaken for a handle, a dangling pointer) never
/// equals a live token. Ids count up and are never reused: a freed handle
/// stays stale whatever is allocated after it, at its old address or not.
static constexpr uintptr_t kTokenBase = uintptr_t(0x484b) << 48; // "HK"

static_assert(sizeof(uintptr_t) == 8, "handle tokens need 64-bit pointers");

Handles &Handles::get() {
  // Never destroyed: handles may be released by static destructors of the
  // program after this registry would have gone.
  static Handles *handles = new Handles;
  return *handles;
}

/// The last id: 16 * id stays below bit 48, so no token ever repeats and
/// every token keeps kTokenBase's bits.
static constexpr uint64_t kMaxId = (uint64_t(1) << 44) - 1;

uintptr_t Handles::insert(Entry entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Refused rather than wrapped: a stale handle must never come back.
  if (nextId_ > kMaxId)
    throw Error(HKRT_ERROR_OUT_OF_MEMORY,
                "out of handles: every handle this process can hold has been "
                "used");
  uintptr_t token = kTokenBase + 16 * uintptr_t(nextId_++);
  entries_.emplace(token, std::move(entry));
  return token;
}

template <typename H> static H toHandle(uintptr_t token) {
  return reinterpret_cast<H>(token);
}

hkrt_device Handles::add(std::shared_ptr<DeviceObject> device) {
  return toHandle<hkrt_device>(insert({Kind::Device, std::move(device)}));
}

hkrt_module Handles::add(std::shared_ptr<ModuleObject> module,
                         hkrt_device device) {
  auto dev = reinterpret_cast<uintptr_t>(device);
  uintptr_t token = insert({Kind::Module, module, dev});
  try {
    for (auto &[name, kernel] : module->kernels) {
      // The kernel's entry owns its module (aliasing), so a kernel handle
      // looked up keeps the module alive.
      std::shared_ptr<void> alias(module, &kernel);
      kernel.handle = toHandle<hkrt_kernel>(
          insert({Kind::Kernel, std::move(alias), dev, token}));
    }
  } catch (...) {
    // Out of memory half way: no handle of the module may stay registered.
    removeWithDependents(reinterpret_cast<const void *>(token), Kind::Module,
                         &Entry::module);
    throw;
  }
  return toHandle<hkrt_module>(token);
}

hkrt_buffer Handles::add(std::shared_ptr<BufferObject> buffer,
                         hkrt_device device) {
  return toHandle<hkrt_buffer>(insert(
      {Kind::Buffer, std::move(buffer), reinterpret_cast<uintptr_t>(device)}));
}

std::shared_ptr<void> Handles::lookup(const void *handle, Kind kind) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(reinterpret_cast<uintptr_t>(handle));
  if (it == entries_.end() || it->second.kind != kind)
    return nullptr;
  return it->second.object;
}

std::shared_ptr<DeviceObject> Handles::find(hkrt_device handle) const {
  return std::static_pointer_cast<DeviceObject>(lookup(handle, Kind::Device));
}

std::shared_ptr<ModuleObject> Handles::find(hkrt_module handle) const {
  return std::static_pointer_cast<ModuleObject>(lookup(handle, Kind::Module));
}

std::shared_ptr<KernelObject> Handles::find(hkrt_kernel handle) const {
  return std::static_pointer_cast<KernelObject>(lookup(handle, Kind::Kernel));
}

std::shared_ptr<BufferObject> Handles::find(hkrt_buffer handle) const {
  return std::static_pointer_cast<BufferObject>(lookup(handle, Kind::Buffer));
}

bool Handles::removeWithDependents(const void *handle, Kind kind,
                                   uintptr_t Entry::*owner) {
  auto token = reinterpret_cast<uintptr_t>(handle);
  // Destroyed after the lock is released: a buffer's destructor frees
  // device memory, a module's unloads code, and neither should hold up
  // other threads' lookups.
  std::vector<std::shared_ptr<void>> released;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(token);
  if (it == entries_.end() || it->second.kind != kind)
    return false;
  for (auto e = entries_.begin(); e != entries_.end();) {
    if (e->first == token || (owner && e->second.*owner == token)) {
      released.push_back(std::move(e->second.object));
      e = entries_.erase(e);
    } else {
      ++e;
    }
  }
  return true;
}

bool Handles::remove(hkrt_device handle) {
  return removeWithDependents(handle, Kind::Device, &Entry::device);
}

bool Handles::remove(hkrt_module handle) {
  return removeWithDependents(handle, Kind::Module, &Entry::module);
}

bool Handles::remove(hkrt_buffer handle) {
  return removeWithDependents(handle, Kind::Buffer, nullptr);
}
