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

Every memref argument gets a device buffer of its own, filled from the
array before the launch, so the kernel reads each input as it was before
the call even when arrays share memory. Afterwards the arguments whose
buffers the kernel changed are copied back, after checks that leave every
array untouched if one fails: a written argument must be writeable, not a
torch tensor that requires grad, and without elements sharing memory (a
stride 0); two written arguments must not share memory.
"""

import ctypes
import itertools
import json
import math
import threading

import numpy as np

from . import _capi, _config
from . import grid as _grid
from .artifact import read_metadata
from .errors import (ArgumentError, DeviceUnavailable, KernelNotFound,
                     OutOfMemoryError, file_error)

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

# Float scalar types narrower than a Python float: a value that rounds to
# infinity in them is out of their range.
_FLOAT_HOST = {"f16": np.float16, "f32": np.float32}

# The most bytes a memref argument may reach (HKRT_MAX_MEMREF_BYTES,
# include/hk/Base/CTypes.h): refused before anything is copied.
_MAX_MEMREF_BYTES = (1 << 32) - 4

# np.shares_memory's work bound: past it, two arrays count as overlapping.
_OVERLAP_WORK = 1 << 20

_DEVICE_NAMES = ("auto", "hip", "isa")

_lock = threading.RLock()
_device = None  # the open Device
_requested = ("auto", None, 0)  # set_device's arguments


class Device:
    """An open hkrt device."""

    def __init__(self, name, chip=None, index=0):
        if name not in _DEVICE_NAMES:
            raise ArgumentError(f"unknown device '{name}': expected one of "
                                + ", ".join(_DEVICE_NAMES))
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
        raise ArgumentError("device 'emulator': the CPU emulator was "
                            "removed; the ISA simulator "
                            "(set_device(\"isa\")) replaces it")
    if name not in _DEVICE_NAMES:
        raise ArgumentError(f"unknown device '{name}': expected one of "
                            + ", ".join(_DEVICE_NAMES))
    if chip is not None and name != "isa":
        raise ArgumentError("chip= selects the ISA simulator's chip; device "
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
    """A NumPy view of a memref argument (sharing memory when it can), its
    type's name, and whether it is a torch tensor that requires grad."""
    label = _label(spec, position)
    if _torch_tensor(value):
        import torch
        if value.device.type != "cpu":
            raise ArgumentError(f"{label}: a torch tensor on "
                                f"'{value.device}'; only CPU tensors are "
                                "accepted")
        t = value.detach()
        grad = bool(value.requires_grad)
        if t.dtype == torch.bfloat16:
            return (t.view(torch.int16).numpy().view(np.uint16), "bfloat16",
                    grad)
        return t.numpy(), str(t.dtype), grad
    if isinstance(value, np.ndarray):
        return value, str(value.dtype), False
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


def _self_overlapping(a):
    """Whether two elements of `a` may share memory (a stride of 0, or
    strides too small for the dimensions inside them)."""
    dims = sorted((abs(stride), size)
                  for stride, size in zip(a.strides, a.shape) if size > 1)
    extent = a.itemsize  # bytes spanned by the dimensions inside
    for stride, size in dims:
        if stride < extent:
            return True
        extent += stride * (size - 1)
    return False


def _overlapping(a, b):
    """Whether arrays `a` and `b` share memory; True when NumPy cannot tell
    within its work bound."""
    if a.size == 0 or b.size == 0 or not np.may_share_memory(a, b):
        return False
    too_hard = getattr(getattr(np, "exceptions", np), "TooHardError")
    try:
        return bool(np.shares_memory(a, b, max_work=_OVERLAP_WORK))
    except too_hard:
        return True


def _staged(host, spec, position):
    """The row-major copy of `host` that fills its device buffer (`host`
    itself when it is contiguous already)."""
    try:
        return np.ascontiguousarray(host)
    except MemoryError:
        raise OutOfMemoryError(
            f"{_label(spec, position)}: cannot allocate a {host.nbytes}-byte "
            "contiguous copy on the host") from None


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


