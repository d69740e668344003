"""hk.bf16: bf16 bit patterns in uint16 arrays, checked against the format's
definition (the top 16 bits of an IEEE binary32, round to nearest even) and
against torch.bfloat16's conversion."""

import numpy as np
import torch

import hk


def test_known_patterns():
    values = np.array([1.0, -2.0, 0.0, -0.0, np.inf, -np.inf,
                       1 + 2.0**-8,       # halfway, to even: 1.0
                       1 + 3 * 2.0**-8,   # halfway, to even: 1 + 2^-6
                       1 + 2.0**-8 + 2.0**-20,  # above halfway: up
                       3.0e38], dtype=np.float32)
    want = [0x3F80, 0xC000, 0x0000, 0x8000, 0x7F80, 0xFF80,
            0x3F80, 0x3F82, 0x3F81, 0x7F62]
    assert hk.bf16.from_float(values).tolist() == want
    assert np.isnan(hk.bf16.to_float(hk.bf16.from_float(np.float32("nan"))))


def test_round_trip_is_exact():
    b = np.arange(0, 1 << 16, dtype=np.uint16)
    f = hk.bf16.to_float(b)
    finite = np.isfinite(f)
    assert np.array_equal(hk.bf16.from_float(f[finite]), b[finite])


def test_matches_torch(rng):
    x = rng.standard_normal(100000).astype(np.float32) * 1e3
    ours = hk.bf16.from_float(x)
    theirs = torch.from_numpy(x).to(torch.bfloat16).view(torch.int16)
    assert np.array_equal(ours, theirs.numpy().view(np.uint16))
