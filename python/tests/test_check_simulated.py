"""hk.check_simulated: the instructions of compiled code that the ISA
simulator cannot run (hkc_check_simulated); docs/python.md."""

import pytest

import hk
from conftest import kernel_path


def test_library_kernel_runs_in_full():
    mod = hk.compile(kernel_path("rmsnorm"), chips=["gfx942", "gfx950"])
    assert hk.check_simulated(mod.artifact) == []
    assert hk.check_simulated(mod.artifact, chip="gfx950") == []


def test_a_code_object_needs_its_chip():
    with pytest.raises(hk.Error, match="needs its chip"):
        hk.check_simulated(b"\x7fELF not really")


def test_bytes_that_are_no_code_object():
    with pytest.raises(hk.Error, match="no ELF file"):
        hk.check_simulated(b"not an ELF", chip="gfx942")


def test_unknown_chip():
    with pytest.raises(hk.Error, match="unknown chip 'gfx9000'"):
        hk.check_simulated(b"\x7fELF", chip="gfx9000")
