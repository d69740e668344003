"""Inputs and float64 check of test/Run/attention-rescale.test: attention
forward (kernels/attention_fwd) on scores whose row maxima grow from one
64-key block to the next, so that the lazy rescale (a wave moves its
reference maximum only when some row's maximum passed it by more than 8 in
the log2 domain) runs both ways within one launch.

  make DIR D     writes q.npy [1, 2, 256, D], k.npy and v.npy [1, 1, 256, D]
                 (bf16 bit patterns; one workgroup, GQA 2:1), o.npy zeros,
                 l.npy [1, 2, 256] f32 zeros
  check DIR D    compares DIR/out.npy (O) and DIR/lout.npy (L) with the
                 float64 softmax(Q K^T / sqrt(D)) V and log-sum-exp

Key j has K[j, 0] += 10 * (j // 64): block b adds 10 b to that column. A
query's column 0 sets how fast its row maximum grows per block, in the
log2 domain 10 * q0 * log2(e) / sqrt(D):
  rows   0- 31 (wave 0): q0 =  8 (about 10.2 per block at D = 128): the
                         wave rescales at every block;
  rows  32- 63 (wave 1): q0 = 4 at D = 128, 2.75 at D = 64 (about 5): the
                         reference stays until the maxima have passed it
                         by more than 8 (block 2), so P reaches 2^5 and
                         more before the rescale;
  rows  64-127 (waves 2-3): q0 = -4: the maxima fall, no rescale after
                         the first block;
  rows 128-255: random, small.
Bounds as test/Target/HipKittens/Inputs/hk_gqa_isa.py: |O - O64| <=
2^-7 sum_j P_ij |V_jd| + 2^-8 |O64| and |L - L64| <= 2^-10 (1 + |L64|).
"""
import os
import sys

import numpy as np

N, H, HKV = 256, 2, 1


def bits(x):
    b = np.asarray(x, dtype=np.float32).view(np.uint32)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def value(b):
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def inputs(d):
    rng = np.random.default_rng(7)
    q = 0.5 * rng.standard_normal((1, H, N, d))
    k = 0.5 * rng.standard_normal((1, HKV, N, d))
    v = rng.standard_normal((1, HKV, N, d))
    k[0, 0, :, 0] += 10.0 * (np.arange(N) // 64)
    # Wave 1: about 5 per block, a multiple of 1/4 (exact in bf16).
    mild = np.round(4 * 5.0 * np.sqrt(d) / (10.0 * np.log2(np.e))) / 4
    for h in range(H):
        q[0, h, 0:32, 0] = 8.0
        q[0, h, 32:64, 0] = mild
        q[0, h, 64:128, 0] = -4.0
    return value(bits(q)), value(bits(k)), value(bits(v))


def make(directory, d):
    q, k, v = inputs(d)
    np.save(os.path.join(directory, "q.npy"), bits(q))
    np.save(os.path.join(directory, "k.npy"), bits(k))
    np.save(os.path.join(directory, "v.npy"), bits(v))
    np.save(os.path.join(directory, "o.npy"), np.zeros((1, H, N, d), np.uint16))
    np.save(os.path.join(directory, "l.npy"), np.zeros((1, H, N), np.float32))


def check(directory, d):
    q, k, v = inputs(d)
    o = value(np.load(os.path.join(directory, "out.npy"))).reshape(1, H, N, d)
    lv = np.load(os.path.join(directory, "lout.npy")).reshape(1, H, N)
    o_bad = l_bad = 0
    for h in range(H):
        s = q[0, h] @ k[0, h * HKV // H].T / np.sqrt(d)
        m = s.max(axis=1, keepdims=True)
        p = np.exp(s - m)
        rowsum = p.sum(axis=1, keepdims=True)
        pn = p / rowsum
        vv = v[0, h * HKV // H]
        ref = pn @ vv
        bound = 2.0**-7 * (pn @ np.abs(vv)) + 2.0**-8 * np.abs(ref)
        o_bad += int((np.abs(o[0, h] - ref) > bound).sum())
        lse = (m + np.log(rowsum))[:, 0]
        l_bad += int((np.abs(lv[0, h] - lse) > 2.0**-10 * (1 + np.abs(lse))).sum())
    # The inputs do what the header says: wave 0's row maxima grow by more
    # than 8 (log2) per block, wave 1's by less.
    s = q[0, 0] @ k[0, 0].T / np.sqrt(d) * np.log2(np.e)
    block_max = np.stack([s[:, 64 * b:64 * b + 64].max(axis=1) for b in range(4)], 1)
    growth = np.diff(block_max, axis=1)
    assert (growth[0:32] > 8).all() and (growth[32:64] < 8).all() and (growth[32:64] > 0).all()
    print(f"O: {o_bad} beyond the bound; L: {l_bad} beyond the bound")
    ok = o_bad == 0 and l_bad == 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    mode, directory, d = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "make":
        make(directory, d)
        sys.exit(0)
    sys.exit(check(directory, d))
