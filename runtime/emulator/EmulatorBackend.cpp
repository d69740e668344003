//===- EmulatorBackend.cpp - hkrt devices backed by the emulator ----------===//
//
// Device memory is host memory. A kernel runs through hkemu_launch with the
// lane code registered for it (hkrt_emulator_set_lane_code); the launch is
// synchronous, so faults come back from hkrt_launch itself.
//===----------------------------------------------------------------------===//

#include "../core/Objects.h"
#include "HostObjectLoader.h"

#include "hk/Runtime/Error.h"
#include "hk/Target/Chip.h"

#include <cstdlib>
#include <cstring>

using namespace hk::rt;

namespace {

uint16_t toBF16(float f) {
  uint32_t w;
  memcpy(&w, &f, 4);
  if ((w & 0x7FFFFFFF) > 0x7F800000)
    return uint16_t((w >> 16) | 0x40); // quiet NaN
  return uint16_t((w + 0x7FFF + ((w >> 16) & 1)) >> 16);
}

/// Storage for one scalar argument in the form lane code reads it.
union ScalarSlot {
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t half;
  float f32;
  double f64;
};

ScalarSlot scalarValue(const hkrt_arg &a) {
  ScalarSlot s;
  memset(&s, 0, sizeof(s));
  switch (a.dtype) {
  case HKRT_DTYPE_BOOL:
    s.i8 = a.i != 0;
    break;
  case HKRT_DTYPE_I8:
    s.i8 = int8_t(a.i);
    break;
  case HKRT_DTYPE_I16:
    s.i16 = int16_t(a.i);
    break;
  case HKRT_DTYPE_I32:
    s.i32 = int32_t(a.i);
    break;
  case HKRT_DTYPE_I64:
  case HKRT_DTYPE_INDEX:
    s.i64 = a.i;
    break;
  case HKRT_DTYPE_F32:
    s.f32 = float(a.f);
    break;
  case HKRT_DTYPE_F64:
    s.f64 = a.f;
    break;
  case HKRT_DTYPE_BF16:
    s.half = toBF16(float(a.f));
    break;
  case HKRT_DTYPE_F16: {
    _Float16 h = _Float16(a.f);
    memcpy(&s.half, &h, 2);
    break;
  }
  default:
    throw Error(HKRT_ERROR_UNSUPPORTED,
                std::string("scalar arguments of type ") + dtypeName(a.dtype) +
                    " are not supported");
  }
  return s;
}

class EmulatorBackend : public Backend {
public:
  explicit EmulatorBackend(std::string chip) : chip_(std::move(chip)) {}
  hkrt_device_kind kind() const override { return HKRT_DEVICE_EMULATOR; }
  const std::string &chip() const override { return chip_; }

  void *allocate(size_t bytes) override {
    // Zeroed, 256-byte aligned like device allocations, rounded up to a
    // multiple of 256 (aligned_alloc requires it) plus 256 bytes more.
    size_t rounded;
    if (__builtin_add_overflow(bytes, 255 + 256, &rounded))
      throw Error(HKRT_ERROR_OUT_OF_MEMORY,
                  "cannot allocate " + std::to_string(bytes) + " bytes");
    void *p = aligned_alloc(256, rounded / 256 * 256);
    if (!p)
      throw Error(HKRT_ERROR_OUT_OF_MEMORY,
                  "cannot allocate " + std::to_string(bytes) + " bytes");
    memset(p, 0, bytes);
    return p;
  }
  void release(void *p) override { free(p); }
  void copyToDevice(void *dst, const void *src, size_t n) override {
    memcpy(dst, src, n);
  }
  void copyToHost(void *dst, const void *src, size_t n) override {
    memcpy(dst, src, n);
  }

  std::unique_ptr<LoadedModule> load(const Artifact &artifact) override {
    std::unique_ptr<EmulatorModule> m = loadEmulatorModule(artifact, chip_);
    m->hasLaneLevelIR = artifact.emulatorModule.has_value();
    return m;
  }

  void launch(LoadedModule &module, const KernelInfo &kernel,
              const std::array<uint32_t, 3> &grid,
              const std::vector<LaunchArg> &args) override;

  void synchronize() override {}

private:
  std::string chip_;
};

void EmulatorBackend::launch(LoadedModule &module, const KernelInfo &kernel,
                             const std::array<uint32_t, 3> &grid,
                             const std::vector<LaunchArg> &args) {
  auto &emu = static_cast<EmulatorModule &>(module);
  hkemu_lane_fn fn = emu.laneCode(kernel.name);
  if (!fn)
    throw Error(HKRT_ERROR_UNSUPPORTED,
                "kernel '" + kernel.name +
                    "' has no lane code on the "
                    "emulator: " +
                    (emu.hasLaneLevelIR
                         ? "the artifact carries its lane-level IR, but no "
                           "compiler for it is registered"
                         : "the artifact has no emulator entry"));
  std::vector<hkemu_memref> memrefs(args.size());
  std::vector<ScalarSlot> scalars(args.size());
  std::vector<void *> pointers(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const hkrt_arg &a = *args[i].arg;
    if (args[i].info->kind == HKRT_ARG_SCALAR) {
      scalars[i] = scalarValue(a);
      pointers[i] = &scalars[i];
      continue;
    }
    hkemu_memref &m = memrefs[i];
    memset(&m, 0, sizeof(m));
    m.base = args[i].address;
    m.num_records = args[i].extentBytes;
    m.rank = a.rank;
    for (int d = 0; d < a.rank; ++d) {
      m.sizes[d] = a.sizes[d];
      m.strides[d] = a.strides[d];
    }
    pointers[i] = &m;
  }
  hkemu_launch_desc desc{};
  desc.kernel = kernel.name.c_str();
  desc.chip = chip_.c_str();
  for (int d = 0; d < 3; ++d)
    desc.grid[d] = grid[d];
  desc.waves = uint32_t(kernel.waves);
  desc.lds_bytes = uint32_t(kernel.ldsBytesFor(chip_));
  desc.fn = fn;
  desc.args = pointers.data();
  char error[1024];
  if (hkemu_launch(&desc, error, sizeof(error)))
    throw Error(HKRT_ERROR_KERNEL_FAULT, error);
}

} // namespace

std::unique_ptr<Backend> hk::rt::openEmulatorBackend(const std::string &chip) {
  if (!hk::lookupChip(chip))
    throw Error(HKRT_ERROR_INVALID_ARGUMENT, "the emulator models " +
                                                 hk::supportedChipNames() +
                                                 ", not '" + chip + "'");
  return std::make_unique<EmulatorBackend>(chip);
}
