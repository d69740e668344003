//===- CodeObjectApi.cpp - raw code objects through the C API -------------===//
//
// hkrt_module_load_code_object and the launches of its kernels: a code
// object without an artifact's metadata, so the caller passes the kernarg
// segment as bytes and the buffers the kernel may touch. What can be checked
// without metadata is checked here (the segment's size against the kernel
// descriptor, the dispatch's counts, the buffers' handles and device); the
// device does the rest.
//===----------------------------------------------------------------------===//

#include "Guard.h"
#include "Objects.h"

#include "hk/Base/Error.h"

#include <algorithm>

using namespace hk::rt;

namespace {

/// The module behind `h`, which must come from a raw code object.
std::shared_ptr<ModuleObject> liveCodeObject(hkrt_module h) {
  std::shared_ptr<ModuleObject> mod = live(h);
  if (!mod->rawCodeObject)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "the module was loaded from an artifact: launch its kernels "
                "with hkrt_kernel_get and hkrt_launch");
  return mod;
}

void checkDims(const char *what, const uint32_t (&dims)[3]) {
  for (uint32_t d : dims)
    if (d == 0)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  std::string("the dispatch's ") + what + " has a count of 0");
}

/// The launch's memory: each buffer's bytes, sorted. The buffers must live
/// on the module's device; they stay alive in `held` until the launch ends.
std::vector<std::pair<uint64_t, uint64_t>>
bufferRanges(const ModuleObject &mod, const hkrt_buffer *buffers, size_t n,
             std::vector<std::shared_ptr<BufferObject>> &held) {
  if (n && !buffers)
    require(nullptr, "buffer list");
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (size_t i = 0; i < n; ++i) {
    std::shared_ptr<BufferObject> b = live(buffers[i]);
    if (b->deviceHandle != mod.deviceHandle)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "buffer " + std::to_string(i) +
                      " belongs to another device than the module");
    auto begin = reinterpret_cast<uint64_t>(b->address);
    ranges.emplace_back(begin, begin + b->size);
    held.push_back(std::move(b));
  }
  std::sort(ranges.begin(), ranges.end());
  return ranges;
}

} // namespace

extern "C" {

hkrt_status hkrt_module_load_code_object(hkrt_device device, const void *data,
                                         size_t size, hkrt_module *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    std::shared_ptr<DeviceObject> dev = live(device);
    if (!data && size)
      require(nullptr, "code object data");
    auto mod = std::make_shared<ModuleObject>();
    mod->device = dev;
    mod->deviceHandle = device;
    mod->rawCodeObject = true;
    mod->loaded = dev->device->loadCodeObject(
        std::string(static_cast<const char *>(data), size));
    *out = Handles::get().add(std::move(mod), device);
  });
}

hkrt_status hkrt_code_object_kernel_info(hkrt_module module, const char *kernel,
                                         hkrt_code_object_kernel *out) {
  return guard([&] {
    require(out, "output pointer");
    *out = hkrt_code_object_kernel{};
    std::shared_ptr<ModuleObject> mod = liveCodeObject(module);
    require(kernel, "kernel name");
    *out = mod->device->device->describeKernel(*mod->loaded, kernel);
  });
}

hkrt_status hkrt_launch_code_object(hkrt_module module, const char *kernel,
                                    const hkrt_dispatch *dispatch,
                                    const void *kernarg, size_t kernarg_size,
                                    const hkrt_buffer *buffers,
                                    size_t num_buffers) {
  return guard([&] {
    std::shared_ptr<ModuleObject> mod = liveCodeObject(module);
    require(kernel, "kernel name");
    require(dispatch, "dispatch");
    if (!kernarg && kernarg_size)
      require(nullptr, "kernarg segment");
    checkDims("grid", dispatch->grid);
    checkDims("block", dispatch->block);
    Device &device = *mod->device->device;
    hkrt_code_object_kernel info = device.describeKernel(*mod->loaded, kernel);
    if (kernarg_size != info.kernarg_bytes)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "a kernarg segment of " + std::to_string(kernarg_size) +
                      " bytes; the kernel descriptor of " + kernel +
                      " says its kernarg segment is " +
                      std::to_string(info.kernarg_bytes) + " bytes");
    CodeObjectLaunch launch;
    launch.kernel = kernel;
    std::copy(dispatch->grid, dispatch->grid + 3, launch.grid.begin());
    std::copy(dispatch->block, dispatch->block + 3, launch.block.begin());
    launch.dynamicLds = dispatch->dynamic_lds_bytes;
    const char *bytes = static_cast<const char *>(kernarg);
    launch.kernarg.assign(bytes, bytes + kernarg_size);
    std::vector<std::shared_ptr<BufferObject>> held;
    launch.memory = bufferRanges(*mod, buffers, num_buffers, held);
    device.launchCodeObject(*mod->loaded, launch);
  });
}

} // extern "C"

std::unique_ptr<LoadedModule>
hk::rt::Device::loadCodeObject(const std::string &) {
  throw Error(HKRT_ERROR_UNSUPPORTED,
              "raw code objects run on the ISA simulator; this device runs "
              "on a GPU");
}

hkrt_code_object_kernel hk::rt::Device::describeKernel(const LoadedModule &,
                                                       const std::string &) {
  throw Error(HKRT_ERROR_UNSUPPORTED,
              "raw code objects run on the ISA simulator");
}

void hk::rt::Device::launchCodeObject(LoadedModule &,
                                      const CodeObjectLaunch &) {
  throw Error(HKRT_ERROR_UNSUPPORTED,
              "raw code objects run on the ISA simulator");
}
