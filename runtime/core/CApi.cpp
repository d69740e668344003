//===- CApi.cpp - the C API over the devices ------------------------------===//
//
// Every entry point runs its body inside `guard`, which turns an
// hk::rt::Error (or an allocation failure) into a status code and the
// thread's last-error string. Handles are resolved through the registry
// (Objects.h) before anything is touched.
//===----------------------------------------------------------------------===//

#include "Guard.h"
#include "Objects.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"

#include <cstdlib>
#include <cstring>
#include <new>

using namespace hk::rt;

/// Bytes allocated after every buffer's last byte; see hkrt_buffer_alloc.
static constexpr size_t kBufferTailSlack = 4;

/// The largest buffer hkrt_buffer_alloc tries to allocate: 2^48 bytes, the
/// virtual address space of x86-64 (4-level paging) and of gfx9 GPUs. A
/// larger request is refused up front, so that neither the tail slack nor
/// a device's size rounding can wrap.
static constexpr size_t kMaxBufferBytes = size_t(1) << 48;

[[noreturn]] static void stale(const char *what) {
  throw Error(HKRT_ERROR_INVALID_ARGUMENT, what);
}

std::shared_ptr<DeviceObject> hk::rt::live(hkrt_device h) {
  require(h, "device");
  if (auto device = Handles::get().find(h))
    return device;
  stale("unknown or already closed device handle");
}

std::shared_ptr<ModuleObject> hk::rt::live(hkrt_module h) {
  require(h, "module");
  if (auto module = Handles::get().find(h))
    return module;
  stale("unknown or already unloaded module handle");
}

std::shared_ptr<KernelObject> hk::rt::live(hkrt_kernel h) {
  require(h, "kernel");
  if (auto kernel = Handles::get().find(h))
    return kernel;
  stale("unknown kernel handle, or its module was unloaded");
}

std::shared_ptr<BufferObject> hk::rt::live(hkrt_buffer h) {
  require(h, "buffer");
  if (auto buffer = Handles::get().find(h))
    return buffer;
  stale("unknown or already freed buffer handle");
}

extern "C" {

const char *hkrt_last_error(void) { return lastError.c_str(); }

const char *hkrt_status_name(hkrt_status s) {
  switch (rawValue(s)) {
  case HKRT_SUCCESS:
    return "success";
  case HKRT_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case HKRT_ERROR_NOT_FOUND:
    return "not found";
  case HKRT_ERROR_INVALID_ARTIFACT:
    return "invalid artifact";
  case HKRT_ERROR_NO_RUNTIME:
    return "no HIP runtime";
  case HKRT_ERROR_NO_DEVICE:
    return "no device";
  case HKRT_ERROR_DEVICE:
    return "device error";
  case HKRT_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case HKRT_ERROR_KERNEL_FAULT:
    return "kernel fault";
  case HKRT_ERROR_UNSUPPORTED:
    return "unsupported";
  }
  return "unknown status";
}

} // extern "C"

/// Stores the caller's dtype as given, without reading it as the C++ enum
/// (undefined for a value outside its range): hkrt_launch refuses an
/// unknown one with the argument's name.
static void setDtype(hkrt_arg &a, const hkrt_dtype &dtype) {
  std::memcpy(&a.dtype, &dtype, sizeof dtype);
}

extern "C" {

hkrt_arg hkrt_arg_memref(hkrt_buffer buffer, hkrt_dtype dtype, int32_t rank,
                         const int64_t *sizes, const int64_t *strides) {
  hkrt_arg a;
  memset(&a, 0, sizeof(a));
  a.kind = HKRT_ARG_MEMREF;
  setDtype(a, dtype);
  a.buffer = buffer;
  a.rank = rank;
  int32_t r = rank < 0 ? 0 : rank > HKRT_MAX_RANK ? HKRT_MAX_RANK : rank;
  for (int32_t d = 0; d < r; ++d)
    a.sizes[d] = sizes ? sizes[d] : 0;
  // Unsigned, so that sizes whose product overflows wrap instead of being
  // undefined; hkrt_launch then reports them.
  uint64_t stride = 1;
  for (int32_t d = r - 1; d >= 0; --d) {
    a.strides[d] = strides ? strides[d] : int64_t(stride);
    stride *= a.sizes[d] > 0 ? uint64_t(a.sizes[d]) : 1;
  }
  return a;
}

hkrt_arg hkrt_arg_int(hkrt_dtype dtype, int64_t value) {
  hkrt_arg a;
  memset(&a, 0, sizeof(a));
  a.kind = HKRT_ARG_SCALAR;
  setDtype(a, dtype);
  a.i = value;
  a.f = double(value);
  return a;
}

hkrt_arg hkrt_arg_float(hkrt_dtype dtype, double value) {
  hkrt_arg a;
  memset(&a, 0, sizeof(a));
  a.kind = HKRT_ARG_SCALAR;
  setDtype(a, dtype);
  a.f = value;
  return a;
}

/// The ISA simulator for $HKRT_ISA_CHIP, else the default chip.
static std::unique_ptr<Device> openIsaFromEnvironment() {
  const char *chip = getenv("HKRT_ISA_CHIP");
  return openIsaDevice(chip && *chip ? chip : hk::kDefaultChip);
}

/// Kind 2 was the CPU emulator, removed: the ISA simulator replaces it.
constexpr int kRemovedEmulatorKind = 2;

static std::unique_ptr<Device> openDeviceOfKind(int kind, int index) {
  switch (kind) {
  case HKRT_DEVICE_HIP:
    return openHipDevice(index);
  case HKRT_DEVICE_ISA:
    return openIsaFromEnvironment();
  case HKRT_DEVICE_AUTO:
    try {
      return openHipDevice(index);
    } catch (const Error &) {
      return openIsaFromEnvironment();
    }
  }
  if (kind == kRemovedEmulatorKind)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "device kind 2 was the CPU emulator, which was removed: the "
                "ISA simulator (HKRT_DEVICE_ISA) replaces it");
  throw Error(HKRT_ERROR_INVALID_ARGUMENT,
              "unknown device kind " + std::to_string(kind));
}

