"""The package under hostile input: arguments sharing memory, scalars out of
their type's range, stride-0 and grad-requiring outputs, oversized arrays,
files that cannot be read, and a disk cache holding damaged entries, odd
files, or in a directory that cannot be written. Each failure is an hk
exception; nothing is written where it should not be."""

import os
import signal
import warnings

import numpy as np
import pytest

import hk
from conftest import kernel_path

ALIASING = os.path.join(os.path.dirname(__file__), "Inputs", "aliasing.mlir")


@pytest.fixture
def mod():
    hk.set_device("isa", chip="gfx950")
    return hk.compile(ALIASING, chips=["gfx950"])


def values(rows, seed=5):
    rng = np.random.default_rng(seed)
    return rng.uniform(-4, 4, (rows, 64)).astype(np.float32)


# Arguments sharing memory -------------------------------------------------


def test_output_passed_as_its_own_input(mod):
    """y = 2 x with y and x the same array: the kernel reads x as it was,
    and the result stays (the unchanged input is not copied back over
    it)."""
    x = values(70)
    before = x.copy()
    mod.scale_into(x, x, 2.0)
    assert np.array_equal(x, 2 * before)


def test_partly_overlapping_output_and_input(mod):
    """y is rows 0-63 of a buffer, x rows 32-95: the kernel reads x as it
    was before the call, and only y's rows change."""
    buf = values(96)
    before = buf.copy()
    mod.scale_into(buf[0:64], buf[32:96], 2.0)
    assert np.array_equal(buf[0:64], 2 * before[32:96])
    assert np.array_equal(buf[64:96], before[64:96])


def test_two_outputs_sharing_memory_are_refused(mod):
    x = values(40)
    out = np.zeros((40, 64), np.float32)
    with pytest.raises(hk.ArgumentError,
                       match=r"argument 1 'y' and argument 2 'z', which "
                             r"share memory.*no argument was copied back"):
        mod.two_outputs(x, out, out)
    assert not out.any()  # nothing was written
    # Overlapping by a single row is overlapping too.
    buf = np.zeros((79, 64), np.float32)
    with pytest.raises(hk.ArgumentError, match="share memory"):
        mod.two_outputs(x, buf[:40], buf[39:])
    assert not buf.any()


def test_inputs_sharing_memory_are_fine(mod):
    """The same array read twice, or an input sharing memory with one the
    kernel does not write: no error."""
    x = values(40)
    y, z = np.zeros_like(x), np.zeros_like(x)
    mod.two_outputs(x, y, z)
    assert np.array_equal(y, x + x) and np.array_equal(z, x * x)
    x_ro = x.copy()
    x_ro.flags.writeable = False
    y2 = np.zeros_like(x)
    mod.scale_into(y2, x_ro, 3.0)
    assert np.array_equal(y2, 3 * x)


def test_torch_output_passed_as_its_input(mod):
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(values(50))
    before = x.clone()
    mod.scale_into(x, x, -1.5)
    assert torch.equal(x, -1.5 * before)


# Outputs that cannot take a write -----------------------------------------


def test_stride_0_output_is_refused(mod):
    row = np.zeros(64, np.float32)
    y = np.lib.stride_tricks.as_strided(row, (40, 64), (0, 4))
    assert y.flags.writeable
    with pytest.raises(hk.ArgumentError,
                       match=r"argument 0 'y', whose elements share memory "
                             r"\(a stride of 0"):
        mod.scale_into(y, values(40), 2.0)
    assert not row.any()


def test_stride_0_input_is_fine(mod):
    row = values(1)[0]
    x = np.lib.stride_tricks.as_strided(row, (40, 64), (0, 4))
    y = np.zeros((40, 64), np.float32)
    mod.scale_into(y, x, 2.0)
    assert np.array_equal(y, np.broadcast_to(2 * row, (40, 64)))


