"""Inputs and the float64 check of attention forward on the ISA simulator:
HipKittens' GQA kernel (gfx950, kernels/attn/gqa/kernel.cpp, D = 128, not
causal; test/Target/HipKittens/isa-gqa.test) and the translations of the
library's attention_fwd (isa-translated-attention.test).

  make DIR B N H H_KV [D [CAUSAL [PAD]]]
      q.npy [B,N,H,D], k.npy and v.npy [B,N+PAD,H_KV,D] (bf16 bit patterns
      of seeded N(0, 1) values; the PAD rows after the N keys are zeros, for
      kernels that prefetch past the end), o.npy zeros, l.npy [B,H,1,N] f32
      zeros. D defaults to 128, CAUSAL and PAD to 0.
  check DIR B N H H_KV [D [CAUSAL [PAD]]]
      compares DIR/out.npy (O) and DIR/lout.npy (L) with
      O = softmax(Q K^T / sqrt(D)) V and L = log(sum_j exp(S_ij)) (natural
      log-sum-exp of the scaled scores), in float64, query head h reading
      key/value head h / (H / H_KV), over keys j <= i when CAUSAL is 1

Bounds, per element: |O - O64| <= 2^-7 sum_j P_ij |V_jd| + 2^-8 |O64|
(P is rounded to bf16 before P V, each term's error at most 2^-8 of it, and
O to bf16, at most one ulp of 2^-8) and |L - L64| <= 2^-10 (1 + |L64|)
(f32 accumulation of the row sum and max, and the log).
"""
import sys

import numpy as np

from bf16 import bits, value


def main():
    mode, out = sys.argv[1], sys.argv[2]
    b_, n, h, hkv = map(int, sys.argv[3:7])
    extra = [int(a) for a in sys.argv[7:10]]
    D, causal, pad = extra + [128, 0, 0][len(extra):]
    rng = np.random.default_rng(5)
    q = value(bits(rng.standard_normal((b_, n, h, D))))
    k = value(bits(rng.standard_normal((b_, n, hkv, D))))
    v = value(bits(rng.standard_normal((b_, n, hkv, D))))
    if mode == "make":
        tail = np.zeros((b_, pad, hkv, D), np.uint16)
        np.save(f"{out}/q.npy", bits(q))
        np.save(f"{out}/k.npy", np.concatenate([bits(k), tail], axis=1))
        np.save(f"{out}/v.npy", np.concatenate([bits(v), tail], axis=1))
        np.save(f"{out}/o.npy", np.zeros((b_, n, h, D), np.uint16))
        np.save(f"{out}/l.npy", np.zeros((b_, h, 1, n), np.float32))
        return
    o = value(np.load(f"{out}/out.npy")).reshape(b_, n, h, D)
    lv = np.load(f"{out}/lout.npy").reshape(b_, h, n).astype(np.float64)
    group = h // hkv
    o_bad = l_bad = 0
    o_err = l_err = 0.0
    for b in range(b_):
        for hh in range(h):
            s = q[b, :, hh, :] @ k[b, :, hh // group, :].T / np.sqrt(D)
            if causal:
                s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
            m = s.max(axis=1, keepdims=True)
            p = np.exp(s - m)
            rowsum = p.sum(axis=1, keepdims=True)
            pn = p / rowsum
            vv = v[b, :, hh // group, :]
            ref = pn @ vv
            bound = 2.0**-7 * (pn @ np.abs(vv)) + 2.0**-8 * np.abs(ref)
            err = np.abs(o[b, :, hh, :] - ref)
            o_bad += int((err > bound).sum())
            o_err = max(o_err, float(err.max()))
            lse = (m + np.log(rowsum))[:, 0]
            lerr = np.abs(lv[b, hh] - lse)
            l_bad += int((lerr > 2.0**-10 * (1 + np.abs(lse))).sum())
            l_err = max(l_err, float(lerr.max()))
    print(f"O {b_}x{n}x{h}x{D}: max |O - O64| {o_err:.3g}; {o_bad} beyond the bound")
    print(f"L {b_}x{h}x{n}: max |L - L64| {l_err:.3g}; {l_bad} beyond the bound")
    ok = o_bad == 0 and l_bad == 0
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
