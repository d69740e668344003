/*===- hkrt.h - the hk runtime, C API -------------------------------------===*
 *
 * Opens a device (a HIP GPU or the ISA simulator, which runs the code
 * objects on the CPU), loads
 * artifacts, looks up kernels, moves buffers and launches kernels with their
 * arguments checked against the kernel metadata. Every function returns a
 * status; on failure hkrt_last_error() (per thread) says what went wrong.
 * Nothing aborts.
 *
 * Handles are checked, from any thread: one that is not live (freed,
 * unloaded, closed, never returned by this API, or of another kind) gives
 * HKRT_ERROR_INVALID_ARGUMENT, never a crash; the functions returning a
 * value return a safe one (HKRT_DEVICE_AUTO, "", 0) and set the message.
 * Unloading a module makes its kernel handles stale. Closing a device
 * releases its modules and buffers still open and makes their handles
 * stale. Releasing NULL succeeds and does nothing.
 *===----------------------------------------------------------------------===*/

#ifndef HK_RUNTIME_HKRT_H
#define HK_RUNTIME_HKRT_H

#include "hk/Base/CTypes.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hkrt_device_kind {
  HKRT_DEVICE_AUTO = 0, /* HIP if a GPU is usable, else the ISA simulator */
  HKRT_DEVICE_HIP = 1,
  /* 2 was the CPU emulator, removed: hkrt_device_open refuses it */
  /* the ISA simulator: runs the artifact's code object on the CPU */
  HKRT_DEVICE_ISA = 3
} hkrt_device_kind;

typedef struct hkrt_device_t *hkrt_device;
typedef struct hkrt_module_t *hkrt_module;
typedef struct hkrt_kernel_t *hkrt_kernel;
typedef struct hkrt_buffer_t *hkrt_buffer;

/* One launch argument. Build it with hkrt_arg_memref / hkrt_arg_scalar_*. */
typedef struct hkrt_arg {
  hkrt_arg_kind kind;
  hkrt_dtype dtype;
  /* memref */
  hkrt_buffer buffer;
  uint64_t offset_bytes; /* where element 0 lies in the buffer */
  int32_t rank;
  int64_t sizes[HKRT_MAX_RANK];
  int64_t strides[HKRT_MAX_RANK]; /* in elements */
  /* scalar: integers (and index) in i, floats in f */
  int64_t i;
  double f;
} hkrt_arg;

/* strides == NULL: contiguous row-major (innermost 1, each outer stride the
 * product of the inner sizes, a size of 0 counting as 1).
 * A kernel's code uses the strides of its memref type, so hkrt_launch
 * requires: for a type with the identity layout (memref<?x128xf32>), exactly
 * those row-major strides; for a strided<[...]> layout, its static strides
 * (its '?' strides are free). Sizes the type fixes must match too. */
hkrt_arg hkrt_arg_memref(hkrt_buffer buffer, hkrt_dtype dtype, int32_t rank,
                         const int64_t *sizes, const int64_t *strides);
hkrt_arg hkrt_arg_int(hkrt_dtype dtype, int64_t value);
hkrt_arg hkrt_arg_float(hkrt_dtype dtype, double value);

/* The last error message of this thread ("" if none). */
const char *hkrt_last_error(void);
const char *hkrt_status_name(hkrt_status status);

/* index: the HIP device ordinal (ignored by the ISA simulator). The ISA
 * simulator's chip is $HKRT_ISA_CHIP, else gfx950. */
hkrt_status hkrt_device_open(hkrt_device_kind kind, int index,
                             hkrt_device *out);
/* The ISA simulator running `chip`'s code objects ("gfx942" or "gfx950"). */
hkrt_status hkrt_device_open_isa(const char *chip, hkrt_device *out);
/* The ISA simulator's timing mode (docs/timing.md). While enabled, each
 * launch on `device` runs the cycle model over a few sampled batches of
 * workgroups instead of the whole grid (so outputs are incomplete) and keeps
 * a report; `trace_path` (or NULL) receives a Chrome trace of the first
 * simulated batch of each launch. HKRT_ERROR_UNSUPPORTED on a HIP device. */
