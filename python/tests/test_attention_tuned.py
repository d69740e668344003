"""attention_fwd's tuned tables from Python: hk.TunedKernel launches the
4-wave instance that kernels/attention_fwd/tuned/gfx950.json names for the
bucket of (B, H, H_kv, N, D, causal) = (1, 8, 8, 512, 64, 0), and the
default instance elsewhere; both results match a float64 reference."""

import numpy as np

import hk
from conftest import kernel_path


def attention_shape(q, k, v, o, lse, causal):
    """(B, H, H_kv, N, D, causal) of the [B, H, N, D] views."""
    b, h, n, d = q.shape
    return (b, h, k.shape[1], n, d, int(causal))


def run(attn, b, h, n, d, seed):
    """Launches `attn` on random bf16 Q, K, V ([B, N, H, D] buffers seen as
    [B, H, N, D]) and checks O and L against float64."""
    rng = np.random.default_rng(seed)
    q, k, v = (hk.bf16.from_float(rng.standard_normal((b, n, h, d)))
               for _ in range(3))
    o = np.zeros_like(q)
    lse = np.zeros((b, h, n), np.float32)
    view = (0, 2, 1, 3)
    attn(q.transpose(view), k.transpose(view), v.transpose(view),
         o.transpose(view), lse, False)
    qf, kf, vf = (hk.bf16.to_float(x).transpose(view) for x in (q, k, v))
    s = qf @ kf.transpose(0, 1, 3, 2) / np.sqrt(d)
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    want_l = (m + np.log(e.sum(axis=-1, keepdims=True)))[..., 0]
    want_o = (e / e.sum(axis=-1, keepdims=True)) @ vf
    got_o = hk.bf16.to_float(o).transpose(view)
    # bf16 O (2^-8 relative) and P rounded to bf16 before P V.
    assert np.all(np.abs(got_o - want_o) <= 2e-2 * np.abs(want_o) + 1e-2)
    assert np.all(np.abs(lse - want_l) <= 1e-3 * np.abs(want_l) + 1e-3)


def test_tuned_kernel_launches_the_4_wave_instance():
    hk.set_device("isa", chip="gfx950")
    attn = hk.TunedKernel(kernel_path("attention_fwd"), "attention_fwd_d64",
                          attention_shape)
    run(attn, 1, 5, 300, 64, seed=1)
    assert attn.last_params == {"SCHEDULE": "interleave", "SYNC": "barrier"}
    run(attn, 1, 2, 100, 64, seed=2)
    assert attn.last_params == {}
