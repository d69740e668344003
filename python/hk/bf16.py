"""bf16 as NumPy sees it: uint16 arrays of bit patterns.

``from_float`` rounds float32 (or float64, rounded to float32 first) to the
nearest bf16, ties to even, keeping NaN a (quiet) NaN; ``to_float`` widens
bf16 bits to float32 exactly.
"""

import numpy as np


def from_float(values):
    """bf16 bit patterns (uint16) of `values`, rounded to nearest even."""
    f = np.ascontiguousarray(values, dtype=np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    out = rounded.astype(np.uint16)
    nan = np.isnan(f)
    out[nan] = ((bits[nan] >> 16) | 0x40).astype(np.uint16)
    return out


def to_float(bits):
    """float32 values of bf16 bit patterns (a uint16 array)."""
    b = np.ascontiguousarray(bits)
    if b.dtype != np.uint16:
        raise TypeError(f"bf16 bit patterns are uint16, got {b.dtype}")
    return (b.astype(np.uint32) << 16).view(np.float32)
