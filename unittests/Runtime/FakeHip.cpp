//===- FakeHip.cpp - a stand-in libamdhip64 for the HIP device tests ------===//
//
// Exports the entry points hkrt resolves. Behaviour comes from the
// environment: FAKE_HIP_DEVICES (device count), FAKE_HIP_ARCH (the
// gcnArchName). A launch is recorded for the test to inspect through
// fake_hip_last_launch.
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
struct Launch {
  unsigned grid[3], block[3];
  std::vector<char> kernarg;
} last;
int moduleToken;
} // namespace

extern "C" {

int hipInit(unsigned) { return 0; }
int hipGetDeviceCount(int *n) {
  const char *e = getenv("FAKE_HIP_DEVICES");
  *n = e ? atoi(e) : 0;
  return 0;
}
int hipSetDevice(int) { return 0; }
int hipGetDevicePropertiesR0600(void *props, int) {
  // name first, the arch name deeper inside, as in hipDeviceProp_t.
  strcpy(static_cast<char *>(props), "AMD Instinct Fake");
  const char *arch = getenv("FAKE_HIP_ARCH");
  strcpy(static_cast<char *>(props) + 1160, arch ? arch : "gfx942");
  return 0;
}
int hipMalloc(void **p, size_t n) {
  *p = malloc(n);
  return *p ? 0 : 2;
}
int hipFree(void *p) {
  free(p);
  return 0;
}
int hipMemcpy(void *d, const void *s, size_t n, int) {
  memcpy(d, s, n);
  return 0;
}
int hipModuleLoadData(void **m, const void *image) {
  *m = &moduleToken;
  // A code object must look like an ELF file.
  return memcmp(image,
                "\x7f"
                "ELF",
                4) == 0
             ? 0
             : 200;
}
int hipModuleUnload(void *) { return 0; }
int hipModuleGetFunction(void **f, void *, const char *) {
  *f = &moduleToken;
  return 0;
}
int hipModuleLaunchKernel(void *, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned,
                          void *, void **, void **extra) {
  last.grid[0] = gx, last.grid[1] = gy, last.grid[2] = gz;
  last.block[0] = bx, last.block[1] = by, last.block[2] = bz;
  char *buffer = static_cast<char *>(extra[1]);
  size_t size = *static_cast<size_t *>(extra[3]);
  last.kernarg.assign(buffer, buffer + size);
  return 0;
}
int hipDeviceSynchronize() { return 0; }
const char *hipGetErrorString(int e) {
  return e == 200 ? "hipErrorInvalidImage" : "hipErrorUnknown";
}

/// For the tests: the last launch's grid, block and kernel arguments.
const char *fake_hip_last_launch(unsigned *grid, unsigned *block,
                                 size_t *kernargBytes) {
  memcpy(grid, last.grid, sizeof(last.grid));
  memcpy(block, last.block, sizeof(last.block));
  *kernargBytes = last.kernarg.size();
  return last.kernarg.data();
}
}
