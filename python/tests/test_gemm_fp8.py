"""The library's fp8 GEMMs on the ISA simulator, both chips, from Python:
kernels/gemm_fp8 (per-row and per-column scales) and kernels/gemm_fp8_blockwise
(a scale per 1x128 block of A and per 128x128 block of B), with the host data
encoded for the device's chip by hk.fp8 and ragged M and N, against float64
on the same fp8 values. The bounds are the kernels' (their Reference.cpp):
  gemm_fp8:           |got - c| <= 2^-8 |c| + 2^-23 K |s| sum_k |a_k b_k|
  gemm_fp8_blockwise: |got - c| <= 2^-8 |c| + 2^-23 K sum_kb |s_kb| sum |a_k b_k|
"""

import numpy as np
import pytest

import hk
from conftest import kernel_path


@pytest.fixture(scope="module")
def fp8_mod():
    return hk.compile(kernel_path("gemm_fp8"), chips=["gfx942", "gfx950"])


@pytest.fixture(scope="module")
def blockwise_mod():
    return hk.compile(kernel_path("gemm_fp8_blockwise"),
                      chips=["gfx942", "gfx950"])


def fp8_values(rng, shape, chip):
    """Random normal values encoded as the chip's E4M3, and what they are."""
    bits = hk.fp8.from_float(rng.standard_normal(shape) * 4, chip)
    return bits, hk.fp8.to_float(bits, chip).astype(np.float64)


def scales(rng, shape):
    """Scales in [2^-4, 4) exact in bf16 (products exact in f32)."""
    s = hk.bf16.to_float(hk.bf16.from_float(2.0**rng.uniform(-4, 2, shape)))
    return s.astype(np.float32)


def test_row_column_scales(fp8_mod, simulator, rng):
    m, n, k = 300, 260, 384  # 2 x 2 tiles, three K steps
    a, af = fp8_values(rng, (m, k), simulator.chip)
    b, bf = fp8_values(rng, (n, k), simulator.chip)
    sa, sb = scales(rng, m), scales(rng, n)
    c = np.zeros((m, n), np.uint16)
    fp8_mod.gemm_fp8(a, b, sa, sb, c)
    s = np.outer(sa, sb).astype(np.float64)
    ref = s * (af @ bf.T)
    magnitude = s * (np.abs(af) @ np.abs(bf).T)
    bound = 2.0**-8 * np.abs(ref) + 2.0**-23 * k * magnitude
    got = hk.bf16.to_float(c).astype(np.float64)
    assert np.all(np.abs(got - ref) <= bound)


@pytest.mark.parametrize("m,n,k", [(200, 300, 640), (65, 129, 128)])
def test_blockwise(blockwise_mod, simulator, rng, m, n, k):
    kb, nb = k // 128, -(-n // 128)
    a, af = fp8_values(rng, (m, k), simulator.chip)
    b, bf = fp8_values(rng, (n, k), simulator.chip)
    sa = scales(rng, (kb, m))   # MN-major: one row of M scales per K block
    sb = scales(rng, (nb, kb))
    c = np.zeros((m, n), np.uint16)
    blockwise_mod.gemm_fp8_blockwise(a, b, sa, sb, c)
    ref = np.zeros((m, n))
    scale = np.zeros((m, n))
    for j in range(kb):
        ks = slice(128 * j, 128 * (j + 1))
        s = np.outer(sa[j], np.repeat(sb[:, j], 128)[:n]).astype(np.float64)
        ref += s * (af[:, ks] @ bf[:, ks].T)
        scale += s * (np.abs(af[:, ks]) @ np.abs(bf[:, ks]).T)
    got = hk.bf16.to_float(c).astype(np.float64)
    bound = 2.0**-8 * np.abs(ref) + 2.0**-23 * k * scale
    assert np.all(np.abs(got - ref) <= bound)
    # The scales matter: one scale for the whole product would be far off.
    one_scale = sa[0, 0] * sb[0, 0] * (af @ bf.T)
    assert np.abs(got - one_scale).max() > 0.1 * np.abs(ref).max()
