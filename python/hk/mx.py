"""OCP microscaling (MX) data on the host: float arrays quantized to element
codes with one e8m0 scale per block of 32 consecutive elements along the
last axis (OCP Microscaling Formats (MX) v1.0), and decoded back exactly.

    codes, scales = hk.mx.quantize(x, "fp8")   # x: (..., K), K % 32 == 0
    y = hk.mx.dequantize(codes, scales, "fp8")  # float64, y ~ x

Element formats: "fp8" (E4M3, max 448), "bf8" (E5M2, max 57344), "fp6"
(E2M3, max 7.5), "bf6" (E3M2, max 28) and "fp4" (E2M1, max 6): the OCP
formats of MLIR's f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN and f4E2M1FN, which
hk.mma_scaled takes. Codes are uint8 arrays, one element per byte; ``pack_fp4``
puts two E2M1 codes in a byte, the first in the low nibble, and ``pack_fp6``
four 6-bit codes in three bytes (element j of a row at bits 6j to 6j + 5 of
the row's bytes read as one little-endian number), as hk.load reads E2M1,
E2M3 and E3M2 data from bytes in memory. Scales are uint8 e8m0 codes (the
value is 2^(code - 127), 255 is NaN).

The scale of a block is 2^(floor(log2(amax)) - emax), amax the block's
largest magnitude and emax the exponent of the format's largest normal
value (the MX specification's rule), and 1 for a block of zeros; elements
are rounded to nearest, ties to even, and saturated to the format's largest
finite value (the specification leaves overflow to the implementation).
"""

import functools

import numpy as np

BLOCK = 32

# (exponent bits, mantissa bits, specials): "ieee" has infinities and NaNs
# at the top exponent (E5M2), "nan" one NaN code per sign at the top code
# (E4M3, S.1111.111), "none" no specials (the 6- and 4-bit formats).
_FORMATS = {
    "fp8": (4, 3, "nan"),
    "bf8": (5, 2, "ieee"),
    "fp6": (2, 3, "none"),
    "bf6": (3, 2, "none"),
    "fp4": (2, 1, "none"),
}


def formats():
    """The element formats' names."""
    return sorted(_FORMATS)


@functools.lru_cache(maxsize=None)
def _table(fmt):
    """Value of every code of `fmt` (float64; NaN and inf where defined)."""
    if fmt not in _FORMATS:
        raise ValueError(f"unknown MX element format {fmt!r}; "
                         f"one of {', '.join(formats())}")
    ebits, mbits, specials = _FORMATS[fmt]
    bias = (1 << (ebits - 1)) - 1
    codes = np.arange(1 << (1 + ebits + mbits))
    sign = np.where(codes >> (ebits + mbits) & 1, -1.0, 1.0)
    exp = (codes >> mbits) & ((1 << ebits) - 1)
    man = codes & ((1 << mbits) - 1)
    frac = man / (1 << mbits)
    values = np.where(exp == 0, frac * 2.0**(1 - bias),
                      (1 + frac) * 2.0**(exp - bias)) * sign
    top = exp == (1 << ebits) - 1
    if specials == "ieee":
        values = np.where(top & (man == 0), sign * np.inf, values)
        values = np.where(top & (man != 0), np.nan, values)
    elif specials == "nan":
        values = np.where(top & (man == (1 << mbits) - 1), np.nan, values)
    values.setflags(write=False)
    return values


def largest(fmt):
    """The largest finite value of `fmt`."""
    values = _table(fmt)
    return float(np.max(values[np.isfinite(values)]))


def _emax(fmt):
    """Exponent of the largest normal value of `fmt`."""
    return int(np.floor(np.log2(largest(fmt))))


def encode(x, fmt):
    """Codes of `fmt` nearest to `x` (ties to the even code), saturated to
    the largest finite magnitude; NaN to the format's positive NaN of the
    largest code (an error for formats without NaN)."""
    x = np.asarray(x, dtype=np.float64)
    values = _table(fmt)
    half = len(values) // 2
    # Non-negative finite values, ascending, and their codes.
    mags = values[:half]
    order = np.flatnonzero(np.isfinite(mags))
    mags = mags[order]
    a = np.minimum(np.abs(x), mags[-1])
    nan = np.isnan(x)
    a = np.where(nan, 0.0, a)
    hi = np.clip(np.searchsorted(mags, a), 1, len(mags) - 1)
    lo = hi - 1
    dlo, dhi = a - mags[lo], mags[hi] - a
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (order[hi] % 2 == 0))
    code = np.where(pick_hi, order[hi], order[lo])
    code = code + np.where(np.signbit(x), half, 0)
    if nan.any():
        nans = np.flatnonzero(np.isnan(values))
        if len(nans) == 0:
            raise ValueError(f"NaN input: {fmt} has no NaN")
        code = np.where(nan, nans[nans < half][-1], code)
    return code.astype(np.uint8)