static void openDevice(std::unique_ptr<Device> impl, hkrt_device *out) {
  auto device = std::make_shared<DeviceObject>();
  device->device = std::move(impl);
  *out = Handles::get().add(std::move(device));
}

hkrt_status hkrt_device_open(hkrt_device_kind kind, int index,
                             hkrt_device *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    openDevice(openDeviceOfKind(rawValue(kind), index), out);
  });
}

hkrt_status hkrt_device_open_isa(const char *chip, hkrt_device *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    require(chip, "chip name");
    openDevice(openIsaDevice(chip), out);
  });
}

hkrt_status hkrt_device_set_timing(hkrt_device device, int enable,
                                   const char *trace_path) {
  return guard([&] {
    live(device)->device->setTiming(enable != 0, trace_path ? trace_path : "");
  });
}

hkrt_status hkrt_device_timing_report(hkrt_device device, const char **json) {
  return guard([&] {
    require(json, "output pointer");
    *json = nullptr;
    *json = live(device)->device->timingReport().c_str();
  });
}

void hk::rt::Device::setTiming(bool, const std::string &) {
  throw Error(HKRT_ERROR_UNSUPPORTED,
              "the timing mode is a mode of the ISA simulator; this device "
              "runs on a GPU");
}

const std::string &hk::rt::Device::timingReport() const {
  throw Error(HKRT_ERROR_INVALID_ARGUMENT, "no launch on this device was "
                                           "timed (hkrt_device_set_timing)");
}

const std::string &hk::rt::Device::timingText() const { return timingReport(); }

hkrt_status hkrt_device_timing_text(hkrt_device device, const char **text) {
  return guard([&] {
    require(text, "output pointer");
    *text = nullptr;
    *text = live(device)->device->timingText().c_str();
  });
}

hkrt_status hkrt_device_close(hkrt_device device) {
  return guard([&] {
    if (device && !Handles::get().remove(device))
      stale("unknown or already closed device handle");
  });
}

hkrt_device_kind hkrt_device_get_kind(hkrt_device device) {
  return guardValue(HKRT_DEVICE_AUTO,
                    [&] { return live(device)->device->kind(); });
}

const char *hkrt_device_chip(hkrt_device device) {
  // The string belongs to the device, which the registry keeps until the
  // device is closed.
  return guardValue<const char *>(
      "", [&] { return live(device)->device->chip().c_str(); });
}

static void loadArtifact(hkrt_device device, Artifact artifact,
                         hkrt_module *out) {
  std::shared_ptr<DeviceObject> dev = live(device);
  auto mod = std::make_shared<ModuleObject>();
  mod->device = dev;
  mod->deviceHandle = device;
  mod->artifact = std::move(artifact);
  mod->loaded = dev->device->load(mod->artifact);
  for (const KernelInfo &info : mod->artifact.kernels)
    mod->kernels.emplace(info.name, KernelObject{mod.get(), &info});
  *out = Handles::get().add(std::move(mod), device);
}

hkrt_status hkrt_module_load(hkrt_device device, const void *data, size_t size,
                             hkrt_module *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    live(device);
    if (!data && size)
      require(nullptr, "artifact data");
    loadArtifact(device, readArtifact(data, size), out);
  });
}

hkrt_status hkrt_module_load_file(hkrt_device device, const char *path,
                                  hkrt_module *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    live(device);
    require(path, "path");
    loadArtifact(device, readArtifactFile(path), out);
  });
}

