"""Inputs and the float64 check of the translated attention backward
(kernels/attention_bwd: attention_bwd_prep, then attention_bwd) on the ISA
simulator (test/Target/HipKittens/isa-translated-attention-bwd.test).

  make DIR B N H H_KV CAUSAL PAD
      q.npy, do.npy [B,N+PAD,H,128] and k.npy, v.npy [B,N,H_KV,128]: bf16
      bit patterns of seeded N(0, 1) values (the PAD rows after Q and dO
      are zeros, for the kernel's prefetch past the end); o.npy
      [B,N,H,128] = bf16(softmax(S) V) and l.npy [B,H,N] = f32(log-sum-exp
      of S) from float64, the forward pass's outputs; delta.npy [B,H,N],
      dq.npy [B,N,H,128] f32 and dk.npy, dv.npy [B,N,H_KV,128] bf16, zeros.
  check DIR B N H H_KV CAUSAL PAD ROUNDING
      compares DIR/delta-out.npy (from attention_bwd_prep, which stores
      -delta for attention_bwd's dP MMA to start from) and DIR/dq-out,
      dk-out, dv-out.npy with float64 from the same inputs:
        delta_i = sum_d dO_id O_id, P = exp(S - L), S = Q K^T / sqrt(D),
        dV = P^T dO, dP = dO V^T, dS = P (dP - delta),
        dQ = dS K / sqrt(D), dK = dS^T Q / sqrt(D),
      P = 0 for keys j > query i when CAUSAL; key/value head hk sums the
      query heads h with h / (H / H_KV) = hk.

Bounds, per element, twice the first-order error of the kernel's roundings
(r = 2^-8 when bf16 is rounded to nearest, ROUNDING=nearest, 2^-7 when it
is truncated, ROUNDING=truncate): P and dS are rounded to bf16 before the
MFMAs (r each), exp and L in f32 (eps_P = 2^-20), f32 sums of n terms
(n 2^-24 of the sum of magnitudes), dK and dV rounded to bf16 (r):
  E_ij = |dS_ij| (2 r + eps_P) + P_ij D 2^-24 (sum|dO V| + sum|dO O|)
  delta: D 2^-24 sum_d |dO O|
  dV: r |dV| + (r + eps_P) sum_i P |dO| + n 2^-24 sum_i P |dO|
  dK: r |dK| + (1/sqrt D) sum_i E_ij |Q| + n 2^-24 (1/sqrt D) sum |dS| |Q|
  dQ: (1/sqrt D) sum_j E_ij |K| + N 2^-24 (1/sqrt D) sum |dS| |K|
with n = N H / H_KV. A zero or misplaced gradient is off by the size of
the gradient itself, far beyond these.
"""
import sys

import numpy as np

from bf16 import bits, value

D = 128


def inputs(b_, n, h, hkv):
    rng = np.random.default_rng(11)
    q = value(bits(rng.standard_normal((b_, n, h, D))))
    k = value(bits(rng.standard_normal((b_, n, hkv, D))))
    v = value(bits(rng.standard_normal((b_, n, hkv, D))))
    do = value(bits(rng.standard_normal((b_, n, h, D))))
    return q, k, v, do


