"""hk: compile and run hk tile kernels from Python.

    import hk, numpy as np
    mod = hk.compile("softmax.mlir", chips=["gfx942", "gfx950"])
    hk.set_device("isa")
    mod.softmax(x, y)      # arrays in, outputs written back into them

docs/python.md is the guide.
"""

from . import artifact, bf16, ir
from .compiler import (Unsimulated, cache_dir, cache_enabled, cache_key,
                       check_simulated, compile, verify, version)
from .errors import (ArgumentError, CompileError, DeviceUnavailable, Error,
                     KernelFault, RuntimeError)
from .runtime import Device, Kernel, Module, device, load, set_device

__all__ = [
    "ArgumentError", "CompileError", "Device", "DeviceUnavailable", "Error",
    "Unsimulated", "artifact", "check_simulated",
    "Kernel", "KernelFault", "Module", "RuntimeError", "bf16", "cache_dir",
    "cache_enabled", "cache_key", "compile", "device", "ir", "load",
    "set_device", "verify", "version",
]
