"""Reading the kernel metadata out of an artifact (.hkrt).

The container is described in include/hk/Runtime/Artifact.h and
docs/runtime.md; the runtime checks it in full (hashes included) when it
loads it. This reader finds the metadata entry, so that the package knows
each kernel's arguments, and the code objects; it refuses what is not a
container, and, as the runtime does, any entry that is neither metadata nor
a GPU code object (kind 3 and code objects keyed "emulator-<chip>" were the
removed CPU emulator's lane-level MLIR and host objects).
"""

import json
import struct

MAGIC = b"HKRTART\0"
HEADER = 24
ENTRY = 64
KIND_METADATA = 1
KIND_CODE_OBJECT = 2
KIND_OLD_EMULATOR_MLIR = 3  # refused: the removed emulator's entry


class ArtifactFormatError(ValueError):
    pass


def _entries(data):
    if len(data) < HEADER or data[:8] != MAGIC:
        raise ArtifactFormatError("not an hk artifact (bad magic)")
    version, count, size = struct.unpack_from("<IIQ", data, 8)
    if version != 1:
        raise ArtifactFormatError(f"artifact version {version}, expected 1")
    if size != len(data):
        raise ArtifactFormatError(
            f"artifact header says {size} bytes, the data has {len(data)}")
    if not 1 <= count <= 256 or HEADER + count * ENTRY > len(data):
        raise ArtifactFormatError(f"artifact entry count {count} is invalid")
    for i in range(count):
        kind, _, offset, length, _ = struct.unpack_from(
            "<IIQQQ", data, HEADER + i * ENTRY)
        key = data[HEADER + i * ENTRY + 32:HEADER + (i + 1) * ENTRY]
        if offset + length > len(data):
            raise ArtifactFormatError(f"artifact entry {i} is out of range")
        key = key.rstrip(b"\0").decode()
        if kind == KIND_OLD_EMULATOR_MLIR:
            raise ArtifactFormatError(
                f"artifact entry {i}: kind 3 is the lane-level MLIR of the "
                "removed emulator (an artifact holds metadata and GPU code "
                "objects only)")
        if kind not in (KIND_METADATA, KIND_CODE_OBJECT):
            raise ArtifactFormatError(
                f"artifact entry {i}: unknown kind {kind}")
        if kind == KIND_CODE_OBJECT and key.startswith("emulator-"):
            raise ArtifactFormatError(
                f"artifact entry {i}: '{key}' is a host object of the removed "
                "emulator (an artifact holds metadata and GPU code objects "
                "only)")
        yield kind, key, data[offset:offset + length]


def read_metadata(data):
    """The metadata document of artifact bytes, as parsed JSON. Every entry
    is read first, so that an artifact the runtime would refuse is refused
    here too."""
    for kind, _, payload in list(_entries(data)):
        if kind == KIND_METADATA:
            return json.loads(payload.decode("utf-8"))
    raise ArtifactFormatError("artifact has no metadata entry")


def chips(data):
    """The gfx names of the artifact's GPU code objects."""
    return [key for kind, key, _ in _entries(data)
            if kind == KIND_CODE_OBJECT]
