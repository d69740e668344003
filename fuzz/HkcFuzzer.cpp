//===- HkcFuzzer.cpp - source text into libhkc
//-----------------------------===//
//
// The input is hk source text. It goes to hkc_verify and, if the verifiers
// accept it, to hkc_compile for one chip's code object, the whole pipeline
// down to the ELF: hkc.h promises that no text aborts, and that a failure
// always comes with a message. Anything else (a crash, a sanitizer report,
// a status hkc.h does not give for text, a failure without a message, a
// success without output) stops the fuzzer.
//===----------------------------------------------------------------------===//

#include "hk/Compiler/hkc.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

[[noreturn]] void fail(const char *what, hkc_status status) {
  std::fprintf(stderr, "hk-fuzz-hkc: %s (status %d): %s\n", what,
               static_cast<int>(status), hkc_last_error());
  std::abort();
}

/// A failure on text must be HKC_ERROR_COMPILE with a located message.
void checkFailure(const char *call, hkc_status status) {
  if (status != HKC_ERROR_COMPILE)
    fail(call, status);
  if (!*hkc_last_error())
    fail("a failure without a message", status);
}

/// The chip is a function of the input, so that a saved input reproduces.
const char *chipFor(const uint8_t *data, size_t size) {
  unsigned sum = 0;
  for (size_t i = 0; i < size; ++i)
    sum += data[i];
  return sum % 2 ? "gfx942" : "gfx950";
}

} // namespace

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
/// ASan's options before ASAN_OPTIONS: LLVM's BumpPtrAllocator poisons a new
/// slab and unpoisons each piece it hands out, but only where it was
/// compiled with ASan. libhkc links lld's prebuilt, uninstrumented archives,
/// whose inlined fast path hands out pieces without unpoisoning them, while
/// the slow path the linker binds is our instrumented copy, which poisons:
/// every code object linked reported a use-after-poison on lld's own live
/// objects (regression input links-a-code-object.mlir). Manual poisoning is
/// turned off; heap, stack and global checks stay.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
#endif
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = reinterpret_cast<const char *>(data);
  hkc_status status = hkc_verify(text, size, "fuzz.mlir");
  if (status != HKC_SUCCESS) {
    checkFailure("hkc_verify", status);
    return 0;
  }
  hkc_options options;
  hkc_options_init(&options);
  const char *chips[] = {chipFor(data, size)};
  options.chips = chips;
  options.num_chips = 1;
  hkc_result result = nullptr;
  status = hkc_compile(text, size, "fuzz.mlir", HKC_OUTPUT_CODE_OBJECT,
                       &options, &result);
  if (status != HKC_SUCCESS) {
    checkFailure("hkc_compile", status);
    return 0;
  }
  size_t bytes = 0;
  if (hkc_result_count(result) != 1 || !hkc_result_data(result, 0, &bytes) ||
      bytes == 0 || std::strcmp(hkc_result_chip(result, 0), chips[0]) != 0)
    fail("a compile without its one code object", status);
  hkc_result_free(result);
  return 0;
}
