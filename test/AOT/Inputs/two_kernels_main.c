/* Runs the two kernels of two_kernels.mlir through their generated C
 * launch functions (two.h) on the ISA simulator of the chip named on the
 * command line: scale reads x through a row stride wider than its rows,
 * fill writes the tiles its scalar grid covers. Checks every element. */
#include "two.h"

#include <stdio.h>

enum { kRows = 50, kCols = 64, kStride = 80 };

static int failed(const char *what) {
  printf("%s failed: %s\n", what, two_last_error());
  return 1;
}

int main(int argc, char **argv) {
  static float x[kRows * kStride], y[kRows * kCols];
  hkrt_device device = NULL;
  two_library library;
  int64_t grid[3];
  int wrong = 0;
  if (argc != 2 || hkrt_device_open_isa(argv[1], &device))
    return printf("usage: two_kernels <chip>: %s\n", hkrt_last_error()), 2;
  if (two_load(device, &library))
    return failed("two_load");
  for (int i = 0; i < kRows * kStride; ++i)
    x[i] = (float)(i % 97) * 0.25f - 3.0f;

  if (two_scale(&library, x, kRows, kStride, y, kRows, 1.5f))
    return failed("two_scale");
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j)
      wrong += y[i * kCols + j] != 1.5f * x[i * kStride + j];
  printf("scale: %d of %d elements wrong\n", wrong, kRows * kCols);

  /* One tile: rows 0-31 become 7, rows 32-49 keep scale's output. */
  if (two_fill(&library, y, kRows, 7, 1))
    return failed("two_fill");
  wrong = 0;
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j)
      wrong += y[i * kCols + j] != (i < 32 ? 7.0f : 1.5f * x[i * kStride + j]);
  printf("fill: %d of %d elements wrong\n", wrong, kRows * kCols);

  if (two_fill_grid(-1, grid))
    printf("fill grid of -1 tiles refused: %s\n", two_last_error());
  if (two_scale_grid(kRows, grid) == HKRT_SUCCESS)
    printf("scale grid %lld %lld %lld\n", (long long)grid[0],
           (long long)grid[1], (long long)grid[2]);
  two_unload(&library);
  hkrt_device_close(device);
  return 0;
}
