"""Imports the installed hk package (PYTHONPATH=PREFIX/lib/python3/
site-packages), checks it uses the installed libraries, compiles axpb.mlir
and runs it on the ISA simulator against a float64 reference."""

import os
import sys

import numpy as np

import hk
from hk import _config

prefix = os.path.realpath(sys.argv[1])
assert os.path.realpath(hk.__file__).startswith(prefix + os.sep), hk.__file__
assert os.path.realpath(_config.LIBDIR).startswith(prefix + os.sep), \
    _config.LIBDIR
print("compiler:", hk.version())
mod = hk.compile(sys.argv[2], chips=["gfx942", "gfx950"])
for chip in ("gfx942", "gfx950"):
    hk.set_device("isa", chip=chip)
    x = np.random.default_rng(3).standard_normal((70, 100)).astype(np.float32)
    y = np.full_like(x, np.nan)
    mod.axpb(x, y, 1.5, -0.25)
    ref = 1.5 * x.astype(np.float64) - 0.25
    # One f32 multiply and one f32 add, each correctly rounded.
    wrong = np.abs(y - ref) > 2.0**-23 * (np.abs(1.5 * x) + np.abs(ref))
    print(f"python {chip}: {int(wrong.sum())} of {y.size} elements wrong")
