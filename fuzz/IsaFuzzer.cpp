//===- IsaFuzzer.cpp - code objects into the ISA simulator
//-----------------===//
//
// The input is an AMDGPU code object (an ELF). It is loaded with
// hkrt_module_load_code_object on the simulator of the chip its ELF header
// names, and each of its first kernels (the symbols NAME.kd) is launched:
// one workgroup of four waves, with small buffers and a small launch budget
// (docs/isa-simulator.md, "What a code object can do to the host"), so that
// a mutated loop ends in a budget fault within milliseconds. The simulator
// must answer every input with a status and, for a failure, a message: a
// crash or a sanitizer report is a sandbox escape.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/hkrt.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr size_t kBuffers = 4, kBufferBytes = 64 * 1024;
constexpr size_t kMaxKernels = 4, kMaxSymbols = 4096;

struct Chip {
  hkrt_device device = nullptr;
  std::vector<hkrt_buffer> buffers;
};

std::map<std::string, Chip> &chips() {
  static std::map<std::string, Chip> open;
  return open;
}

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "hk-fuzz-isa: %s: %s\n", what.c_str(),
               hkrt_last_error());
  std::abort();
}

/// A failed call must say why. With HK_FUZZ_VERBOSE set, every call's
/// outcome is printed, to see how far an input gets.
void checkFailure(const char *call, hkrt_status status) {
  static const bool verbose = getenv("HK_FUZZ_VERBOSE");
  if (verbose)
    std::fprintf(stderr, "%s: %s%s%s\n", call, hkrt_status_name(status),
                 status ? ": " : "", status ? hkrt_last_error() : "");
  if (status != HKRT_SUCCESS && !*hkrt_last_error())
    fail(std::string(call) + " failed without a message");
}

/// The chip of the ELF header's e_flags (EF_AMDGPU_MACH), gfx950 for any
/// other value, so that mutated headers still reach the loader.
std::string chipOf(const uint8_t *data, size_t size) {
  if (size >= 52 && (data[48] & 0xff) == 0x4c)
    return "gfx942";
  return "gfx950";
}

/// The names of the kernels the ELF's symbol table has (NAME for NAME.kd).
std::vector<std::string> kernelNames(const uint8_t *data, size_t size) {
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz");
  auto object = llvm::object::ObjectFile::createObjectFile(buffer);
  std::vector<std::string> names;
  if (!object) {
    llvm::consumeError(object.takeError());
    return names;
  }
  size_t seen = 0;
  for (const llvm::object::SymbolRef &symbol : (*object)->symbols()) {
    if (++seen > kMaxSymbols || names.size() == kMaxKernels)
      break;
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (name->size() > 3 && name->ends_with(".kd"))
      names.push_back(name->drop_back(3).str());
  }
  return names;
}

/// A kernarg segment of `bytes` for kernels in hk's convention: memref
/// descriptors of 8-byte slots (two pointers, an offset, sizes and strides),
/// so slot i is a buffer's address when i % 7 is 0 or 1, 0 when it is 2,
/// else 16 (a size or stride within the buffers).
std::vector<char> kernarg(const Chip &chip, uint32_t bytes) {
  std::vector<char> segment(bytes, 0);
  for (size_t slot = 0; (slot + 1) * 8 <= bytes; ++slot) {
    uint64_t value = 16;
    if (slot % 7 == 2)
      value = 0;
    else if (slot % 7 < 2 &&
             hkrt_buffer_address(chip.buffers[slot / 7 % kBuffers], &value) !=
                 HKRT_SUCCESS)
      fail("a buffer's address");
    std::memcpy(segment.data() + slot * 8, &value, 8);
  }
  return segment;
}

void launch(const Chip &chip, hkrt_module module, const std::string &name) {
  hkrt_code_object_kernel info;
  hkrt_status status =
      hkrt_code_object_kernel_info(module, name.c_str(), &info);
  checkFailure("hkrt_code_object_kernel_info", status);
  if (status != HKRT_SUCCESS || info.kernarg_bytes > 64 * 1024)
    return;
  std::vector<char> args = kernarg(chip, info.kernarg_bytes);
  hkrt_dispatch dispatch = {{1, 1, 1}, {256, 1, 1}, 0};
  status = hkrt_launch_code_object(module, name.c_str(), &dispatch, args.data(),
                                   args.size(), chip.buffers.data(),
                                   chip.buffers.size());
  checkFailure("hkrt_launch_code_object", status);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // A small launch budget: a looping kernel ends in a named fault at once.
  setenv("HK_ISA_MAX_INSTRUCTIONS", "100000", 1);
  setenv("HK_ISA_MAX_SECONDS", "10", 1);
  for (const char *name : {"gfx942", "gfx950"}) {
    Chip &chip = chips()[name];
    if (hkrt_device_open_isa(name, &chip.device) != HKRT_SUCCESS)
      fail(std::string("opening the ISA simulator of ") + name);
    for (size_t i = 0; i < kBuffers; ++i) {
      hkrt_buffer b = nullptr;
      if (hkrt_buffer_alloc(chip.device, kBufferBytes, &b) != HKRT_SUCCESS)
        fail("a buffer");
      chip.buffers.push_back(b);
    }
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Chip &chip = chips()[chipOf(data, size)];
  hkrt_module module = nullptr;
  hkrt_status status =
      hkrt_module_load_code_object(chip.device, data, size, &module);
  checkFailure("hkrt_module_load_code_object", status);
  if (status != HKRT_SUCCESS)
    return 0;
  for (const std::string &name : kernelNames(data, size))
    launch(chip, module, name);
  if (hkrt_module_unload(module) != HKRT_SUCCESS)
    fail("unloading a loaded module");
  return 0;
}
