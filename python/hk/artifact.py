"""The kernel metadata and code objects of an artifact (.hkrt), read by the
runtime's C API (hkrt_artifact_metadata, hkrt_artifact_chips and
hkrt_artifact_code_object in include/hk/Runtime/hkrt.h), which checks the
whole container as loading it does: its hashes, and that every entry is the
metadata or a GPU code object (kind 3 and code objects keyed
"emulator-<chip>" were the removed CPU emulator's lane-level MLIR and host
objects). The container is described in include/hk/Base/Artifact.h and
docs/runtime.md.
"""

import ctypes
import json

from . import _capi
from .errors import ArtifactFormatError


def _call(name, data, *args):
    """Calls hkrt function `name` on artifact bytes `data`; raises
    ArtifactFormatError with the runtime's message on failure."""
    data = bytes(data)
    lib = _capi.hkrt()
    status = getattr(lib, name)(data, len(data), *args)
    if status != _capi.HKRT_SUCCESS:
        message = lib.hkrt_last_error().decode("utf-8", "replace")
        raise ArtifactFormatError(message)


def read_metadata(data):
    """The metadata document of artifact bytes, as parsed JSON."""
    text = ctypes.c_char_p()
    _call("hkrt_artifact_metadata", data, ctypes.byref(text))
    try:
        return json.loads(text.value.decode("utf-8"))
    except ValueError as e:  # the runtime wrote it: never expected
        raise ArtifactFormatError(f"artifact metadata: {e}") from None


def chips(data):
    """The gfx names of the artifact's GPU code objects, in name order."""
    text = ctypes.c_char_p()
    _call("hkrt_artifact_chips", data, ctypes.byref(text))
    return text.value.decode().split("\n") if text.value else []


def code_object(data, chip):
    """The artifact's code object for `chip`, as bytes."""
    code, size = ctypes.c_void_p(), ctypes.c_size_t()
    _call("hkrt_artifact_code_object", data, chip.encode(), ctypes.byref(code),
          ctypes.byref(size))
    return ctypes.string_at(code, size.value)


def code_objects(data):
    """Every code object of the artifact: {chip: bytes}."""
    return {chip: code_object(data, chip) for chip in chips(data)}
