/*===- CTypes.h - the C types of the kernel metadata and of hkrt.h --------===*
 *
 * The status codes, element types and argument kinds that the kernel
 * metadata (KernelInfo.h), the artifact reader and the runtime's C API
 * (hk/Runtime/hkrt.h) share. Plain C, so that hkrt.h can include it; the
 * base itself includes nothing of the runtime.
 *===----------------------------------------------------------------------===*/

#ifndef HK_BASE_CTYPES_H
#define HK_BASE_CTYPES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hkrt_status {
  HKRT_SUCCESS = 0,
  HKRT_ERROR_INVALID_ARGUMENT = 1, /* bad handle, argument mismatch, ... */
  HKRT_ERROR_NOT_FOUND = 2,        /* kernel name, file */
  HKRT_ERROR_INVALID_ARTIFACT = 3, /* truncated or corrupt artifact */
  HKRT_ERROR_NO_RUNTIME = 4,       /* libamdhip64.so not found or unusable */
  HKRT_ERROR_NO_DEVICE = 5,        /* no GPU, or no code object for it */
  HKRT_ERROR_DEVICE = 6,           /* a device call (HIP) failed */
  HKRT_ERROR_OUT_OF_MEMORY = 7,
  HKRT_ERROR_KERNEL_FAULT = 8, /* the ISA simulator caught a kernel bug */
  HKRT_ERROR_UNSUPPORTED = 9
} hkrt_status;

typedef enum hkrt_dtype {
  HKRT_DTYPE_BF16 = 0,
  HKRT_DTYPE_F16,
  HKRT_DTYPE_F32,
  HKRT_DTYPE_F64,
  HKRT_DTYPE_I8,
  HKRT_DTYPE_I16,
  HKRT_DTYPE_I32,
  HKRT_DTYPE_I64,
  HKRT_DTYPE_INDEX,
  HKRT_DTYPE_F8E4M3FNUZ,
  HKRT_DTYPE_F8E5M2FNUZ,
  HKRT_DTYPE_F8E4M3FN,
  HKRT_DTYPE_F8E5M2,
  /* i1: scalar arguments only (hkrt_arg_int, nonzero meaning true). */
  HKRT_DTYPE_BOOL,
  /* !hk.fp8 / !hk.bf8: the E4M3 / E5M2 format of the chip of the code
   * object launched (FNUZ on gfx942, OCP on gfx950); the host encodes the
   * bytes for that chip. */
  HKRT_DTYPE_FP8,
  HKRT_DTYPE_BF8,
  HKRT_DTYPE_COUNT
} hkrt_dtype;

typedef enum hkrt_arg_kind {
  HKRT_ARG_MEMREF = 0,
  HKRT_ARG_SCALAR = 1
} hkrt_arg_kind;

#define HKRT_MAX_RANK 8

/* The most bytes a memref argument may reach from its element 0. Kernels
 * address a memref through a buffer descriptor whose 32-bit range also
 * covers up to 3 bytes completing the dword of the last element; a larger
 * memref would be silently truncated, so hkrt_launch refuses it. */
#define HKRT_MAX_MEMREF_BYTES 4294967292u /* 2^32 - 4 */

#ifdef __cplusplus
}
#endif

#endif /* HK_BASE_CTYPES_H */
