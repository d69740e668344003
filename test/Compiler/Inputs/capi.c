/* The compiler's C API end to end: compiles the tile program in argv[1]
 * from source text, loads the artifact with hkrt on the ISA simulator, runs it
 * and checks every element; then asks for per-chip outputs, and compiles
 * a broken program and prints the located diagnostics it gets back.
 * usage: capi AXPB.mlir */
#include <hk/Compiler/hkc.h>
#include <hk/Runtime/hkrt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_RT(call)                                                         \
  do {                                                                         \
    if ((call) != HKRT_SUCCESS) {                                              \
      fprintf(stderr, "%s: %s\n", #call, hkrt_last_error());                   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(*size);
  if (text && fread(text, 1, *size, f) != *size) {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

enum { M = 50, N = 90 };

static int runArtifact(const void *data, size_t size, const char *chip) {
  static float x[M * N], y[M * N];
  for (int i = 0; i < M * N; ++i)
    x[i] = (float)(i % 97 - 48) / 16.0f;
  hkrt_device dev;
  hkrt_module mod;
  hkrt_kernel kernel;
  hkrt_buffer bx, by;
  CHECK_RT(hkrt_device_open_isa(chip, &dev));
  CHECK_RT(hkrt_module_load(dev, data, size, &mod));
  CHECK_RT(hkrt_kernel_get(mod, "axpb", &kernel));
  CHECK_RT(hkrt_buffer_alloc(dev, sizeof(x), &bx));
  CHECK_RT(hkrt_buffer_alloc(dev, sizeof(y), &by));
  CHECK_RT(hkrt_buffer_write(bx, 0, x, sizeof(x)));
  const int64_t sizes[2] = {M, N};
  hkrt_arg args[4] = {hkrt_arg_memref(bx, HKRT_DTYPE_F32, 2, sizes, NULL),
                      hkrt_arg_memref(by, HKRT_DTYPE_F32, 2, sizes, NULL),
                      hkrt_arg_float(HKRT_DTYPE_F32, -2.0),
                      hkrt_arg_float(HKRT_DTYPE_F32, 0.5)};
  CHECK_RT(hkrt_launch(kernel, args, 4));
  CHECK_RT(hkrt_buffer_read(by, 0, y, sizeof(y)));
  int wrong = 0;
  for (int i = 0; i < M * N; ++i)
    wrong += y[i] != -2.0f * x[i] + 0.5f; /* exact for these x */
  CHECK_RT(hkrt_device_close(dev));
  printf("artifact on %s: %d of %d elements wrong\n", chip, wrong, M * N);
  return wrong != 0;
}

int main(int argc, char **argv) {
  size_t size;
  char *source = argc == 2 ? readFile(argv[1], &size) : NULL;
  if (!source) {
    fprintf(stderr, "usage: capi AXPB.mlir\n");
    return 2;
  }
  hkc_options options;
  hkc_options_init(&options);
  const char *chips[] = {"gfx942", "gfx950"};
  options.chips = chips;
  options.num_chips = 2;

  hkc_result result;
  if (hkc_compile(source, size, argv[1], HKC_OUTPUT_ARTIFACT, &options,
                  &result) != HKC_SUCCESS) {
    fprintf(stderr, "compile: %s\n", hkc_last_error());
    return 1;
  }
  size_t bytes;
  const void *artifact = hkc_result_data(result, 0, &bytes);
  int failed = runArtifact(artifact, bytes, "gfx942") ||
               runArtifact(artifact, bytes, "gfx950");
  hkc_result_free(result);
  hkc_result_free(result); /* a stale result is ignored, not a crash */
  printf("count of a freed result: %zu (%s)\n", hkc_result_count(result),
         hkc_last_error());

  if (hkc_compile(source, size, argv[1], HKC_OUTPUT_ASSEMBLY, &options,
                  &result) != HKC_SUCCESS) {
    fprintf(stderr, "compile: %s\n", hkc_last_error());
    return 1;
  }
  for (size_t i = 0; i < hkc_result_count(result); ++i) {
    const char *text = hkc_result_data(result, i, &bytes);
    printf("assembly for %s: %s\n", hkc_result_chip(result, i),
           strstr(text, "buffer_load") ? "has buffer loads" : "no loads?");
  }
  hkc_result_free(result);

  const char *broken = "hk.kernel @k() attributes {waves = 3 : i32, "
                       "grid = #hk.grid<[] -> (1)>} {\n  hk.return\n}\n";
  hkc_status status = hkc_compile(broken, strlen(broken), "broken.mlir",
                                  HKC_OUTPUT_ARTIFACT, &options, &result);
  printf("broken: status %d, result %s\n%s", (int)status,
         result ? "set" : "null", hkc_last_error());
  /* hkc_verify parses and verifies only: the broken kernel is refused
   * with the same located message, the valid one is accepted, and so is
   * one that verifies but needs more LDS than gfx942 has (the chip's limit
   * is checked when compiling). */
  status = hkc_verify(broken, strlen(broken), "verify.mlir");
  printf("verify broken: status %d\n%s", (int)status, hkc_last_error());
  printf("verify valid: status %d\n", (int)hkc_verify(source, size, argv[1]));
  const char *big = "hk.kernel @big(%x: memref<?xf32>) attributes {waves = "
                    "1 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0)>} {\n"
                    "  %a = hk.alloc_shared : !hk.st<256x128xf32, 16x16>\n"
                    "  hk.return\n}\n";
  printf("verify big: status %d\n", (int)hkc_verify(big, strlen(big), "big"));
  const char *gfx942[] = {"gfx942"};
  hkc_options big_options = options;
  big_options.chips = gfx942;
  big_options.num_chips = 1;
  status = hkc_compile(big, strlen(big), "big.mlir", HKC_OUTPUT_ARTIFACT,
                       &big_options, &result);
  printf("compile big: status %d\n%s", (int)status, hkc_last_error());
  printf("version: %s\n", hkc_version());
  options.opt_level = 7;
  status = hkc_compile(source, size, argv[1], HKC_OUTPUT_ARTIFACT, &options,
                       &result);
  printf("bad option: status %d: %s\n", (int)status, hkc_last_error());
  free(source);
  return failed;
}
