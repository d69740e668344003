//===- CApi.cpp - the C API over the backends -----------------------------===//
//
// Every entry point runs its body inside `guard`, which turns an
// hk::rt::Error (or an allocation failure) into a status code and the
// thread's last-error string.
//===----------------------------------------------------------------------===//

#include "Objects.h"

#include "hk/Runtime/Error.h"

#include <cstdlib>
#include <cstring>
#include <new>

using namespace hk::rt;

static thread_local std::string lastError;

/// Bytes allocated after every buffer's last byte; see hkrt_buffer_alloc.
static constexpr size_t kBufferTailSlack = 4;

template <typename F> static hkrt_status guard(F &&body) {
  try {
    body();
    lastError.clear();
    return HKRT_SUCCESS;
  } catch (const Error &e) {
    lastError = e.what();
    return e.status();
  } catch (const std::bad_alloc &) {
    lastError = "out of host memory";
    return HKRT_ERROR_OUT_OF_MEMORY;
  }
}

static void require(const void *p, const char *what) {
  if (!p)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, std::string("null ") + what);
}

extern "C" {

const char *hkrt_last_error(void) { return lastError.c_str(); }

const char *hkrt_status_name(hkrt_status s) {
  switch (s) {
  case HKRT_SUCCESS: return "success";
  case HKRT_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case HKRT_ERROR_NOT_FOUND: return "not found";
  case HKRT_ERROR_INVALID_ARTIFACT: return "invalid artifact";
  case HKRT_ERROR_NO_RUNTIME: return "no HIP runtime";
  case HKRT_ERROR_NO_DEVICE: return "no device";
  case HKRT_ERROR_BACKEND: return "backend error";
  case HKRT_ERROR_OUT_OF_MEMORY: return "out of memory";
  case HKRT_ERROR_KERNEL_FAULT: return "kernel fault";
  case HKRT_ERROR_UNSUPPORTED: return "unsupported";
  }
  return "unknown status";
}

hkrt_arg hkrt_arg_memref(hkrt_buffer buffer, hkrt_dtype dtype, int32_t rank,
                         const int64_t *sizes, const int64_t *strides) {
  hkrt_arg a;
  memset(&a, 0, sizeof(a));
  a.kind = HKRT_ARG_MEMREF;
  a.dtype = dtype;
  a.buffer = buffer;
  a.rank = rank;
  int32_t r = rank < 0 ? 0 : rank > HKRT_MAX_RANK ? HKRT_MAX_RANK : rank;
  for (int32_t d = 0; d < r; ++d)
    a.sizes[d] = sizes ? sizes[d] : 0;
  int64_t stride = 1;
  for (int32_t d = r - 1; d >= 0; --d) {
    a.strides[d] = strides ? strides[d] : stride;
    stride *= a.sizes[d] > 0 ? a.sizes[d] : 1;
  }
  return a;
}

hkrt_arg hkrt_arg_int(hkrt_dtype dtype, int64_t value) {
  hkrt_arg a;
  memset(&a, 0, sizeof(a));
  a.kind = HKRT_ARG_SCALAR;
  a.dtype = dtype;
  a.i = value;
  a.f = double(value);
  return a;
}

hkrt_arg hkrt_arg_float(hkrt_dtype dtype, double value) {
  hkrt_arg a;
  memset(&a, 0, sizeof(a));
  a.kind = HKRT_ARG_SCALAR;
  a.dtype = dtype;
  a.f = value;
  return a;
}

hkrt_status hkrt_device_open(hkrt_device_kind kind, int index,
                             hkrt_device *out) {
  return guard([&] {
    require(out, "output handle");
    *out = nullptr;
    auto dev = std::make_unique<hkrt_device_t>();
    if (kind == HKRT_DEVICE_HIP) {
      dev->backend = openHipBackend(index);
    } else if (kind == HKRT_DEVICE_EMULATOR) {
      const char *chip = getenv("HKRT_EMULATOR_CHIP");
      dev->backend = openEmulatorBackend(chip && *chip ? chip : "gfx942");
    } else if (kind == HKRT_DEVICE_AUTO) {
      try {
        dev->backend = openHipBackend(index);
      } catch (const Error &) {
        const char *chip = getenv("HKRT_EMULATOR_CHIP");
        dev->backend = openEmulatorBackend(chip && *chip ? chip : "gfx942");
      }
    } else {
      throw Error(HKRT_ERROR_INVALID_ARGUMENT, "unknown device kind");
    }
    *out = dev.release();
  });
}

hkrt_status hkrt_device_open_emulator(const char *chip, hkrt_device *out) {
  return guard([&] {
    require(out, "output handle");
    require(chip, "chip name");
    *out = nullptr;
    auto dev = std::make_unique<hkrt_device_t>();
    dev->backend = openEmulatorBackend(chip);
    *out = dev.release();
  });
}

hkrt_status hkrt_device_close(hkrt_device device) {
  return guard([&] { delete device; });
}

hkrt_device_kind hkrt_device_get_kind(hkrt_device device) {
  return device ? device->backend->kind() : HKRT_DEVICE_AUTO;
}

const char *hkrt_device_chip(hkrt_device device) {
  return device ? device->backend->chip().c_str() : "";
}

static void loadArtifact(hkrt_device device, Artifact artifact,
                         hkrt_module *out) {
  auto mod = std::make_unique<hkrt_module_t>();
  mod->device = device;
  mod->artifact = std::move(artifact);
  mod->loaded = device->backend->load(mod->artifact);
  *out = mod.release();
}

hkrt_status hkrt_module_load(hkrt_device device, const void *data,
                             size_t size, hkrt_module *out) {
  return guard([&] {
    require(device, "device");
    require(out, "output handle");
    *out = nullptr;
    loadArtifact(device, readArtifact(data, size), out);
  });
}

hkrt_status hkrt_module_load_file(hkrt_device device, const char *path,
                                  hkrt_module *out) {
  return guard([&] {
    require(device, "device");
    require(path, "path");
    require(out, "output handle");
    *out = nullptr;
    loadArtifact(device, readArtifactFile(path), out);
  });
}

hkrt_status hkrt_module_unload(hkrt_module module) {
  return guard([&] { delete module; });
}

hkrt_status hkrt_kernel_get(hkrt_module module, const char *name,
                            hkrt_kernel *out) {
  return guard([&] {
    require(module, "module");
    require(name, "kernel name");
    require(out, "output handle");
    *out = nullptr;
    auto &slot = module->kernels[name];
    if (!slot) {
      const KernelInfo *info = module->artifact.findKernel(name);
      if (!info) {
        module->kernels.erase(name);
        std::string known;
        for (const KernelInfo &k : module->artifact.kernels)
          known += (known.empty() ? "" : ", ") + k.name;
        throw Error(HKRT_ERROR_NOT_FOUND, "no kernel '" + std::string(name) +
                                              "' in the module (it has: " +
                                              known + ")");
      }
      slot = std::make_unique<hkrt_kernel_t>(hkrt_kernel_t{module, info});
    }
    *out = slot.get();
  });
}

hkrt_status hkrt_buffer_alloc(hkrt_device device, size_t bytes,
                              hkrt_buffer *out) {
  return guard([&] {
    require(device, "device");
    require(out, "output handle");
    *out = nullptr;
    auto buf = std::make_unique<hkrt_buffer_t>();
    buf->device = device;
    buf->size = bytes;
    // Kernels may read (never write) up to 3 bytes past a memref's last
    // element: a buffer load of several dwords is range checked per dword,
    // so the lowering extends each buffer's range to complete the dword
    // holding the last element (docs/lowering.md, Global memory). The
    // slack keeps those bytes inside the allocation for any memref within
    // the buffer.
    size_t padded;
    if (__builtin_add_overflow(bytes, kBufferTailSlack, &padded))
      throw Error(HKRT_ERROR_OUT_OF_MEMORY,
                  "cannot allocate " + std::to_string(bytes) + " bytes");
    buf->address = device->backend->allocate(padded);
    *out = buf.release();
  });
}

hkrt_status hkrt_buffer_free(hkrt_buffer buffer) {
  return guard([&] {
    if (!buffer)
      return;
    buffer->device->backend->release(buffer->address);
    delete buffer;
  });
}

static void checkRange(hkrt_buffer buffer, size_t offset, size_t bytes) {
  require(buffer, "buffer");
  if (offset > buffer->size || bytes > buffer->size - offset)
    throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                "copy of " + std::to_string(bytes) + " bytes at offset " +
                    std::to_string(offset) + " overruns a buffer of " +
                    std::to_string(buffer->size) + " bytes");
}

