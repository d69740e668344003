"""Devices, loaded modules and kernel launches over libhkrt.

Arrays cross the boundary as NumPy arrays, or PyTorch CPU tensors when
torch is installed. Element types map as follows (hkrt dtype: accepted host
type):

  f16 float16, f32 float32, f64 float64, i8 int8, i16 int16, i32 int32,
  i64 and index int64;
  bf16: NumPy has no bfloat16, so a bf16 argument is a uint16 array holding
  the bf16 bit patterns (hk.bf16.from_float / hk.bf16.to_float convert), or
  a torch.bfloat16 tensor;
  the fp8 types: uint8 arrays of their bit patterns.

Nothing is converted silently: an array of another type is an ArgumentError
naming the argument and both types.
"""

import ctypes
import json
import math
import threading

import numpy as np

from . import _capi, _config
from . import grid as _grid
from .artifact import read_metadata
from .errors import ArgumentError, DeviceUnavailable

# Host element type of each memref dtype.
_HOST_DTYPE = {
    "bf16": np.dtype(np.uint16),
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "index": np.dtype(np.int64),
    "f8E4M3FNUZ": np.dtype(np.uint8),
    "f8E5M2FNUZ": np.dtype(np.uint8),
    "f8E4M3FN": np.dtype(np.uint8),
    "f8E5M2": np.dtype(np.uint8),
    "!hk.fp8": np.dtype(np.uint8),
    "!hk.bf8": np.dtype(np.uint8),
}

_INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}

_DEVICE_NAMES = ("auto", "hip", "isa")

_lock = threading.RLock()
_device = None  # the open Device
_requested = ("auto", None, 0)  # set_device's arguments


class Device:
    """An open hkrt device."""

    def __init__(self, name, chip=None, index=0):
        lib = _capi.hkrt()
        handle = ctypes.c_void_p()
        if name == "isa" and chip is not None:
            status = lib.hkrt_device_open_isa(chip.encode(),
                                              ctypes.byref(handle))
        else:
            kind = {
                "auto": _capi.HKRT_DEVICE_AUTO,
                "hip": _capi.HKRT_DEVICE_HIP,
                "isa": _capi.HKRT_DEVICE_ISA,
            }[name]
            status = lib.hkrt_device_open(kind, index, ctypes.byref(handle))
        _capi.check_rt(status, f"opening device '{name}'")
        self.handle = handle
        self.name = name
        kind = lib.hkrt_device_get_kind(handle)
        self.kind = {_capi.HKRT_DEVICE_HIP: "hip",
                     _capi.HKRT_DEVICE_ISA: "isa"}.get(kind)
        self.chip = lib.hkrt_device_chip(handle).decode()

    def set_timing(self, on=True, trace=None):
        """The ISA simulator's timing mode (docs/timing.md): while on, each
        launch runs the cycle model over a few sampled batches of workgroups
        instead of the whole grid, so outputs are incomplete; `trace` is a
        Chrome trace file of the first simulated batch. A HIP device raises
        the runtime's error."""
        status = _capi.hkrt().hkrt_device_set_timing(
            self.handle, 1 if on else 0,
            None if trace is None else str(trace).encode())
        _capi.check_rt(status, "setting the timing mode")

    def timing_report(self):
        """The last timed launch's report, a dict: modelled microseconds,
        cycles, clock_mhz, tflops, bytes_per_second, mfma_busy, stalls by
        cause, loops, bound, ..."""
        json_text = ctypes.c_char_p()
        status = _capi.hkrt().hkrt_device_timing_report(
            self.handle, ctypes.byref(json_text))
        _capi.check_rt(status, "reading the timing report")
        return json.loads(json_text.value.decode())

    def close(self):
        if self.handle is not None:
            _capi.hkrt().hkrt_device_close(self.handle)
            self.handle = None

    def __repr__(self):
        return f"<hk.Device {self.kind} {self.chip}>"


