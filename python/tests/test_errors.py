"""Errors: compiler diagnostics as CompileError with their locations,
argument mismatches found before a launch, runtime failures and kernel
faults with the runtime's message, and devices that are not there."""

import os
import re
import struct

import numpy as np
import pytest

import hk
from conftest import SRC_ROOT, kernel_path

HKRT_H = os.path.join(SRC_ROOT, "include", "hk", "Runtime", "hkrt.h")

UNDEFINED = """\
hk.kernel @k(%x: memref<?xf32>) attributes {waves = 1 : i32,
    grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %c = arith.constant 0 : index
  %bad = arith.addi %c, %undefined : index
  hk.return
}
"""

# 2 x 128 KiB of LDS: more than either chip has (64 KiB gfx942, 160 KiB
# gfx950), refused by hk-check-target at the second allocation's line.
TOO_MUCH_LDS = """\
hk.kernel @big(%x: memref<?x?xbf16>) attributes {waves = 1 : i32,
    grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 64)>} {
  %a = hk.alloc_shared : !hk.st<256x256xbf16, 16x32>
  %b = hk.alloc_shared : !hk.st<256x256xbf16, 16x32>
  hk.return
}
"""


def test_parse_error_is_located():
    with pytest.raises(hk.CompileError) as info:
        hk.compile(source=UNDEFINED, name="undefined.mlir", cache=False)
    e = info.value
    line = UNDEFINED.splitlines()[3]
    column = line.index("%undefined") + 1
    assert e.locations() == [("undefined.mlir", 4, column)]
    assert "undefined.mlir:4:%d: error:" % column in str(e)
    assert "undeclared SSA value" in e.diagnostics[0]


def test_error_in_file_names_the_file(tmp_path):
    path = tmp_path / "broken.mlir"
    path.write_text(UNDEFINED)
    with pytest.raises(hk.CompileError) as info:
        hk.compile(str(path), cache=False)
    assert info.value.locations()[0][:2] == (str(path), 4)


def test_target_check_is_located():
    with pytest.raises(hk.CompileError) as info:
        hk.compile(source=TOO_MUCH_LDS, name="lds.mlir", chips=["gfx942"],
                   cache=False)
    locations = info.value.locations()
    assert locations, str(info.value)
    name, line, _ = locations[0]
    assert name == "lds.mlir" and line in (1, 3, 4)
    assert re.search(r"LDS|shared", info.value.diagnostics[0])


def test_bad_option_is_not_a_compile_error():
    with pytest.raises(hk.Error) as info:
        hk.compile(kernel_path("softmax"), chips=["gfx999"], cache=False)
    assert not isinstance(info.value, hk.CompileError)
    assert "gfx999" in str(info.value)


def test_verify():
    with open(kernel_path("softmax")) as f:
        hk.verify(f.read())
    with pytest.raises(hk.CompileError) as info:
        hk.verify(UNDEFINED, name="v.mlir")
    assert info.value.locations()[0][:2] == ("v.mlir", 4)


@pytest.fixture
def softmax():
    return hk.compile(kernel_path("softmax"), chips=["gfx942", "gfx950"])


def test_argument_count(softmax):
    x = np.zeros((4, 4), np.uint16)
    with pytest.raises(hk.ArgumentError,
                       match="'softmax' takes 2 arguments, got 1"):
        softmax.softmax(x)


def test_argument_dtype(softmax):
    x = np.zeros((4, 4), np.float32)
    with pytest.raises(hk.ArgumentError,
                       match=r"argument 0 'x': memref<\?x\?xbf16> takes "
                       r"uint16 \(bf16 bit patterns\).*got float32"):
        softmax.softmax(x, np.zeros((4, 4), np.uint16))


def test_argument_rank(softmax):
    x = np.zeros((4, 4), np.uint16)
    with pytest.raises(hk.ArgumentError,
                       match=r"argument 1 'y'.*rank 2.*shape \(16,\)"):
        softmax.softmax(x, np.zeros(16, np.uint16))


def test_argument_not_an_array(softmax):
    with pytest.raises(hk.ArgumentError, match="expected a numpy array"):
        softmax.softmax([[1, 2]], np.zeros((1, 2), np.uint16))


def test_scalar_checks():
    mod = hk.compile(os.path.join(SRC_ROOT, "test", "Install", "Inputs",
                                  "axpb.mlir"), chips=["gfx950"])
    x = np.zeros((4, 4), np.float32)
    with pytest.raises(hk.ArgumentError, match="argument 2 .*f32 takes a number"):
        mod.axpb(x, x.copy(), "1", 0.0)
    with pytest.raises(hk.ArgumentError, match="argument 3 .*not finite"):
        mod.axpb(x, x.copy(), 1.0, float("inf"))


