"""Shared fixtures of the hk package's tests.

The tests run on the package of the build tree (PYTHONPATH=build/python,
as scripts/test.sh sets it) and on the ISA simulator, for both chips.
"""

import os

import numpy as np
import pytest

import hk

SRC_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNELS = os.path.join(SRC_ROOT, "kernels")
# The build's tools, beside the libraries the package loads.
BIN = os.path.join(hk._config.LIBDIR, "..", "bin")


def kernel_path(name):
    return os.path.join(KERNELS, name, name + ".mlir")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Each test gets its own cache directory, enabled."""
    monkeypatch.setenv("HK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("HK_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.fixture(params=["gfx942", "gfx950"])
def simulator(request):
    """The ISA simulator running each chip's code objects in turn."""
    dev = hk.set_device("isa", chip=request.param)
    assert dev.kind == "isa" and dev.chip == request.param
    yield dev
    hk.set_device("isa")


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
