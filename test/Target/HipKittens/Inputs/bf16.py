"""bf16 as the ISA tests store it: uint16 bit patterns in .npy files."""
import numpy as np


def bits(x):
    """float values rounded to bf16 (to nearest even), as bit patterns."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def value(b):
    """bf16 bit patterns as float64 values."""
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
