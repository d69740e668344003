//===- HipDevice.cpp - hkrt devices on AMD GPUs through HIP (dlopen) -----===//
//
// libamdhip64 is opened at run time so that nothing of ROCm is needed to
// build or to run on the ISA simulator. The few entry points used are declared
// here by hand with their C ABI types (handles are opaque pointers, enums
// are ints).
//
// The device's architecture is read from hipDeviceProp_t::gcnArchName. That
// struct's layout changes between ROCm releases, so instead of hard-coding
// an offset we pass a large zeroed buffer and take the first NUL-terminated
// string in it that starts with "gfx" followed by a digit: the marketing
// name (the first field) is "AMD Instinct ...", and gcnArchName is the only
// field that holds a gfx name.
//===----------------------------------------------------------------------===//

#include "../core/Device.h"

#include "hk/Base/Error.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace hk::rt;

namespace {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
constexpr int hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2;
// hipModuleLaunchKernel's `extra` keys (hip_runtime_api.h).
void *const kLaunchParamBufferPointer = reinterpret_cast<void *>(1);
void *const kLaunchParamBufferSize = reinterpret_cast<void *>(2);
void *const kLaunchParamEnd = reinterpret_cast<void *>(3);

struct HipApi {
  void *handle = nullptr;
  hipError_t (*init)(unsigned);
  hipError_t (*getDeviceCount)(int *);
  hipError_t (*setDevice)(int);
  hipError_t (*getDeviceProperties)(void *, int);
  hipError_t (*malloc)(void **, size_t);
  hipError_t (*free)(void *);
  hipError_t (*memcpy)(void *, const void *, size_t, int);
  hipError_t (*moduleLoadData)(hipModule_t *, const void *);
  hipError_t (*moduleUnload)(hipModule_t);
  hipError_t (*moduleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*moduleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   void *, void **, void **);
  hipError_t (*deviceSynchronize)();
  const char *(*getErrorString)(hipError_t);
};

/// The candidates, in order: $HKRT_HIP_LIBRARY (alone, if set),
/// $ROCM_PATH/lib, /opt/rocm/lib, then the loader's own search path.
std::vector<std::string> libraryCandidates() {
  if (const char *env = getenv("HKRT_HIP_LIBRARY"); env && *env)
    return {env};
  std::vector<std::string> c;
  if (const char *rocm = getenv("ROCM_PATH"); rocm && *rocm)
    c.push_back(std::string(rocm) + "/lib/libamdhip64.so");
  c.push_back("/opt/rocm/lib/libamdhip64.so");
  c.push_back("libamdhip64.so");
  return c;
}

template <typename F> void resolve(HipApi &api, F &fn, const char *name) {
  fn = reinterpret_cast<F>(dlsym(api.handle, name));
  if (!fn)
    throw Error(HKRT_ERROR_NO_RUNTIME,
                std::string("the HIP runtime has no symbol ") + name);
}

void openApi(HipApi &api) {
  std::string tried;
  for (const std::string &path : libraryCandidates()) {
    api.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (api.handle)
      break;
    const char *why = dlerror();
    tried += "\n  " + path + ": " + (why ? why : "not loadable");
  }
  if (!api.handle)
    throw Error(HKRT_ERROR_NO_RUNTIME,
                "no HIP runtime library (libamdhip64.so) found; tried:" +
                    tried);
  resolve(api, api.init, "hipInit");
  resolve(api, api.getDeviceCount, "hipGetDeviceCount");
  resolve(api, api.setDevice, "hipSetDevice");
  // ROCm 6 renamed the entry point (the struct grew); take either.
  api.getDeviceProperties = reinterpret_cast<decltype(api.getDeviceProperties)>(
      dlsym(api.handle, "hipGetDevicePropertiesR0600"));
  if (!api.getDeviceProperties)
    resolve(api, api.getDeviceProperties, "hipGetDeviceProperties");
  resolve(api, api.malloc, "hipMalloc");
  resolve(api, api.free, "hipFree");
  resolve(api, api.memcpy, "hipMemcpy");
  resolve(api, api.moduleLoadData, "hipModuleLoadData");
  resolve(api, api.moduleUnload, "hipModuleUnload");
  resolve(api, api.moduleGetFunction, "hipModuleGetFunction");
  resolve(api, api.moduleLaunchKernel, "hipModuleLaunchKernel");
  resolve(api, api.deviceSynchronize, "hipDeviceSynchronize");
  resolve(api, api.getErrorString, "hipGetErrorString");
}

std::string archFromProperties(const char *props, size_t size) {
  for (size_t i = 0; i + 4 < size; ++i) {
    if ((i == 0 || props[i - 1] == '\0') && strncmp(props + i, "gfx", 3) == 0 &&
        props[i + 3] >= '0' && props[i + 3] <= '9') {
      size_t n = strnlen(props + i, size - i);
      if (i + n < size)
        return std::string(props + i, n);
    }
  }
  return "";
}

class HipModule : public LoadedModule {
public:
  HipModule(HipApi &api, hipModule_t m) : api(api), module(m) {}
  ~HipModule() override { api.moduleUnload(module); }
  HipApi &api;
  hipModule_t module;
  std::map<std::string, hipFunction_t> functions;
};

class HipDevice : public Device {
public:
  explicit HipDevice(int index);
  ~HipDevice() override {
    if (api.handle)
      dlclose(api.handle);
  }
  hkrt_device_kind kind() const override { return HKRT_DEVICE_HIP; }
  const std::string &chip() const override { return chip_; }
  void *allocate(size_t bytes) override {
    void *p = nullptr;
    check(api.malloc(&p, bytes ? bytes : 1), "hipMalloc");
    return p;
  }
  void release(void *p) override { api.free(p); }
  void copyToDevice(void *dst, const void *src, size_t n) override {
    check(api.memcpy(dst, src, n, hipMemcpyHostToDevice), "hipMemcpy");
  }
  void copyToHost(void *dst, const void *src, size_t n) override {
    check(api.memcpy(dst, src, n, hipMemcpyDeviceToHost), "hipMemcpy");
  }
  std::unique_ptr<LoadedModule> load(const Artifact &artifact) override;
  void launch(LoadedModule &module, const KernelInfo &kernel,
              const std::array<uint32_t, 3> &grid,
              const std::vector<LaunchArg> &args) override;
  void synchronize() override {
    check(api.deviceSynchronize(), "hipDeviceSynchronize");
  }

private:
  void check(hipError_t err, const char *what) {
    if (err != 0)
      throw Error(err == 2 ? HKRT_ERROR_OUT_OF_MEMORY : HKRT_ERROR_DEVICE,
                  std::string(what) + " failed: " + api.getErrorString(err) +
                      " (" + std::to_string(err) + ")");
  }
  HipApi api;
  std::string chip_, arch_;
};

HipDevice::HipDevice(int index) {
  openApi(api);
  hipError_t err = api.init(0);
  int count = 0;
  if (err == 0)
    err = api.getDeviceCount(&count);
  if (err != 0 || count == 0)
    throw Error(HKRT_ERROR_NO_DEVICE,
                "no HIP device: " + std::string(err ? api.getErrorString(err)
                                                    : "the runtime reports 0 "
                                                      "devices"));
  if (index < 0 || index >= count)
    throw Error(HKRT_ERROR_NO_DEVICE, "no HIP device " + std::to_string(index) +
                                          " (" + std::to_string(count) +
                                          " present)");
  check(api.setDevice(index), "hipSetDevice");
  std::vector<char> props(16384, 0);
  check(api.getDeviceProperties(props.data(), index), "hipGetDeviceProperties");
  arch_ = archFromProperties(props.data(), props.size());
  if (arch_.empty())
    throw Error(HKRT_ERROR_NO_DEVICE, "HIP device " + std::to_string(index) +
                                          " reports no gfx architecture name");
  chip_ = stripTargetFeatures(arch_);
}

std::unique_ptr<LoadedModule> HipDevice::load(const Artifact &artifact) {
  const std::string &code =
      artifact.codeObjectFor(chip_, " (device " + arch_ + ")");
  hipModule_t m = nullptr;
  check(api.moduleLoadData(&m, code.data()), "hipModuleLoadData");
  auto mod = std::make_unique<HipModule>(api, m);
  for (const KernelInfo &k : artifact.kernels) {
    hipFunction_t f = nullptr;
    check(api.moduleGetFunction(&f, m, k.name.c_str()),
          ("hipModuleGetFunction(" + k.name + ")").c_str());
    mod->functions[k.name] = f;
  }
  return mod;
}

void HipDevice::launch(LoadedModule &module, const KernelInfo &kernel,
                       const std::array<uint32_t, 3> &grid,
                       const std::vector<LaunchArg> &args) {
  auto &mod = static_cast<HipModule &>(module);
  std::vector<char> kernarg = packKernelArguments(args);
  size_t size = kernarg.size();
  void *extra[] = {kLaunchParamBufferPointer, kernarg.data(),
                   kLaunchParamBufferSize, &size, kLaunchParamEnd};
  check(api.moduleLaunchKernel(mod.functions.at(kernel.name), grid[0], grid[1],
                               grid[2], unsigned(kernel.workgroupSize), 1, 1, 0,
                               nullptr, nullptr, extra),
        ("hipModuleLaunchKernel(" + kernel.name + ")").c_str());
}

} // namespace

std::unique_ptr<Device> hk::rt::openHipDevice(int index) {
  return std::make_unique<HipDevice>(index);
}
