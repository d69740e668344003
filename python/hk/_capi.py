"""ctypes bindings of the two C APIs: hkc.h (libhkc) and hkrt.h (libhkrt).

The declarations follow include/hk/Compiler/hkc.h and
include/hk/Runtime/hkrt.h; the libraries are loaded from the directory the
build or the install recorded in _config.py.
"""

import ctypes
import os

from . import _config
from .errors import DeviceUnavailable, Error, HkrtError, KernelFault

# hkc.h
HKC_SUCCESS = 0
HKC_ERROR_INVALID_ARGUMENT = 1
HKC_ERROR_COMPILE = 2
HKC_ERROR_OUT_OF_MEMORY = 3
HKC_OUTPUT_ARTIFACT = 0
HKC_OUTPUT_LANE_IR = 1


class hkc_options(ctypes.Structure):
    _fields_ = [
        ("chips", ctypes.POINTER(ctypes.c_char_p)),
        ("num_chips", ctypes.c_size_t),
        ("opt_level", ctypes.c_uint),
        ("code_object_version", ctypes.c_uint),
        ("schedule", ctypes.c_int),
    ]


# hkrt.h
HKRT_SUCCESS = 0
HKRT_ERROR_NO_RUNTIME = 4
HKRT_ERROR_NO_DEVICE = 5
HKRT_ERROR_KERNEL_FAULT = 8
HKRT_DEVICE_AUTO = 0
HKRT_DEVICE_HIP = 1
HKRT_DEVICE_ISA = 3
HKRT_ARG_MEMREF = 0
HKRT_ARG_SCALAR = 1
HKRT_MAX_RANK = 8

# hkrt_dtype, in the enum's order.
DTYPES = [
    "bf16", "f16", "f32", "f64", "i8", "i16", "i32", "i64", "index",
    "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3FN", "f8E5M2", "i1", "!hk.fp8",
    "!hk.bf8",
]
DTYPE_CODE = {name: code for code, name in enumerate(DTYPES)}


class hkrt_arg(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("dtype", ctypes.c_int),
        ("buffer", ctypes.c_void_p),
        ("offset_bytes", ctypes.c_uint64),
        ("rank", ctypes.c_int32),
        ("sizes", ctypes.c_int64 * HKRT_MAX_RANK),
        ("strides", ctypes.c_int64 * HKRT_MAX_RANK),
        ("i", ctypes.c_int64),
        ("f", ctypes.c_double),
    ]


def _load(name):
    path = os.path.join(_config.LIBDIR, name)
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise Error(f"hk: cannot load {path}: {e}") from None


