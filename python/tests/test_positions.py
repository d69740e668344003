"""The position ops and sin / cos through the hk.ir builder (iota, row_scan,
col_scan, row_arg, col_arg, sin, cos): the text they print verifies, and a
kernel built with them runs on the ISA simulator from each chip's code
object, in three layouts, checked against NumPy where the ops' documented rules matter: NaNs
ignored by max and min (an exclusive max over NaNs only is -inf), ties and
all-NaN rows going to the lowest index, i32 scans, and positions."""

import numpy as np
import pytest

import hk
from hk import ir
from hk.ir import f32, i32, index

R, C = 32, 64


LAYOUTS = [("col", (16, 16)), ("row", (16, 32)), ("row", (32, 16))]


def build(layout=LAYOUTS[0]):
    m = ir.Module()
    io = ir.memref([None, None], f32)
    io3 = ir.memref([None, None, None], f32)
    iv = ir.memref([None, None], i32)
    k = m.kernel("positions", [("x", io), ("o", io3), ("p", ir.memref(
        [None, None, None], i32)), ("v", io), ("j", iv)],
        grid=ir.grid([], "1"))
    x, o, p, v, j = k.args
    b = k.builder
    t = ir.rt([R, C], f32, layout[0], layout[1])
    ti = t.with_element(i32)
    c = [b.constant(n, index) for n in range(4)]
    xt = b.load(x, [c[0], c[0]], t)
    outs = [b.row_scan("sum", "inclusive", xt),
            b.row_scan("max", "exclusive", xt),
            b.col_scan("min", "inclusive", xt),
            b.sin(xt)]
    init = b.row_reduce("sum", xt, type=ir.rv(t, "row"))
    outs.append(b.row_scan("sum", "exclusive", xt, init=init))
    c += [b.constant(4, index), b.constant(5, index)]
    for n, value in enumerate(outs):
        b.store(value, o, [c[n], c[0], c[0]])
    cols = b.iota(ti, axis="col")
    b.store(cols, p, [c[0], c[0], c[0]])
    cumi = b.row_scan("sum", "inclusive", cols)
    b.store(cumi, p, [c[1], c[0], c[0]])
    b.store(b.iota(t, axis="row"), o, [c[5], c[0], c[0]])
    rv, rj = b.row_arg("max", xt)
    cv, cj = b.col_arg("min", xt)
    b.store(rv, v, [c[0], c[0]])
    b.store(rj, j, [c[0], c[0]])
    b.store(cv, v, [c[1], c[0]])
    b.store(cj, j, [c[1], c[0]])
    b.store(b.iota(ir.rv(ti, "row")), j, [c[2], c[0]])
    b.ret()
    return m


def test_builder_prints_the_ops():
    text = str(build().verify())
    for op in ("hk.iota col", "hk.iota row", "hk.row_scan sum inclusive",
               "hk.row_scan max exclusive", "hk.col_scan min inclusive",
               "hk.row_arg max", "hk.col_arg min", "math.sin",
               "hk.iota : tensor<32xi32"):
        assert op in text, op


def arg_reference(a, largest):
    """Per row: the largest (smallest) number and its lowest index; NaNs
    ignored, a row of NaNs only is NaN at index 0."""
    values, indices = [], []
    for row in a:
        numbers = np.where(np.isnan(row), -np.inf if largest else np.inf, row)
        i = int(np.argmax(numbers) if largest else np.argmin(numbers))
        if np.isnan(row).all():
            values.append(np.nan), indices.append(0)
        else:
            values.append(row[i]), indices.append(i)
    return np.array(values, np.float32), np.array(indices, np.int32)


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda l: f"{l[0]}{l[1]}")
def test_positions_on_the_simulator(simulator, rng, layout):
    mod = build(layout).compile(chips=[simulator.chip], cache=False)
    x = rng.integers(-6, 7, size=(R, C)).astype(np.float32)  # many ties
    x[0, 3] = np.nan
    x[1, :] = np.nan            # a row of NaNs only
    x[2, :] = 5.0               # a row of one value: index 0 wins
    x[5:9, 7] = np.nan
    o = np.zeros((6, R, C), np.float32)
    p = np.zeros((2, R, C), np.int32)
    v = np.zeros((2, C), np.float32)
    j = np.zeros((3, C), np.int32)
    mod.positions(x, o, p, v, j)

    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(o[0], np.cumsum(x, axis=1))
        no_nan_max = np.where(np.isnan(x), -np.inf, x)
        excl = np.full((R, C), -np.inf, np.float32)
        excl[:, 1:] = np.maximum.accumulate(no_nan_max, axis=1)[:, :-1]
        np.testing.assert_array_equal(o[1], excl)
        no_nan_min = np.where(np.isnan(x), np.inf, x)
        np.testing.assert_array_equal(
            o[2], np.minimum.accumulate(no_nan_min, axis=0))
        exclusive_sum = np.zeros((R, C), np.float32)
        exclusive_sum[:, 1:] = np.cumsum(x, axis=1)[:, :-1]
        np.testing.assert_array_equal(
            o[4], x.sum(axis=1)[:, None] + exclusive_sum)
        # Trig.cpp's bound: 2^-21 + 2^-45 |x|.
        assert np.nanmax(np.abs(o[3] - np.sin(x.astype(np.float64)))) <= \
            2.0 ** -21
    np.testing.assert_array_equal(p[0], np.tile(np.arange(C), (R, 1)))
    np.testing.assert_array_equal(p[1], np.tile(np.cumsum(np.arange(C)), (R, 1)))
    np.testing.assert_array_equal(o[5], np.tile(np.arange(R)[:, None], C))
    rows_v, rows_i = arg_reference(x, largest=True)
    np.testing.assert_array_equal(v[0, :R], rows_v)
    np.testing.assert_array_equal(j[0, :R], rows_i)
    assert j[0, 2] == 0
    cols_v, cols_i = arg_reference(x.T, largest=False)
    np.testing.assert_array_equal(v[1], cols_v)
    np.testing.assert_array_equal(j[1], cols_i)
    np.testing.assert_array_equal(j[2, :R], np.arange(R))

