//===- Device.h - what a runtime device implements (internal) -------------===//
//
// The C API objects sit on top of one Device per hkrt_device: a GPU through
// HIP (dlopen'ed libamdhip64) or the ISA simulator. (The compiler's code
// generator is its Backend; the runtime's are devices.) Devices throw
// hk::rt::Error.
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_CORE_DEVICE_H
#define HK_RUNTIME_CORE_DEVICE_H

#include "hk/Base/Artifact.h"
#include "hk/Runtime/hkrt.h"

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hk::rt {

/// A memref or scalar argument after checking: the device address of
/// element 0 and the bytes the memref reaches from there.
struct LaunchArg {
  const ArgInfo *info;
  const hkrt_arg *arg;
  void *address = nullptr;  ///< memref: buffer base + offset
  uint64_t extentBytes = 0; ///< memref: bytes reachable through its strides
  /// memref: the buffer, kept alive until the launch returns even if
  /// another thread frees its handle meanwhile.
  std::shared_ptr<const void> buffer = nullptr;
};

class LoadedModule {
public:
  virtual ~LoadedModule() = default;
};

/// A launch of a raw code object's kernel (hkrt_launch_code_object): the
/// caller's kernarg segment, and the memory the kernel may touch besides it.
struct CodeObjectLaunch {
  std::string kernel;
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  uint32_t dynamicLds = 0;
  std::vector<char> kernarg;
  /// [begin, end) device address ranges, sorted by begin.
  std::vector<std::pair<uint64_t, uint64_t>> memory;
};

class Device {
public:
  virtual ~Device() = default;
  virtual hkrt_device_kind kind() const = 0;
  virtual const std::string &chip() const = 0;
  virtual void *allocate(size_t bytes) = 0;
  virtual void release(void *ptr) = 0;
  virtual void copyToDevice(void *dst, const void *src, size_t bytes) = 0;
  virtual void copyToHost(void *dst, const void *src, size_t bytes) = 0;
  virtual std::unique_ptr<LoadedModule> load(const Artifact &artifact) = 0;
  virtual void launch(LoadedModule &module, const KernelInfo &kernel,
                      const std::array<uint32_t, 3> &grid,
                      const std::vector<LaunchArg> &args) = 0;
  virtual void synchronize() = 0;
  /// The timing mode of a device that has one (the ISA simulator,
  /// docs/timing.md): while on, a launch runs the cycle model and keeps its
  /// report (JSON); `tracePath` is a Chrome trace per launch, or "".
  virtual void setTiming(bool on, const std::string &tracePath);
  /// The JSON report of the last timed launch; throws if there is none.
  virtual const std::string &timingReport() const;
  /// The same report as readable text.
  virtual const std::string &timingText() const;

  /// Raw code objects (hkrt_module_load_code_object). A device that cannot
  /// run them throws HKRT_ERROR_UNSUPPORTED from each.
  virtual std::unique_ptr<LoadedModule> loadCodeObject(const std::string &elf);
  /// The kernel descriptor of `kernel`; HKRT_ERROR_NOT_FOUND if none.
  virtual hkrt_code_object_kernel describeKernel(const LoadedModule &module,
                                                 const std::string &kernel);
  virtual void launchCodeObject(LoadedModule &module,
                                const CodeObjectLaunch &launch);
};

/// Throws HKRT_ERROR_NO_RUNTIME / NO_DEVICE with the reason.
std::unique_ptr<Device> openHipDevice(int index);
/// Kernel arguments in the layout of convert-gpu-to-rocdl's default memref
/// lowering, as a code object's kernarg segment holds them.
std::vector<char> packKernelArguments(const std::vector<LaunchArg> &args);

/// Throws HKRT_ERROR_INVALID_ARGUMENT for an unknown chip.
std::unique_ptr<Device> openIsaDevice(const std::string &chip);

/// Checks `args` against `kernel` (count, kind, dtype, rank, the sizes and
/// strides its types fix, buffer handles and extents) for a launch on
/// `device` and resolves device addresses; errors name the argument.
std::vector<LaunchArg> checkLaunchArguments(const KernelInfo &kernel,
                                            const hkrt_arg *args,
                                            size_t numArgs, hkrt_device device);
/// Workgroup counts along x, y, z from the grid expressions.
std::array<uint32_t, 3> computeGrid(const KernelInfo &kernel,
                                    const std::vector<LaunchArg> &args);

} // namespace hk::rt

#endif // HK_RUNTIME_CORE_DEVICE_H
