"""The library's grouped GEMM (kernels/gemm_grouped) on the ISA simulator,
with persistent grids smaller than its tile list, so that each workgroup
walks several tiles and crosses group boundaries, against a float64
reference. The bound is gemm_bf16's (test_run.py):
  |got - c| <= 2^-8 |c| + 2^-23 K sum_k |a_k b_k|.
Rows of C no group covers are never written: they keep their fill.
"""

import numpy as np
import pytest

import hk
from conftest import kernel_path

FILL = 0x7FC1  # a NaN the kernel never writes


@pytest.fixture(scope="module")
def mod():
    """Compiled once for the module's tests (a compile takes seconds)."""
    return hk.compile(kernel_path("gemm_grouped"), chips=["gfx942", "gfx950"])


def run_grouped(mod, rng, sizes, n, k, workgroups, covered=None):
    sizes = list(sizes)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    m = int(offsets[-1]) if covered is None else covered
    g = len(sizes)
    a = hk.bf16.from_float(rng.uniform(-1, 1, (m, k)))
    b = hk.bf16.from_float(rng.uniform(-1, 1, (g, n, k)))
    c = np.full((m, n), FILL, dtype=np.uint16)
    mod.gemm_grouped(a, b, c, offsets, workgroups)
    assert mod.gemm_grouped.last_grid == (workgroups, 1, 1)
    af = hk.bf16.to_float(a).astype(np.float64)
    bf = hk.bf16.to_float(b).astype(np.float64)
    got = hk.bf16.to_float(c).astype(np.float64)
    for i in range(g):
        lo, hi = offsets[i], offsets[i + 1]
        ref = af[lo:hi] @ bf[i].T
        scale = np.abs(af[lo:hi]) @ np.abs(bf[i]).T
        bound = 2.0**-8 * np.abs(ref) + 2.0**-23 * k * scale
        assert np.all(np.abs(got[lo:hi] - ref) <= bound), f"group {i}"
    return c, offsets


@pytest.mark.parametrize("workgroups", [1, 5])
def test_ragged_groups(mod, simulator, rng, workgroups):
    # 2 + 0 + 2 + 1 + 2 = 7 row tiles times 2 column tiles: 14 tiles.
    run_grouped(mod, rng, [300, 0, 257, 1, 511], n=300, k=72,
                workgroups=workgroups)


def test_one_group(mod, simulator, rng):
    run_grouped(mod, rng, [513], n=64, k=40, workgroups=2)


def test_rows_past_the_last_group(mod, simulator, rng):
    # offsets[G] < M: the rows after it belong to no group and stay unwritten.
    c, offsets = run_grouped(mod, rng, [0, 100, 0], n=40, k=32, workgroups=2,
                             covered=130)
    assert np.all(c[offsets[-1]:] == FILL)


def test_all_groups_empty(mod, simulator, rng):
    c, _ = run_grouped(mod, rng, [0, 0, 0, 0], n=80, k=64, workgroups=3,
                       covered=20)
    assert np.all(c == FILL)


def test_fp8_groups_with_scales(mod, simulator, rng):
    """@gemm_grouped_fp8: the chip's E4M3 operands, a scale per row of A and
    per group and column of B, ragged groups with an empty one, 2 persistent
    workgroups for 2 + 0 + 1 + 2 row tiles (K 200: two K steps, the second
    partial)."""
    chip = simulator.chip
    sizes = [300, 0, 17, 400]
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    g, m, n, k = len(sizes), int(offsets[-1]), 130, 200
    a = hk.fp8.from_float(rng.standard_normal((m, k)) * 4, chip)
    b = hk.fp8.from_float(rng.standard_normal((g, n, k)) * 4, chip)
    sa = rng.uniform(0.5, 2, m).astype(np.float32)
    sb = rng.uniform(0.5, 2, (g, n)).astype(np.float32)
    c = np.full((m, n), FILL, dtype=np.uint16)
    mod.gemm_grouped_fp8(a, b, sa, sb, c, offsets, 2)
    af = hk.fp8.to_float(a, chip).astype(np.float64)
    bf = hk.fp8.to_float(b, chip).astype(np.float64)
    got = hk.bf16.to_float(c).astype(np.float64)
    for i in range(g):
        lo, hi = offsets[i], offsets[i + 1]
        s = np.outer(sa[lo:hi], sb[i]).astype(np.float64)
        ref = s * (af[lo:hi] @ bf[i].T)
        scale = s * (np.abs(af[lo:hi]) @ np.abs(bf[i]).T)
        bound = 2.0**-8 * np.abs(ref) + 2.0**-23 * k * scale
        assert np.all(np.abs(got[lo:hi] - ref) <= bound), f"group {i}"
