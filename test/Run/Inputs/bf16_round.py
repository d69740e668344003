"""Inputs and check of test/Run/bf16-nnan.test.

  bf16_round.py make X.npy     writes 64x64 f32 values: ties to even and
                               odd, values just off a tie, the largest
                               finite values, subnormals, zeros, random
  bf16_round.py check X.npy Y.npy
                               checks Y (bf16 bits) is X rounded to the
                               nearest bf16, ties to even

The reference works on values, not bits: of the two bf16 values around x
(x with its low 16 bits cleared, and the next bf16 away from zero) it
takes the nearer in float64, and on a tie the one whose last mantissa bit
is 0. Beyond the largest finite value the upper neighbour is 2^128, which
rounds to infinity.
"""

import sys

import numpy as np


def make(path):
    rng = np.random.default_rng(11)
    hi = rng.integers(0, 0x7F7F, 4096, dtype=np.uint32)  # finite, positive
    low = rng.integers(0, 0x10000, 4096, dtype=np.uint32)
    bits = (hi << 16) | low
    bits[0:256] = (hi[0:256] << 16) | 0x8000  # ties, even and odd
    bits[256:384] = (hi[256:384] << 16) | 0x7FFF  # just below a tie
    bits[384:512] = (hi[384:512] << 16) | 0x8001  # just above a tie
    bits[512:528] = 0x7F7F0000 + np.arange(16, dtype=np.uint32) * 0x1000
    bits[528:560] = np.arange(32, dtype=np.uint32) * 0x0000F001  # subnormals
    bits[560] = 0
    sign = rng.integers(0, 2, 4096, dtype=np.uint32) << 31
    x = (bits | sign).view(np.float32).reshape(64, 64)
    np.save(path, x)


def nearest(x):
    x = float(x)
    bits = int(np.float32(x).view(np.uint32))
    down = bits & 0xFFFF0000
    up = down + 0x10000
    # Past the largest finite bf16 the next value up is 2^128 with an
    # unbounded exponent; rounding to it is rounding to infinity.
    value = lambda b: (np.copysign(2.0**128, x) if (b & 0x7FFFFFFF) == 0x7F800000
                       else float(np.uint32(b).view(np.float32)))
    dd, du = abs(x - value(down)), abs(value(up) - x)
    if dd < du or (dd == du and (down >> 16) % 2 == 0):
        return down >> 16
    return up >> 16


def check(xpath, ypath):
    x = np.load(xpath).reshape(-1)
    y = np.load(ypath).reshape(-1)
    assert y.dtype == np.uint16, y.dtype
    bad = [(i, hex(int(x.view(np.uint32)[i])), hex(int(y[i])),
            hex(nearest(x[i])))
           for i in range(x.size) if int(y[i]) != nearest(x[i])]
    if bad:
        print(f"{len(bad)} of {x.size} wrong, first: {bad[:4]}")
        sys.exit(1)
    print(f"all {x.size} rounded to nearest even")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
