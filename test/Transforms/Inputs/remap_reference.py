#!/usr/bin/env python3
"""Checks hk.xcd_remap and hk.group_remap against HipKittens' formulas.

`emit` prints a func.func @main that runs both remaps over many grids and
prints, one line per grid, "tag, params..., results...". `check` reads that
output and compares every value with HipKittens' code, transcribed below from
include/common/util.cuh (chiplet_transform_chunked) and the WGM grouping of
kernels/gemm/bf16fp32/mi350x/256_256_64_32_with16x32.cpp. It also checks that
each remap is a bijection of its grid, and that ids past a grouped grid land
outside it.
"""

import sys

XCD_TAG, GROUP_TAG = 0, 1

# (xcds, chunk, largest workgroup count): HK's 8 XCDs with every chunk up to
# 64 over 1..300 workgroups, and a few other chiplet counts.
XCD_GRIDS = [(8, c, 300) for c in range(1, 65)] + [
    (x, c, 100) for x in (1, 2, 3, 4, 5, 7) for c in (1, 2, 3, 4, 7, 16)
]
GROUPS = range(1, 9)
MAX_ROWS, MAX_COLS = 40, 37


def chiplet_transform_chunked(workgroup_id, num_workgroups, num_xcds,
                              chunk_size):
    xcd = workgroup_id % num_xcds
    block = num_xcds * chunk_size
    limit = (num_workgroups // block) * block
    if workgroup_id > limit:
        return workgroup_id
    local_pid = workgroup_id // num_xcds
    chunk_idx = local_pid // chunk_size
    pos_in_chunk = local_pid % chunk_size
    return chunk_idx * block + xcd * chunk_size + pos_in_chunk


def wgm_tile(wgid, num_pid_m, num_pid_n, wgm):
    num_wgid_in_group = wgm * num_pid_n
    group_id = wgid // num_wgid_in_group
    first_pid_m = group_id * wgm
    group_size_m = min(num_pid_m - first_pid_m, wgm)
    pid_m = first_pid_m + ((wgid % num_wgid_in_group) % group_size_m)
    pid_n = (wgid % num_wgid_in_group) // group_size_m
    return pid_m, pid_n


def group_ids(rows, cols, group):
    """Ids tested for a grid: all of it, and a group's worth past its end."""
    return rows * cols + group * cols + 1


def emit():
    out = ["func.func @main() {"]
    consts = set()

    def c(v):
        consts.add(v)
        return f"%c{v}"

    body = []
    for i, (xcds, chunk, count) in enumerate(XCD_GRIDS):
        body += [
            f"  scf.for %n{i} = {c(1)} to {c(count + 1)} step {c(1)} {{",
            f"    vector.print {c(XCD_TAG)} : index punctuation <comma>",
            f"    vector.print {c(xcds)} : index punctuation <comma>",
            f"    vector.print {c(chunk)} : index punctuation <comma>",
            f"    vector.print %n{i} : index punctuation <comma>",
            f"    scf.for %id = {c(0)} to %n{i} step {c(1)} {{",
            f"      %r = hk.xcd_remap %id, %n{i} xcds = {xcds}, chunk = {chunk}",
            "      vector.print %r : index punctuation <comma>",
            "    }",
            "    vector.print punctuation <newline>",
            "  }",
        ]
    for g in GROUPS:
        body += [
            f"  scf.for %rows{g} = {c(1)} to {c(MAX_ROWS + 1)} step {c(1)} {{",
            f"    scf.for %cols = {c(1)} to {c(MAX_COLS + 1)} step {c(1)} {{",
            f"      vector.print {c(GROUP_TAG)} : index punctuation <comma>",
            f"      vector.print {c(g)} : index punctuation <comma>",
            f"      vector.print %rows{g} : index punctuation <comma>",
            "      vector.print %cols : index punctuation <comma>",
            f"      %tiles = arith.muli %rows{g}, %cols : index",
            f"      %past = arith.muli %cols, {c(g)} : index",
            "      %n0 = arith.addi %tiles, %past : index",
            f"      %n = arith.addi %n0, {c(1)} : index",
            f"      scf.for %id = {c(0)} to %n step {c(1)} {{",
            f"        %row, %col = hk.group_remap %id, %rows{g}, %cols group = {g}",
            "        vector.print %row : index punctuation <comma>",
            "        vector.print %col : index punctuation <comma>",
            "      }",
            "      vector.print punctuation <newline>",
            "    }",
            "  }",
        ]
    out += [f"  %c{v} = arith.constant {v} : index" for v in sorted(consts)]
    out += body + ["  return", "}"]
    print("\n".join(out))


def check_xcd(params, values, errors):
    xcds, chunk, count = params
    if len(values) != count:
        errors.append(f"xcd_remap {params}: {len(values)} results")
        return
    for wg, got in enumerate(values):
        want = chiplet_transform_chunked(wg, count, xcds, chunk)
        if got != want:
            errors.append(f"xcd_remap xcds={xcds} chunk={chunk} "
                          f"count={count} id={wg}: got {got}, HK {want}")
    if sorted(values) != list(range(count)):
        errors.append(f"xcd_remap {params}: not a permutation")


def check_group(params, values, errors):
    group, rows, cols = params
    n = group_ids(rows, cols, group)
    if len(values) != 2 * n:
        errors.append(f"group_remap {params}: {len(values)} results")
        return
    tiles = list(zip(values[0::2], values[1::2]))
    for wgid, got in enumerate(tiles[:rows * cols]):
        want = wgm_tile(wgid, rows, cols, group)
        if got != want:
            errors.append(f"group_remap group={group} rows={rows} "
                          f"cols={cols} id={wgid}: got {got}, HK {want}")
    grid = sorted(tiles[:rows * cols])
    if grid != [(r, c) for r in range(rows) for c in range(cols)]:
        errors.append(f"group_remap {params}: not a bijection onto the grid")
    for wgid, (r, c) in enumerate(tiles[rows * cols:], rows * cols):
        if r < rows and c < cols:
            errors.append(f"group_remap {params}: id {wgid} past the grid "
                          f"maps inside it, to ({r}, {c})")


def check(path):
    errors = []
    seen = {XCD_TAG: set(), GROUP_TAG: set()}
    with (sys.stdin if path == "-" else open(path)) as f:
        for line in f:
            fields = [int(x) for x in line.split(",") if x.strip()]
            if not fields:
                continue
            tag, params, values = fields[0], tuple(fields[1:4]), fields[4:]
            seen[tag].add(params)
            (check_xcd if tag == XCD_TAG else check_group)(params, values,
                                                           errors)
    want_xcd = {(x, c, n) for x, c, m in XCD_GRIDS for n in range(1, m + 1)}
    want_group = {(g, r, c) for g in GROUPS for r in range(1, MAX_ROWS + 1)
                  for c in range(1, MAX_COLS + 1)}
    if seen[XCD_TAG] != want_xcd or seen[GROUP_TAG] != want_group:
        errors.append("the output does not cover every grid")
    for e in errors[:20]:
        print("error:", e)
    print(f"checked {len(seen[XCD_TAG])} xcd_remap grids and "
          f"{len(seen[GROUP_TAG])} group_remap grids: {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["emit"]:
        emit()
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2]))
    else:
        sys.exit("usage: remap_reference.py emit | check OUTPUT|-")