def test_torch_expanded_output_is_refused(mod):
    torch = pytest.importorskip("torch")
    row = torch.zeros(64)
    with pytest.raises(hk.ArgumentError, match="share memory"):
        mod.scale_into(row.expand(40, 64), torch.ones(40, 64), 2.0)
    assert not row.any()
    # Expanded as an input, it is read like any other tensor.
    y = torch.zeros(40, 64)
    mod.scale_into(y, torch.arange(64.0).expand(40, 64), 2.0)
    assert torch.equal(y, 2 * torch.arange(64.0).expand(40, 64))


def test_output_requiring_grad_is_refused(mod):
    torch = pytest.importorskip("torch")
    y = torch.zeros(40, 64, requires_grad=True)
    x = torch.from_numpy(values(40))
    with pytest.raises(hk.ArgumentError,
                       match=r"argument 0 'y', a torch tensor that requires "
                             r"grad"):
        mod.scale_into(y, x, 2.0)
    assert not y.detach().any()
    # An input that requires grad is only read.
    w = torch.from_numpy(values(40)).requires_grad_(True)
    out = torch.zeros(40, 64)
    mod.scale_into(out, w, 2.0)
    assert torch.equal(out, 2 * w.detach())


def test_read_only_output_is_refused_before_any_copy_back(mod):
    x = values(40)
    y = np.zeros_like(x)
    z = np.zeros_like(x)
    z.flags.writeable = False
    with pytest.raises(hk.ArgumentError,
                       match=r"wrote into a read-only array \(argument 2"):
        mod.two_outputs(x, y, z)
    assert not y.any()  # y was not copied back either


# Scalars ------------------------------------------------------------------


@pytest.mark.parametrize("value", [3.5e38, -3.5e38, 1e39, np.float64(1e300),
                                   10**39, -(10**400)])
def test_f32_scalar_out_of_range(mod, value):
    y = np.zeros((40, 64), np.float32)
    with pytest.raises(hk.ArgumentError,
                       match=r"argument 2 'a': .* is out of the range of "
                             r"f32"):
        mod.scale_into(y, values(40), value)
    assert not y.any()


def test_f32_scalar_at_the_edge_of_its_range(mod):
    biggest = float(np.finfo(np.float32).max)
    x = np.full((40, 64), 0.5, np.float32)
    y = np.zeros_like(x)
    mod.scale_into(y, x, biggest)
    assert np.all(y == np.float32(biggest) * np.float32(0.5))
    for bad in (float("nan"), float("inf")):
        with pytest.raises(hk.ArgumentError, match="is not finite"):
            mod.scale_into(y, x, bad)


@pytest.mark.parametrize("position, value", [
    (1, 2**31), (1, -2**31 - 1), (1, np.int64(2**40)), (1, np.uint64(2**63)),
    (2, 2**63), (2, -2**63 - 1), (2, np.uint64(2**64 - 1))])
def test_integer_scalar_out_of_range(mod, position, value):
    args = [np.zeros((64, 64), np.float32), 7, 1]
    args[position] = value
    name, dtype = [None, ("v", "i32"), ("tiles", "index")][position]
    with pytest.raises(hk.ArgumentError,
                       match=rf"argument {position} '{name}': {value} is out "
                             rf"of the range of {dtype}"):
        mod.fill(*args)
    assert not args[0].any()


def test_integer_scalars_at_their_limits(mod):
    y = np.zeros((64, 64), np.float32)
    mod.fill(y, -2**31, 2)
    assert np.all(y == np.float32(-2**31))
    mod.fill(y, 2**31 - 1, 1)
    assert np.all(y[:32] == np.float32(2**31 - 1))


# Sizes --------------------------------------------------------------------


def test_oversized_array_is_an_argument_error(mod):
    """A broadcast view of 2^31 x 64 floats (512 GiB) is refused by its
    size, before anything is copied."""
    huge = np.broadcast_to(np.zeros(1, np.float32), (2**31, 64))
    y = np.zeros((40, 64), np.float32)
    with pytest.raises(hk.ArgumentError,
                       match=r"argument 1 'x': an array of 549755813888 "
                             r"bytes.*at most 4294967292"):
        mod.scale_into(y, huge, 1.0)
    big = np.broadcast_to(np.zeros(1, np.float32), (2**24 + 1, 64))
    with pytest.raises(hk.ArgumentError, match="at most 4294967292"):
        mod.scale_into(y, big, 1.0)


