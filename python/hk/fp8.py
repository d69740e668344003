"""The chip's 8-bit floats (!hk.fp8, !hk.bf8) as NumPy sees them: uint8
arrays of bit patterns in the format of the chip that runs the kernel.

gfx942 takes AMD's FNUZ formats (E4M3 with bias 8, E5M2 with bias 16; 0x80
is the one NaN, there is no -0 and no infinity), gfx950 the OCP ones (E4M3
with bias 7, NaN S.1111.111 and no infinity; E5M2, IEEE-like with
infinities). ``from_float`` rounds to nearest, ties to even, and saturates
finite values and infinities past the largest to the largest of their sign,
as the kernels' saturating ``arith.truncf`` does; NaN stays NaN.
``to_float`` decodes exactly to float32.

    a = hk.fp8.from_float(x, chip="gfx942")            # E4M3 bits (FNUZ)
    b = hk.fp8.from_float(y, chip=hk.device().chip, kind="bf8")
"""

import functools

import numpy as np

from . import _capi

# A kernel whose argument is resolved to the chip's E4M3 type: the chip table
# (ChipInfo::fp8, through the compiler's hk-resolve-fp8) says which format a
# chip takes.
_PROBE = (b"hk.kernel @probe(%x: memref<?x!hk.fp8>) attributes "
          b"{waves = 1 : i32, grid = #hk.grid<[] -> (1)>} { hk.return }")

# (exponent bits, mantissa bits) of each kind.
_KINDS = {"fp8": (4, 3), "bf8": (5, 2)}


@functools.lru_cache(maxsize=None)
def format_of(chip):
    """'fnuz' or 'ocp': the 8-bit float formats `chip` takes, as the
    compiler resolves !hk.fp8 for it."""
    from . import compiler
    from .errors import Error
    try:
        lane_ir = compiler._run_compiler(
            _PROBE, "<hk.fp8 probe>",
            {"chips": [chip], "opt_level": 0, "code_object_version": 5},
            output=_capi.HKC_OUTPUT_LANE_IR).decode()
    except Error as e:
        raise ValueError(f"no 8-bit float formats for chip {chip!r}: "
                         f"{e}") from None
    if "f8E4M3FNUZ" in lane_ir:
        return "fnuz"
    if "f8E4M3FN" in lane_ir:
        return "ocp"
    raise ValueError(f"chip {chip!r} resolves !hk.fp8 to no known format")


def _decode_code(code, kind, fmt):
    exp_bits, man_bits = _KINDS[kind]
    sign = -1.0 if code & 0x80 else 1.0
    e = (code >> man_bits) & ((1 << exp_bits) - 1)
    m = code & ((1 << man_bits) - 1)
    top = (1 << exp_bits) - 1
    if fmt == "fnuz":
        if code == 0x80:
            return np.nan
        bias = 1 << (exp_bits - 1)
    else:
        bias = (1 << (exp_bits - 1)) - 1
        if kind == "fp8" and e == top and m == (1 << man_bits) - 1:
            return np.nan
        if kind == "bf8" and e == top:
            return sign * np.inf if m == 0 else np.nan
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - man_bits)
    return sign * (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)


@functools.lru_cache(maxsize=None)
def _table(kind, fmt):
    """The float64 value of each of the 256 codes."""
    return np.array([_decode_code(c, kind, fmt) for c in range(256)])


def _check_kind(kind):
    if kind not in _KINDS:
        raise ValueError(f"kind is 'fp8' (E4M3) or 'bf8' (E5M2), got {kind!r}")


def to_float(bits, chip, kind="fp8"):
    """float32 values of `chip`'s `kind` bit patterns (a uint8 array)."""
    _check_kind(kind)
    b = np.ascontiguousarray(bits)
    if b.dtype != np.uint8:
        raise TypeError(f"8-bit float bit patterns are uint8, got {b.dtype}")
    return _table(kind, format_of(chip))[b].astype(np.float32)


def from_float(values, chip, kind="fp8"):
    """`chip`'s `kind` bit patterns (uint8) of `values`: round to nearest
    even, saturate past the largest finite value, NaN to NaN."""
    _check_kind(kind)
    fmt = format_of(chip)
    table = _table(kind, fmt)
    x = np.asarray(values, dtype=np.float64)
    # The non-negative finite codes 0..top, in increasing order of value.
    finite = np.isfinite(table[:128])
    top = int(np.nonzero(finite)[0][-1])
    grid = table[:top + 1]
    mag = np.minimum(np.abs(np.nan_to_num(x, nan=0.0)), grid[-1])
    hi = np.clip(np.searchsorted(grid, mag, side="left"), 0, top)
    lo = np.maximum(hi - 1, 0)
    d_lo, d_hi = mag - grid[lo], grid[hi] - mag
    # Nearest; a tie goes to the even code (an even last mantissa bit).
    code = np.where((d_lo < d_hi) | ((d_lo == d_hi) & (lo % 2 == 0)), lo, hi)
    code = code.astype(np.uint8)
    negative = np.signbit(x) & (code != 0 if fmt == "fnuz" else True)
    code = np.where(negative, code | 0x80, code).astype(np.uint8)
    nan_code = 0x80 if fmt == "fnuz" else (0x7F if kind == "fp8" else 0x7E)
    return np.where(np.isnan(x), np.uint8(nan_code), code).astype(np.uint8)