def set_device(name="auto", chip=None, index=0):
    """Selects where kernels run: "auto" (a HIP GPU if one is usable, else
    the ISA simulator), "hip" (GPU `index`) or "isa" (the ISA simulator
    running `chip`'s code object on the CPU, default $HKRT_ISA_CHIP or
    gfx950). The device opens now, so an unusable one raises
    DeviceUnavailable here."""
    global _device, _requested
    if name == "emulator":
        raise ValueError("device 'emulator': the CPU emulator was removed; "
                         "the ISA simulator (set_device(\"isa\")) replaces "
                         "it")
    if name not in _DEVICE_NAMES:
        raise ValueError(f"unknown device '{name}': expected one of "
                         + ", ".join(_DEVICE_NAMES))
    if chip is not None and name != "isa":
        raise ValueError("chip= selects the ISA simulator's chip; device "
                         f"'{name}' takes none")
    with _lock:
        new = Device(name, chip, index)
        if _device is not None:
            _device.close()
        _device = new
        _requested = (name, chip, index)
    return new


def device():
    """The current device, opened on first use (default "auto")."""
    global _device
    with _lock:
        if _device is None:
            _device = Device(*_requested)
        return _device


def _torch_tensor(value):
    return type(value).__module__ == "torch" and type(value).__name__ in (
        "Tensor", "Parameter")


def _as_host_array(value, spec, position):
    """A NumPy view of a memref argument (sharing memory when it can)."""
    label = _label(spec, position)
    if _torch_tensor(value):
        import torch
        if value.device.type != "cpu":
            raise ArgumentError(f"{label}: a torch tensor on "
                                f"'{value.device}'; only CPU tensors are "
                                "accepted")
        t = value.detach()
        if t.dtype == torch.bfloat16:
            return t.view(torch.int16).numpy().view(np.uint16), "bfloat16"
        return t.numpy(), str(t.dtype)
    if isinstance(value, np.ndarray):
        return value, str(value.dtype)
    raise ArgumentError(f"{label}: expected a numpy array or torch tensor "
                        f"for a {_type_text(spec)}, got "
                        f"{type(value).__name__}")


def _label(spec, position):
    return f"argument {position} '{spec.get('name', f'arg{position}')}'"


def _type_text(spec):
    if spec["kind"] == "scalar":
        return spec["dtype"]
    shape = spec.get("shape")
    if shape is None:
        return f"rank-{spec['rank']} memref of {spec['dtype']}"
    dims = "x".join("?" if d is None else str(d) for d in shape)
    layout = ""
    if spec.get("layout") == "strided":
        strides = ", ".join("?" if d is None else str(d)
                            for d in spec["strides"])
        layout = f", strided<[{strides}]>"
    return f"memref<{dims}x{spec['dtype']}{layout}>"


def _expected_host(spec):
    dtype = spec["dtype"]
    if dtype == "bf16":
        return "uint16 (bf16 bit patterns) or torch.bfloat16"
    if dtype.startswith("f8"):
        return f"uint8 ({dtype} bit patterns)"
    if dtype in ("!hk.fp8", "!hk.bf8"):
        return (f"uint8 (bit patterns of the chip's {dtype[4:]}, "
                f"hk.fp8.from_float)")
    return str(_HOST_DTYPE[dtype])


