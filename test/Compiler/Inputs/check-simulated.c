/* hkrt_check_simulated from C: the instructions of a code object (argv[1],
 * for chip argv[2]) that the ISA simulator cannot run, then the errors of
 * a null pointer, an unknown chip and bytes that are no code object.
 * usage: check-simulated CODE_OBJECT CHIP */
#include <hk/Runtime/hkrt.h>

#include <stdio.h>
#include <stdlib.h>

static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc(*size ? *size : 1);
  if (data && fread(data, 1, *size, f) != *size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  size_t size = 0;
  char *elf = readFile(argv[1], &size);
  if (!elf)
    return 2;
  size_t total = 0, unsimulated = 0;
  const char *report = NULL;
  hkrt_status status =
      hkrt_check_simulated(elf, size, argv[2], &total, &unsimulated, &report);
  printf("status %d: %zu of %zu instructions not simulated\n", (int)status,
         unsimulated, total);
  printf("%s", report ? report : "(no report)\n");

  status =
      hkrt_check_simulated(NULL, size, argv[2], &total, &unsimulated, &report);
  printf("null: status %d: %s\n", (int)status, hkrt_last_error());
  status =
      hkrt_check_simulated(elf, size, "gfx9000", &total, &unsimulated, &report);
  printf("chip: status %d: %s\n", (int)status, hkrt_last_error());
  status = hkrt_check_simulated("not an ELF", 10, argv[2], &total, &unsimulated,
                                &report);
  printf("garbage: status %d\n", (int)status);
  free(elf);
  return 0;
}
