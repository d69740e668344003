"""Inputs and checks of test/Run/npy.test, with NumPy as the independent
reader and writer of the .npy format.

  npy_io.py make DIR          writes the inputs
  npy_io.py softmax X Y       checks Y = softmax(X) (bf16 as uint16 bits)
  npy_io.py axpb X Y A B      checks Y = A X + B (f32)
  npy_io.py copy X Y          checks Y == X exactly (same dtype and shape)
  npy_io.py types DIR         checks each t-NAME.npy saved back as o-NAME.npy
"""

import sys

import numpy as np


def to_bf16(x):
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    bits = bits.astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(b):
    assert b.dtype == np.uint16, b.dtype
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


TYPES = [("f16", np.float16, (5,)), ("f64", np.float64, (3, 4)),
         ("i8", np.int8, (7,)), ("i16", np.int16, (6,)),
         ("i32", np.int32, (9,)), ("i64", np.int64, (2,)),
         ("index", np.int64, (4,)), ("fp8", np.uint8, (8,)),
         ("bf16", np.uint16, (1,))]


def make(d):
    rng = np.random.default_rng(7)
    x = to_bf16(rng.uniform(-4, 4, (130, 200)))
    np.save(f"{d}/x.npy", x)
    np.lib.format.write_array(open(f"{d}/x-v2.npy", "wb"), x, version=(2, 0))
    np.lib.format.write_array(open(f"{d}/x-v3.npy", "wb"), x, version=(3, 0))
    np.save(f"{d}/x-f32.npy", from_bf16(x).astype(np.float32))
    np.save(f"{d}/x-fortran.npy", np.asfortranarray(x))
    np.save(f"{d}/x-big-endian.npy", x.astype(">u2"))
    np.save(f"{d}/x-rank3.npy", x.reshape(13, 10, 200))
    raw = open(f"{d}/x.npy", "rb").read()
    open(f"{d}/x-truncated.npy", "wb").write(raw[:-2])
    open(f"{d}/not-npy.npy", "wb").write(b"PK\x03\x04" + raw[4:])
    f = rng.standard_normal((70, 130)).astype(np.float32)
    np.save(f"{d}/f.npy", f)
    np.save(f"{d}/rows.npy", rng.standard_normal((40, 64)).astype(np.float32))
    np.save(f"{d}/rows32.npy", np.zeros((40, 32), np.float32))
    np.save(f"{d}/empty.npy", np.zeros((0, 64), np.float32))
    # One array per element type of npy-types.mlir.
    for name, dtype, shape in TYPES:
        info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
        if info is not None:
            a = rng.integers(info.min, info.max, shape, dtype=dtype,
                             endpoint=True)
        else:
            a = rng.standard_normal(shape).astype(dtype)
        np.save(f"{d}/t-{name}.npy", a)


def softmax(xp, yp):
    x = from_bf16(np.load(xp))
    y = np.load(yp)
    assert y.shape == x.shape, (y.shape, x.shape)
    got = from_bf16(y)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    # docs/hk-run.md: 2^-8 |y| + 2^-23 (N + 32) |y|.
    bound = 2.0**-8 * np.abs(ref) + 2.0**-23 * (x.shape[1] + 32) * np.abs(ref)
    err = np.abs(got - ref)
    assert np.all(err <= bound), err.max()
    print(f"softmax {y.shape[0]}x{y.shape[1]}: all within tolerance")


def axpb(xp, yp, a, b):
    x = np.load(xp).astype(np.float64)
    y = np.load(yp)
    assert y.dtype == np.float32 and y.shape == x.shape
    a, b = float(np.float32(a)), float(np.float32(b))
    ref = a * x + b
    # One f32 multiply and one f32 add, each correctly rounded.
    bound = 2.0**-24 * (np.abs(a * x) + np.abs(ref)) * 2
    assert np.all(np.abs(y - ref) <= bound)
    print(f"axpb {y.shape[0]}x{y.shape[1]}: all within tolerance")


def copy(xp, yp):
    x, y = np.load(xp), np.load(yp)
    assert x.dtype == y.dtype and x.shape == y.shape, (x.dtype, y.dtype)
    assert np.array_equal(x, y)
    print(f"copy {y.shape}: equal")


def types(d):
    for name, _, _ in TYPES:
        copy(f"{d}/t-{name}.npy", f"{d}/o-{name}.npy")


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    {"make": make, "softmax": softmax, "axpb": axpb, "copy": copy,
     "types": types}[cmd](*args)
