"""Checks hkc --tune's output for test/Run/tune.test: the instance it names
as the best of each chip and bucket is the one with the least modelled time
in its table (summed over the bucket's shapes), the tuned table written has
that instance and those times, and (given hk-run's output for the tuned
table) the launch ran that instance and the model times it the same.

    check-tune.py OUT.txt TABLE.json [HK-RUN-OUT.txt SHAPE]
"""

import json
import math
import re
import sys


def bucket(shape):
    out = []
    for d in shape:
        b = 1
        while b < d:
            b *= 2
        out.append(d if d <= 1 else b)
    return tuple(out)


def parse(path):
    rows, best = [], {}
    for line in open(path):
        m = re.match(r"best (\S+) bucket (\S+): (.*), ([0-9.]+) us \(default "
                     r"([0-9.]+) us", line)
        if m:
            best[(m[1], m[2])] = (m[3], float(m[4]), float(m[5]))
            continue
        parts = line.split(None, 3)
        if len(parts) == 4 and re.fullmatch(r"[0-9.]+", parts[2]):
            chip, shape, us, instance = parts
            rows.append((chip, tuple(int(d) for d in shape.split(",")),
                         float(us), instance.strip()))
    return rows, best


def main():
    rows, best = parse(sys.argv[1])
    table = json.load(open(sys.argv[2]))
    assert rows and best, "no rows or no best line"
    totals = {}
    for chip, shape, us, instance in rows:
        key = (chip, ",".join(map(str, bucket(shape))))
        totals.setdefault(key, {}).setdefault(instance, 0.0)
        totals[key][instance] += us
    for key, by_instance in totals.items():
        least = min(by_instance.values())
        winner = [i for i, t in by_instance.items() if t == least][0]
        name, us, default_us = best[key]
        expected = "default" if winner.endswith("(default)") else winner
        assert name == expected, f"{key}: best {name}, least time {winner}"
        assert math.isclose(us, least, abs_tol=1e-3), (us, least)
        default = [t for i, t in by_instance.items() if i.endswith("(default)")]
        assert math.isclose(default_us, default[0], abs_tol=1e-3)
        entry = [e for e in table["entries"]
                 if ",".join(map(str, e["bucket"])) == key[1]][0]
        params = ", ".join(f"{k}={v}" for k, v in sorted(entry["params"].items()))
        assert (params or "default") == name, (params, name)
        assert math.isclose(entry["microseconds"], least, abs_tol=1e-3)
        print(f"{key[0]} {key[1]}: {name} is the least of "
              f"{len(by_instance)} modelled times; the table agrees")
    if len(sys.argv) > 4:
        run = open(sys.argv[3]).read()
        shape = tuple(int(d) for d in sys.argv[4].split(","))
        instance = re.search(r"^instance: +(.*) \(tuned: ", run, re.M)[1]
        timing = json.loads(re.search(r"^TIMING (.*)$", run, re.M)[1])
        name = best[(timing["chip"], ",".join(map(str, bucket(shape))))][0]
        row = [us for chip, s, us, i in rows
               if chip == timing["chip"] and s == shape and i == name]
        assert instance == name, (instance, name)
        assert math.isclose(timing["microseconds"], row[0], rel_tol=1e-3), (
            timing["microseconds"], row[0])
        print(f"hk-run ran {instance}, modelled {timing['microseconds']:.4f} us"
              f" at {sys.argv[4]} as in the table")

main()
