/* Runs the axpb kernel of an hk artifact on the ISA simulator through the
 * installed hkrt, on a 100x70 matrix (not a multiple of the 32x64 tile),
 * and checks every element against a * x + b computed here.
 * usage: axpb ARTIFACT.hkrt CHIP */
#include <hk/Runtime/hkrt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    hkrt_status s_ = (call);                                                   \
    if (s_ != HKRT_SUCCESS) {                                                  \
      fprintf(stderr, "%s: %s: %s\n", #call, hkrt_status_name(s_),             \
              hkrt_last_error());                                              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

enum { M = 100, N = 70 };

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s ARTIFACT.hkrt CHIP\n", argv[0]);
    return 2;
  }
  static float x[M * N], y[M * N];
  for (int i = 0; i < M * N; ++i)
    x[i] = (float)((i * 37) % 257 - 128) / 64.0f;
  const float a = 1.5f, b = -0.25f;

  hkrt_device dev;
  hkrt_module mod;
  hkrt_kernel kernel;
  hkrt_buffer bx, by;
  CHECK(hkrt_device_open_isa(argv[2], &dev));
  CHECK(hkrt_module_load_file(dev, argv[1], &mod));
  CHECK(hkrt_kernel_get(mod, "axpb", &kernel));
  CHECK(hkrt_buffer_alloc(dev, sizeof(x), &bx));
  CHECK(hkrt_buffer_alloc(dev, sizeof(y), &by));
  CHECK(hkrt_buffer_write(bx, 0, x, sizeof(x)));
  const int64_t sizes[2] = {M, N};
  hkrt_arg args[4] = {hkrt_arg_memref(bx, HKRT_DTYPE_F32, 2, sizes, NULL),
                      hkrt_arg_memref(by, HKRT_DTYPE_F32, 2, sizes, NULL),
                      hkrt_arg_float(HKRT_DTYPE_F32, a),
                      hkrt_arg_float(HKRT_DTYPE_F32, b)};
  CHECK(hkrt_launch(kernel, args, 4));
  CHECK(hkrt_synchronize(dev));
  CHECK(hkrt_buffer_read(by, 0, y, sizeof(y)));

  /* a * x + b is exact in f32 for these x (multiples of 1/64 in [-2, 2)). */
  int wrong = 0;
  for (int i = 0; i < M * N; ++i)
    if (y[i] != a * x[i] + b && wrong++ < 5)
      fprintf(stderr, "y[%d][%d] = %g, expected %g\n", i / N, i % N, y[i],
              a * x[i] + b);
  CHECK(hkrt_buffer_free(bx));
  CHECK(hkrt_buffer_free(by));
  CHECK(hkrt_module_unload(mod));
  CHECK(hkrt_device_close(dev));
  printf("%s: %d of %d elements wrong\n", argv[2], wrong, M * N);
  return wrong != 0;
}