hkrt_status hkrt_module_unload(hkrt_module module) {
  return guard([&] {
    if (module && !Handles::get().remove(module))
      stale("unknown or already unloaded module handle");
  });
}

hkrt_status hkrt_kernel_get(hkrt_module module, const char *name,
                            hkrt_kernel *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    std::shared_ptr<ModuleObject> mod = live(module);
    require(name, "kernel name");
    if (mod->rawCodeObject)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "the module is a raw code object, without the kernel "
                  "metadata a kernel handle needs: launch '" +
                      std::string(name) + "' with hkrt_launch_code_object");
    auto it = mod->kernels.find(name);
    if (it == mod->kernels.end()) {
      std::string known;
      for (const KernelInfo &k : mod->artifact.kernels)
        known += (known.empty() ? "" : ", ") + k.name;
      throw Error(HKRT_ERROR_NOT_FOUND,
                  "no kernel '" + std::string(name) +
                      "' in the module (it has: " + known + ")");
    }
    *out = it->second.handle;
  });
}

/// `bytes` plus the tail slack, refused when larger than any device holds.
static size_t paddedSize(size_t bytes) {
  // Kernels may read (never write) up to 3 bytes past a memref's last
  // element: a buffer load of several dwords is range checked per dword,
  // so the lowering extends each buffer's range to complete the dword
  // holding the last element (docs/lowering.md, Global memory). The
  // slack keeps those bytes inside the allocation for any memref within
  // the buffer.
  if (bytes > kMaxBufferBytes)
    throw Error(HKRT_ERROR_OUT_OF_MEMORY,
                "cannot allocate " + std::to_string(bytes) +
                    " bytes: more than the 2^48 bytes any device addresses");
  return bytes + kBufferTailSlack;
}

hkrt_status hkrt_buffer_alloc(hkrt_device device, size_t bytes,
                              hkrt_buffer *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    std::shared_ptr<DeviceObject> dev = live(device);
    size_t padded = paddedSize(bytes);
    // The object owns the memory from the moment it exists, so a failure
    // registering it releases the memory.
    auto buffer = std::make_shared<BufferObject>(dev, device, nullptr, bytes);
    buffer->address = dev->device->allocate(padded);
    *out = Handles::get().add(std::move(buffer), device);
  });
}

hkrt_status hkrt_buffer_free(hkrt_buffer buffer) {
  return guard([&] {
    if (buffer && !Handles::get().remove(buffer))
      stale("unknown or already freed buffer handle");
  });
}

static void checkRange(const BufferObject &buffer, size_t offset,
                       size_t bytes) {
  if (offset > buffer.size || bytes > buffer.size - offset)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "copy of " + std::to_string(bytes) + " bytes at offset " +
                    std::to_string(offset) + " overruns a buffer of " +
                    std::to_string(buffer.size) + " bytes");
}

hkrt_status hkrt_buffer_write(hkrt_buffer buffer, size_t offset,
                              const void *src, size_t bytes) {
  return guard([&] {
    std::shared_ptr<BufferObject> buf = live(buffer);
    checkRange(*buf, offset, bytes);
    if (!src && bytes)
      require(nullptr, "source");
    buf->device->device->copyToDevice(
        static_cast<char *>(buf->address) + offset, src, bytes);
  });
}

hkrt_status hkrt_buffer_read(hkrt_buffer buffer, size_t offset, void *dst,
                             size_t bytes) {
  return guard([&] {
    std::shared_ptr<BufferObject> buf = live(buffer);
    checkRange(*buf, offset, bytes);
    if (!dst && bytes)
      require(nullptr, "destination");
    buf->device->device->copyToHost(
        dst, static_cast<char *>(buf->address) + offset, bytes);
  });
}

size_t hkrt_buffer_size(hkrt_buffer buffer) {
  return guardValue<size_t>(0, [&] { return live(buffer)->size; });
}

hkrt_status hkrt_buffer_address(hkrt_buffer buffer, uint64_t *address) {
  return guard([&] {
    require(address, "output pointer");
    *address = 0;
    *address = reinterpret_cast<uint64_t>(live(buffer)->address);
  });
}

hkrt_status hkrt_launch(hkrt_kernel kernel, const hkrt_arg *args,
                        size_t numArgs) {
  return guard([&] {
    std::shared_ptr<KernelObject> k = live(kernel);
    ModuleObject &mod = *k->module;
    std::vector<LaunchArg> checked =
        checkLaunchArguments(*k->info, args, numArgs, mod.deviceHandle);
    std::array<uint32_t, 3> grid = computeGrid(*k->info, checked);
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
      return; // An empty grid has nothing to run.
    mod.device->device->launch(*mod.loaded, *k->info, grid, checked);
  });
}

hkrt_status hkrt_synchronize(hkrt_device device) {
  return guard([&] { live(device)->device->synchronize(); });
}

} // extern "C"