hkrt_status hkrt_device_set_timing(hkrt_device device, int enable,
                                   const char *trace_path);
/* The last timed launch's report, as JSON (modelled microseconds, cycles,
 * clock, TFLOP/s, bytes/s, MFMA busy, stalls by cause, loops, bound), valid
 * until the next launch on the device or its close. HKRT_ERROR_INVALID_ARGUMENT
 * when no launch was timed. */
hkrt_status hkrt_device_timing_report(hkrt_device device, const char **json);
/* The same report as readable text (several lines), with the same validity
 * and errors. */
hkrt_status hkrt_device_timing_text(hkrt_device device, const char **text);
hkrt_status hkrt_device_close(hkrt_device device);
hkrt_device_kind hkrt_device_get_kind(hkrt_device device);
/* The chip's gfx name ("gfx942"), valid until the device is closed. */
const char *hkrt_device_chip(hkrt_device device);

hkrt_status hkrt_module_load(hkrt_device device, const void *data, size_t size,
                             hkrt_module *out);
hkrt_status hkrt_module_load_file(hkrt_device device, const char *path,
                                  hkrt_module *out);
hkrt_status hkrt_module_unload(hkrt_module module);
hkrt_status hkrt_kernel_get(hkrt_module module, const char *name,
                            hkrt_kernel *out);

/* More than 2^48 bytes: HKRT_ERROR_OUT_OF_MEMORY. */
hkrt_status hkrt_buffer_alloc(hkrt_device device, size_t bytes,
                              hkrt_buffer *out);
hkrt_status hkrt_buffer_free(hkrt_buffer buffer);
hkrt_status hkrt_buffer_write(hkrt_buffer buffer, size_t offset,
                              const void *src, size_t bytes);
hkrt_status hkrt_buffer_read(hkrt_buffer buffer, size_t offset, void *dst,
                             size_t bytes);
size_t hkrt_buffer_size(hkrt_buffer buffer);
/* The buffer's first byte as the device addresses it, for kernarg segments
 * built by hand (hkrt_launch_code_object). */
hkrt_status hkrt_buffer_address(hkrt_buffer buffer, uint64_t *address);

/* Checks the arguments against the kernel's metadata, computes the grid and
 * launches. On the ISA simulator the launch runs to completion before
 * returning and a kernel fault is reported here. */
hkrt_status hkrt_launch(hkrt_kernel kernel, const hkrt_arg *args,
                        size_t num_args);
hkrt_status hkrt_synchronize(hkrt_device device);

/* Raw code objects: an AMDGPU code object (an ELF that HIP would load, such
 * as one clang compiled from C++) without an artifact's kernel metadata.
 * Nothing is known of its kernels' arguments, so the caller builds each
 * launch's kernarg segment itself and names the buffers the kernel may
 * touch. Runs on the ISA simulator (HKRT_ERROR_UNSUPPORTED on a HIP device).
 * The module's kernels have no hkrt_kernel handles: hkrt_kernel_get refuses
 * them. */
hkrt_status hkrt_module_load_code_object(hkrt_device device, const void *data,
                                         size_t size, hkrt_module *out);

/* What a code object's kernel descriptor (NAME.kd) says of the kernel. */
typedef struct hkrt_code_object_kernel {
  uint32_t kernarg_bytes; /* the kernarg segment a launch must pass */
  uint32_t lds_bytes;     /* static LDS (group segment) per workgroup */
  uint32_t scratch_bytes; /* private segment per lane */
  uint32_t vgprs;         /* architected VGPRs allocated per lane */
  uint32_t agprs;         /* accumulation VGPRs allocated per lane */
  uint32_t sgprs;         /* SGPRs allocated per wave */
} hkrt_code_object_kernel;

