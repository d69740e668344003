//===- copy-check.cpp - runs a tile copy kernel on the ISA simulator ------===//
//
// Usage: hk-copy-check ARTIFACT CHIP KERNEL M N COLS
//
// KERNEL(A, C) with A, C: MxN bf16 must copy A[:, 0:COLS] into C and leave
// the rest of C (and a guard zone after it) untouched. Exact comparison:
// a copy moves bits. Exits 1 on any difference.
//===----------------------------------------------------------------------===//

#include "hk/Runtime/hkrt.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s ARTIFACT CHIP KERNEL M N COLS\n", argv[0]);
    return 2;
  }
  const int64_t M = atoll(argv[4]), N = atoll(argv[5]), cols = atoll(argv[6]);
  const int64_t guard = 1024;
  hkrt_device dev;
  hkrt_module mod;
  hkrt_kernel kernel;
  if (hkrt_device_open_isa(argv[2], &dev) ||
      hkrt_module_load_file(dev, argv[1], &mod) ||
      hkrt_kernel_get(mod, argv[3], &kernel)) {
    fprintf(stderr, "error: %s\n", hkrt_last_error());
    return 2;
  }
  std::vector<uint16_t> a(M * N), c(M * N + guard, 0xFFFF);
  for (int64_t i = 0; i < M * N; ++i)
    a[i] = uint16_t(0x3C00 + (i * 7919) % 0x1000); // finite, distinct-ish
  hkrt_buffer da, dc;
  if (hkrt_buffer_alloc(dev, a.size() * 2, &da) ||
      hkrt_buffer_alloc(dev, c.size() * 2, &dc) ||
      hkrt_buffer_write(da, 0, a.data(), a.size() * 2) ||
      hkrt_buffer_write(dc, 0, c.data(), c.size() * 2)) {
    fprintf(stderr, "error: %s\n", hkrt_last_error());
    return 2;
  }
  int64_t sizes[2] = {M, N};
  hkrt_arg args[2] = {hkrt_arg_memref(da, HKRT_DTYPE_BF16, 2, sizes, nullptr),
                      hkrt_arg_memref(dc, HKRT_DTYPE_BF16, 2, sizes, nullptr)};
  if (hkrt_launch(kernel, args, 2) ||
      hkrt_buffer_read(dc, 0, c.data(), c.size() * 2)) {
    fprintf(stderr, "error: %s\n", hkrt_last_error());
    return 1;
  }
  int64_t wrong = 0, stray = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      uint16_t want = j < cols ? a[i * N + j] : 0xFFFF;
      if (c[i * N + j] != want && wrong++ < 5)
        fprintf(stderr, "C[%lld][%lld] = 0x%04x, expected 0x%04x\n",
                (long long)i, (long long)j, c[i * N + j], want);
    }
  for (int64_t g = 0; g < guard; ++g)
    stray += c[M * N + g] != 0xFFFF;
  bool ok = wrong == 0 && stray == 0;
  printf("%s %s %s %lldx%lld: %lld wrong, %lld guard writes\n",
         ok ? "PASS" : "FAIL", argv[3], argv[2], (long long)M, (long long)N,
         (long long)wrong, (long long)stray);
  hkrt_module_unload(mod);
  hkrt_device_close(dev);
  return ok ? 0 : 1;
}
