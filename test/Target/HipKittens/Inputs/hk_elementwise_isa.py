"""Inputs and float64 checks of translated row kernels (kernels/rmsnorm,
kernels/layernorm, kernels/rotary through hk-translate) on the ISA simulator
(test/Target/HipKittens/isa-translated-rows.test).

  make KERNEL DIR SHAPE...    the kernel's inputs as .npy (bf16 bit
                              patterns of seeded values), zero outputs
  check KERNEL DIR ROUNDING SHAPE...
                              compares DIR/<output>.npy with the float64
                              result; ROUNDING is nearest or truncate

rmsnorm M:     y = x / sqrt(mean_d x^2 + eps) * w              (eps 1e-6)
layernorm M:   r = x + residual, y = (r - mean) / sqrt(var + eps) * w + b
               (biased var, eps 1e-5); res_out = r, y
rotary B H N:  out[.., d] = x1 cos - x2 sin, out[.., d + 64] = x2 cos + x1 sin

Every output is f32 math rounded to bf16: per element |got - ref| <=
r |ref| + a, r = 2^-8 for rounding to nearest and 2^-7 for truncation (half
an ulp and under an ulp of bf16), a = 2^-12 (the f32 arithmetic and, for
the norms, the rounding of inputs and rsqrt, far below r for values of the
size these inputs give). Weights, biases, cos and sin are bf16 inputs,
exact in float64.
"""
import sys

import numpy as np

from bf16 import bits, value




def inputs(kernel, shape):
    rng = np.random.default_rng(11)
    bf = lambda s, lo=-2, hi=2: value(bits(rng.uniform(lo, hi, size=s)))
    if kernel == "rmsnorm":
        (m,) = shape
        return {"x": bf((m, 128)), "w": bf((128,), 0.5, 1.5)}
    if kernel == "layernorm":
        (m,) = shape
        return {"x": bf((m, 128)), "residual": bf((m, 128)),
                "w": bf((128,), 0.5, 1.5), "b": bf((128,), -0.5, 0.5)}
    b, h, n = shape
    ang = rng.uniform(0, 2 * np.pi, size=(n, 64))
    return {"x": bf((b, h, n, 128)), "cos": value(bits(np.cos(ang))),
            "sin": value(bits(np.sin(ang)))}


def reference(kernel, v):
    if kernel == "rmsnorm":
        x = v["x"]
        return {"y": x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6)
                * v["w"]}
    if kernel == "layernorm":
        r = v["x"] + v["residual"]
        mean = r.mean(axis=1, keepdims=True)
        var = ((r - mean) ** 2).mean(axis=1, keepdims=True)
        return {"res_out": r,
                "y": (r - mean) / np.sqrt(var + 1e-5) * v["w"] + v["b"]}
    x, c, s = v["x"], v["cos"], v["sin"]
    x1, x2 = x[..., :64], x[..., 64:]
    return {"out": np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)}


def main():
    mode, kernel, out = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "make":
        shape = tuple(map(int, sys.argv[4:]))
        v = inputs(kernel, shape)
        for name, a in v.items():
            np.save(f"{out}/{name}.npy", bits(a))
        for name, a in reference(kernel, v).items():
            np.save(f"{out}/{name}.npy", np.zeros(a.shape, np.uint16))
        return
    rounding = sys.argv[4]
    shape = tuple(map(int, sys.argv[5:]))
    r = {"nearest": 2.0**-8, "truncate": 2.0**-7}[rounding]
    ok = True
    for name, ref in reference(kernel, inputs(kernel, shape)).items():
        got = value(np.load(f"{out}/{name}-out.npy")).reshape(ref.shape)
        err = np.abs(got - ref)
        bad = int((err > r * np.abs(ref) + 2.0**-12).sum())
        print(f"{name} {'x'.join(map(str, ref.shape))}: max |got - ref| "
              f"{err.max():.3g}; {bad} beyond the bound for {rounding}")
        ok = ok and bad == 0
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