class Kernel:
    """One kernel of a loaded module; call it with its arguments."""

    def __init__(self, module, info):
        self.module = module
        self.info = info
        self.name = info["name"]
        self.args = info["args"]
        self.last_grid = None  # the grid of the last launch

    def __repr__(self):
        sig = ", ".join(
            f"{a.get('name', f'arg{i}')}: {_type_text(a)}"
            for i, a in enumerate(self.args))
        return f"<hk.Kernel {self.name}({sig})>"

    def _scalar(self, value, spec, position):
        dtype = spec["dtype"]
        label = _label(spec, position)
        code = _capi.DTYPE_CODE[dtype]
        arg = _capi.hkrt_arg()
        arg.kind = _capi.HKRT_ARG_SCALAR
        arg.dtype = code
        if dtype == "i1":
            if value not in (0, 1, True, False):
                raise ArgumentError(f"{label}: i1 takes True/False or 0/1, "
                                    f"got {value!r}")
            arg.i = int(value)
        elif dtype in _INT_BITS:
            if isinstance(value, (bool, np.bool_)) or not isinstance(
                    value, (int, np.integer)):
                raise ArgumentError(f"{label}: {dtype} takes an integer, "
                                    f"got {value!r}")
            bits = _INT_BITS[dtype]
            if not -(1 << (bits - 1)) <= int(value) < (1 << (bits - 1)):
                raise ArgumentError(f"{label}: {value} is out of the range "
                                    f"of {dtype}")
            arg.i = int(value)
        else:
            if not isinstance(value, (int, float, np.integer, np.floating)) \
                    or isinstance(value, (bool, np.bool_)):
                raise ArgumentError(f"{label}: {dtype} takes a number, got "
                                    f"{value!r}")
            if not math.isfinite(float(value)):
                raise ArgumentError(f"{label}: {value} is not finite")
            arg.f = float(value)
        return arg

    def _check(self, values):
        """Checks `values` against the metadata before anything is
        allocated: (host arrays by argument, scalar args by argument, the
        grid)."""
        if len(values) != len(self.args):
            raise ArgumentError(
                f"kernel '{self.name}' takes {len(self.args)} arguments, "
                f"got {len(values)}")
        hosts, scalars, sizes, ints = {}, {}, {}, {}
        for i, (value, spec) in enumerate(zip(values, self.args)):
            if spec["kind"] == "scalar":
                scalars[i] = self._scalar(value, spec, i)
                ints[i] = scalars[i].i
                continue
            host, host_type = _as_host_array(value, spec, i)
            want = _HOST_DTYPE[spec["dtype"]]
            if host.dtype != want:
                raise ArgumentError(
                    f"{_label(spec, i)}: {_type_text(spec)} takes "
                    f"{_expected_host(spec)}, got {host_type}")
            if host.ndim != spec["rank"]:
                raise ArgumentError(
                    f"{_label(spec, i)}: {_type_text(spec)} has rank "
                    f"{spec['rank']}, got an array of shape "
                    f"{tuple(host.shape)}")
            for d, size in enumerate(spec.get("shape") or []):
                if size is not None and host.shape[d] != size:
                    raise ArgumentError(
                        f"{_label(spec, i)}: dimension {d} of "
                        f"{_type_text(spec)} must be {size}, got "
                        f"{host.shape[d]}")
            hosts[i] = host
            sizes[i] = host.shape
        try:
            launch_grid = _grid.grid(self.info, sizes, ints)
        except _grid.GridError as e:
            raise ArgumentError(f"kernel '{self.name}': {e}") from None
        return hosts, scalars, launch_grid

    def grid(self, *values):
        """The (x, y, z) workgroup grid a launch with `values` would use,
        from the kernel's metadata; checks the arguments as a launch
        does."""
        return self._check(values)[2]

    def __call__(self, *values):
        hosts, scalars, launch_grid = self._check(values)
        self.last_grid = launch_grid
        with _lock:
            dev = device()
            handle = self.module._kernel_handle(dev, self.name)
            lib = _capi.hkrt()
            args = (_capi.hkrt_arg * max(1, len(values)))()
            buffers = []  # (buffer, original, contiguous copy)
            try:
                for i, spec in enumerate(self.args):
                    if i in scalars:
                        args[i] = scalars[i]
                        continue
                    host = hosts[i]
                    data = np.ascontiguousarray(host)
                    buf = ctypes.c_void_p()
                    _capi.check_rt(
                        lib.hkrt_buffer_alloc(dev.handle, data.nbytes,
                                              ctypes.byref(buf)),
                        f"{_label(spec, i)}: allocating {data.nbytes} bytes")
                    buffers.append((buf, host, data))
                    _capi.check_rt(
                        lib.hkrt_buffer_write(buf, 0, data.ctypes.data,
                                              data.nbytes),
                        f"{_label(spec, i)}: writing")
                    arg = _capi.hkrt_arg()
                    arg.kind = _capi.HKRT_ARG_MEMREF
                    arg.dtype = _capi.DTYPE_CODE[spec["dtype"]]
                    arg.buffer = buf
                    arg.rank = host.ndim
                    stride = 1
                    for d in reversed(range(host.ndim)):
                        arg.sizes[d] = host.shape[d]
                        arg.strides[d] = stride
                        stride *= max(1, host.shape[d])
                    args[i] = arg
                _capi.check_rt(lib.hkrt_launch(handle, args, len(values)),
                               f"kernel '{self.name}'")
                _capi.check_rt(lib.hkrt_synchronize(dev.handle),
                               f"kernel '{self.name}'")
                for buf, host, data in buffers:
                    out = np.empty_like(data)
                    _capi.check_rt(
                        lib.hkrt_buffer_read(buf, 0, out.ctypes.data,
                                             out.nbytes), "reading back")
                    if host.flags.writeable:
                        np.copyto(host, out)
                    elif not np.array_equal(out.view(np.uint8),
                                            data.view(np.uint8)):
                        raise ArgumentError(
                            f"kernel '{self.name}' wrote into a read-only "
                            "array")
            finally:
                for buf, _, _ in buffers:
                    lib.hkrt_buffer_free(buf)


