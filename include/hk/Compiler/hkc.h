/*===- hkc.h - the hk compiler, C API -------------------------------------===*
 *
 * The compiler library (include/hk/Compiler/Compiler.h) for programs that
 * are not C++: hk source text and options in; a runtime artifact (the bytes
 * of a .hkrt file, loadable with hkrt_module_load) or each chip's output
 * out; or the compiler's located diagnostics. Every function returns a
 * status; on failure hkc_last_error() (per thread) holds the message, with
 * each diagnostic as `name:line:col: error: ...`. Nothing aborts: text
 * nested deeper than the nesting limit (hkc_set_max_nesting_depth) is
 * refused with a located error before it is parsed, parsing and compiling
 * run on a thread whose stack holds that depth, and an LLVM fatal error
 * during code generation is HKC_ERROR_COMPILE (its compilation's memory is
 * then not freed). A result handle is a token, never reused: once freed it
 * stays stale, whatever later calls return.
 *===----------------------------------------------------------------------===*/

#ifndef HK_COMPILER_HKC_H
#define HK_COMPILER_HKC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hkc_status {
  HKC_SUCCESS = 0,
  HKC_ERROR_INVALID_ARGUMENT = 1, /* null pointer, bad option value */
  HKC_ERROR_COMPILE = 2,          /* the source does not compile */
  HKC_ERROR_OUT_OF_MEMORY = 3
} hkc_status;

typedef enum hkc_output {
  HKC_OUTPUT_ARTIFACT = 0, /* one .hkrt for all chips */
  HKC_OUTPUT_LANE_IR = 1,  /* per chip: lane-level MLIR */
  /* 2 was the removed CPU emulator's IR: refused as an unknown output */
  HKC_OUTPUT_LLVM_IR = 3,    /* per chip: optimized LLVM IR */
  HKC_OUTPUT_ASSEMBLY = 4,   /* per chip: AMDGPU assembly */
  HKC_OUTPUT_CODE_OBJECT = 5 /* per chip: ELF code object */
} hkc_output;

typedef struct hkc_options {
  const char *const *chips; /* num_chips names; none: the default chip */
  size_t num_chips;
  unsigned opt_level;           /* 0 to 3 */
  unsigned code_object_version; /* 5 or 6 */
  int schedule; /* nonzero: expand schedules with hk-schedule's stagger,
                   priorities and hints; 0: the plain expansion */
} hkc_options;

/* The defaults of hkc: the default chip, -O3, code object v5, scheduled. */
void hkc_options_init(hkc_options *options);

typedef struct hkc_result_t *hkc_result;

/* Compiles `size` bytes of `source` (named `name` in diagnostics). */
hkc_status hkc_compile(const char *source, size_t size, const char *name,
                       hkc_output output, const hkc_options *options,
                       hkc_result *out);

/* The outputs of a result: one for an artifact, else one per chip. */
size_t hkc_result_count(hkc_result result);
/* Output `index`: its bytes (NULL if index is out of range) and size. */
const void *hkc_result_data(hkc_result result, size_t index, size_t *size);
/* The chip of output `index` ("" for an artifact). */
const char *hkc_result_chip(hkc_result result, size_t index);
/* Frees a result; a freed, foreign or null handle changes nothing. A result
 * must not be freed while another thread reads it. */
void hkc_result_free(hkc_result result);

/* The last error message of this thread ("" if none). */
const char *hkc_last_error(void);

/* The compiler's version: "hk-mlir <project version> (LLVM <version>)".
 * Front ends put it in the keys of their caches of compiled output. */
const char *hkc_version(void);

/* Parses and verifies `size` bytes of `source` (named `name` in
 * diagnostics) without compiling: HKC_SUCCESS if the dialects' verifiers
 * accept it, else HKC_ERROR_COMPILE with the located diagnostics. */
hkc_status hkc_verify(const char *source, size_t size, const char *name);

/* The text of an instance of the template in `size` bytes of `source`
 * (docs/kernels.md, "Templates"): `num_params` parameters by name and value
 * as hkc --param takes them, the others at their defaults. The one output of
 * the result is the instance's source, for hkc_compile. A name the template
 * does not declare, a value outside its parameter's set or a failed
 * constraint is HKC_ERROR_COMPILE, located in `source`; so is any parameter
 * given for a source that is not a template. */
hkc_status hkc_instantiate(const char *source, size_t size, const char *name,
                           const char *const *param_names,
                           const char *const *param_values, size_t num_params,
                           hkc_result *out);

/* The nesting limit of hkc_compile and hkc_verify, for the whole process:
 * source text with more than `depth` levels of brackets ({, (, [, <) open
 * at once is refused with a located error. Default 256 (hkc's
 * --max-nesting-depth); `depth` must be 1 to 4096, else
 * HKC_ERROR_INVALID_ARGUMENT and the limit is unchanged. */
hkc_status hkc_set_max_nesting_depth(unsigned depth);
unsigned hkc_max_nesting_depth(void);

#ifdef __cplusplus
}
#endif

#endif /* HK_COMPILER_HKC_H */
