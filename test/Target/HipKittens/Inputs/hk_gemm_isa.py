"""Inputs and the float64 check of HipKittens' bf16 GEMM (mi350x) on the ISA
simulator (test/Target/HipKittens/isa-gemm.test).

  make DIR M N K   a.npy (1,1,M,K), b.npy (1,1,N,K), c.npy (1,1,M,N) zeros,
                   as uint16 bf16 bit patterns, seeded
  check DIR M N K [truncate|nearest]
                   compares DIR/out.npy with C = A B^T computed in float64,
                   rounded to bf16 as the kernel converts (default truncate)

The inputs are multiples of 1/16 in [-1, 1): every product is a multiple of
1/256 and every partial sum over K <= 256 fits float32's 24-bit significand,
so the float32 accumulation is exact and C's only rounding is the kernel's
conversion to bf16. HipKittens' own kernels convert float to bf16 by
truncation (include/common/base_types.cuh, convertor<bf16, float>: the top 16
bits); the translated kernels round to nearest even. Each output must equal
the float64 value so rounded, bit for bit.
"""
import sys

import numpy as np


def to_bf16_bits(x, rounding):
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    if rounding == "truncate":
        return (bits >> 16).astype(np.uint16)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def inputs(m, n, k):
    rng = np.random.default_rng(12)
    a = rng.integers(-16, 16, size=(m, k)) / 16.0
    b = rng.integers(-16, 16, size=(n, k)) / 16.0
    return a, b


def main():
    mode, out, m, n, k = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    a, b = inputs(m, n, k)
    if mode == "make":
        np.save(f"{out}/a.npy", to_bf16_bits(a, "nearest").reshape(1, 1, m, k))
        np.save(f"{out}/b.npy", to_bf16_bits(b, "nearest").reshape(1, 1, n, k))
        np.save(f"{out}/c.npy", np.zeros((1, 1, m, n), np.uint16))
        return
    ref = a @ b.T  # float64
    got_bits = np.load(f"{out}/out.npy").reshape(m, n)
    got = (got_bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    rounding = sys.argv[6] if len(sys.argv) > 6 else "truncate"
    want = to_bf16_bits(ref, rounding)
    mismatches = int((got_bits != want).sum())
    # |C - trunc(C)| < one bf16 ulp of |C| (8 significant bits).
    ulp = np.exp2(np.floor(np.log2(np.maximum(np.abs(ref), 2.0**-100))) - 7)
    over = int((np.abs(got - ref) >= ulp).sum())
    print(f"C {m}x{n}: max |C - C64| {np.abs(got - ref).max():.4g} "
          f"(max |C64| {np.abs(ref).max():.4g}); {over} beyond one bf16 ulp; "
          f"{mismatches} differ from bf16(C64) rounded by {rounding}")
    ok = mismatches == 0 and over == 0
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


main()
