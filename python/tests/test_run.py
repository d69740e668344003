"""Kernels compiled and run from Python on the ISA simulator, against float64
references computed here with NumPy.

Tolerances (the library's, docs/hk-run.md, "Tolerances"), per element:
  softmax  |got - y| <= 2^-8 |y| + 2^-23 (N + 32) |y|: bf16 output rounding,
           an f32 sum of N exponentials and exp2 within ~1 ulp;
  gemm     |got - c| <= 2^-8 |c| + 2^-23 K sum_k |a_k b_k|: bf16 inputs
           (exact products), f32 accumulation, bf16 output rounding;
  axpb     |got - (a x + b)| <= 2^-23 (|a x| + |b|) + 2^-24 |a x + b|: one
           f32 multiply and one f32 add, each rounded to nearest.
The inputs are rounded to bf16 (or f32) first and the references use those
rounded values, so the bound covers only the kernel's own arithmetic.
"""

import os

import numpy as np
import pytest

import hk
from conftest import SRC_ROOT, kernel_path

AXPB = os.path.join(SRC_ROOT, "test", "Install", "Inputs", "axpb.mlir")
LEADING = os.path.join(os.path.dirname(__file__), "Inputs",
                       "leading_bounds.mlir")


def softmax_reference(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def check_softmax(got_bits, x_bits):
    x = hk.bf16.to_float(x_bits)
    y = softmax_reference(x)
    got = hk.bf16.to_float(got_bits).astype(np.float64)
    n = x.shape[1]
    bound = 2.0**-8 * np.abs(y) + 2.0**-23 * (n + 32) * np.abs(y)
    err = np.abs(got - y)
    assert np.all(err <= bound), (
        f"max error {err.max():.3e}, worst error/bound "
        f"{(err / bound).max():.3f}")
    return err.max()


@pytest.mark.parametrize("shape", [(300, 200), (5, 1), (130, 1000)])
def test_softmax(simulator, rng, shape):
    mod = hk.compile(kernel_path("softmax"), chips=["gfx942", "gfx950"])
    x = hk.bf16.from_float(rng.uniform(-4, 4, shape))
    y = np.full(shape, 0x7FC1, dtype=np.uint16)  # a NaN no kernel writes
    mod.softmax(x, y)
    check_softmax(y, x)


@pytest.mark.parametrize("chip", ["gfx942", "gfx950"])
def test_softmax_and_gemm_on_the_isa_simulator(rng, chip):
    """The chip's code object itself, run by the ISA simulator, against the
    same float64 references."""
    dev = hk.set_device("isa", chip=chip)
    try:
        assert dev.kind == "isa" and dev.chip == chip
        mod = hk.compile(kernel_path("softmax"), chips=["gfx942", "gfx950"])
        x = hk.bf16.from_float(rng.uniform(-4, 4, (300, 200)))
        y = np.full(x.shape, 0x7FC1, dtype=np.uint16)
        mod.softmax(x, y)
        check_softmax(y, x)
        check_gemm(rng)
    finally:
        hk.set_device("isa")


def test_gemm(simulator, rng):
    check_gemm(rng)


def check_gemm(rng):
    m, n, k = 300, 200, 136
    mod = hk.compile(kernel_path("gemm_bf16"), chips=["gfx942", "gfx950"])
    a = hk.bf16.from_float(rng.uniform(-1, 1, (m, k)))
    b = hk.bf16.from_float(rng.uniform(-1, 1, (n, k)))
    c = np.full((m, n), 0x7FC1, dtype=np.uint16)
    mod.gemm_bf16(a, b, c)
    af = hk.bf16.to_float(a).astype(np.float64)
    bf = hk.bf16.to_float(b).astype(np.float64)
    ref = af @ bf.T
    scale = np.abs(af) @ np.abs(bf).T
    got = hk.bf16.to_float(c).astype(np.float64)
    bound = 2.0**-8 * np.abs(ref) + 2.0**-23 * k * scale
    assert np.all(np.abs(got - ref) <= bound)


def test_scalars_and_f32(simulator, rng):
    mod = hk.compile(AXPB, chips=["gfx942", "gfx950"])
    x = rng.standard_normal((70, 130)).astype(np.float32)
    y = np.full_like(x, np.nan)
    a, b = 1.5, -0.25
    mod.axpb(x, y, a, b)
    ax = np.float64(np.float32(a)) * x.astype(np.float64)
    ref = ax + np.float64(np.float32(b))
    bound = 2.0**-23 * (np.abs(ax) + abs(b)) + 2.0**-24 * np.abs(ref)
    assert np.all(np.abs(y - ref) <= bound)


def test_non_contiguous_and_readonly_inputs(simulator, rng):
    mod = hk.compile(AXPB, chips=["gfx942", "gfx950"])
    base = rng.standard_normal((130, 70)).astype(np.float32)
    x = base.T  # a transposed view: copied to row-major for the launch
    x.flags.writeable = False
    y = np.zeros((70, 130), dtype=np.float32)
    mod.axpb(x, y, 2.0, 0.0)
    assert np.array_equal(y, 2 * x)  # exact: doubling, adding 0


def test_source_text_and_kernel_listing():
    with open(kernel_path("softmax")) as f:
        mod = hk.compile(source=f.read(), chips="gfx950")
    assert list(mod.kernels) == ["softmax"]
    assert [a["dtype"] for a in mod.softmax.args] == ["bf16", "bf16"]
    assert hk.artifact.chips(mod.artifact) == ["gfx950"]
    with pytest.raises(AttributeError, match="has no kernel 'nope'.*softmax"):
        mod.nope


def test_load_artifact_file(tmp_path, simulator, rng):
    mod = hk.compile(kernel_path("softmax"), chips=["gfx942", "gfx950"])
    path = tmp_path / "softmax.hkrt"
    path.write_bytes(mod.artifact)
    loaded = hk.load(str(path))
    x = hk.bf16.from_float(rng.uniform(-1, 1, (64, 64)))
    y = np.zeros_like(x)
    loaded.softmax(x, y)
    check_softmax(y, x)
    # Unloaded, it loads again on the next launch.
    loaded.unload()
    y[:] = 0
    loaded.softmax(x, y)
    check_softmax(y, x)


def check_leading_bounds(rng):
    """Heads past X's last one read zeros and drop their writes, where
    their offsets land inside X, in the next batch (leading_bounds.mlir)."""
    mod = hk.compile(LEADING, chips=["gfx942", "gfx950"])
    b, hx, hy, n, m = 3, 2, 4, 40, 50
    x = rng.standard_normal((b, hx, n, m)).astype(np.float32)
    z = rng.standard_normal((b, hx, n, m)).astype(np.float32)
    v = rng.standard_normal((b, hx, n)).astype(np.float32)
    a = hk.bf16.from_float(rng.uniform(-1, 1, (b, hx, n, 64)))
    y = np.full((b, hy, n, m), np.nan, dtype=np.float32)
    w = np.full((b, hy, n), np.nan, dtype=np.float32)
    c = np.full((b, hy, n, 64), 0x7FC1, dtype=np.uint16)
    z0 = z.copy()
    mod.leading(x, y, z, v, w, a, c)
    # Copies and a sum of two f32 values: exact.
    assert np.array_equal(y[:, :hx], x) and not np.any(y[:, hx:])
    assert np.array_equal(w[:, :hx], v) and not np.any(w[:, hx:])
    assert np.array_equal(c[:, :hx], a) and not np.any(c[:, hx:])
    assert np.array_equal(z, z0 + x)


def test_leading_bounds(simulator, rng):
    check_leading_bounds(rng)


@pytest.mark.parametrize("chip", ["gfx942", "gfx950"])
def test_leading_bounds_on_the_isa_simulator(rng, chip):
    hk.set_device("isa", chip=chip)
    try:
        check_leading_bounds(rng)
    finally:
        hk.set_device("isa")
