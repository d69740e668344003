"""The library's fused decode attention (attention_decode_fused_d128 and
its 16-key chunk twin attention_decode_fused_p16_d128 in
kernels/attention_decode): the splits and their merge in one launch, the
last workgroup of each group of the tree found by hk.fetch_add on a counter.
Run twice on the ISA simulator from each chip's code object with the same
counters, against a float64 reference: each launch must leave the counters
at zero (so that the buffer serves the next launch) and give the same
results; lengths 0, 1, a single block and many, GQA with two query tokens
over two row tiles, split counts that leave a last group short."""

import os

import numpy as np
import pytest

import hk
from conftest import BIN

D = 128


@pytest.fixture(scope="module")
def mod():
    """The build's artifact of the kernel library's attention_decode."""
    return hk.load(os.path.join(BIN, "..", "kernels", "attention_decode.hkrt"))


def reference(q, k, v, lens, q_len):
    """O and L per [B, H_kv, rows]: row r is head r / q_len of the group,
    token r mod q_len, which sees keys j <= len - q_len + token."""
    B, Hkv, R, _ = q.shape
    o = np.zeros((B, Hkv, R, D))
    lse = np.full((B, Hkv, R), -np.inf)
    for b in range(B):
        for h in range(Hkv):
            for r in range(R):
                keys = min(max(lens[b] - q_len + r % q_len + 1, 0), lens[b])
                if keys == 0:
                    continue
                s = k[b, :keys, h] @ q[b, h, r] / np.sqrt(D)
                m = s.max()
                e = np.exp(s - m)
                o[b, h, r] = e @ v[b, :keys, h] / e.sum()
                lse[b, h, r] = m + np.log(e.sum())
    return o, lse


@pytest.mark.parametrize("entry", ["attention_decode_fused_d128",
                                   "attention_decode_fused_p16_d128"])
@pytest.mark.parametrize("lens,heads,q_len,workgroups", [
    ([3000, 0, 1, 64], 8, 1, 13),
    ([700, 2100], 16, 2, 9),
])
def test_fused_decode(simulator, mod, rng, entry, lens, heads, q_len,
                      workgroups):
    B, Hkv, N = len(lens), 1, max(lens)
    R = heads * q_len
    Rp = -(-R // 32) * 32  # the partial results' rows: whole 32-row tiles
    fan = int(np.ceil(np.sqrt(workgroups)))
    counters, n = workgroups, workgroups
    while True:
        groups = -(-n // fan)
        counters += 4 * groups
        if groups == 1:
            break
        n = groups
    qf = rng.uniform(-2, 2, (B, Hkv, R, D))
    kf = rng.uniform(-2, 2, (B, N, Hkv, D))
    vf = rng.uniform(-1, 1, (B, N, Hkv, D))
    q, k, v = (hk.bf16.from_float(x) for x in (qf, kf, vf))
    qd, kd, vd = (hk.bf16.to_float(x).astype(np.float64) for x in (q, k, v))
    o_ref, l_ref = reference(qd, kd, vd, lens, q_len)

    table = np.arange(B, dtype=np.int32).reshape(B, 1)
    seq_lens = np.array(lens, np.int32)
    count = np.zeros((B, Hkv, counters), np.int32)
    results = []
    for _ in range(2):
        op = np.zeros((B, Hkv, 4 * workgroups, Rp, D), np.float32)
        lp = np.zeros((B, Hkv, 4 * workgroups, Rp), np.float32)
        ot = np.zeros((B, Hkv, workgroups, Rp, D), np.float32)
        lt = np.zeros((B, Hkv, 4 * workgroups, Rp), np.float32)
        o = np.zeros((B, Hkv, R, D), np.uint16)
        l = np.zeros((B, Hkv, R), np.float32)
        mod[entry](
            q, k.transpose(0, 2, 1, 3), v.transpose(0, 2, 1, 3), table,
            seq_lens, op, lp, ot, lt, count, o, l, q_len, fan)
        assert (count == 0).all(), count
        results.append((hk.bf16.to_float(o).astype(np.float64), l.copy()))

    o, l = results[0]
    assert np.array_equal(o, results[1][0])
    assert np.array_equal(l, results[1][1])
    empty = np.isneginf(l_ref)
    assert np.array_equal(np.isneginf(l), empty)
    assert (o[empty] == 0).all()
    assert np.allclose(l[~empty], l_ref[~empty], atol=1e-4, rtol=0)
    assert np.allclose(o, o_ref, atol=2e-2, rtol=2e-2)