def test_static_dimension():
    source = """\
hk.kernel @rows(%x: memref<?x64xf32>, %y: memref<?x64xf32>)
    attributes {waves = 1 : i32, grid = #hk.grid<[dim(0, 0)] -> (s0 ceildiv 32)>} {
  %i = hk.block_id x
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%i, %c0] : memref<?x64xf32> -> tensor<32x64xf32, #hk.rt<row, 16x16>>
  hk.store %t, %y[%i, %c0] : tensor<32x64xf32, #hk.rt<row, 16x16>>, memref<?x64xf32>
  hk.return
}
"""
    mod = hk.compile(source=source, chips=["gfx950"])
    with pytest.raises(hk.ArgumentError,
                       match=r"dimension 1 of memref<\?x64xf32> must be 64, got 32"):
        mod.rows(np.zeros((8, 32), np.float32), np.zeros((8, 64), np.float32))
    x = np.arange(40 * 64, dtype=np.float32).reshape(40, 64)
    y = np.zeros_like(x)
    hk.set_device("isa", chip="gfx950")
    mod.rows(x, y)
    assert np.array_equal(x, y)


def test_attention_head_dimension():
    """Attention forward's D = 128 kernel has D in its types; a strided
    view with another D is refused, the message naming the layout as
    hkrt does."""
    mod = hk.compile(kernel_path("attention_fwd"), chips=["gfx950"])
    b, n, h = 1, 64, 2
    q = np.zeros((b, n, h, 96), np.uint16).transpose(0, 2, 1, 3)
    o = np.zeros((b, n, h, 96), np.uint16).transpose(0, 2, 1, 3)
    lse = np.zeros((b, h, n), np.float32)
    with pytest.raises(
            hk.ArgumentError,
            match=(r"argument 0 'Q': dimension 3 of "
                   r"memref<\?x\?x\?x128xbf16, strided<\[\?, \?, \?, 1\]>> "
                   r"must be 128, got 96")):
        mod.attention_fwd_d128(q, q, q, o, lse, False)


def test_runtime_error_carries_the_runtimes_message(softmax):
    # Compiled for gfx942 only: the gfx950 ISA simulator has no code for it.
    mod = hk.compile(kernel_path("softmax"), chips=["gfx942"])
    hk.set_device("isa", chip="gfx950")
    x = np.zeros((4, 4), np.uint16)
    with pytest.raises(hk.HkrtError) as info:
        mod.softmax(x, x.copy())
    assert not isinstance(info.value, hk.KernelFault)
    assert info.value.status == hk.errors.HKRT_ERROR_NO_DEVICE
    assert ("the artifact has no code object for gfx950; it has: gfx942"
            in str(info.value))


def test_hkrt_error_does_not_shadow_the_builtin():
    assert issubclass(hk.HkrtError, RuntimeError)
    assert hk.HkrtError is not RuntimeError
    assert "RuntimeError" not in hk.__all__
    assert not hasattr(hk.errors, "RuntimeError")
    # The old name says what replaced it.
    with pytest.raises(AttributeError, match=r"hk\.RuntimeError is now "
                       r"hk\.HkrtError"):
        hk.RuntimeError


@pytest.mark.parametrize("chip", ["gfx942", "gfx950"])
def test_kernel_fault(chip):
    # test/Run/Inputs/fault-lds-range.mlir: the store index is tid + 1, so
    # lane 63 of wave 1 (tid 127) writes bytes 512..515 of 512.
    mod = hk.compile(os.path.join(SRC_ROOT, "test", "Run", "Inputs",
                                  "fault-lds-range.mlir"),
                     chips=["gfx942", "gfx950"])
    hk.set_device("isa", chip=chip)
    x = np.zeros(256, np.float32)
    with pytest.raises(hk.KernelFault) as info:
        mod.fault_lds_range(x, x.copy())
    e = info.value
    assert isinstance(e, hk.HkrtError)
    assert e.status == hk.errors.HKRT_ERROR_KERNEL_FAULT
    assert ("LDS access of 4 bytes at 512 (lane 63) is outside the "
            "workgroup's 512 bytes of LDS" in str(e))
    assert "wave 1" in str(e)


def test_device_kinds_follow_hkrt_h():
    """The package's device kinds are hkrt.h's (HKRT_DEVICE_HIP and
    HKRT_DEVICE_ISA), and the header no longer has the emulator's."""
    with open(HKRT_H) as f:
        header = f.read()
    enum = header[header.index("typedef enum hkrt_device_kind"):]
    enum = enum[:enum.index("} hkrt_device_kind;")]
    values = dict(re.findall(r"(HKRT_DEVICE_\w+) = (\d+)", enum))
    assert values == {"HKRT_DEVICE_AUTO": "0", "HKRT_DEVICE_HIP": "1",
                      "HKRT_DEVICE_ISA": "3"}
    assert hk._capi.HKRT_DEVICE_HIP == 1
    assert hk._capi.HKRT_DEVICE_ISA == 3
    dev = hk.set_device("isa")
    assert dev.kind == "isa"  # never another device in its place