def _float_scalar(value, dtype, label):
    """`value` as a float scalar of `dtype`: finite, and within the type's
    range (it does not round to infinity there)."""
    if not isinstance(value, (int, float, np.integer, np.floating)) \
            or isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"{label}: {dtype} takes a number, got "
                            f"{value!r}")
    try:
        f = float(value)
    except OverflowError:  # a Python int past the largest float
        f = math.inf
    if isinstance(value, (float, np.floating)) and not math.isfinite(f):
        raise ArgumentError(f"{label}: {value} is not finite")
    narrow = _FLOAT_HOST.get(dtype)
    if narrow is not None:
        with np.errstate(over="ignore"):
            f_narrow = narrow(f)
        out = math.isinf(f_narrow)
    else:
        out = math.isinf(f)
    if out:
        raise ArgumentError(f"{label}: {value} is out of the range of "
                            f"{dtype} (it would round to infinity)")
    return f


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
            arg.f = _float_scalar(value, dtype, label)
        return arg

    def _check(self, values):
        """Checks `values` against the metadata before anything is
        allocated: (host arrays by argument, scalar args by argument, the
        grid, the arguments that are torch tensors requiring grad)."""
        if len(values) != len(self.args):
            raise ArgumentError(
                f"kernel '{self.name}' takes {len(self.args)} arguments, "
                f"got {len(values)}")
        hosts, scalars, sizes, ints, grads = {}, {}, {}, {}, set()
        for i, (value, spec) in enumerate(zip(values, self.args)):
            if spec["kind"] == "scalar":
                scalars[i] = self._scalar(value, spec, i)
                ints[i] = scalars[i].i
                continue
            host, host_type, grad = _as_host_array(value, spec, i)
            self._check_array(host, host_type, spec, i)
            if grad:
                grads.add(i)
            hosts[i] = host
            sizes[i] = host.shape
        try:
            launch_grid = _grid.grid(self.info, sizes, ints)
        except _grid.GridError as e:
            raise ArgumentError(f"kernel '{self.name}': {e}") from None
        return hosts, scalars, launch_grid, grads

    @staticmethod
    def _check_array(host, host_type, spec, i):
        """An array's element type, rank, fixed sizes and byte size against
        memref argument `spec`."""
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
        # Python integers: the product of a broadcast view's sizes cannot
        # wrap.
        nbytes = math.prod(int(n) for n in host.shape) * host.itemsize
        if nbytes > _MAX_MEMREF_BYTES:
            raise ArgumentError(
                f"{_label(spec, i)}: an array of {nbytes} bytes (shape "
                f"{tuple(host.shape)}); a memref argument holds at most "
                f"{_MAX_MEMREF_BYTES} (2^32 - 4)")

    def grid(self, *values):
        """The (x, y, z) workgroup grid a launch with `values` would use,
        from the kernel's metadata; checks the arguments as a launch
        does."""
        return self._check(values)[2]

    def __call__(self, *values):
        hosts, scalars, launch_grid, grads = self._check(values)
        self.last_grid = launch_grid
        with _lock:
            dev = device()
            handle = self.module._kernel_handle(dev, self.name)
            staged = {i: _staged(host, self.args[i], i)
                      for i, host in hosts.items()}
            results = self._run(dev, handle, staged, scalars, len(values))
        written = [
            i for i in sorted(results)
            if not np.array_equal(np.ravel(results[i]).view(np.uint8),
                                  np.ravel(staged[i]).view(np.uint8))]
        self._check_written(written, hosts, grads)
        for i in written:
            np.copyto(hosts[i], results[i])

    def _run(self, dev, handle, staged, scalars, count):
        """Fills a device buffer per memref from `staged`, launches, waits
        and reads the buffers back: {argument: contents after the
        launch}."""
        lib = _capi.hkrt()
        args = (_capi.hkrt_arg * max(1, count))()
        buffers = {}
        try:
            for i in range(count):
                if i in scalars:
                    args[i] = scalars[i]
                    continue
                args[i] = self._buffer_arg(dev, staged[i], i, buffers)
            _capi.check_rt(lib.hkrt_launch(handle, args, count),
                           f"kernel '{self.name}'")
            _capi.check_rt(lib.hkrt_synchronize(dev.handle),
                           f"kernel '{self.name}'")
            results = {}
            for i, buf in buffers.items():
                try:
                    out = np.empty_like(staged[i])
                except MemoryError:
                    raise OutOfMemoryError(
                        f"{_label(self.args[i], i)}: cannot allocate "
                        f"{staged[i].nbytes} bytes to read it back") from None
                _capi.check_rt(
                    lib.hkrt_buffer_read(buf, 0, out.ctypes.data,
                                         out.nbytes), "reading back")
                results[i] = out
            return results
        finally:
            for buf in buffers.values():
                lib.hkrt_buffer_free(buf)

    def _buffer_arg(self, dev, data, i, buffers):
        """The hkrt_arg of memref argument `i`, in a new device buffer
        holding `data` (recorded in `buffers` to be freed)."""
        lib = _capi.hkrt()
        spec = self.args[i]
        buf = ctypes.c_void_p()
        _capi.check_rt(
            lib.hkrt_buffer_alloc(dev.handle, data.nbytes, ctypes.byref(buf)),
            f"{_label(spec, i)}: allocating {data.nbytes} bytes")
        buffers[i] = buf
        _capi.check_rt(
            lib.hkrt_buffer_write(buf, 0, data.ctypes.data, data.nbytes),
            f"{_label(spec, i)}: writing")
        arg = _capi.hkrt_arg()
        arg.kind = _capi.HKRT_ARG_MEMREF
        arg.dtype = _capi.DTYPE_CODE[spec["dtype"]]
        arg.buffer = buf
        arg.rank = data.ndim
        stride = 1
        for d in reversed(range(data.ndim)):
            arg.sizes[d] = data.shape[d]
            arg.strides[d] = stride
            stride *= max(1, data.shape[d])
        return arg

    def _check_written(self, written, hosts, grads):
        """Refuses, before anything is copied back, a write the arrays
        cannot take: into a read-only array, a tensor that requires grad,
        an array whose elements share memory, or two arrays that share
        memory."""
        def refuse(what):
            raise ArgumentError(f"kernel '{self.name}' wrote {what}; no "
                                "argument was copied back")

        for i in written:
            label = _label(self.args[i], i)
            if not hosts[i].flags.writeable:
                refuse(f"into a read-only array ({label})")
            if i in grads:
                refuse(f"into {label}, a torch tensor that requires grad "
                       "(autograd would not see the write; pass a tensor "
                       "without grad, or .detach() it)")
            if _self_overlapping(hosts[i]):
                refuse(f"into {label}, whose elements share memory (a "
                       f"stride of 0 or overlapping strides: "
                       f"{hosts[i].strides} bytes)")
        for i, j in itertools.combinations(written, 2):
            if _overlapping(hosts[i], hosts[j]):
                refuse(f"into {_label(self.args[i], i)} and "
                       f"{_label(self.args[j], j)}, which share memory "
                       "(the result would depend on the order of the "
                       "copies)")


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
            raise KernelNotFound(
                f"module '{self.name}' has no kernel '{name}' (it has: "
                f"{', '.join(self._kernels)})") from None

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
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise file_error("hk.load: cannot read", path, e) from None
    return Module(data, name=str(path))
