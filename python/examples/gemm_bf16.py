"""kernels/gemm_bf16/gemm_bf16.mlir rebuilt with the hk.ir builder: the
same ops in the same order (python/tests/test_ir.py checks that both
compile to the same artifact). The work split, the 8-wave ping-pong and its
hazards are described in the .mlir file."""

from hk import ir
from hk.ir import bf16, f32, index


def build():
    m = ir.Module()
    mat = ir.memref([None, None], bf16)
    k = m.kernel("gemm_bf16", [("A", mat), ("B", mat), ("C", mat)], waves=8,
                 grid=ir.grid([ir.dim(2, 0), ir.dim(2, 1)],
                              "(s0 ceildiv 256) * (s1 ceildiv 256)"))
    A, B, C = k.args
    b = k.builder
    st_stage = ir.st([256, 64], bf16, (16, 32))
    st_share = ir.st([32, 32], bf16, (16, 32))
    st_a = ir.st([64, 32], bf16, (16, 32))
    st_b = ir.st([32, 32], bf16, (16, 32))
    rt_share = ir.rt([32, 32], bf16, "row", (16, 32))
    rt_a = ir.rt([64, 32], bf16, "row", (16, 32))
    rt_b = ir.rt([32, 32], bf16, "row", (16, 32))
    acc_t = ir.rt([64, 32], f32, "col", (16, 16))
    out_t = acc_t.with_element(bf16)

    c0, c1, c2, c3, c4, c8, c63, c64, c256 = (
        b.constant(v, index) for v in (0, 1, 2, 3, 4, 8, 63, 64, 256))
    zero = b.constant(0.0, acc_t, "zero")

    # One stage of each operand.
    as_ = b.alloc_shared(st_stage, "as")
    bs = b.alloc_shared(st_stage, "bs")

    # Tile order: the linear workgroup id, XCD chunking, then WGM = 8.
    m_len = b.memref_dim(C, c0, "m_len")
    n_len = b.memref_dim(C, c1, "n_len")
    tiles_m = b.ceildivui(m_len, c256, "tiles_m")
    tiles_n = b.ceildivui(n_len, c256, "tiles_n")
    wg = b.block_id("x", "wg")
    count = b.num_blocks("x", "count")
    wg2 = b.xcd_remap(wg, count, xcds=8, chunk=64, name="wg2")
    tm, tn = b.group_remap(wg2, tiles_m, tiles_n, group=8, name="t")

    w = b.wave_id("w")
    wr = b.divui(w, c4, "wr")
    wc = b.remui(w, c4, "wc")

    # This wave's 32x32 shares of each half of the stage.
    a_row = b.addi(b.muli(tm, c8), w, "a_row")
    b_row = b.addi(b.muli(tn, c8), w, "b_row")
    as_share0 = b.subtile(as_, w, c0, st_share)
    as_share1 = b.subtile(as_, w, c1, st_share)
    bs_share0 = b.subtile(bs, w, c0, st_share)
    bs_share1 = b.subtile(bs, w, c1, st_share)

    # This wave's slices of each half of the stage.
    ri1 = b.addi(wr, c2, "ri1")
    cj1 = b.addi(wc, c4, "cj1")
    sa00 = b.subtile(as_, wr, c0, st_a, "sa00")
    sa10 = b.subtile(as_, ri1, c0, st_a, "sa10")
    sb00 = b.subtile(bs, wc, c0, st_b, "sb00")
    sb10 = b.subtile(bs, cj1, c0, st_b, "sb10")
    sa01 = b.subtile(as_, wr, c1, st_a, "sa01")
    sa11 = b.subtile(as_, ri1, c1, st_a, "sa11")
    sb01 = b.subtile(bs, wc, c1, st_b, "sb01")
    sb11 = b.subtile(bs, cj1, c1, st_b, "sb11")

    # K steps: ceildiv(K, 64).
    k_len = b.memref_dim(A, c1, "k_len")
    nk = b.divui(b.addi(k_len, c63), c64, "nk")
    nk_loop = b.subi(nk, c1, "nk_loop")

    # Prologue: half 0 of step 0 into the stage, half 1 in registers.
    ga0 = b.load(A, [a_row, c0], rt_share)
    gb0 = b.load(B, [b_row, c0], rt_share)
    ga1 = b.load(A, [a_row, c1], rt_share)
    gb1 = b.load(B, [b_row, c1], rt_share)
    b.store(ga0, as_share0)
    b.store(gb0, bs_share0)
    b.barrier()

    pp = b.ping_pong([acc_t] * 4, name="acc")
    with pp:
        loop = b.for_(c0, nk_loop, c1,
                      iter_args=[zero, zero, zero, zero, ga1, gb1], name="r")
        with loop as (kk, c00, c01, c10, c11, ha1, hb1):
            # Cluster 0: read half 0 of step k; store half 1 of step k;
            # prefetch half 0 of step k + 1.
            cl0 = b.cluster("memory", [rt_a, rt_a, rt_b, rt_b, rt_share,
                                       rt_share])
            with cl0:
                ra00 = b.load(sa00, None, rt_a)
                ra10 = b.load(sa10, None, rt_a)
                rb00 = b.load(sb00, None, rt_b)
                rb10 = b.load(sb10, None, rt_b)
                b.store(ha1, as_share1)
                b.store(hb1, bs_share1)
                kn0 = b.addi(b.muli(kk, c2), c2)
                pa0 = b.load(A, [a_row, kn0], rt_share)
                pb0 = b.load(B, [b_row, kn0], rt_share)
                b.yield_(ra00, ra10, rb00, rb10, pa0, pb0)
            a00, a10, b00, b10, fa0, fb0 = cl0.results

            # Cluster 1: K columns 0-31 of every accumulator.
            cl1 = b.cluster("compute", [acc_t] * 4)
            with cl1:
                b.yield_(b.mma("abt", a00, b00, c00),
                         b.mma("abt", a00, b10, c01),
                         b.mma("abt", a10, b00, c10),
                         b.mma("abt", a10, b10, c11))
            d00, d01, d10, d11 = cl1.results

            # Cluster 2: read half 1 of step k; store half 0 of step k + 1;
            # prefetch half 1 of step k + 1.
            cl2 = b.cluster("memory", [rt_a, rt_a, rt_b, rt_b, rt_share,
                                       rt_share])
            with cl2:
                ra01 = b.load(sa01, None, rt_a)
                ra11 = b.load(sa11, None, rt_a)
                rb01 = b.load(sb01, None, rt_b)
                rb11 = b.load(sb11, None, rt_b)
                b.store(fa0, as_share0)
                b.store(fb0, bs_share0)
                kn1 = b.addi(b.muli(kk, c2), c3)
                pa1 = b.load(A, [a_row, kn1], rt_share)
                pb1 = b.load(B, [b_row, kn1], rt_share)
                b.yield_(ra01, ra11, rb01, rb11, pa1, pb1)
            a01, a11, b01, b11, fa1, fb1 = cl2.results

            # Cluster 3: K columns 32-63 of every accumulator.
            cl3 = b.cluster("compute", [acc_t] * 4)
            with cl3:
                b.yield_(b.mma("abt", a01, b01, d00),
                         b.mma("abt", a01, b11, d01),
                         b.mma("abt", a11, b01, d10),
                         b.mma("abt", a11, b11, d11))
            f00, f01, f10, f11 = cl3.results
            b.yield_(f00, f01, f10, f11, fa1, fb1)
        r = loop.results

        # The last K step: clusters 0-3 without the prefetch and without
        # storing a next step's half 0.
        cl0 = b.cluster("memory", [rt_a, rt_a, rt_b, rt_b])
        with cl0:
            ra00 = b.load(sa00, None, rt_a)
            ra10 = b.load(sa10, None, rt_a)
            rb00 = b.load(sb00, None, rt_b)
            rb10 = b.load(sb10, None, rt_b)
            b.store(r[4], as_share1)
            b.store(r[5], bs_share1)
            b.yield_(ra00, ra10, rb00, rb10)
        a00, a10, b00, b10 = cl0.results
        cl1 = b.cluster("compute", [acc_t] * 4)
        with cl1:
            b.yield_(b.mma("abt", a00, b00, r[0]),
                     b.mma("abt", a00, b10, r[1]),
                     b.mma("abt", a10, b00, r[2]),
                     b.mma("abt", a10, b10, r[3]))
        d00, d01, d10, d11 = cl1.results
        cl2 = b.cluster("memory", [rt_a, rt_a, rt_b, rt_b])
        with cl2:
            ra01 = b.load(sa01, None, rt_a)
            ra11 = b.load(sa11, None, rt_a)
            rb01 = b.load(sb01, None, rt_b)
            rb11 = b.load(sb11, None, rt_b)
            b.yield_(ra01, ra11, rb01, rb11)
        a01, a11, b01, b11 = cl2.results
        cl3 = b.cluster("compute", [acc_t] * 4)
        with cl3:
            b.yield_(b.mma("abt", a01, b01, d00),
                     b.mma("abt", a01, b11, d01),
                     b.mma("abt", a11, b01, d10),
                     b.mma("abt", a11, b11, d11))
        b.yield_(*cl3.results)
    acc = pp.results

    # Store: accumulator C[i][j] is the 64x32 tile at row 4*tm + 2*i + wr
    # and column 8*tn + 4*j + wc.
    row0 = b.addi(b.muli(tm, c4), wr, "row0")
    row1 = b.addi(row0, c2, "row1")
    col0 = b.addi(b.muli(tn, c8), wc, "col0")
    col1 = b.addi(col0, c4, "col1")
    o = [b.truncf(a, out_t) for a in acc]
    b.store(o[0], C, [row0, col0])
    b.store(o[1], C, [row0, col1])
    b.store(o[2], C, [row1, col0])
    b.store(o[3], C, [row1, col1])
    b.ret()
    return m