def _declare(lib, name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_hkc = None
_hkrt = None


def hkc():
    """libhkc, loaded on first use."""
    global _hkc
    if _hkc is None:
        lib = _load("libhkc.so")
        P = ctypes.c_void_p
        _declare(lib, "hkc_options_init", None, ctypes.POINTER(hkc_options))
        _declare(lib, "hkc_compile", ctypes.c_int, ctypes.c_char_p,
                 ctypes.c_size_t, ctypes.c_char_p, ctypes.c_int,
                 ctypes.POINTER(hkc_options), ctypes.POINTER(P))
        _declare(lib, "hkc_result_count", ctypes.c_size_t, P)
        _declare(lib, "hkc_result_data", ctypes.c_void_p, P, ctypes.c_size_t,
                 ctypes.POINTER(ctypes.c_size_t))
        _declare(lib, "hkc_result_free", None, P)
        _declare(lib, "hkc_last_error", ctypes.c_char_p)
        _declare(lib, "hkc_version", ctypes.c_char_p)
        _declare(lib, "hkc_verify", ctypes.c_int, ctypes.c_char_p,
                 ctypes.c_size_t, ctypes.c_char_p)
        _declare(lib, "hkc_instantiate", ctypes.c_int, ctypes.c_char_p,
                 ctypes.c_size_t, ctypes.c_char_p,
                 ctypes.POINTER(ctypes.c_char_p),
                 ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                 ctypes.POINTER(P))
        _hkc = lib
    return _hkc


def hkrt():
    """libhkrt, loaded on first use."""
    global _hkrt
    if _hkrt is None:
        lib = _load("libhkrt.so")
        P = ctypes.c_void_p
        PP = ctypes.POINTER(P)
        S = ctypes.c_int
        _declare(lib, "hkrt_last_error", ctypes.c_char_p)
        _declare(lib, "hkrt_status_name", ctypes.c_char_p, S)
        _declare(lib, "hkrt_device_open", S, S, ctypes.c_int, PP)
        _declare(lib, "hkrt_device_open_isa", S, ctypes.c_char_p, PP)
        _declare(lib, "hkrt_device_close", S, P)
        _declare(lib, "hkrt_device_get_kind", S, P)
        _declare(lib, "hkrt_device_chip", ctypes.c_char_p, P)
        _declare(lib, "hkrt_device_set_timing", S, P, ctypes.c_int,
                 ctypes.c_char_p)
        _declare(lib, "hkrt_device_timing_report", S, P,
                 ctypes.POINTER(ctypes.c_char_p))
        _declare(lib, "hkrt_module_load", S, P, ctypes.c_char_p,
                 ctypes.c_size_t, PP)
        _declare(lib, "hkrt_module_unload", S, P)
        _declare(lib, "hkrt_kernel_get", S, P, ctypes.c_char_p, PP)
        _declare(lib, "hkrt_buffer_alloc", S, P, ctypes.c_size_t, PP)
        _declare(lib, "hkrt_buffer_free", S, P)
        _declare(lib, "hkrt_buffer_write", S, P, ctypes.c_size_t,
                 ctypes.c_void_p, ctypes.c_size_t)
        _declare(lib, "hkrt_buffer_read", S, P, ctypes.c_size_t,
                 ctypes.c_void_p, ctypes.c_size_t)
        _declare(lib, "hkrt_launch", S, P, ctypes.POINTER(hkrt_arg),
                 ctypes.c_size_t)
        _declare(lib, "hkrt_synchronize", S, P)
        # Artifacts, grids and simulated instructions without a device.
        CP = ctypes.POINTER(ctypes.c_char_p)
        Z = ctypes.c_size_t
        ZP = ctypes.POINTER(Z)
        _declare(lib, "hkrt_artifact_metadata", S, ctypes.c_char_p, Z, CP)
        _declare(lib, "hkrt_artifact_chips", S, ctypes.c_char_p, Z, CP)
        _declare(lib, "hkrt_artifact_code_object", S, ctypes.c_char_p, Z,
                 ctypes.c_char_p, PP, ZP)
        _declare(lib, "hkrt_grid_evaluate", S, ctypes.c_char_p,
                 ctypes.POINTER(ctypes.c_int64), Z,
                 ctypes.POINTER(ctypes.c_int64))
        _declare(lib, "hkrt_check_simulated", S, ctypes.c_char_p, Z,
                 ctypes.c_char_p, ZP, ZP, CP)
        _hkrt = lib
    return _hkrt


def check_rt(status, what):
    """Raises the exception for an hkrt status other than HKRT_SUCCESS."""
    if status == HKRT_SUCCESS:
        return
    lib = hkrt()
    message = lib.hkrt_last_error().decode("utf-8", "replace")
    name = lib.hkrt_status_name(status).decode()
    text = f"{what}: {message}" if message else f"{what}: {name}"
    if status == HKRT_ERROR_KERNEL_FAULT:
        raise KernelFault(text, status, name)
    if status in (HKRT_ERROR_NO_RUNTIME, HKRT_ERROR_NO_DEVICE):
        raise DeviceUnavailable(text, status, name)
    raise HkrtError(text, status, name)
