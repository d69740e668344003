"""Inputs and the float64 check of the translated softmax
(kernels/softmax/softmax.mlir through hk-translate) on the ISA simulator
(test/Target/HipKittens/isa-translated-softmax.test).

  make DIR M N    x.npy [M, N] (bf16 bit patterns of seeded values in
                  [-4, 4)), y.npy zeros
  check DIR M N nearest|truncate
                  compares DIR/out.npy with y = softmax(x) along rows in
                  float64

Bound, per element: |y - y64| <= r |y64| + 2^-20, r = 2^-8 when the kernel
rounds its f32 result to bf16 to nearest (HipKittens main's
convertor<bf16_2, float2>, v_cvt_pk_bf16_f32: half an ulp, an ulp being
2^-7 relative) and 2^-7 when it truncates (HipKittens cdna3's convertor
keeps the top 16 bits: under one ulp); the f32 exp2 of the scaled input,
the row sum and the division add a few f32 ulps, far below.
"""
import sys

import numpy as np

from bf16 import bits, value




def main():
    mode, out, m, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(7)
    x = value(bits(rng.uniform(-4, 4, size=(m, n))))
    if mode == "make":
        np.save(f"{out}/x.npy", bits(x))
        np.save(f"{out}/y.npy", np.zeros((m, n), np.uint16))
        return
    e = np.exp(x - x.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    got = value(np.load(f"{out}/out.npy")).reshape(m, n)
    err = np.abs(got - ref)
    r = {"nearest": 2.0**-8, "truncate": 2.0**-7}[sys.argv[5]]
    bad = int((err > r * np.abs(ref) + 2.0**-20).sum())
    print(f"y {m}x{n}: max |y - y64| {err.max():.3g} (max y64 {ref.max():.3g}); "
          f"{bad} beyond the bound for {sys.argv[5]}")
    print("PASS" if bad == 0 else "FAIL")
    sys.exit(0 if bad == 0 else 1)


if __name__ == "__main__":
    main()
