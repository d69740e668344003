"""Inputs and checks of test/Run/vector-rows.test, with NumPy computing
the expected rows.

  vec_rows.py make DIR        writes a-B-H-N.npy for the shapes below
  vec_rows.py check A B       checks B = 2 A + 1 on A's positions, 1 past
                              them (A reads 0: past a row's end, and in
                              batches and heads A does not have), every
                              element of B
"""

import sys

import numpy as np

SHAPES = [(2, 3, 50), (2, 3, 100), (1, 1, 1), (1, 2, 64), (1, 2, 50)]


def make(d):
    rng = np.random.default_rng(11)
    for b, h, n in SHAPES:
        a = rng.uniform(-8, 8, (b, h, n)).astype(np.float32)
        np.save(f"{d}/a-{b}-{h}-{n}.npy", a)


def check(ap, bp):
    a = np.load(ap)
    out = np.load(bp)
    padded = np.zeros(out.shape, np.float32)
    b, h, k = (min(x, y) for x, y in zip(out.shape, a.shape))
    padded[:b, :h, :k] = a[:b, :h, :k]
    want = padded * np.float32(2) + np.float32(1)
    bad = np.argwhere(out != want)
    if len(bad):
        i = tuple(bad[0])
        print(f"{len(bad)} wrong elements; first at {i}: "
              f"{out[i]} != {want[i]}")
        sys.exit(1)
    print(f"vec_rows {a.shape} -> {out.shape}: all exact")


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    {"make": make, "check": check}[cmd](*args)
