"""hk.mx: OCP MX quantization on the host, checked against the formats'
definitions (OCP MX v1.0, OCP 8-bit floating point), and hk.mma_scaled on
the ISA simulator against float64 on data it quantized (gfx950; gfx942 has
no scaled MFMAs and refuses the kernel at the op)."""

import os

import numpy as np
import pytest

import hk
import hk.mx

MMA_SCALED = os.path.join(os.path.dirname(__file__), "Inputs",
                          "mma_scaled.mlir")

# Largest finite value and smallest subnormal of each element format.
FORMATS = {
    "fp8": (448.0, 2.0**-9),
    "bf8": (57344.0, 2.0**-16),
    "fp6": (7.5, 2.0**-3),
    "bf6": (28.0, 2.0**-4),
    "fp4": (6.0, 0.5),
}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_format_constants(fmt):
    big, tiny = FORMATS[fmt]
    assert hk.mx.largest(fmt) == big
    assert hk.mx.decode([1], fmt)[0] == tiny
    # Every finite code decodes and encodes back to itself (-0 to -0).
    codes = np.arange(len(hk.mx._table(fmt)), dtype=np.uint8)
    values = hk.mx.decode(codes, fmt)
    finite = np.isfinite(values)
    assert (hk.mx.encode(values[finite], fmt) == codes[finite]).all()