class Module:
    """Compiled kernels: an artifact's bytes and its metadata. Kernels are
    attributes (``mod.softmax``) and items (``mod["softmax"]``)."""

    def __init__(self, artifact, name="<artifact>", cache_hit=False,
                 cache_path=None):
        self.artifact = bytes(artifact)
        self.name = name
        self.cache_hit = cache_hit
        self.cache_path = cache_path
        self.metadata = read_metadata(self.artifact)
        self._kernels = {k["name"]: Kernel(self, k)
                         for k in self.metadata["kernels"]}
        self._loaded = {}  # id(Device) -> (Device, module handle, kernels)

    @property
    def kernels(self):
        return dict(self._kernels)

    def __getitem__(self, name):
        try:
            return self._kernels[name]
        except KeyError:
            raise KeyError(f"module '{self.name}' has no kernel '{name}' "
                           f"(it has: {', '.join(self._kernels)})") from None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._kernels[name]
        except KeyError:
            raise AttributeError(
                f"module '{self.name}' has no kernel '{name}' (it has: "
                f"{', '.join(self._kernels)})") from None

    def __dir__(self):
        return list(super().__dir__()) + list(self._kernels)

    def unload(self):
        """Unloads the module from the device it was loaded on (it loads
        again on the next launch)."""
        for dev, handle, _ in self._loaded.values():
            if dev.handle is not None:
                _capi.hkrt().hkrt_module_unload(handle)
        self._loaded = {}

    def __del__(self):
        try:
            self.unload()
        except Exception:
            pass  # interpreter shutdown: the runtime may be gone already

    def _kernel_handle(self, dev, name):
        entry = self._loaded.get(id(dev))
        if entry is None or entry[0] is not dev or dev.handle is None:
            lib = _capi.hkrt()
            handle = ctypes.c_void_p()
            _capi.check_rt(
                lib.hkrt_module_load(dev.handle, self.artifact,
                                     len(self.artifact), ctypes.byref(handle)),
                f"loading '{self.name}' on {dev.kind} {dev.chip}")
            self.unload()
            entry = (dev, handle, {})
            self._loaded = {id(dev): entry}
        kernels = entry[2]
        if name not in kernels:
            k = ctypes.c_void_p()
            _capi.check_rt(
                _capi.hkrt().hkrt_kernel_get(entry[1], name.encode(),
                                             ctypes.byref(k)),
                f"kernel '{name}'")
            kernels[name] = k
        return kernels[name]


def load(path):
    """A Module from a compiled artifact file (hkc --emit=artifact)."""
    with open(path, "rb") as f:
        return Module(f.read(), name=str(path))
