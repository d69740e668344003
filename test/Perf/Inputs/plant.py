"""Copies kernel KERNEL's best-known table for CHIP into OUT/KERNEL/best-known
with every figure SCALE times better (times divided by SCALE): the tree as
built is then SCALE - 1 slower than its table, a planted regression."""
import json
import pathlib
import sys

src, out, kernel, chip, scale = sys.argv[1:6]
scale = float(scale)
data = json.loads((pathlib.Path(src) / kernel / "best-known" /
                   f"{chip}.json").read_text())
for entry in data["entries"]:
    entry["microseconds"] /= scale
    for rate in ("tflops", "gbytes_per_second"):
        if rate in entry:
            entry[rate] *= scale
dest = pathlib.Path(out) / kernel / "best-known"
dest.mkdir(parents=True, exist_ok=True)
(dest / f"{chip}.json").write_text(json.dumps(data, indent=2) + "\n")
