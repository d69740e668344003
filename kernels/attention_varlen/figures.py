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
under the kernel's static schedule: the most any workgroup runs, and the
most a sampled one runs. Their ratio bounds how much faster the model
reads than a model that simulated every workgroup.

`--schedules` runs no row: for the varlen rows on the chip's P (one
workgroup per compute unit, read from the launcher's grid for a small
shape) it counts the KV blocks of every workgroup
under each tile schedule of SCHEDULES (the kernel's and the ones weighed
against it), the most any workgroup runs against the mean.

    python3 kernels/attention_varlen/figures.py --chip CHIP [--hk-run PATH]
        [--rows LABEL ...] [--schedules]
"""

import argparse
import heapq
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


# A shape with more tiles than any chip has compute units (320 heads of
# one query): the launcher's grid for it is the chip's, one workgroup per
# compute unit, as for the report's rows.
FULL_GRID_SHAPE = [1, 320, 320, 1, 1, 64, 0, 0, 0, 0]


def problem(s):
    """(query lengths, key lengths, causal, window, H) of a varlen shape."""
    b, h, _, nq, nk, _, causal, windowed, w, mode = s
    return (lengths(mode, b, nq), lengths(mode, b, nk), causal,
            w if windowed else -1, h)


def natural_order(lq, lk, causal, window, h):
    """KV blocks of each tile in the order of the zigzag kernel's numbering:
    sequence, query tile, head."""
    return [tile_blocks(a, k, q, causal, window)
            for a, k in zip(lq, lk) for q in range(-(-a // 256))
            for _ in range(h)]


def level_first(a, k, causal, level, unit):
    """The first query tile of a sequence (a queries, k keys) whose level
    is at least `level`: a tile's level is ceildiv(keys up to its last
    row's last visible key, unit), non-decreasing along the sequence."""
    if level == 0:
        return 0
    t = unit * (level - 1)
    if k <= t:
        return -(-a // 256)
    return max(0, (t - (k - a)) // 256) if causal else 0


def level_order(lq, lk, causal, window, h, cap=32):
    """KV blocks of each tile in the order of the levels schedule: levels
    from the highest down, within a level the sequences in order and each
    sequence's tiles from the last down, each tile's H heads in turn. The
    level's unit is 256 keys, coarsened so that there are at most `cap`
    levels above level 0. Returns (blocks, passes over a sequence)."""
    units = max((k + 255) // 256 for k in lk)
    unit = 256 * max(1, -(-units // cap))
    top = -(-max(lk) // unit)
    order, seen = [], []
    for level in range(top, -1, -1):
        for b, (a, k) in enumerate(zip(lq, lk)):
            lo = level_first(a, k, causal, level, unit)
            hi = level_first(a, k, causal, level + 1, unit)
            for q in range(hi - 1, lo - 1, -1):
                order += [tile_blocks(a, k, q, causal, window)] * h
                seen.append((b, q))
    # Every query tile once: the levels partition each sequence's tiles.
    assert sorted(seen) == [(b, q) for b, a in enumerate(lq)
                            for q in range(-(-a // 256))]
    return order, (top + 1) * len(lq)


def deal_snake(costs, workgroups):
    """Per-workgroup KV blocks when the tiles in this order are dealt in
    rounds of P, every other round backwards: workgroup w takes tile w of
    an even round and P - 1 - w of an odd one (the zigzag's rounds of 2P)."""
    load = [0] * workgroups
    for i, c in enumerate(costs):
        r, k = divmod(i, workgroups)
        load[k if r % 2 == 0 else workgroups - 1 - k] += c
    return load


def deal_greedy(costs, workgroups):
    """Longest first, each tile to the least loaded workgroup: a bound the
    static schedules are measured against (each workgroup would replay the
    whole deal with a heap of P loads to find its tiles)."""
    heap = [(0, w) for w in range(workgroups)]
    for c in sorted(costs, reverse=True):
        load, w = heapq.heappop(heap)
        heapq.heappush(heap, (load + c, w))
    return [load for load, _ in heap]


def sched_zigzag(p, workgroups):
    return deal_snake(natural_order(*p), workgroups)


def sched_levels(p, workgroups):
    return deal_snake(level_order(*p)[0], workgroups)


def sched_sorted(p, workgroups):
    return deal_snake(sorted(natural_order(*p), reverse=True), workgroups)


def sched_greedy(p, workgroups):
    return deal_greedy(natural_order(*p), workgroups)


SCHEDULES = [
    ("zigzag", sched_zigzag),
    ("levels", sched_levels),
    ("sorted by blocks, snake", sched_sorted),
    ("greedy, longest first", sched_greedy),
]


def sampled(load, samples=6):
    """The loads of the workgroups the timing model simulates."""
    n = min(samples, len(load))
    return [load[k * (len(load) - 1) // (n - 1) if n > 1 else 0]
            for k in range(n)]


# The schedule attention_varlen.mlir runs.
KERNEL_SCHEDULE = sched_levels


def balance(s, workgroups):
    """(most KV blocks of any workgroup, most of a sampled one) under the
    kernel's schedule on `workgroups` workgroups."""
    load = KERNEL_SCHEDULE(problem(s), workgroups)
    return max(load), max(sampled(load))


def print_schedules(hk_run, chip, rows):
    workgroups = timing(hk_run, "attention_varlen", FULL_GRID_SHAPE,
                        chip)["workgroups"]
    print("| row | schedule | KV blocks: mean | slowest workgroup |"
          " slowest sampled | slowest / mean |")
    print("|---|---|---|---|---|---|")
    for label, kernel, shape in ROWS:
        if kernel != "attention_varlen" or (
                rows and not any(r in label for r in rows)):
            continue
        p = problem(shape)
        for name, sched in SCHEDULES:
            load = sched(p, workgroups)
            mean = sum(load) / workgroups
            print("| %s | %s | %.1f | %d | %d | %.3f |" % (
                label, name, mean, max(load), max(sampled(load)),
                max(load) / mean))
        sys.stdout.flush()


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
    ap.add_argument("--schedules", action="store_true",
                    help="count each tile schedule's KV blocks per workgroup"
                    " on the chip's P instead of running the rows")
    args = ap.parse_args()
    if args.schedules:
        print_schedules(args.hk_run, args.chip, args.rows)
        return
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
