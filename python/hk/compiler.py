"""Compiling hk source through libhkc, with a disk cache of artifacts.

The cache (like Triton's) keeps each compiled artifact under a key: the
SHA-256 of the source text, the options (chips, opt_level,
code_object_version), the compiler's version (hkc_version()) and
the SHA-256 of libhkc itself, so a rebuilt compiler never reuses an older
one's output. Where it lives:

  HK_CACHE_DIR   the cache directory (default: $XDG_CACHE_HOME/hk, else
                 ~/.cache/hk)
  HK_CACHE=0     no cache: every compile runs the compiler, nothing is
                 read or written (also hk.compile(..., cache=False))

Entries are written atomically (a temporary file renamed into place). What
is read is checked: anything in an entry's place that is not a regular file
(a directory, a FIFO, a device, a symbolic link) is never opened for
reading, and an entry that does not check as an artifact (its hashes
included) is compiled again and replaced. A cache directory that cannot be
written costs only the caching: the module is compiled and returned
uncached, with a CacheWarning once per directory. Compile errors are never
cached.
"""

import collections
import ctypes
import hashlib
import json
import os
import stat
import tempfile
import warnings

from . import _capi
from .artifact import ArtifactFormatError, code_objects, read_metadata
from .errors import CacheWarning, CompileError, Error, file_error
from .runtime import Module

_library_hash = None
# The first bytes of an artifact (include/hk/Base/Artifact.h): what tells
# one from a bare code object.
_ARTIFACT_MAGIC = b"HKRTART\0"
# Far more than any artifact the compiler writes: a larger cache entry is
# not read.
_MAX_ENTRY_BYTES = 1 << 30
# The cache directories already warned about (CacheWarning).
_warned_dirs = set()


def version():
    """The compiler's version string (hkc_version())."""
    return _capi.hkc().hkc_version().decode()


def _compiler_identity():
    global _library_hash
    if _library_hash is None:
        path = os.path.join(_capi._config.LIBDIR, "libhkc.so")
        try:
            with open(path, "rb") as f:
                _library_hash = hashlib.sha256(f.read()).hexdigest()
        except OSError as e:
            raise file_error("hk: cannot read the compiler library", path,
                             e) from None
    return version(), _library_hash


def cache_enabled():
    """False when HK_CACHE is 0 (or "off", "no", "false")."""
    return os.environ.get("HK_CACHE", "1").strip().lower() not in (
        "0", "off", "no", "false")


def cache_dir():
    """The cache directory in force ($HK_CACHE_DIR, else ~/.cache/hk)."""
    if os.environ.get("HK_CACHE_DIR"):
        return os.environ["HK_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hk")


def cache_key(source, options):
    """The cache key of `source` (bytes) compiled with `options`."""
    ver, lib = _compiler_identity()
    h = hashlib.sha256()
    h.update(json.dumps({"compiler": ver, "libhkc": lib,
                         "options": options}, sort_keys=True).encode())
    h.update(b"\0")
    h.update(source)
    return h.hexdigest()


def _run_compiler(source, name, options, output=_capi.HKC_OUTPUT_ARTIFACT):
    """The first output of hkc_compile (an artifact, or the first chip's
    output of another kind)."""
    lib = _capi.hkc()
    opts = _capi.hkc_options()
    lib.hkc_options_init(ctypes.byref(opts))
    chips = options["chips"]
    chip_array = None
    if chips:
        chip_array = (ctypes.c_char_p * len(chips))(
            *[c.encode() for c in chips])
        opts.chips = chip_array
        opts.num_chips = len(chips)
    opts.opt_level = options["opt_level"]
    opts.code_object_version = options["code_object_version"]
    result = ctypes.c_void_p()
    status = lib.hkc_compile(source, len(source), name.encode(),
                             output, ctypes.byref(opts),
                             ctypes.byref(result))
    if status != _capi.HKC_SUCCESS:
        message = lib.hkc_last_error().decode("utf-8", "replace")
        if status == _capi.HKC_ERROR_COMPILE:
            raise CompileError(message)
        raise Error(f"hk.compile: {message}")
    try:
        size = ctypes.c_size_t()
        data = lib.hkc_result_data(result, 0, ctypes.byref(size))
        return ctypes.string_at(data, size.value)
    finally:
        lib.hkc_result_free(result)