/* HKRT_ERROR_NOT_FOUND (naming the kernels it has) if the code object has no
 * kernel `kernel`; HKRT_ERROR_INVALID_ARGUMENT for a module loaded from an
 * artifact. */
hkrt_status hkrt_code_object_kernel_info(hkrt_module module, const char *kernel,
                                         hkrt_code_object_kernel *out);

/* One dispatch of a raw kernel: workgroups along x, y, z, work-items per
 * workgroup, and dynamic LDS bytes after the static ones (hipLaunchKernel's
 * sharedMemBytes). Every count at least 1. */
typedef struct hkrt_dispatch {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t dynamic_lds_bytes;
} hkrt_dispatch;

/* Launches `kernel` of a module from hkrt_module_load_code_object with the
 * kernarg segment `kernarg` (exactly the descriptor's kernarg_bytes; device
 * pointers in it come from hkrt_buffer_address). The kernel may touch the
 * kernarg segment and the `num_buffers` buffers of `buffers` (buffers of
 * the module's device), nothing else: an access outside them is a kernel
 * fault. Runs to completion before returning; in the device's timing mode
 * (hkrt_device_set_timing) it runs the cycle model instead and keeps the
 * report. */
hkrt_status hkrt_launch_code_object(hkrt_module module, const char *kernel,
                                    const hkrt_dispatch *dispatch,
                                    const void *kernarg, size_t kernarg_size,
                                    const hkrt_buffer *buffers,
                                    size_t num_buffers);

/* Artifacts and kernel metadata without a device, for programs and
 * languages that are not C++ (the Python package). Each reads and checks the
 * whole artifact as hkrt_module_load does (hashes included; an invalid one
 * gives HKRT_ERROR_INVALID_ARTIFACT saying what and where). The strings and
 * bytes returned stay valid until the next call of the same function on the
 * same thread. */

/* The kernel metadata of the artifact's `size` bytes as one JSON document,
 * {"version": 1, "kernels": [...]} (docs/runtime.md). */
hkrt_status hkrt_artifact_metadata(const void *data, size_t size,
                                   const char **json);
/* The chips the artifact has code objects for, in name order, separated by
 * newlines ("gfx942\ngfx950"; "" if none). */
hkrt_status hkrt_artifact_chips(const void *data, size_t size,
                                const char **chips);
/* The artifact's code object for `chip` (HKRT_ERROR_NO_DEVICE if it has
 * none, naming the ones it has). */
hkrt_status hkrt_artifact_code_object(const void *data, size_t size,
                                      const char *chip, const void **code,
                                      size_t *code_size);

/* The value of the grid expression `expr` (a result of a kernel's grid in
 * its metadata: integers and s0, s1, ... with + - * floordiv ceildiv mod,
 * unary minus and parentheses, docs/runtime.md) with s<i> = symbols[i].
 * HKRT_ERROR_INVALID_ARTIFACT for an expression that does not parse,
 * HKRT_ERROR_INVALID_ARGUMENT for an unbound symbol, a division by zero or
 * a value outside 64 bits; the message names the expression. */
hkrt_status hkrt_grid_evaluate(const char *expr, const int64_t *symbols,
                               size_t num_symbols, int64_t *value);

/* Decodes `size` bytes of an AMDGPU code object (an ELF) for `chip` with the
 * ISA simulator's decoder and finds the instructions the simulator cannot
 * run. `*total` gets the number of instructions decoded, `*unsimulated` the
 * number it cannot run and `*report` (if not NULL) one line per such
 * instruction, four fields separated by tabs: the opcode, its PC as 0x<hex>,
 * the instruction as LLVM prints it, and why.
 * HKRT_ERROR_INVALID_ARGUMENT for a null pointer, an unknown chip or bytes
 * that are no code object. */
hkrt_status hkrt_check_simulated(const void *code_object, size_t size,
                                 const char *chip, size_t *total,
                                 size_t *unsimulated, const char **report);

#ifdef __cplusplus
}
#endif

#endif /* HK_RUNTIME_HKRT_H */
