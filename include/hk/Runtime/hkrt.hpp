//===- hkrt.hpp - the hk runtime, C++ API ---------------------------------===//
//
// Owning wrappers over the C API; every failure throws hk::rt::Error with
// the status and message of the C call.
//
//   hkrt::Device dev = hkrt::Device::open();  // GPU, else ISA simulator
//   hkrt::Module mod = dev.loadFile("kernels.hkrt");
//   hkrt::Buffer a = dev.alloc(bytes);  a.write(host, bytes);
//   mod.kernel("gemm").launch({a.memref(HKRT_DTYPE_BF16, {M, K}), ...});
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_HKRT_HPP
#define HK_RUNTIME_HKRT_HPP

#include "hk/Base/Error.h"
#include "hk/Runtime/hkrt.h"

#include <string>
#include <utility>
#include <vector>

namespace hkrt {

using Error = hk::rt::Error;

inline void check(hkrt_status s) {
  if (s != HKRT_SUCCESS)
    throw Error(s, hkrt_last_error());
}

/// Move-only owner of a C handle.
template <typename H, hkrt_status (*Release)(H)> class Handle {
public:
  Handle() = default;
  explicit Handle(H h) : h_(h) {}
  Handle(Handle &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle &operator=(Handle &&o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  ~Handle() {
    if (h_)
      Release(h_);
  }
  H get() const { return h_; }

private:
  H h_ = nullptr;
};

class Buffer {
public:
  explicit Buffer(hkrt_buffer b) : h_(b) {}
  void write(const void *src, size_t bytes, size_t offset = 0) {
    check(hkrt_buffer_write(h_.get(), offset, src, bytes));
  }
  void read(void *dst, size_t bytes, size_t offset = 0) const {
    check(hkrt_buffer_read(h_.get(), offset, dst, bytes));
  }
  size_t size() const { return hkrt_buffer_size(h_.get()); }
  /// The device address of the first byte (hkrt_buffer_address).
  uint64_t address() const {
    uint64_t a = 0;
    check(hkrt_buffer_address(h_.get(), &a));
    return a;
  }
  /// A contiguous row-major memref argument over this buffer.
  hkrt_arg memref(hkrt_dtype dtype, const std::vector<int64_t> &sizes) const {
    return hkrt_arg_memref(h_.get(), dtype, int32_t(sizes.size()), sizes.data(),
                           nullptr);
  }
  hkrt_buffer get() const { return h_.get(); }

private:
  Handle<hkrt_buffer, hkrt_buffer_free> h_;
};

class Kernel {
public:
  explicit Kernel(hkrt_kernel k) : k_(k) {}
  void launch(const std::vector<hkrt_arg> &args) {
    check(hkrt_launch(k_, args.data(), args.size()));
  }
  hkrt_kernel get() const { return k_; }

private:
  hkrt_kernel k_; // owned by its module
};

class Module {
public:
  explicit Module(hkrt_module m) : h_(m) {}
  Kernel kernel(const std::string &name) {
    hkrt_kernel k = nullptr;
    check(hkrt_kernel_get(h_.get(), name.c_str(), &k));
    return Kernel(k);
  }
  hkrt_module get() const { return h_.get(); }

private:
  Handle<hkrt_module, hkrt_module_unload> h_;
};

/// A module loaded from a raw code object (hkrt_module_load_code_object):
/// its kernels are launched with a kernarg segment built by the caller.
class CodeObject {
public:
  explicit CodeObject(hkrt_module m) : h_(m) {}
  hkrt_code_object_kernel kernelInfo(const std::string &kernel) const {
    hkrt_code_object_kernel info{};
    check(hkrt_code_object_kernel_info(h_.get(), kernel.c_str(), &info));
    return info;
  }
  /// `buffers`: every buffer the kernel may touch.
  void launch(const std::string &kernel, const hkrt_dispatch &dispatch,
              const std::vector<char> &kernarg,
              const std::vector<hkrt_buffer> &buffers) {
    check(hkrt_launch_code_object(h_.get(), kernel.c_str(), &dispatch,
                                  kernarg.data(), kernarg.size(),
                                  buffers.data(), buffers.size()));
  }
  hkrt_module get() const { return h_.get(); }

private:
  Handle<hkrt_module, hkrt_module_unload> h_;
};

class Device {
public:
  static Device open(hkrt_device_kind kind = HKRT_DEVICE_AUTO, int index = 0) {
    hkrt_device d = nullptr;
    check(hkrt_device_open(kind, index, &d));
    return Device(d);
  }
  static Device isa(const std::string &chip) {
    hkrt_device d = nullptr;
    check(hkrt_device_open_isa(chip.c_str(), &d));
    return Device(d);
  }
  Module load(const void *data, size_t size) {
    hkrt_module m = nullptr;
    check(hkrt_module_load(h_.get(), data, size, &m));
    return Module(m);
  }
  Module loadFile(const std::string &path) {
    hkrt_module m = nullptr;
    check(hkrt_module_load_file(h_.get(), path.c_str(), &m));
    return Module(m);
  }
  CodeObject loadCodeObject(const void *data, size_t size) {
    hkrt_module m = nullptr;
    check(hkrt_module_load_code_object(h_.get(), data, size, &m));
    return CodeObject(m);
  }
  Buffer alloc(size_t bytes) {
    hkrt_buffer b = nullptr;
    check(hkrt_buffer_alloc(h_.get(), bytes, &b));
    return Buffer(b);
  }
  void synchronize() { check(hkrt_synchronize(h_.get())); }
  /// The ISA simulator's timing mode (hkrt_device_set_timing).
  void setTiming(bool on, const std::string &tracePath = "") {
    check(hkrt_device_set_timing(
        h_.get(), on ? 1 : 0, tracePath.empty() ? nullptr : tracePath.c_str()));
  }
  /// The last timed launch's report, JSON (hkrt_device_timing_report).
  std::string timingReport() const {
    const char *json = nullptr;
    check(hkrt_device_timing_report(h_.get(), &json));
    return json;
  }
  /// The same report as readable text (hkrt_device_timing_text).
  std::string timingText() const {
    const char *text = nullptr;
    check(hkrt_device_timing_text(h_.get(), &text));
    return text;
  }
  hkrt_device_kind kind() const { return hkrt_device_get_kind(h_.get()); }
  std::string chip() const { return hkrt_device_chip(h_.get()); }
  hkrt_device get() const { return h_.get(); }

private:
  explicit Device(hkrt_device d) : h_(d) {}
  Handle<hkrt_device, hkrt_device_close> h_;
};

} // namespace hkrt

#endif // HK_RUNTIME_HKRT_HPP