hkrt_status hkrt_buffer_write(hkrt_buffer buffer, size_t offset,
                              const void *src, size_t bytes) {
  return guard([&] {
    checkRange(buffer, offset, bytes);
    if (!src && bytes)
      require(nullptr, "source");
    buffer->device->backend->copyToDevice(
        static_cast<char *>(buffer->address) + offset, src, bytes);
  });
}

hkrt_status hkrt_buffer_read(hkrt_buffer buffer, size_t offset, void *dst,
                             size_t bytes) {
  return guard([&] {
    checkRange(buffer, offset, bytes);
    if (!dst && bytes)
      require(nullptr, "destination");
    buffer->device->backend->copyToHost(
        dst, static_cast<char *>(buffer->address) + offset, bytes);
  });
}

size_t hkrt_buffer_size(hkrt_buffer buffer) {
  return buffer ? buffer->size : 0;
}

hkrt_status hkrt_launch(hkrt_kernel kernel, const hkrt_arg *args,
                        size_t numArgs) {
  return guard([&] {
    require(kernel, "kernel");
    hkrt_module mod = kernel->module;
    std::vector<LaunchArg> checked =
        checkLaunchArguments(*kernel->info, args, numArgs, mod->device);
    std::array<uint32_t, 3> grid = computeGrid(*kernel->info, checked);
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
      return; // An empty grid has nothing to run.
    mod->device->backend->launch(*mod->loaded, *kernel->info, grid, checked);
  });
}

hkrt_status hkrt_synchronize(hkrt_device device) {
  return guard([&] {
    require(device, "device");
    device->backend->synchronize();
  });
}

hkrt_status hkrt_emulator_set_lane_code(hkrt_module module, const char *kernel,
                                        hkemu_lane_fn fn) {
  return guard([&] {
    require(module, "module");
    require(kernel, "kernel name");
    require(reinterpret_cast<const void *>(fn), "lane function");
    auto *emu = dynamic_cast<EmulatorModule *>(module->loaded.get());
    if (!emu)
      throw Error(HKRT_ERROR_INVALID_ARGUMENT,
                  "lane code can only be set on a module loaded on the "
                  "emulator");
    if (!module->artifact.findKernel(kernel))
      throw Error(HKRT_ERROR_NOT_FOUND,
                  "no kernel '" + std::string(kernel) + "' in the module");
    emu->laneCode[kernel] = fn;
  });
}

} // extern "C"