def test_out_of_host_memory_is_an_hk_error(mod, monkeypatch):
    """A host that cannot allocate the contiguous copy of an argument: an
    hk.OutOfMemoryError (a MemoryError too)."""
    def no_memory(a):
        raise MemoryError()
    monkeypatch.setattr(np, "ascontiguousarray", no_memory)
    y = np.zeros((40, 64), np.float32)
    with pytest.raises(hk.OutOfMemoryError,
                       match=r"argument 0 'y': cannot allocate a 10240-byte"):
        mod.scale_into(y, values(40), 1.0)
    assert issubclass(hk.OutOfMemoryError, MemoryError)


# Files and names ----------------------------------------------------------


def test_missing_files_are_hk_errors(tmp_path):
    missing = tmp_path / "missing.hkrt"
    with pytest.raises(hk.FileError,
                       match=r"hk.load: cannot read '.*missing.hkrt': No such "
                             r"file") as e:
        hk.load(missing)
    assert isinstance(e.value, OSError) and e.value.errno == 2
    with pytest.raises(hk.FileError, match="hk.compile: cannot read"):
        hk.compile(tmp_path / "missing.mlir")
    with pytest.raises(hk.FileError, match="hk.check_simulated: cannot read"):
        hk.check_simulated(tmp_path / "missing.o", chip="gfx950")
    with pytest.raises(hk.FileError, match="Is a directory"):
        hk.load(tmp_path)


def test_bad_artifact_and_kernel_names_are_hk_errors(tmp_path, mod):
    junk = tmp_path / "junk.hkrt"
    junk.write_bytes(b"not an artifact")
    with pytest.raises(hk.ArtifactFormatError, match="invalid artifact") as e:
        hk.load(junk)
    assert isinstance(e.value, hk.Error) and isinstance(e.value, ValueError)
    with pytest.raises(hk.KernelNotFound,
                       match="has no kernel 'nope' .it has: scale_into, "
                             "two_outputs, fill") as e:
        mod["nope"]
    assert isinstance(e.value, KeyError)
    with pytest.raises(hk.ArgumentError, match="unknown device 'cuda'"):
        hk.set_device("cuda")
    with pytest.raises(hk.ArgumentError, match="unknown device 'cuda'"):
        hk.Device("cuda")


# The disk cache -----------------------------------------------------------


def compile_softmax():
    return hk.compile(kernel_path("softmax"), chips=["gfx950"])


def runs(module):
    """Whether the module loads and its softmax rows sum to 1."""
    hk.set_device("isa", chip="gfx950")
    x = hk.bf16.from_float(np.linspace(-1, 1, 32 * 64).reshape(32, 64))
    y = np.zeros_like(x)
    module.softmax(x, y)
    got = hk.bf16.to_float(y).astype(np.float64)
    return np.allclose(got.sum(axis=1), 1.0, atol=64 * 2.0**-8)


