"""The launch grid of a kernel, from its metadata (docs/runtime.md, Kernel
metadata): symbols bound to memref sizes (dim(a, d)) or integer scalars
(arg(a)), and 1 to 3 affine expressions over them, evaluated by the runtime
(hkrt_grid_evaluate in include/hk/Runtime/hkrt.h), as a launch evaluates
them. Every value must stay within 64 bits, a division by zero or an
unbound symbol is an error, and each result must lie in [0, 2^31).
"""

import ctypes

from . import _capi


class GridError(ValueError):
    pass


def evaluate(text, symbols):
    """The value of grid expression `text` with s<i> = symbols[i]."""
    lib = _capi.hkrt()
    values = (ctypes.c_int64 * max(len(symbols), 1))(*symbols)
    value = ctypes.c_int64()
    status = lib.hkrt_grid_evaluate(text.encode(), values, len(symbols),
                                    ctypes.byref(value))
    if status != _capi.HKRT_SUCCESS:
        raise GridError(lib.hkrt_last_error().decode("utf-8", "replace"))
    return value.value


def grid(info, sizes, scalars):
    """(x, y, z) of kernel metadata `info` for memref sizes (a dict:
    argument -> shape) and integer scalars (argument -> value)."""
    symbols = []
    for s in info["grid"]["symbols"]:
        if "dim" in s:
            symbols.append(int(sizes[s["arg"]][s["dim"]]))
        else:
            symbols.append(int(scalars[s["arg"]]))
    result = []
    for text in info["grid"]["results"]:
        v = evaluate(text, symbols)
        if not 0 <= v < (1 << 31):
            raise GridError(f"grid expression '{text}' gives {v}, outside "
                            "[0, 2^31)")
        result.append(v)
    return tuple(result + [1] * (3 - len(result)))
