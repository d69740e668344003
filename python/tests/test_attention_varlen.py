"""The library's variable-length prefill attention (kernels/attention_varlen)
on the ISA simulator, with persistent grids of 1, 2, 3 and 5 workgroups, so
that each workgroup takes several tiles of several sequences, in even and
odd rounds of the snake deal, against a float64 reference: lengths 0 and 1,
q_len != k_len both ways, causal (bottom-right aligned) and windows of 0, 1
and more. A query without a visible key must give O = 0 and L = -inf
exactly.
"""

import numpy as np
import pytest

import hk
from conftest import kernel_path

FILL = 0x7FC1  # a bf16 NaN the kernel never writes


@pytest.fixture(scope="module")
def mod():
    """Compiled once for the module's tests (a compile takes seconds)."""
    return hk.compile(kernel_path("attention_varlen"), chips=["gfx942", "gfx950"])


def reference(q, k, v, cu_q, cu_k, causal, window):
    """O [total_q, H, D] and L [H, total_q] in float64; rows without keys
    get O = 0 and L = -inf."""
    total_q, heads, d = q.shape
    group = heads // k.shape[1]
    o = np.zeros((total_q, heads, d))
    lse = np.full((heads, total_q), -np.inf)
    for b in range(len(cu_q) - 1):
        q0, q1, k0, k1 = cu_q[b], cu_q[b + 1], cu_k[b], cu_k[b + 1]
        lq, lk = q1 - q0, k1 - k0
        pos = np.arange(lq)[:, None] + (lk - lq)
        key = np.arange(lk)[None, :]
        seen = np.ones((lq, lk), bool)
        if causal:
            seen &= key <= pos
        if window >= 0:
            seen &= key >= pos - window
        for h in range(heads):
            s = q[q0:q1, h] @ k[k0:k1, h // group].T / np.sqrt(d)
            s = np.where(seen, s, -np.inf)
            m = np.max(s, axis=1, initial=-np.inf, keepdims=True)
            has = np.isfinite(m[:, 0])
            e = np.where(seen, np.exp(s - np.where(np.isfinite(m), m, 0)), 0)
            l = e.sum(axis=1)
            o[q0:q1, h][has] = (e[has] / l[has, None]) @ v[k0:k1, h // group]
            lse[h, q0:q1][has] = m[has, 0] + np.log(l[has])
    return o, lse


def run_varlen(mod, rng, lens_q, lens_k, heads, kv_heads, d, causal, window,
               workgroups):
    cu_q = np.concatenate([[0], np.cumsum(lens_q)]).astype(np.int32)
    cu_k = np.concatenate([[0], np.cumsum(lens_k)]).astype(np.int32)
    tq, tk = int(cu_q[-1]), int(cu_k[-1])
    q = hk.bf16.from_float(rng.uniform(-2, 2, (tq, heads, d)))
    k = hk.bf16.from_float(rng.uniform(-2, 2, (tk, kv_heads, d)))
    v = hk.bf16.from_float(rng.uniform(-1, 1, (tk, kv_heads, d)))
    o = np.full((tq, heads, d), FILL, dtype=np.uint16)
    lse = np.full((heads, tq), np.nan, dtype=np.float32)
    kernel = getattr(mod, "attention_varlen_d%d" % d)
    # [rows, heads, D] seen as [heads, rows, D], as the kernel's views.
    kernel(q.transpose(1, 0, 2), k.transpose(1, 0, 2), v.transpose(1, 0, 2),
           o.transpose(1, 0, 2), lse, cu_q, cu_k, workgroups, causal, window)
    assert kernel.last_grid == (workgroups, 1, 1)
    f = [hk.bf16.to_float(x).astype(np.float64) for x in (q, k, v)]
    ref_o, ref_l = reference(*f, cu_q, cu_k, causal, window)
    got_o = hk.bf16.to_float(o).astype(np.float64)
    # bf16 output (2^-8 relative) and bf16 P before P V: 1e-2 absolute on
    # values below 1; a wrong mask moves O by far more.
    assert np.all(np.abs(got_o - ref_o) <= 1e-2), np.max(np.abs(got_o - ref_o))
    empty = np.isneginf(ref_l)
    assert np.array_equal(np.isneginf(lse), empty)
    assert np.all(got_o.transpose(1, 0, 2)[empty] == 0)
    assert np.all(np.abs(lse[~empty] - ref_l[~empty]) <= 1e-4)
    return empty


@pytest.mark.parametrize("workgroups", [1, 3])
def test_degenerate_lengths_gqa(mod, simulator, workgroups):
    """Empty sequences, a single token, keys without queries and queries
    without keys, causal: every row checked, and the rows without keys
    exist."""
    rng = np.random.default_rng(7)
    empty = run_varlen(mod, rng, [0, 1, 300, 77, 0, 40, 3], [5, 1, 300, 200, 0, 0, 1],
                       4, 2, 64, True, -1, workgroups)
    assert empty.any() and not empty.all()


@pytest.mark.parametrize("window,workgroups", [(0, 2), (1, 5), (40, 2)])
def test_causal_window(mod, simulator, window, workgroups):
    """Sliding windows with q_len < k_len at D = 128 (MQA): 0 keeps the
    diagonal key only."""
    rng = np.random.default_rng(11 + window)
    run_varlen(mod, rng, [130, 1, 70], [260, 1, 70], 2, 1, 128, True, window,
               workgroups)


def test_window_without_causal(mod, simulator):
    """A left window alone, q_len > k_len: every query sees keys up to the
    sequence's end."""
    rng = np.random.default_rng(3)
    run_varlen(mod, rng, [200, 33], [90, 64], 3, 3, 64, False, 20, 3)


@pytest.mark.parametrize("causal,window", [(True, -1), (False, 300)])
def test_long_keys_coarse_levels(mod, simulator, causal, window):
    """More than 32 x 256 keys in a sequence: the levels are 512 keys wide,
    and one sequence's tiles fall on several of them (causal) or on one
    (a window without causality)."""
    rng = np.random.default_rng(5)
    run_varlen(mod, rng, [600, 5, 1, 0], [9000, 600, 1, 7], 2, 1, 64, causal,
               window, 3)


def test_groups_wider_than_the_grid(mod, simulator):
    """Without causality a sequence's query tiles share one level: a group
    of 5 tiles x 2 heads over 3 workgroups gives each several of its ranks,
    in rounds dealt both ways."""
    rng = np.random.default_rng(9)
    run_varlen(mod, rng, [1100, 300], [1100, 700], 2, 2, 64, False, -1, 3)
