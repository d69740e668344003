#!/usr/bin/env python3
"""Modelled TFLOP/s of attention_varlen against attention_fwd at the
same total work (docs/report.md, "Variable-length prefill").

Runs `hk-run <kernel> --shape S --chip C --device isa --timing` for each row
and divides the useful FLOPs, counted from the shape, by the modelled
microseconds: 4 D H per (query, visible key) pair, so causal and windowed
rows count only the unmasked work, and the ragged tiles' padding counts
nothing. (The report's own `flops` is the MFMA work the sampled workgroups
issued, masked halves of diagonal blocks included.) The varlen lengths are
Reference.cpp's `lens` modes 0 (all N) and 2 (the ramp round(2 N (b + 1) /
(B + 1))), both deterministic.

The timing model simulates six workgroups of a grid, evenly spaced along
it, and with one workgroup per compute unit the launch takes the slowest
of those six; the slowest of all P may be slower. For each varlen row the
last columns count the KV blocks (the work of a tile) of every workgroup
under the kernel's static zigzag schedule: the most any workgroup runs,
and the most a sampled one runs. Their ratio bounds how much faster the
model reads than a model that simulated every workgroup.

    python3 kernels/attention_varlen/figures.py --chip CHIP [--hk-run PATH]
        [--rows LABEL ...]
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# (label, kernel, shape): B = 16 sequences of 8192 tokens (or the ramp with
# the same total), H = 8 query heads over 2 KV heads, D = 128.
ROWS = [
    ("dense", "attention_fwd", [16, 8, 2, 8192, 128, 0]),
    ("varlen, balanced", "attention_varlen", [16, 8, 2, 8192, 8192, 128, 0, 0, 0, 0]),
    ("varlen, ramp", "attention_varlen", [16, 8, 2, 8192, 8192, 128, 0, 0, 0, 2]),
    ("dense causal", "attention_fwd", [16, 8, 2, 8192, 128, 1]),
    ("varlen causal, balanced", "attention_varlen", [16, 8, 2, 8192, 8192, 128, 1, 0, 0, 0]),
    ("varlen causal, ramp", "attention_varlen", [16, 8, 2, 8192, 8192, 128, 1, 0, 0, 2]),
    ("varlen causal, window 4095", "attention_varlen", [16, 8, 2, 8192, 8192, 128, 1, 1, 4095, 0]),
]


def lengths(mode, b, n):
    if mode == 0:
        return [n] * b
    return [(2 * n * (i + 1) + (b + 1) // 2) // (b + 1) for i in range(b)]


def visible(lq, lk, causal, window):
    """Sum over the queries of one sequence of the keys each sees."""
    total = 0
    for i in range(lq):
        p = i + lk - lq
        last = min(p, lk - 1) if causal else lk - 1
        first = max(0, p - window) if window >= 0 else 0
        total += max(0, last - first + 1)
    return total


def useful_flops(kernel, s):
    if kernel == "attention_fwd":
        b, h, _, n, d, causal = s
        pairs = b * (n * (n + 1) // 2 if causal else n * n)
        return 4 * d * h * pairs
    b, h, _, nq, nk, d, causal, windowed, w, mode = s
    window = w if windowed else -1
    pairs = sum(visible(lq, lk, causal, window)
                for lq, lk in zip(lengths(mode, b, nq), lengths(mode, b, nk)))
    return 4 * d * h * pairs


def tile_blocks(lq, lk, qblk, causal, window):
    """KV blocks of 64 the kernel's loop runs for query tile qblk (256
    rows) of a sequence: [blk_lo, blk_hi) as attention_varlen.mlir
    computes them."""
    far = 1 << 30
    off = lk - lq
    r0 = qblk * 256
    r_last = min(r0 + 256, lq) - 1
    p_last = r_last + off + (0 if causal else far)
    key_hi = min(p_last, lk - 1)
    blk_hi = -(-max(key_hi + 1, 0) // 64)
    key_lo = max(r0 + off - (window if window >= 0 else far), 0)
    return blk_hi - min(key_lo // 64, blk_hi)


def balance(s, workgroups, samples=6):
    """(most KV blocks of any workgroup, most of a sampled one) under the
    static zigzag schedule on `workgroups` workgroups."""
    b, h, _, nq, nk, _, causal, windowed, w, mode = s
    window = w if windowed else -1
    tiles = []
    for lq, lk in zip(lengths(mode, b, nq), lengths(mode, b, nk)):
        for q in range(-(-lq // 256)):
            tiles.append(tile_blocks(lq, lk, q, causal, window))
    period = 2 * workgroups
    load = [0] * workgroups
    for t in range(len(tiles) * h):
        r, k = divmod(t, period)
        wg = k if k < workgroups else period - 1 - k
        load[wg] += tiles[t // h]
    n = min(samples, workgroups)
    sampled = [load[k * (workgroups - 1) // (n - 1) if n > 1 else 0]
               for k in range(n)]
    return max(load), max(sampled)


def timing(hk_run, kernel, shape, chip):
    out = subprocess.run(
        [hk_run, kernel, "--shape", ",".join(map(str, shape)), "--chip", chip,
         "--device", "isa", "--timing"],
        check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("TIMING "))
    return json.loads(line[len("TIMING "):])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chip", required=True, help="a chip of the chip table")
    ap.add_argument("--hk-run", default=os.path.join(ROOT, "build", "bin", "hk-run"))
    ap.add_argument("--rows", nargs="+", metavar="LABEL",
                    help="only the rows whose label holds one of these")
    args = ap.parse_args()
    print("| row | shape | modelled us | useful TFLOP/s | model's TFLOP/s |"
          " KV blocks: slowest workgroup | slowest sampled |")
    print("|---|---|---|---|---|---|---|")
    for label, kernel, shape in ROWS:
        if args.rows and not any(r in label for r in args.rows):
            continue
        rep = timing(args.hk_run, kernel, shape, args.chip)
        us = rep["microseconds"]
        tflops = useful_flops(kernel, shape) / us * 1e-6
        most = sampled = "-"
        if kernel == "attention_varlen":
            most, sampled = balance(shape, rep["workgroups"])
        print("| %s | `%s %s` | %.1f | %.1f | %.1f | %s | %s |" % (
            label, kernel, ",".join(map(str, shape)), us, tflops,
            rep["tflops"], most, sampled))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
