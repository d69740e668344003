/* Launches the kernel of odd_name.mlir through its generated C function,
 * whose name is the symbol with every character C cannot take as '_'. */
#include "odd.h"

#include <stdio.h>

int main(int argc, char **argv) {
  static float y[40 * 64];
  hkrt_device device = NULL;
  odd_library library;
  int ones = 0;
  if (argc != 2 || hkrt_device_open_isa(argv[1], &device) ||
      odd_load(device, &library))
    return printf("setup failed: %s\n", hkrt_last_error()), 2;
  if (odd_odd___name_(&library, y, 40))
    return printf("launch failed: %s\n", odd_last_error()), 1;
  for (int i = 0; i < 40 * 64; ++i)
    ones += y[i] == 1.0f;
  printf("%d of %d elements are 1\n", ones, 40 * 64);
  odd_unload(&library);
  hkrt_device_close(device);
  return 0;
}
