#!/usr/bin/env python3
"""The library's tuning sweeps on the timing model (docs/timing.md,
"Autotuning").

For each template of the library (kernels/gemm_bf16, kernels/attention_fwd)
and chip, hk.autotune searches the template's parameter space at a few
shapes where the default instance leaves the chip part idle (small or skinny
GEMMs, short sequences), on the ISA simulator's timing mode, and prints per
shape the default's and the best instance's modelled time. `--write` stores
the chosen instances in kernels/<kernel>/tuned/<chip>.json, the tables
hk-run and hk.TunedKernel read (only buckets where an instance beats the
default by at least 2% are written: smaller differences are the model's
noise between instances that run the same loop).

    PYTHONPATH=build/python python3 scripts/tune.py              # print
    PYTHONPATH=build/python python3 scripts/tune.py --write      # and store
    ... --only gemm_bf16 --chips gfx950 --scheduler HOST:8786    # on Dask

WGM (gemm_bf16's workgroup order) is left out of the GEMM's space: it only
changes which tiles share L2, which the model does not simulate.
"""

import argparse
import os
import subprocess
import sys

SWEEPS = {
    "gemm_bf16": {
        "space": {"BM": [128, 256], "BN": [128, 256]},
        # M, N, K
        "shapes": [(1024, 1024, 1024), (512, 512, 4096), (256, 4096, 4096),
                   (2048, 2048, 512)],
    },
    "attention_fwd": {
        # The query block: 8 waves under the ping-pong (256 rows) or 4 under
        # hk.interleave (128 rows), whose barriers SYNC names; the two mixed
        # pairs are refused by the template's constraint. THRESHOLD and
        # MWPS64 are left out: no value beat the default at any shape
        # (docs/timing.md, "Autotuning").
        "space": {"SCHEDULE": ["ping_pong", "interleave"],
                  "SYNC": ["sched_barrier 0", "barrier"]},
        # B, H, H_kv, N, D, causal: short sequences and few heads, where
        # 256-row workgroups leave CUs idle, and one longer causal GQA
        # shape where the default stays ahead on gfx942.
        "shapes": [(1, 8, 8, 512, 64, 0), (1, 8, 8, 1024, 128, 1),
                   (2, 16, 4, 256, 128, 0), (1, 16, 16, 1024, 128, 0),
                   (1, 32, 8, 2048, 128, 1)],
    },
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append",
                        help="a kernel of " + ", ".join(SWEEPS))
    parser.add_argument("--chips", help="comma-separated chips (default: "
                        "every chip of the table, build/bin/hk-chips)")
    parser.add_argument("--write", action="store_true",
                        help="store the winners in kernels/<k>/tuned/")
    parser.add_argument("--scheduler",
                        help="a Dask scheduler's address: run there")
    parser.add_argument("--workers", type=int, help="local processes")
    args = parser.parse_args()
    import hk
    client = None
    if args.scheduler:
        import distributed
        client = distributed.Client(args.scheduler)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    chips = (args.chips.split(",") if args.chips else subprocess.run(
        [os.path.join(root, "build", "bin", "hk-chips")], check=True,
        capture_output=True, text=True).stdout.split())
    for kernel in args.only or SWEEPS:
        sweep = SWEEPS[kernel]
        for chip in chips:
            result = hk.autotune(kernel, sweep["shapes"], sweep["space"],
                                 chip=chip, client=client,
                                 workers=args.workers)
            report(kernel, chip, result)
            better = [e for e in result.entries if e["speedup"] >= 1.02]
            if args.write and better:
                path = os.path.join(root, "kernels", kernel, "tuned",
                                    f"{chip}.json")
                from hk.autotune import write_table
                write_table(path, kernel, chip, result.measured_on, better)
                print(f"wrote {os.path.relpath(path, root)}")
    return 0


def refused(timing):
    """Whether a failed instance is one the template's constraints refuse
    (a combination the space holds but the template does not allow)."""
    return "error: constraint '" in timing["error"]


def report(kernel, chip, result):
    for e in result.entries:
        errors = [t for t in result.timings
                  if "error" in t and tuple(t["shape"]) in
                  [tuple(s) for s in e["shapes"]]]
        failed = [t for t in errors if not refused(t)]
        note = "".join(
            [f"  ({len(failed)} instances failed)" if failed else "",
             f"  ({len(errors) - len(failed)} refused by the constraints)"
             if len(errors) > len(failed) else ""])
        print(f"{kernel:14} {chip}  {','.join(map(str, e['shapes'][0])):24}"
              f" default {e['default_microseconds']:9.2f} us  best "
              f"{e['microseconds']:9.2f} us  x{e['speedup']:.2f}  "
              f"{e['params'] or 'default'}" + note)
        for t in failed[:2]:
            print("    " + t["error"].splitlines()[-1])
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