def test_auto_is_the_isa_simulator_without_a_gpu(monkeypatch):
    """"auto" opens the ISA simulator when no HIP runtime is usable."""
    monkeypatch.setenv("HKRT_HIP_LIBRARY", "/nonexistent/libamdhip64.so")
    dev = hk.set_device("auto")
    assert dev.kind == "isa"
    hk.set_device("isa")


def test_hip_device_is_hip_or_an_error():
    hip_present = any(os.path.exists(os.path.join(d, "libamdhip64.so"))
                      for d in ("/opt/rocm/lib", "/usr/lib/x86_64-linux-gnu"))
    try:
        dev = hk.set_device("hip")
    except hk.DeviceUnavailable as e:
        assert "hip" in str(e).lower()
    else:
        assert hip_present and dev.kind == "hip"
    hk.set_device("isa")


def test_the_removed_emulator_is_an_error():
    """The CPU emulator was removed: asking for it says so and names the
    ISA simulator, and leaves the current device as it was."""
    dev = hk.set_device("isa", chip="gfx942")
    with pytest.raises(ValueError,
                       match=r"device 'emulator': the CPU emulator was "
                             r"removed; the ISA simulator "
                             r"\(set_device\(\"isa\"\)\) replaces it"):
        hk.set_device("emulator")
    assert hk.device() is dev
    hk.set_device("isa")


def test_unknown_device():
    with pytest.raises(ValueError, match="unknown device 'cuda'"):
        hk.set_device("cuda")


def _fnv1a(data, h=0xcbf29ce484222325):
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & ((1 << 64) - 1)
    return h


def _hand_made_artifact(entries):
    """Artifact bytes from (kind, key, payload) entries, laid out as
    include/hk/Base/Artifact.h defines the container, with each entry's
    FNV-1a hash of its kind, key and payload."""
    header, table = 24, 64 * len(entries)
    offset, rows, payloads = header + table, b"", b""
    for kind, key, payload in entries:
        padded = key.encode().ljust(32, b"\0")
        digest = _fnv1a(payload, _fnv1a(padded,
                                         _fnv1a(struct.pack("<I", kind))))
        rows += struct.pack("<IIQQQ", kind, 0, offset, len(payload), digest)
        rows += padded
        offset += len(payload)
        payloads += payload
    return (b"HKRTART\0" + struct.pack("<IIQ", 1, len(entries), offset)
            + rows + payloads)


def test_artifact_reader_refuses_the_removed_emulator_entries():
    """The package reads artifacts through the runtime's reader, which takes
    metadata and GPU code objects only: the lane emulator's entries are
    refused by name, and so is a damaged hash."""
    meta = b'{"version": 1, "kernels": []}'
    ok = _hand_made_artifact([(1, "", meta), (2, "gfx942", b"\x7fELF")])
    assert hk.artifact.read_metadata(ok) == {"version": 1, "kernels": []}
    assert hk.artifact.chips(ok) == ["gfx942"]
    lane = _hand_made_artifact([(1, "", meta), (3, "", b"gpu.module @m {}")])
    with pytest.raises(hk.artifact.ArtifactFormatError,
                       match="entry 1: kind 3 is the lane-level MLIR of the "
                             "removed emulator"):
        hk.artifact.read_metadata(lane)
    host = _hand_made_artifact([(1, "", meta),
                                (2, "emulator-gfx942", b"\x7fELF")])
    with pytest.raises(hk.artifact.ArtifactFormatError,
                       match="entry 1: 'emulator-gfx942' is a host object of "
                             "the removed emulator"):
        hk.artifact.chips(host)
    other = _hand_made_artifact([(1, "", meta), (7, "", b"x")])
    with pytest.raises(hk.artifact.ArtifactFormatError,
                       match="entry 1: unknown kind 7"):
        hk.artifact.read_metadata(other)
    damaged = bytearray(ok)
    damaged[-1] ^= 1
    with pytest.raises(hk.artifact.ArtifactFormatError,
                       match="entry 1: hash mismatch"):
        hk.artifact.chips(damaged)
    assert hk.artifact.code_object(ok, "gfx942") == b"\x7fELF"
    with pytest.raises(hk.artifact.ArtifactFormatError,
                       match="no code object for gfx950; it has: gfx942"):
        hk.artifact.code_object(ok, "gfx950")
