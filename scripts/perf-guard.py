#!/usr/bin/env python3
"""The regression guard on modelled time (docs/timing.md, "Regression guard").

Each library kernel keeps its best-known figures in
kernels/<kernel>/best-known/<chip>.json: for a fixed set of shapes, the modelled
time of the kernel as `hk-run <kernel> --shape ... --timing` gives it (the ISA
simulator's cycle model; no GPU is involved). `--check` runs every guarded
entry again and fails, naming the kernel, chip, shape, old and new figure, when
one has become more than --tolerance (3%) slower. `--update` writes the new
figures of the entries that improved (and, with --accept-slower, of those
that got slower: a deliberate trade, named in the commit that makes it).

The figure compared is the modelled time; TFLOP/s (compute kernels) and
GB/s (memory-bound kernels) are printed beside it and fall by the same ratio.

Exit status: 0 when no entry regressed, 1 when one did, 2 on a usage error
or a failed run.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOLERANCE = 0.03


def table_paths(tables, only):
    """The best-known tables under `tables` (kernels/), as (kernel, chip,
    path), restricted to the `only` kernel or kernel:chip names if any."""
    found = []
    for path in sorted(pathlib.Path(tables).glob("*/best-known/*.json")):
        kernel, chip = path.parent.parent.name, path.stem
        if only and kernel not in only and f"{kernel}:{chip}" not in only:
            continue
        found.append((kernel, chip, path))
    return found


def shape_text(shape):
    return ",".join(str(s) for s in shape)


def model(hk_run, kernel, chip, shape):
    """The TIMING report of one modelled launch of a library kernel."""
    cmd = [hk_run, kernel, "--shape", shape_text(shape), "--chip", chip,
           "--device", "isa", "--timing"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as error:
        raise RuntimeError(f"cannot run {hk_run}: {error}") from error
    for line in proc.stdout.splitlines():
        if line.startswith("TIMING "):
            return json.loads(line[len("TIMING "):])
    raise RuntimeError(f"{' '.join(cmd)} printed no TIMING line "
                       f"(exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")


def figures(report):
    """The entry fields a report gives: time, and TFLOP/s or GB/s."""
    out = {"microseconds": round(report["microseconds"], 4)}
    if report.get("flops"):
        out["tflops"] = round(report["tflops"], 2)
    out["gbytes_per_second"] = round(report["bytes_per_second"] / 1e9, 1)
    return out


def rate_text(entry):
    if "tflops" in entry:
        return f"{entry['tflops']:.1f} TFLOP/s"
    return f"{entry['gbytes_per_second']:.0f} GB/s"


def run_all(hk_run, work, jobs):
    """Models every (kernel, chip, entry) of `work` on `jobs` processes."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(model, hk_run, k, c, e["shape"])
                   for k, c, e in work]
        return [f.result() for f in futures]


def compare(work, reports, tolerance):
    """Lines describing each entry and the list of regressions."""
    lines, regressions = [], []
    for (kernel, chip, entry), report in zip(work, reports):
        new = figures(report)
        if "microseconds" not in entry:
            what = (f"{kernel} {chip} shape {shape_text(entry['shape'])}: "
                    f"{rate_text(new)}, no best-known figure (--update)")
            regressions.append(what)
            lines.append("MISSING   " + what)
            continue
        ratio = entry["microseconds"] / new["microseconds"]
        change = ratio - 1.0
        what = (f"{kernel} {chip} shape {shape_text(entry['shape'])}: "
                f"{rate_text(new)} ({new['microseconds']:.2f} us), best known "
                f"{rate_text(entry)} ({entry['microseconds']:.2f} us), "
                f"{change * 100:+.1f}%")
        if ratio < 1.0 - tolerance:
            regressions.append(what)
            lines.append("REGRESSED " + what)
        else:
            lines.append(("IMPROVED  " if change > tolerance else "OK        ")
                         + what)
    return lines, regressions


def update(tables, work, reports, accept_slower):
    """Writes the new figures of improved (or, if asked, any) entries."""
    changed = set()
    for (kernel, chip, entry), report in zip(work, reports):
        new = figures(report)
        old = entry.get("microseconds")
        if old is None or new["microseconds"] < old or accept_slower:
            entry.update(new)
            changed.add((kernel, chip))
    for kernel, chip, path in tables:
        if (kernel, chip) in changed:
            data = json.loads(path.read_text())
            data["entries"] = [e for k, c, e in work
                               if (k, c) == (kernel, chip)]
            path.write_text(json.dumps(data, indent=2) + "\n")
            print(f"updated {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true",
                      help="fail when an entry is more than --tolerance slower")
    mode.add_argument("--update", action="store_true",
                      help="write the figures of the entries that improved")
    parser.add_argument("--accept-slower", action="store_true",
                        help="with --update: write slower figures too")
    parser.add_argument("--tables", default=str(ROOT / "kernels"),
                        help="folder of <kernel>/best-known/<chip>.json")
    parser.add_argument("--hk-run", default=os.environ.get(
        "HK_RUN", str(ROOT / "build" / "bin" / "hk-run")))
    parser.add_argument("--only", nargs="*", default=[],
                        help="kernel or kernel:chip names")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    tables = table_paths(args.tables, args.only)
    if not tables:
        print(f"perf-guard: no best-known tables under {args.tables}",
              file=sys.stderr)
        return 2
    work = []
    for kernel, chip, path in tables:
        data = json.loads(path.read_text())
        if data.get("kernel") != kernel or data.get("chip") != chip:
            print(f"perf-guard: {path} names {data.get('kernel')} "
                  f"{data.get('chip')}", file=sys.stderr)
            return 2
        work += [(kernel, chip, e) for e in data["entries"]]
    try:
        reports = run_all(args.hk_run, work, args.jobs)
    except RuntimeError as error:
        print(f"perf-guard: {error}", file=sys.stderr)
        return 2
    lines, regressions = compare(work, reports, args.tolerance)
    print("\n".join(lines))
    if args.update:
        update(tables, work, reports, args.accept_slower)
        return 0
    print(f"{len(work)} entries, {len(regressions)} slower than their best "
          f"known by more than {args.tolerance * 100:g}%")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
