"""Checks the validation table of scripts/bench-model.sh against the
measurements it claims to show: every row's measured TFLOP/s is the JSON's
`tflops` for its N (to the table's 0.1), the modelled figure is a positive
number of its own (not the measurement copied), and the ratio is modelled
over measured.

  bench_model_measured.py REPORT.txt ANALYSIS.json KERNEL CHIP
"""
import json
import sys

report, analysis, kernel, chip = sys.argv[1:5]
with open(analysis) as f:
    measured = {int(k): v["tflops"] for k, v in json.load(f).items()}
rows = []
with open(report) as f:
    for line in f:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0] == kernel and cells[1] == chip:
            rows.append(cells)
if not rows:
    sys.exit("FAIL: no row of %s on %s in %s" % (kernel, chip, report))
for cells in rows:
    n = int(cells[2].split("x")[0])
    got, modelled, ratio = float(cells[3]), float(cells[4]), float(cells[5])
    if abs(got - measured[n]) > 0.051:
        sys.exit("FAIL: N=%d measured %.1f, the JSON says %.3f" %
                 (n, got, measured[n]))
    if modelled <= 0 or abs(modelled - measured[n]) < 0.05:
        sys.exit("FAIL: N=%d modelled %.1f is not a figure of its own" %
                 (n, modelled))
    if abs(ratio - modelled / got) > 0.002:
        sys.exit("FAIL: N=%d ratio %.3f is not %.1f / %.1f" %
                 (n, ratio, modelled, got))
    print("N=%d measured %.1f = %s, modelled %.1f, ratio %.3f" %
          (n, got, "analysis", modelled, ratio))
print("PASS %d rows" % len(rows))