def _open_regular(path):
    """A descriptor of `path` if it is a regular file, else None. Neither
    a symbolic link is followed nor a FIFO or device waited on: lstat
    rules them out before opening, and since the entry can be swapped in
    between, the open refuses a link (O_NOFOLLOW) and does not block
    (O_NONBLOCK), and fstat checks what was opened."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _read_entry(path):
    """The artifact cached at `path`, or None (a miss) for anything that is
    not a regular file, cannot be read, is larger than any artifact or
    does not check as an artifact, hashes included."""
    fd = _open_regular(path)
    if fd is None:
        return None
    chunks, total = [], 0
    try:
        while total <= _MAX_ENTRY_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    if total > _MAX_ENTRY_BYTES:
        return None
    data = b"".join(chunks)
    try:
        read_metadata(data)
    except (ArtifactFormatError, Error):
        return None
    return data


def _warn_unwritable(directory, error):
    if directory in _warned_dirs:
        return
    _warned_dirs.add(directory)
    warnings.warn(
        f"hk: the compile cache in '{directory}' cannot be written "
        f"({error.strerror or error}); modules compiled now are not cached "
        "(HK_CACHE_DIR moves the cache, HK_CACHE=0 turns it off)",
        CacheWarning, stacklevel=4)


def _write_entry(path, data):
    """Stores `data` at `path` atomically: a temporary file renamed over
    whatever is there (a damaged entry, a FIFO, a link). Returns `path`,
    or None, with a CacheWarning once per directory, when it cannot be
    written."""
    directory = os.path.dirname(path)
    tmp = None
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return path
    except BaseException as e:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        if not isinstance(e, OSError):
            raise
        _warn_unwritable(directory, e)
        return None


def _instantiate(text, name, params):
    """The source of the instance of template `text` at `params` (a dict
    of parameter name to value), through hkc_instantiate."""
    lib = _capi.hkc()
    names = [str(k).encode() for k in params]
    values = [str(v).encode() for v in params.values()]
    name_array = (ctypes.c_char_p * max(len(names), 1))(*names)
    value_array = (ctypes.c_char_p * max(len(values), 1))(*values)
    result = ctypes.c_void_p()
    status = lib.hkc_instantiate(text, len(text), name.encode(), name_array,
                                 value_array, len(names),
                                 ctypes.byref(result))
    if status != _capi.HKC_SUCCESS:
        message = lib.hkc_last_error().decode("utf-8", "replace")
        if status == _capi.HKC_ERROR_COMPILE:
            raise CompileError(message)
        raise Error(f"hk.compile: {message}")
    try:
        size = ctypes.c_size_t()
        data = lib.hkc_result_data(result, 0, ctypes.byref(size))
        return ctypes.string_at(data, size.value)
    finally:
        lib.hkc_result_free(result)


def compile(path=None, *, source=None, chips=None, opt_level=3,
            code_object_version=5, name=None, cache=None, params=None):
    """Compiles a tile program (a file `path`, or `source` text) for
    `chips` (default: hkc's default chip) into a Module: an artifact
    holding the kernels' metadata and each chip's code object, with the
    schedules of hk.ping_pong / hk.interleave expanded as hkc does.
    `opt_level` (0-3) and `code_object_version` (5 or 6) are hkc's -O and
    --code-object-version.

    Compiler diagnostics raise CompileError with the located messages,
    named after `path` (or `name`, default "<source>").
    `cache=False` bypasses the disk cache for this call.

    `params` ({name: value}) instantiates a kernel template as hkc's
    --param does (docs/kernels.md, "Templates"): unnamed parameters keep
    their defaults; an unknown name, a value outside its parameter's set
    or a failed constraint raises CompileError located at the
    declaration. The parameters are part of the cache key."""
    if (path is None) == (source is None):
        raise TypeError("hk.compile takes a path or source=, not both")
    if path is not None:
        try:
            with open(path, "rb") as f:
                text = f.read()
        except OSError as e:
            raise file_error("hk.compile: cannot read", path, e) from None
        name = name or str(path)
    else:
        text = source.encode() if isinstance(source, str) else bytes(source)
        name = name or "<source>"
    if isinstance(chips, str):
        chips = [chips]
    options = {"chips": list(chips or []), "opt_level": int(opt_level),
               "code_object_version": int(code_object_version)}
    if params:
        params = {str(k): str(v) for k, v in params.items()}
        text = _instantiate(text, name, params)
        options["params"] = params
    use_cache = cache_enabled() if cache is None else bool(cache)
    entry = None
    if use_cache:
        entry = os.path.join(cache_dir(), cache_key(text, options) + ".hkrt")
        data = _read_entry(entry)
        if data is not None:
            return Module(data, name=name, cache_hit=True, cache_path=entry)
    data = _run_compiler(text, name, options)
    if entry is not None:
        entry = _write_entry(entry, data)
    return Module(data, name=name, cache_hit=False, cache_path=entry)


def verify(source, name="<source>"):
    """Parses and verifies IR text without compiling it (hkc_verify);
    raises CompileError with the located diagnostics if it is invalid."""
    text = source.encode() if isinstance(source, str) else bytes(source)
    lib = _capi.hkc()
    status = lib.hkc_verify(text, len(text), name.encode())
    if status != _capi.HKC_SUCCESS:
        message = lib.hkc_last_error().decode("utf-8", "replace")
        if status == _capi.HKC_ERROR_COMPILE:
            raise CompileError(message)
        raise Error(f"hk.verify: {message}")


Unsimulated = collections.namedtuple(
    "Unsimulated", "chip opcode pc instruction why")


def check_simulated(code_object, chip=None):
    """The instructions of AMDGPU code that the ISA simulator cannot run
    (hkrt_check_simulated), as Unsimulated tuples (chip, opcode, pc,
    instruction as LLVM prints it, why); an empty list if it runs them all.

    `code_object` is a path or bytes: a code object (ELF) for `chip`, or an
    artifact (.hkrt), whose code objects are all checked, or only `chip`'s.
    Raises Error for bytes that are neither, or an unknown chip."""
    if isinstance(code_object, (bytes, bytearray, memoryview)):
        data = bytes(code_object)
    else:
        try:
            with open(code_object, "rb") as f:
                data = f.read()
        except OSError as e:
            raise file_error("hk.check_simulated: cannot read", code_object,
                             e) from None
    if data[:len(_ARTIFACT_MAGIC)] == _ARTIFACT_MAGIC:
        try:
            objects = [(key, payload)
                       for key, payload in code_objects(data).items()
                       if chip in (None, key)]
        except ArtifactFormatError as e:
            raise Error(f"hk.check_simulated: {e}") from None
    elif chip is None:
        raise Error("hk.check_simulated: a code object needs its chip")
    else:
        objects = [(chip, data)]
    lib = _capi.hkrt()
    found = []
    for name, elf in objects:
        total, count = ctypes.c_size_t(), ctypes.c_size_t()
        report = ctypes.c_char_p()
        status = lib.hkrt_check_simulated(elf, len(elf), name.encode(),
                                          ctypes.byref(total),
                                          ctypes.byref(count),
                                          ctypes.byref(report))
        if status != _capi.HKRT_SUCCESS:
            message = lib.hkrt_last_error().decode("utf-8", "replace")
            raise Error(message)
        for line in (report.value or b"").decode().splitlines():
            opcode, pc, text, why = line.split("\t", 3)
            found.append(Unsimulated(name, opcode, int(pc, 16), text, why))
    return found
