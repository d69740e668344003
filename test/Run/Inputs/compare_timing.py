"""Compares two `hk-run --timing` outputs: exits 1 unless the first launch's
modelled time is below RATIO times the second's.

    compare_timing.py FIRST SECOND RATIO
"""

import json
import sys


def microseconds(path):
    with open(path) as f:
        for line in f:
            if line.startswith("TIMING "):
                return json.loads(line[len("TIMING "):])["microseconds"]
    sys.exit(f"{path}: no TIMING line")


def main():
    first, second = microseconds(sys.argv[1]), microseconds(sys.argv[2])
    ratio = float(sys.argv[3])
    if first >= ratio * second:
        print(f"not faster: {first:.2f} us against {second:.2f} us "
              f"(needs below {ratio} times)")
        return 1
    print(f"faster: {first:.2f} us against {second:.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
