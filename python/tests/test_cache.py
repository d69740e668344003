"""The disk cache of compiled artifacts: a miss compiles and stores, a hit
reads the stored artifact back; the key covers the source, the options and
the compiler; HK_CACHE_DIR moves it, HK_CACHE=0 and cache=False bypass it;
a damaged entry is compiled again; errors are not cached."""

import os

import numpy as np
import pytest

import hk
from conftest import kernel_path


def entries(directory):
    if not os.path.isdir(directory):
        return []
    return sorted(f for f in os.listdir(directory) if f.endswith(".hkrt"))


def test_miss_then_hit(private_cache):
    first = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    assert not first.cache_hit
    assert entries(private_cache) == [os.path.basename(first.cache_path)]
    mtime = os.stat(first.cache_path).st_mtime_ns
    second = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    assert second.cache_hit
    assert second.cache_path == first.cache_path
    assert second.artifact == first.artifact
    assert os.stat(first.cache_path).st_mtime_ns == mtime  # not rewritten
    # The same text given as source= is the same entry.
    with open(kernel_path("softmax")) as f:
        third = hk.compile(source=f.read(), chips=["gfx950"])
    assert third.cache_hit


def test_hit_runs(private_cache, rng):
    hk.compile(kernel_path("softmax"), chips=["gfx950"])
    mod = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    assert mod.cache_hit
    hk.set_device("isa", chip="gfx950")
    x = hk.bf16.from_float(rng.uniform(-1, 1, (32, 64)))
    y = np.zeros_like(x)
    mod.softmax(x, y)
    got = hk.bf16.to_float(y).astype(np.float64)
    assert np.allclose(got.sum(axis=1), 1.0, atol=64 * 2.0**-8)


@pytest.mark.parametrize("change", [
    {"chips": ["gfx942"]}, {"chips": ["gfx942", "gfx950"]},
    {"opt_level": 2}, {"code_object_version": 6}])
def test_options_are_in_the_key(private_cache, change):
    base = dict(chips=["gfx950"])
    a = hk.compile(kernel_path("softmax"), **base)
    b = hk.compile(kernel_path("softmax"), **{**base, **change})
    assert not b.cache_hit and b.cache_path != a.cache_path
    assert len(entries(private_cache)) == 2


def test_source_is_in_the_key(private_cache):
    with open(kernel_path("softmax")) as f:
        text = f.read()
    a = hk.compile(source=text, chips=["gfx950"])
    b = hk.compile(source=text + "\n// another comment\n", chips=["gfx950"])
    assert not b.cache_hit and a.cache_path != b.cache_path


def test_compiler_version_is_in_the_key():
    text = b"source"
    options = {"chips": []}
    key = hk.cache_key(text, options)
    assert key == hk.cache_key(text, options)
    saved = hk.compiler._library_hash
    try:
        hk.compiler._library_hash = "0" * 64  # another build of libhkc
        assert hk.cache_key(text, options) != key
    finally:
        hk.compiler._library_hash = saved
    assert hk.version().startswith("hk-mlir ")
    assert "LLVM 22." in hk.version()


def test_cache_dir_moves(tmp_path, monkeypatch):
    other = tmp_path / "elsewhere"
    monkeypatch.setenv("HK_CACHE_DIR", str(other))
    assert hk.cache_dir() == str(other)
    mod = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    assert os.path.dirname(mod.cache_path) == str(other)
    assert len(entries(other)) == 1


def test_default_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("HK_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert hk.cache_dir() == str(tmp_path / "home" / ".cache" / "hk")
    mod = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    assert len(entries(tmp_path / "home" / ".cache" / "hk")) == 1
    assert mod.cache_path.startswith(str(tmp_path / "home"))


@pytest.mark.parametrize("value", ["0", "off"])
def test_disabled_by_environment(private_cache, monkeypatch, value):
    monkeypatch.setenv("HK_CACHE", value)
    assert not hk.cache_enabled()
    a = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    b = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    assert not a.cache_hit and not b.cache_hit
    assert a.cache_path is None
    assert entries(private_cache) == []


def test_disabled_per_call(private_cache):
    hk.compile(kernel_path("softmax"), chips=["gfx950"])
    b = hk.compile(kernel_path("softmax"), chips=["gfx950"], cache=False)
    assert not b.cache_hit


def test_damaged_entry_is_recompiled(private_cache):
    a = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    with open(a.cache_path, "r+b") as f:
        f.write(b"garbage!")  # over the magic
    b = hk.compile(kernel_path("softmax"), chips=["gfx950"])
    assert not b.cache_hit and b.artifact == a.artifact
    with open(a.cache_path, "rb") as f:
        assert f.read() == a.artifact  # replaced
    with open(a.cache_path, "r+b") as f:
        f.truncate(100)
    assert not hk.compile(kernel_path("softmax"), chips=["gfx950"]).cache_hit


def test_errors_are_not_cached(private_cache):
    for _ in range(2):
        with pytest.raises(hk.CompileError):
            hk.compile(source="hk.kernel @broken(", cache=True)
    assert entries(private_cache) == []