def scores(q, k, b, hh, group, causal):
    n = q.shape[1]
    s = q[b, :, hh, :] @ k[b, :, hh // group, :].T / np.sqrt(D)
    if causal:
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    return s


def main():
    mode, out = sys.argv[1], sys.argv[2]
    b_, n, h, hkv, causal, pad = map(int, sys.argv[3:9])
    group = h // hkv
    q, k, v, do = inputs(b_, n, h, hkv)
    if mode == "make":
        o = np.zeros((b_, n, h, D))
        lse = np.zeros((b_, h, n))
        for b in range(b_):
            for hh in range(h):
                s = scores(q, k, b, hh, group, causal)
                m = s.max(axis=1, keepdims=True)
                p = np.exp(s - m)
                rowsum = p.sum(axis=1, keepdims=True)
                o[b, :, hh, :] = (p / rowsum) @ v[b, :, hh // group, :]
                lse[b, hh] = (m + np.log(rowsum))[:, 0]
        tail = np.zeros((b_, pad, h, D), np.uint16)
        np.save(f"{out}/q.npy", np.concatenate([bits(q), tail], axis=1))
        np.save(f"{out}/do.npy", np.concatenate([bits(do), tail], axis=1))
        np.save(f"{out}/k.npy", bits(k))
        np.save(f"{out}/v.npy", bits(v))
        np.save(f"{out}/o.npy", bits(o))
        np.save(f"{out}/l.npy", lse.astype(np.float32))
        np.save(f"{out}/delta.npy", np.zeros((b_, h, n), np.float32))
        np.save(f"{out}/dq.npy", np.zeros((b_, n, h, D), np.float32))
        np.save(f"{out}/dk.npy", np.zeros((b_, n, hkv, D), np.uint16))
        np.save(f"{out}/dv.npy", np.zeros((b_, n, hkv, D), np.uint16))
        return
    r = {"nearest": 2.0**-8, "truncate": 2.0**-7}[sys.argv[9]]
    u, eps_p, scale = 2.0**-24, 2.0**-20, 1 / np.sqrt(D)
    o = value(np.load(f"{out}/o.npy"))
    lse = np.load(f"{out}/l.npy").astype(np.float64)
    # The prep kernel stores -delta.
    delta_k = -np.load(f"{out}/delta-out.npy").astype(np.float64)
    dq_k = np.load(f"{out}/dq-out.npy").astype(np.float64)
    dk_k = value(np.load(f"{out}/dk-out.npy"))
    dv_k = value(np.load(f"{out}/dv-out.npy"))
    nn = n * group
    ok = True
    worst = {}
    bad = {}

    def compare(name, got, ref, bound):
        err = np.abs(got - ref)
        worst[name] = max(worst.get(name, 0.0), float(err.max()))
        bad[name] = bad.get(name, 0) + int((err > bound).sum())

    dk = np.zeros((b_, n, hkv, D))
    dv = np.zeros((b_, n, hkv, D))
    dk_b = np.zeros((b_, n, hkv, D))
    dv_b = np.zeros((b_, n, hkv, D))
    for b in range(b_):
        for hh in range(h):
            kv = hh // group
            oh, doh = o[b, :, hh, :], do[b, :, hh, :]
            delta = (doh * oh).sum(axis=1)
            delta_abs = np.abs(doh * oh).sum(axis=1)
            compare("delta", delta_k[b, hh], delta, 2 * D * u * delta_abs)
            s = scores(q, k, b, hh, group, causal)
            p = np.exp(s - lse[b, hh][:, None])
            vh, kh, qh = v[b, :, kv, :], k[b, :, kv, :], q[b, :, hh, :]
            dp = doh @ vh.T
            ds = p * (dp - delta[:, None])
            e = (np.abs(ds) * (2 * r + eps_p) + p * D * u *
                 (np.abs(doh) @ np.abs(vh).T + delta_abs[:, None]))
            dq = ds @ kh * scale
            dq_bound = 2 * scale * (e @ np.abs(kh) + n * u * np.abs(ds) @ np.abs(kh))
            compare("dQ", dq_k[b, :, hh, :], dq, dq_bound)
            dv[b, :, kv, :] += p.T @ doh
            dv_b[b, :, kv, :] += (r + eps_p + nn * u) * (p.T @ np.abs(doh))
            dk[b, :, kv, :] += ds.T @ qh * scale
            dk_b[b, :, kv, :] += scale * (e.T @ np.abs(qh) + nn * u * np.abs(ds).T @ np.abs(qh))
    compare("dK", dk_k, dk, 2 * (r * np.abs(dk) + dk_b))
    compare("dV", dv_k, dv, 2 * (r * np.abs(dv) + dv_b))
    for name in ("delta", "dQ", "dK", "dV"):
        print(f"{name}: max |err| {worst[name]:.3g}; {bad[name]} beyond the bound")
        ok = ok and bad[name] == 0
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