def test_flipped_bytes_are_recompiled_and_replaced(private_cache):
    good = compile_softmax()
    size = len(good.artifact)
    # The header's fields, the first entry of the table (kind, offset, size,
    # hash, key) and eight places spread over the payloads.
    header = [0, 8, 12, 16, 24, 28, 32, 40, 48, 56, 87]
    for offset in header + list(range(100, size, size // 8)):
        damaged = bytearray(good.artifact)
        damaged[offset] ^= 0x01
        with open(good.cache_path, "wb") as f:
            f.write(damaged)
        again = compile_softmax()
        assert not again.cache_hit, f"byte {offset} flipped was a hit"
        with open(good.cache_path, "rb") as f:
            assert f.read() == good.artifact  # replaced
    hit = compile_softmax()
    assert hit.cache_hit and runs(hit)


def test_unwritable_cache_compiles_uncached_with_one_warning(tmp_path,
                                                             monkeypatch):
    """A cache directory that cannot be created (its parent is a file; as
    root, permissions would not stop the write) and a HOME that cannot be
    written: the module is compiled and returned uncached, with one
    CacheWarning per directory."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("HK_CACHE_DIR", str(blocker / "hk"))
    with pytest.warns(hk.CacheWarning, match="cannot be written"):
        first = compile_softmax()
    assert not first.cache_hit and first.cache_path is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning
        second = compile_softmax()
    assert second.artifact == first.artifact and runs(second)

    monkeypatch.delenv("HK_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", "/proc/hk-no-home")
    with pytest.warns(hk.CacheWarning, match="/proc/hk-no-home"):
        mod = compile_softmax()
    assert mod.cache_path is None and runs(mod)


def with_timeout(seconds, fn):
    """fn(), failing the test instead of hanging past `seconds`."""
    def expired(signum, frame):
        raise TimeoutError(f"no answer in {seconds} s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        return fn()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def entry_path():
    return compile_softmax().cache_path


@pytest.mark.parametrize("kind", ["fifo", "symlink-to-device",
                                  "symlink-to-entry", "dangling-symlink"])
def test_odd_entries_are_ignored_and_replaced(private_cache, tmp_path, kind):
    path = entry_path()
    good = open(path, "rb").read()
    os.unlink(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink-to-device":
        os.symlink("/dev/zero", path)
    elif kind == "symlink-to-entry":
        # A valid artifact, but behind a link: never followed.
        (tmp_path / "elsewhere.hkrt").write_bytes(good)
        os.symlink(tmp_path / "elsewhere.hkrt", path)
    else:
        os.symlink(tmp_path / "nowhere", path)
    mod = with_timeout(60, compile_softmax)
    assert not mod.cache_hit and mod.artifact == good
    assert os.path.isfile(path) and not os.path.islink(path)
    assert compile_softmax().cache_hit


def test_directory_in_place_of_an_entry(private_cache):
    path = entry_path()
    os.unlink(path)
    os.mkdir(path)
    with pytest.warns(hk.CacheWarning):
        mod = with_timeout(60, compile_softmax)
    assert not mod.cache_hit and mod.cache_path is None and runs(mod)
    assert os.path.isdir(path)  # left alone
    assert [f for f in os.listdir(private_cache) if f.startswith(".tmp-")] \
        == []


def test_oversized_entry_is_not_read(private_cache, monkeypatch):
    path = entry_path()
    monkeypatch.setattr(hk.compiler, "_MAX_ENTRY_BYTES", 1000)
    assert os.path.getsize(path) > 1000
    assert not compile_softmax().cache_hit


def test_read_only_cache_directory(private_cache, monkeypatch):
    """A directory that refuses new files (EACCES from mkstemp, as a
    read-only directory gives anyone but root): the entry already there is
    still a hit, a new compile is returned uncached with a warning."""
    hit = compile_softmax()
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(hk.compiler.tempfile, "mkstemp", refuse)
    assert compile_softmax().cache_hit
    with pytest.warns(hk.CacheWarning, match="Permission denied"):
        other = hk.compile(kernel_path("softmax"), chips=["gfx942"])
    assert other.cache_path is None and not other.cache_hit
    assert os.listdir(private_cache) == [os.path.basename(hit.cache_path)]


def test_unreadable_entry_is_a_miss(private_cache, monkeypatch):
    """An entry that cannot be opened (EACCES, as for anyone but root) is
    compiled again and replaced, not raised."""
    path = entry_path()
    real_open = os.open
    def refuse(p, *args, **kwargs):
        if os.fspath(p) == path:
            raise PermissionError(13, "Permission denied", p)
        return real_open(p, *args, **kwargs)
    monkeypatch.setattr(hk.compiler.os, "open", refuse)
    mod = compile_softmax()
    assert not mod.cache_hit and mod.cache_path == path and runs(mod)
