"""Inputs and check of test/Run/any.test.

  any_vote.py make DIR      writes DIR/<case>.npy, 64x64 f32 inputs:
                            none (every element at most 0.5, one exactly
                            0.5), nan (as none, plus a NaN), first (only
                            element (0, 0) above 0.5), last (only
                            (63, 63)), middle (only (37, 21)), many
                            (random, about half above)
  any_vote.py check X.npy YA.npy YB.npy
                            checks that both outputs hold 1.0 in all 64
                            elements when some element of X is above 0.5
                            (numpy's X > 0.5: a NaN is not), else 0.0
"""

import os
import sys

import numpy as np

CASES = ("none", "nan", "first", "last", "middle", "many")


def make(directory):
    rng = np.random.default_rng(5)
    base = rng.uniform(-4.0, 0.5, (64, 64)).astype(np.float32)
    base[10, 10] = 0.5  # equal is not above
    cases = {name: base.copy() for name in CASES}
    cases["nan"][40, 3] = np.nan
    cases["first"][0, 0] = 0.75
    cases["last"][63, 63] = 2.0
    cases["middle"][37, 21] = np.nextafter(np.float32(0.5), np.float32(1))
    cases["many"] = rng.uniform(-1.0, 2.0, (64, 64)).astype(np.float32)
    for name, x in cases.items():
        np.save(os.path.join(directory, name + ".npy"), x)


def check(xpath, yapath, ybpath):
    x = np.load(xpath)
    want = 1.0 if bool(np.any(x > 0.5)) else 0.0
    ok = True
    for path in (yapath, ybpath):
        y = np.load(path).reshape(-1)
        if y.shape != (64,) or not np.all(y == want):
            print(f"{path}: expected 64 x {want}, got {y}")
            ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
        sys.exit(0)
    sys.exit(check(*sys.argv[2:5]))