def test_fp4_values():
    assert hk.mx.decode(np.arange(8), "fp4").tolist() == [
        0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert hk.mx.decode(np.arange(8, 16), "fp4").tolist() == [
        -0.0, -0.5, -1, -1.5, -2, -3, -4, -6]


def test_rounding_ties_to_even_and_saturation():
    # E2M1: 2.5 lies between 2 (code 4) and 3 (code 5): to 2; 5 between 4
    # and 6: to 4 (code 6); 1.25: to 1 (code 2); past 6: 6.
    assert hk.mx.encode([2.5, 5.0, 1.25, 7.0, -100.0], "fp4").tolist() == [
        4, 6, 2, 7, 15]
    assert hk.mx.encode([np.nan], "fp8")[0] == 0x7F
    with pytest.raises(ValueError, match="fp4 has no NaN"):
        hk.mx.encode([np.nan], "fp4")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_quantize_scales_and_error(fmt, rng):
    x = rng.standard_normal((6, 128)) * np.exp2(rng.integers(-20, 20, (6, 1)))
    x[2, 32:64] = 0.0  # a block of zeros gets the scale 1
    codes, scales = hk.mx.quantize(x, fmt)
    assert codes.shape == x.shape and scales.shape == (6, 4)
    blocks = np.abs(x).reshape(6, 4, 32).max(axis=-1)
    emax = np.floor(np.log2(hk.mx.largest(fmt)))
    want = np.where(blocks > 0, np.floor(np.log2(np.where(blocks > 0, blocks,
                                                          1))) - emax, 0)
    assert (scales.astype(int) - 127 == want).all()
    assert scales[2, 1] == 127
    y = hk.mx.dequantize(codes, scales, fmt)
    # Within half a unit in the last place of the element's binade (the
    # smallest normal's, for subnormals), or saturated to the largest value.
    s = np.repeat(hk.mx.scale_values(scales), 32, axis=-1)
    mbits = {"fp8": 3, "bf8": 2, "fp6": 3, "bf6": 2, "fp4": 1}[fmt]
    tiny_normal = FORMATS[fmt][1] * 2**mbits
    binade = np.exp2(np.floor(np.log2(np.maximum(np.abs(x) / s,
                                                  tiny_normal))))
    saturated = np.abs(y) == hk.mx.largest(fmt) * s
    err = np.abs(y - x) / s
    assert ((err <= binade * 2.0**-(mbits + 1)) | saturated).all()


def test_quantize_needs_whole_blocks():
    with pytest.raises(ValueError, match="multiple of 32"):
        hk.mx.quantize(np.ones((2, 48)), "fp8")


def test_pack_fp4():
    codes = np.array([[1, 2, 3, 15]], dtype=np.uint8)
    packed = hk.mx.pack_fp4(codes)
    assert packed.tolist() == [[0x21, 0xF3]]
    assert (hk.mx.unpack_fp4(packed) == codes).all()


def test_mma_scaled_on_the_simulator(rng):
    hk.set_device("isa", chip="gfx950")
    try:
        mod = hk.compile(MMA_SCALED, chips=["gfx950"])
        x = rng.standard_normal((32, 256)) * np.exp2(
            rng.integers(-8, 8, (32, 8))).repeat(32, axis=1)
        w = rng.standard_normal((16, 256)) * np.exp2(
            rng.integers(-8, 8, (16, 8))).repeat(32, axis=1)
        a, sa = hk.mx.quantize(x, "fp8")
        b, sb = hk.mx.quantize(w, "bf8")
        c = np.full((32, 16), np.nan, np.float32)
        mod.mma_scaled(a, sa.view(np.int8), b, sb.view(np.int8), c)
    finally:
        hk.set_device("isa")
    xa = hk.mx.dequantize(a, sa, "fp8")
    wb = hk.mx.dequantize(b, sb, "bf8")
    ref = xa @ wb.T
    # Exact products, summed in f32: 256 roundings of at most 2^-24 of the
    # running sum, bounded by the sum of magnitudes.
    bound = 256 * 2.0**-24 * (np.abs(xa) @ np.abs(wb).T)
    assert (np.abs(c - ref) <= bound).all()
    # The scales matter: without them the product is far off.
    unscaled = hk.mx.decode(a, "fp8") @ hk.mx.decode(b, "bf8").T
    assert np.abs(unscaled - ref).max() > 1e3 * bound.max()


def test_mma_scaled_refused_on_gfx942():
    with pytest.raises(hk.CompileError) as info:
        hk.compile(MMA_SCALED, chips=["gfx942"], cache=False)
    assert "needs the scaled f8f6f4 MFMAs (OCP MX), which gfx942 does not " \
           "have" in str(info.value)
    assert info.value.locations()[0][:2] == (MMA_SCALED, 21)


MMA_SCALED_BYTES = os.path.join(os.path.dirname(__file__), "Inputs",
                                "mma_scaled_bytes.mlir")


def test_mx_bytes_on_the_simulator(rng):
    """MX operands and scales passed as bytes (i8), read by hk.load as
    E2M1 (two per byte, low nibble first), E4M3 and e8m0 tiles."""
    hk.set_device("isa", chip="gfx950")
    try:
        mod = hk.compile(MMA_SCALED_BYTES, chips=["gfx950"])
        x = rng.standard_normal((32, 256)) * np.exp2(
            rng.integers(-8, 8, (32, 8))).repeat(32, axis=1)
        w = rng.standard_normal((16, 256)) * np.exp2(
            rng.integers(-8, 8, (16, 8))).repeat(32, axis=1)
        a, sa = hk.mx.quantize(x, "fp4")
        b, sb = hk.mx.quantize(w, "fp8")
        c = np.full((32, 16), np.nan, np.float32)
        mod.mma_scaled_bytes(hk.mx.pack_fp4(a).view(np.int8), sa.view(np.int8),
                             b.view(np.int8), sb.view(np.int8), c)
    finally:
        hk.set_device("isa")
    xa = hk.mx.dequantize(a, sa, "fp4")
    wb = hk.mx.dequantize(b, sb, "fp8")
    ref = xa @ wb.T
    bound = 256 * 2.0**-24 * (np.abs(xa) @ np.abs(wb).T)
    assert (np.abs(c - ref) <= bound).all()
    # Reading the nibbles the other way round (high first) would be far off.
    swapped = (a.reshape(32, 128, 2)[:, :, ::-1]).reshape(32, 256)
    wrong = hk.mx.dequantize(swapped, sa, "fp4") @ wb.T
    assert np.abs(wrong - ref).max() > 1e3 * bound.max()


MMA_SCALED_32X32 = os.path.join(os.path.dirname(__file__), "Inputs",
                                "mma_scaled_32x32.mlir")


def _mx_operand(rng, rows, k):
    """Normal data with a different power-of-two magnitude per block of 32."""
    return rng.standard_normal((rows, k)) * np.exp2(
        rng.integers(-8, 8, (rows, k // 32))).repeat(32, axis=1)


def test_mma_scaled_32x32x64_on_the_simulator(rng):
    """The 32x32x64 form (v_mfma_scale_f32_32x32x64_f8f6f4): E4M3 x E2M1
    from bytes, 2x1 accumulator tiles and 2 K steps."""
    hk.set_device("isa", chip="gfx950")
    try:
        mod = hk.compile(MMA_SCALED_32X32, chips=["gfx950"])
        a, sa = hk.mx.quantize(_mx_operand(rng, 64, 128), "fp8")
        b, sb = hk.mx.quantize(_mx_operand(rng, 32, 128), "fp4")
        c = np.full((64, 32), np.nan, np.float32)
        mod.mma_scaled_32x32(a.view(np.int8), sa.view(np.int8),
                             hk.mx.pack_fp4(b).view(np.int8), sb.view(np.int8),
                             c)
    finally:
        hk.set_device("isa")
    xa = hk.mx.dequantize(a, sa, "fp8")
    wb = hk.mx.dequantize(b, sb, "fp4")
    ref = xa @ wb.T
    bound = 128 * 2.0**-24 * (np.abs(xa) @ np.abs(wb).T)
    assert (np.abs(c - ref) <= bound).all()
    # Scales applied to the wrong rows (A's rows 0-31 with 32-63's) fail.
    wrong = hk.mx.dequantize(a, np.roll(sa, 32, axis=0), "fp8") @ wb.T
    assert np.abs(wrong - ref).max() > 1e3 * bound.max()


def test_pack_fp6():
    # 1 | 2 << 6 | 3 << 12 | 63 << 18 = 0xFC3081, little-endian bytes.
    codes = np.array([[1, 2, 3, 63, 0, 0, 0, 1]], dtype=np.uint8)
    packed = hk.mx.pack_fp6(codes)
    assert packed.tolist() == [[0x81, 0x30, 0xFC, 0x00, 0x00, 0x04]]
    assert (hk.mx.unpack_fp6(packed) == codes).all()
    with pytest.raises(ValueError, match="multiple of 4"):
        hk.mx.pack_fp6(np.zeros((1, 6), np.uint8))


def _run_mx(path, name, a, sa, b, sb, m, n):
    """Runs the one-wave MX kernel `name` of `path` on the ISA simulator of
    gfx950 with operands and scales given as bytes; returns C (m x n)."""
    hk.set_device("isa", chip="gfx950")
    try:
        mod = hk.compile(path, chips=["gfx950"])
        c = np.full((m, n), np.nan, np.float32)
        getattr(mod, name)(a.view(np.int8), sa.view(np.int8), b.view(np.int8),
                           sb.view(np.int8), c)
    finally:
        hk.set_device("isa")
    return c


MMA_SCALED_F6 = os.path.join(os.path.dirname(__file__), "Inputs",
                             "mma_scaled_f6.mlir")


def test_mx_f6_bytes_on_the_simulator(rng):
    """E2M3 x E3M2 read from bytes, four elements in three bytes
    (pack_fp6), in the 16x16x128 form."""
    a, sa = hk.mx.quantize(_mx_operand(rng, 32, 256), "fp6")
    b, sb = hk.mx.quantize(_mx_operand(rng, 16, 256), "bf6")
    c = _run_mx(MMA_SCALED_F6, "mma_scaled_f6", hk.mx.pack_fp6(a), sa,
                hk.mx.pack_fp6(b), sb, 32, 16)
    xa = hk.mx.dequantize(a, sa, "fp6")
    wb = hk.mx.dequantize(b, sb, "bf6")
    ref = xa @ wb.T
    bound = 256 * 2.0**-24 * (np.abs(xa) @ np.abs(wb).T)
    assert (np.abs(c - ref) <= bound).all()
    # The four elements of three bytes taken in the other order (the first
    # in the top bits) would be far off.
    swapped = a.reshape(32, 64, 4)[:, :, ::-1].reshape(32, 256)
    wrong = hk.mx.dequantize(swapped, sa, "fp6") @ wb.T
    assert np.abs(wrong - ref).max() > 1e3 * bound.max()


MMA_SCALED_32X32_F6 = os.path.join(os.path.dirname(__file__), "Inputs",
                                   "mma_scaled_32x32_f6.mlir")


def test_mx_f6_e5m2_bytes_32x32x64_on_the_simulator(rng):
    """E3M2 x OCP E5M2, both read from bytes, in the 32x32x64 form."""
    a, sa = hk.mx.quantize(_mx_operand(rng, 64, 128), "bf6")
    b, sb = hk.mx.quantize(_mx_operand(rng, 32, 128), "bf8")
    c = _run_mx(MMA_SCALED_32X32_F6, "mma_scaled_32x32_f6", hk.mx.pack_fp6(a),
                sa, b, sb, 64, 32)
    xa = hk.mx.dequantize(a, sa, "bf6")
    wb = hk.mx.dequantize(b, sb, "bf8")
    ref = xa @ wb.T
    bound = 128 * 2.0**-24 * (np.abs(xa) @ np.abs(wb).T)
    assert (np.abs(c - ref) <= bound).all()
    # B's bytes decoded as E4M3 instead of E5M2 would be far off.
    wrong = xa @ hk.mx.dequantize(b, sb, "fp8").T
    assert np.nanmax(np.abs(wrong - ref)) > 1e3 * bound.max()


MX_GEMM_LOOP = os.path.join(os.path.dirname(__file__), "Inputs",
                            "mx_gemm_loop.mlir")


def test_mx_gemm_loop_ragged_on_the_simulator(rng):
    """A K loop of the 32x32x64 form over E3M2 x E5M2 bytes, a grid of
    waves, and M, N, K off the tile sizes (K = 5 blocks of 32: the last
    step reads half a tile past the rows' ends)."""
    M, N, K = 70, 45, 160
    a, sa = hk.mx.quantize(_mx_operand(rng, M, K), "bf6")
    b, sb = hk.mx.quantize(_mx_operand(rng, N, K), "bf8")
    hk.set_device("isa", chip="gfx950")
    try:
        mod = hk.compile(MX_GEMM_LOOP, chips=["gfx950"])
        c = np.full((M, N), np.nan, np.float32)
        mod.mx_gemm_loop(hk.mx.pack_fp6(a).view(np.int8), sa.view(np.int8),
                         b.view(np.int8), sb.view(np.int8), c)
    finally:
        hk.set_device("isa")
    xa = hk.mx.dequantize(a, sa, "bf6")
    wb = hk.mx.dequantize(b, sb, "bf8")
    ref = xa @ wb.T
    bound = K * 2.0**-24 * (np.abs(xa) @ np.abs(wb).T)
    assert (np.abs(c - ref) <= bound).all()
