"""hk.fp8: the chip's 8-bit floats in uint8 arrays, checked against the
formats' definitions (OCP 8-bit floating point; AMD's FNUZ formats), and on
the ISA simulator against the chips' own conversion instructions through a
kernel written once for both chips (!hk.fp8, !hk.bf8)."""

import os

import numpy as np
import pytest

import hk

CONVERT = os.path.join(os.path.dirname(__file__), "Inputs", "fp8_convert.mlir")

# (chip, kind): largest finite value, smallest subnormal, code of 1.0, NaN.
FORMATS = {
    ("gfx942", "fp8"): (240.0, 2.0**-10, 0x40, 0x80),
    ("gfx942", "bf8"): (57344.0, 2.0**-17, 0x40, 0x80),
    ("gfx950", "fp8"): (448.0, 2.0**-9, 0x38, 0x7F),
    ("gfx950", "bf8"): (57344.0, 2.0**-16, 0x3C, 0x7E),
}


@pytest.mark.parametrize("chip,kind", sorted(FORMATS))
def test_format_constants(chip, kind):
    largest, tiny, one, nan = FORMATS[(chip, kind)]
    codes = np.arange(256, dtype=np.uint8)
    values = hk.fp8.to_float(codes, chip, kind).astype(np.float64)
    assert np.nanmax(values[np.isfinite(values)]) == largest
    assert values[1] == tiny
    assert hk.fp8.from_float([1.0], chip, kind)[0] == one
    assert hk.fp8.from_float([np.nan], chip, kind)[0] == nan
    # Saturation, of finite values and infinities.
    got = hk.fp8.from_float([1e30, -np.inf], chip, kind)
    back = hk.fp8.to_float(got, chip, kind)
    assert back.tolist() == [largest, -largest]


@pytest.mark.parametrize("chip,kind", sorted(FORMATS))
def test_round_trip_and_ties(chip, kind):
    codes = np.arange(256, dtype=np.uint8)
    values = hk.fp8.to_float(codes, chip, kind)
    finite = np.isfinite(values) & ~((values == 0) & (codes != 0))
    assert np.array_equal(hk.fp8.from_float(values[finite], chip, kind),
                          codes[finite])
    # Halfway between 1 and the next value rounds to even (1); a little
    # above, up.
    step = 2.0**-3 if kind == "fp8" else 2.0**-2
    one = hk.fp8.from_float([1.0], chip, kind)[0]
    assert hk.fp8.from_float([1 + step / 2], chip, kind)[0] == one
    assert hk.fp8.from_float([1 + step / 2 + 2.0**-12], chip, kind)[0] == one + 1
    assert hk.fp8.from_float([1 + 3 * step / 2], chip, kind)[0] == one + 2


def test_refuses_unknown_chip_and_kind():
    with pytest.raises(ValueError, match="gfx90a"):
        hk.fp8.from_float([1.0], "gfx90a")
    with pytest.raises(ValueError, match="'fp8' \\(E4M3\\) or 'bf8'"):
        hk.fp8.from_float([1.0], "gfx950", "e4m3")


def test_one_source_on_both_chips(simulator, rng):
    """The chip's conversion instructions, run by the ISA simulator, agree
    with hk.fp8 for that chip on every code and on saturating narrowing."""
    chip = simulator.chip
    mod = hk.compile(CONVERT, chips=["gfx942", "gfx950"])
    shape = (20, 40)  # ragged: not a multiple of the 16x32 tile
    codes = rng.integers(0, 256, size=shape, dtype=np.uint8)
    codes.flat[:256] = np.arange(256, dtype=np.uint8)
    y = np.zeros(shape, dtype=np.float32)
    largest = FORMATS[(chip, "bf8")][0]
    w = rng.standard_normal(shape).astype(np.float32) * 8
    w.flat[:6] = [1e6, -1e6, np.inf, -np.inf, np.nan, 1.0 + 2.0**-3]
    z = np.zeros(shape, dtype=np.uint8)
    mod.convert(codes, y, w, z)
    want = hk.fp8.to_float(codes, chip, "fp8")
    same = (y == want) | (np.isnan(y) & np.isnan(want))
    assert same.all(), f"{chip}: codes {codes[~same][:8]} gave {y[~same][:8]}"
    assert np.array_equal(z, hk.fp8.from_float(w, chip, "bf8"))
    back = hk.fp8.to_float(z, chip, "bf8")
    assert back.flat[:4].tolist() == [largest, -largest, largest, -largest]
    assert np.isnan(back.flat[4])
