//===- IsaDevice.cpp - hkrt devices that run code objects on the CPU -----===//
//
// Device memory is host memory; the device remembers
// its allocations so that the simulator can fault on an access outside all
// of them instead of touching the host's memory. A module is the artifact's
// code object for the device's chip, decoded once (IsaSimulator.h); a launch
// runs to completion before hkrt_launch returns.
//===----------------------------------------------------------------------===//

#include "../core/Device.h"
#include "IsaSimulator.h"
#include "Timing.h"

#include "hk/Base/Chip.h"
#include "hk/Base/Error.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace hk::rt;

namespace {

class IsaModule : public LoadedModule {
public:
  std::shared_ptr<const isa::CodeObject> code;
};

class IsaDevice : public Device {
public:
  explicit IsaDevice(std::string chip) : chip_(std::move(chip)) {}
  hkrt_device_kind kind() const override { return HKRT_DEVICE_ISA; }
  const std::string &chip() const override { return chip_; }

  void *allocate(size_t bytes) override {
    // Zeroed and 256-byte aligned like device allocations.
    size_t rounded;
    if (__builtin_add_overflow(bytes, 255, &rounded))
      throw Error(HKRT_ERROR_OUT_OF_MEMORY,
                  "cannot allocate " + std::to_string(bytes) + " bytes");
    rounded = rounded / 256 * 256;
    void *p = aligned_alloc(256, rounded ? rounded : 256);
    if (!p)
      throw Error(HKRT_ERROR_OUT_OF_MEMORY,
                  "cannot allocate " + std::to_string(bytes) + " bytes");
    memset(p, 0, bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    sizes_[p] = bytes;
    return p;
  }
  void release(void *p) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sizes_.erase(p);
    }
    free(p);
  }
  void copyToDevice(void *dst, const void *src, size_t n) override {
    memcpy(dst, src, n);
  }
  void copyToHost(void *dst, const void *src, size_t n) override {
    memcpy(dst, src, n);
  }

  std::unique_ptr<LoadedModule> load(const Artifact &artifact) override {
    auto m = std::make_unique<IsaModule>();
    m->code = isa::loadCodeObject(artifact.codeObjectFor(chip_, ""), chip_);
    for (const KernelInfo &k : artifact.kernels)
      isa::kernelDescriptor(*m->code, k.name); // throws if missing
    return m;
  }

  void launch(LoadedModule &module, const KernelInfo &kernel,
              const std::array<uint32_t, 3> &grid,
              const std::vector<LaunchArg> &args) override {
    auto &m = static_cast<IsaModule &>(module);
    isa::Launch l;
    l.kernel = kernel.name;
    l.grid = grid;
    l.block = {uint32_t(kernel.workgroupSize), 1, 1};
    l.kernarg = packKernelArguments(args);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (const auto &[p, bytes] : sizes_) {
        auto begin = reinterpret_cast<uint64_t>(p);
        l.memory.push_back({begin, begin + bytes});
      }
    }
    if (!timing_) {
      isa::run(*m.code, l);
      return;
    }
    isa::TimingOptions options;
    options.tracePath = trace_;
    report_.clear();
    report_ = isa::runTimed(*m.code, l, options).json();
  }

  void setTiming(bool on, const std::string &tracePath) override {
    timing_ = on;
    trace_ = tracePath;
  }
  const std::string &timingReport() const override {
    if (report_.empty())
      return Device::timingReport();
    return report_;
  }

  void synchronize() override {}

private:
  std::string chip_;
  bool timing_ = false;
  std::string trace_, report_;
  std::mutex mutex_;
  std::map<void *, size_t> sizes_;
};

} // namespace

std::unique_ptr<Device> hk::rt::openIsaDevice(const std::string &chip) {
  if (!hk::lookupChip(chip))
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "the ISA simulator models " +
                                                 hk::supportedChipNames() +
                                                 ", not '" + chip + "'");
  return std::make_unique<IsaDevice>(chip);
}
