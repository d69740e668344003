"""kernels/softmax/softmax.mlir rebuilt with the hk.ir builder: the same
ops in the same order (python/tests/test_ir.py checks that both compile to
the same artifact). The algorithm is described in the .mlir file."""

from hk import ir
from hk.ir import bf16, f32, index


def build():
    m = ir.Module()
    io = ir.memref([None, None], bf16)
    k = m.kernel("softmax", [("x", io), ("y", io)], waves=4,
                 grid=ir.grid([ir.dim(0, 0)], "s0 ceildiv 128"))
    x, y = k.args
    b = k.builder
    t_bf = ir.rt([32, 64], bf16, "row", (16, 32))
    t_f = t_bf.with_element(f32)
    row_v = ir.rv(t_f, "row")

    c0 = b.constant(0, index)
    c1 = b.constant(1, index)
    c4 = b.constant(4, index)
    c32 = b.constant(32, index)
    c63 = b.constant(63, index)
    c64 = b.constant(64, index)
    neginf = b.constant(float("-inf"), f32, "neginf")
    log2e = b.constant(1.44269502, t_f, "log2e")
    m_init = b.constant(float("-inf"), row_v, "m_init")
    l_init = b.constant(0.0, row_v, "l_init")

    blk = b.block_id("x")
    w = b.wave_id()
    blk4 = b.muli(blk, c4)
    tile = b.addi(blk4, w, "tile")
    r0 = b.muli(tile, c32, "r0")
    r_end = b.addi(r0, c32, "r_end")
    n = b.memref_dim(x, c1, "n")
    n_pad = b.addi(n, c63)
    ntiles = b.divui(n_pad, c64, "ntiles")

    # Pass 1: running max m and sum l (of exp2 in the log2 domain).
    loop = b.for_(c0, ntiles, c1, iter_args=[m_init, l_init], name="ml")
    with loop as (j, mv, lv):
        c0j = b.muli(j, c64)
        tb = b.load(x, [tile, j], t_bf)
        tf = b.extf(tb, t_f)
        t2 = b.mulf(tf, log2e)
        t = b.bounds_mask(t2, at=[r0, c0j], within=[r_end, n], fill=neginf)
        mn = b.row_reduce("max", t, init=mv)
        dm = b.subf(mv, mn)
        alpha = b.exp2(dm)
        la = b.mulf(lv, alpha)
        d = b.row_broadcast("sub", t, mn)
        p = b.exp2(d)
        ln = b.row_reduce("sum", p, init=la)
        b.yield_(mn, ln)
    m_fin, l_fin = loop.results

    # Pass 2: normalise.
    with b.for_(c0, ntiles, c1) as j:
        tb = b.load(x, [tile, j], t_bf)
        tf = b.extf(tb, t_f)
        t = b.mulf(tf, log2e)
        d = b.row_broadcast("sub", t, m_fin)
        p = b.exp2(d)
        yv = b.row_broadcast("div", p, l_fin)
        yb = b.truncf(yv, t_bf)
        b.store(yb, y, [tile, j])
    b.ret()
    return m