def decode(codes, fmt):
    """Values (float64) of the codes of `fmt`."""
    return _table(fmt)[np.asarray(codes, dtype=np.int64)]


def scale_values(scales):
    """Values of e8m0 scale codes: 2^(code - 127), NaN for 255."""
    s = np.asarray(scales, dtype=np.int64)
    return np.where(s == 255, np.nan, np.ldexp(1.0, s - 127))


def quantize(x, fmt):
    """(codes, scales): `x` (..., K) with K a multiple of 32 as element codes
    of `fmt` (..., K) and e8m0 scale codes (..., K / 32), both uint8."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0 or x.shape[-1] % BLOCK:
        raise ValueError(f"the last axis must be a multiple of {BLOCK} "
                         f"(one scale per {BLOCK} elements), got shape "
                         f"{x.shape}")
    blocks = x.reshape(x.shape[:-1] + (x.shape[-1] // BLOCK, BLOCK))
    amax = np.max(np.abs(blocks), axis=-1)
    with np.errstate(divide="ignore"):
        e = np.floor(np.log2(np.where(amax > 0, amax, 1.0))) - _emax(fmt)
    e = np.where(amax > 0, np.clip(e, -127, 127), 0).astype(np.int64)
    codes = encode(blocks / np.ldexp(1.0, e)[..., None], fmt)
    return codes.reshape(x.shape), (e + 127).astype(np.uint8)


def dequantize(codes, scales, fmt):
    """The float64 values of MX data: element values times their block's
    scale."""
    values = decode(codes, fmt)
    s = np.repeat(scale_values(scales), BLOCK, axis=-1)
    if s.shape != values.shape:
        raise ValueError(f"scales of shape {np.shape(scales)} do not cover "
                         f"codes of shape {values.shape}")
    return values * s


def pack_fp4(codes):
    """Two E2M1 codes per byte along the last axis (even length): element
    2j in the low nibble of byte j, 2j + 1 in the high one."""
    c = np.asarray(codes, dtype=np.uint8)
    if c.shape[-1] % 2 or np.any(c > 15):
        raise ValueError("pack_fp4 takes 4-bit codes, an even number along "
                         "the last axis")
    return (c[..., 0::2] | (c[..., 1::2] << 4)).astype(np.uint8)


def unpack_fp4(packed):
    """The E2M1 codes of pack_fp4's bytes."""
    p = np.asarray(packed, dtype=np.uint8)
    out = np.empty(p.shape[:-1] + (2 * p.shape[-1],), dtype=np.uint8)
    out[..., 0::2] = p & 0xF
    out[..., 1::2] = p >> 4
    return out


def pack_fp6(codes):
    """Four 6-bit codes (E2M3 or E3M2) in three bytes along the last axis (a
    multiple of 4): codes c0..c3 make the 24-bit little-endian number c0 |
    c1 << 6 | c2 << 12 | c3 << 18, whose bytes follow each other. A row of
    K codes is thus 3K/4 bytes with element j at bits 6j to 6j + 5, the
    packing of the scaled MFMA's 6-bit operands in its registers."""
    c = np.asarray(codes, dtype=np.uint32)
    if c.shape[-1] % 4 or np.any(c > 63):
        raise ValueError("pack_fp6 takes 6-bit codes, a multiple of 4 along "
                         "the last axis")
    g = c.reshape(c.shape[:-1] + (c.shape[-1] // 4, 4))
    word = g[..., 0] | g[..., 1] << 6 | g[..., 2] << 12 | g[..., 3] << 18
    out = np.stack([word & 0xFF, word >> 8 & 0xFF, word >> 16], axis=-1)
    return out.reshape(c.shape[:-1] + (3 * c.shape[-1] // 4,)).astype(
        np.uint8)


def unpack_fp6(packed):
    """The 6-bit codes of pack_fp6's bytes."""
    p = np.asarray(packed, dtype=np.uint32)
    if p.shape[-1] % 3:
        raise ValueError("unpack_fp6 takes a multiple of 3 bytes along the "
                         "last axis")
    g = p.reshape(p.shape[:-1] + (p.shape[-1] // 3, 3))
    word = g[..., 0] | g[..., 1] << 8 | g[..., 2] << 16
    out = np.stack([word >> (6 * j) & 63 for j in range(4)], axis=-1)
    return out.reshape(p.shape[:-1] + (4 * p.shape[-1] // 3,)).astype(
        np.uint8)
