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

#include <algorithm>
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

/// What the kernel descriptor allocates (AMDGPUUsage, "Kernel
/// Descriptor"): COMPUTE_PGM_RSRC1 [5:0] counts VGPRs and AGPRs together in
/// blocks of 8 minus one (gfx90a and later), COMPUTE_PGM_RSRC3 [5:0] is the
/// first AGPR / 4 - 1, and RSRC1 [9:6] is twice the 16-SGPR blocks minus
/// one on GFX9.
hkrt_code_object_kernel describe(const isa::KernelDescriptor &kd) {
  hkrt_code_object_kernel k{};
  k.kernarg_bytes = kd.kernargSize;
  k.lds_bytes = kd.groupSegmentSize;
  k.scratch_bytes = kd.privateSegmentSize;
  uint32_t registers = 8 * ((kd.rsrc1 & 0x3F) + 1);
  uint32_t agprOffset = 4 * ((kd.rsrc3 & 0x3F) + 1);
  k.vgprs = std::min(agprOffset, registers);
  k.agprs = registers - k.vgprs;
  k.sgprs = 16 * ((kd.rsrc1 >> 6 & 0xF) / 2 + 1);
  return k;
}

/// Bytes after each allocation that belong to no buffer.
constexpr size_t kGuardBytes = 4096;

class IsaDevice : public Device {
public:
  explicit IsaDevice(std::string chip) : chip_(std::move(chip)) {}
  hkrt_device_kind kind() const override { return HKRT_DEVICE_ISA; }
  const std::string &chip() const override { return chip_; }

  void *allocate(size_t bytes) override {
    // Zeroed and 256-byte aligned like device allocations, with a guard
    // of kGuardBytes that belongs to no buffer: an access a little past
    // the end of one buffer (a prefetch beyond the last tile) faults
    // instead of landing in whichever allocation the heap put next.
    size_t rounded;
    if (__builtin_add_overflow(bytes, 255 + kGuardBytes, &rounded))
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
    run(*m.code, l);
  }

  std::unique_ptr<LoadedModule>
  loadCodeObject(const std::string &elf) override {
    auto m = std::make_unique<IsaModule>();
    m->code = isa::loadCodeObject(elf, chip_);
    return m;
  }

  hkrt_code_object_kernel describeKernel(const LoadedModule &module,
                                         const std::string &kernel) override {
    auto &m = static_cast<const IsaModule &>(module);
    return describe(isa::kernelDescriptor(*m.code, kernel));
  }

  void launchCodeObject(LoadedModule &module,
                        const CodeObjectLaunch &launch) override {
    auto &m = static_cast<IsaModule &>(module);
    isa::Launch l;
    l.kernel = launch.kernel;
    l.grid = launch.grid;
    l.block = launch.block;
    l.dynamicLds = launch.dynamicLds;
    l.kernarg = launch.kernarg;
    for (const auto &[begin, end] : launch.memory)
      l.memory.push_back({begin, end});
    run(*m.code, l);
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
  const std::string &timingText() const override {
    if (text_.empty())
      return Device::timingReport();
    return text_;
  }

  void synchronize() override {}

private:
  /// The launch, whole, or in the timing mode the cycle model's batches
  /// with the report kept.
  void run(const isa::CodeObject &code, const isa::Launch &l) {
    if (!timing_) {
      isa::run(code, l);
      return;
    }
    isa::TimingOptions options;
    options.tracePath = trace_;
    report_.clear();
    text_.clear();
    isa::TimingReport r = isa::runTimed(code, l, options);
    report_ = r.json();
    text_ = r.text();
  }

  std::string chip_;
  bool timing_ = false;
  std::string trace_, report_, text_;
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
