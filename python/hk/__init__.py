"""hk: compile and run hk tile kernels from Python.

    import hk, numpy as np
    mod = hk.compile("softmax.mlir", chips=["gfx942", "gfx950"])
    hk.set_device("isa")
    mod.softmax(x, y)      # arrays in, outputs written back into them

docs/python.md is the guide.
"""

from . import artifact, bf16, fp8, ir
from .autotune import (TunedKernel, TuneResult, autotune, shape_bucket,
                       table_path, tuned_params)
from .compiler import (Unsimulated, cache_dir, cache_enabled, cache_key,
                       check_simulated, compile, verify, version)
from .errors import (ArgumentError, ArtifactFormatError, CacheWarning,
                     CompileError, DeviceUnavailable, Error, FileError,
                     HkrtError, KernelFault, KernelNotFound, OutOfMemoryError)
from .runtime import Device, Kernel, Module, device, load, set_device

__all__ = [
    "ArgumentError", "ArtifactFormatError", "CacheWarning", "FileError",
    "KernelNotFound", "OutOfMemoryError", "CompileError", "Device", "DeviceUnavailable", "Error",
    "HkrtError", "Unsimulated", "artifact", "check_simulated",
    "Kernel", "KernelFault", "Module", "bf16", "cache_dir", "fp8",
    "cache_enabled", "cache_key", "compile", "device", "ir", "load",
    "set_device", "verify", "version", "autotune", "TunedKernel",
    "TuneResult", "shape_bucket", "table_path", "tuned_params",
]


def __getattr__(name):
    # The old name of HkrtError: a clear message rather than a bare
    # AttributeError, and no alias, so that nothing goes on shadowing the
    # built-in.
    if name == "RuntimeError":
        raise AttributeError(
            "hk.RuntimeError is now hk.HkrtError (a subclass of the built-in "
            "RuntimeError)")
    raise AttributeError(f"module 'hk' has no attribute {name!r}")
