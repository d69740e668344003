/* Hostile input through the compiler's C API (hkc.h): text nested deeper
 * than the nesting limit is a located error, not a stack overflow; the
 * limit can be raised to what the compilation stack holds and no further;
 * a freed result stays stale when later results reuse its memory; and a
 * kernel that makes LLVM stop with a fatal error is an error status. */

#include "hk/Compiler/hkc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `depth` copies of `open`, then `body`, then `depth` copies of `close`. */
static char *nest(const char *head, const char *open, const char *body,
                  const char *close, const char *tail, int depth) {
  size_t size = strlen(head) + strlen(body) + strlen(tail) +
                (size_t)depth * (strlen(open) + strlen(close)) + 1;
  char *text = malloc(size), *p = text;
  p += sprintf(p, "%s", head);
  for (int i = 0; i < depth; ++i)
    p += sprintf(p, open, i);
  p += sprintf(p, "%s", body);
  for (int i = 0; i < depth; ++i)
    p += sprintf(p, "%s", close);
  sprintf(p, "%s", tail);
  return text;
}

/* The first line of the last error. */
static void printFirstLine(const char *what, int status) {
  const char *error = hkc_last_error();
  const char *end = strchr(error, '\n');
  printf("%s: status %d: %.*s\n", what, status,
         (int)(end ? end - error : (long)strlen(error)), error);
}

static void verify(const char *what, char *text) {
  printFirstLine(what, hkc_verify(text, strlen(text), what));
}

static void compile(const char *what, char *text, const hkc_options *options) {
  hkc_result result = NULL;
  int status = hkc_compile(text, strlen(text), what, HKC_OUTPUT_ARTIFACT,
                           options, &result);
  printFirstLine(what, status);
  hkc_result_free(result);
}

static const char *kernel =
    "hk.kernel @k(%x: memref<?xf32>) attributes {waves = 1 : i32, "
    "grid = #hk.grid<[dim(0, 0)] -> (s0)>} {\n  hk.return\n}\n";

/* A result freed, then many compiled: the freed handle stays stale even
 * when a later result is allocated where it was. */
static void staleHandles(const hkc_options *options) {
  hkc_result freed, later[16];
  size_t size = strlen(kernel);
  hkc_compile(kernel, size, "k.mlir", HKC_OUTPUT_LANE_IR, options, &freed);
  printf("live result: %zu output(s)\n", hkc_result_count(freed));
  hkc_result_free(freed);
  int same = 0;
  for (int i = 0; i < 16; ++i) {
    hkc_compile(kernel, size, "k.mlir", HKC_OUTPUT_LANE_IR, options, &later[i]);
    same += later[i] == freed;
  }
  printf("handles equal to the freed one: %d\n", same);
  printf("freed result after 16 compiles: count %zu (%s)\n",
         hkc_result_count(freed), hkc_last_error());
  size_t bytes = 1;
  printf("its data: %s, size %zu\n",
         hkc_result_data(freed, 0, &bytes) ? "set" : "null", bytes);
  hkc_result_free(freed); /* changes nothing */
  printf("a later result still: %zu output(s)\n", hkc_result_count(later[0]));
  for (int i = 0; i < 16; ++i)
    hkc_result_free(later[i]);
}

/* The kernel at `path`, which makes LLVM stop with a fatal error while
 * generating code: an error status with the backend's message. */
static void backendFatal(const char *path, hkc_options options) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return;
  static char text[1 << 16];
  size_t size = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  const char *gfx942[] = {"gfx942"};
  options.chips = gfx942;
  options.num_chips = 1;
  hkc_result result = NULL;
  int status = hkc_compile(text, size, "backend-fatal.mlir",
                           HKC_OUTPUT_CODE_OBJECT, &options, &result);
  printf("backend fatal: status %d, result %s\n%s", status,
         result ? "set" : "null", hkc_last_error());
  printf("after it: %s\n", hkc_verify(kernel, strlen(kernel), "k.mlir") == 0
                               ? "verify still works"
                               : hkc_last_error());
}

int main(int argc, char **argv) {
  hkc_options options;
  hkc_options_init(&options);
  printf("default limit: %u\n", hkc_max_nesting_depth());
  char *modules = nest("", "module {\n", "", "}\n", "", 4000);
  char *ifs = nest("func.func @f(%c: i1) {\n", "scf.if %%c {\n", "", "}\n",
                   "return\n}\n", 10000);
  char *fors = nest("func.func @f(%a: index) {\n",
                    "scf.for %%i%d = %%a to %%a step %%a {\n", "", "}\n",
                    "return\n}\n", 3000);
  verify("modules.mlir", modules);
  verify("ifs.mlir", ifs);
  verify("fors.mlir", fors);
  compile("modules.mlir", modules, &options);
  compile("ifs.mlir", ifs, &options);
  compile("fors.mlir", fors, &options);

  printf("limit 0: status %d: %s\n", hkc_set_max_nesting_depth(0),
         hkc_last_error());
  printf("limit 4097: status %d: %s\n", hkc_set_max_nesting_depth(4097),
         hkc_last_error());
  printf("limit 4096: status %d\n", hkc_set_max_nesting_depth(4096));
  verify("modules.mlir", modules);
  verify("fors.mlir", fors);
  hkc_set_max_nesting_depth(256);
  staleHandles(&options);
  if (argc == 2)
    backendFatal(argv[1], options);
  free(modules);
  free(ifs);
  free(fors);
  return 0;
}
