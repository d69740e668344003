"""Compares the example of `hkc --report` in docs/report.md ("What it
prints", its first code block) with a report hkc printed, line by line, with
every number and loop label made generic: the guide may show older figures,
but not another format.

Usage: report-shape.py REPORT_MD ACTUAL_REPORT
Prints "same shape: N lines" or the first line that differs.
"""

import re
import sys


def generic(line):
    line = re.sub(r"\.LBB\d+_\d+", "LABEL", line)
    return re.sub(r"\d+(\.\d+)?", "N", line.rstrip())


def example(path):
    text = open(path).read()
    section = text.split("\n## What it prints\n", 1)[1]
    block = section.split("```\n", 2)[1]
    return block.splitlines()


def main():
    shown = [generic(line) for line in example(sys.argv[1])]
    printed = [generic(line) for line in open(sys.argv[2]).read().splitlines()]
    for i, (a, b) in enumerate(zip(shown, printed)):
        if a != b:
            print(f"line {i + 1} differs:\n  guide: {a}\n  hkc:   {b}")
            return
    if len(shown) != len(printed):
        print(f"the guide shows {len(shown)} lines, hkc prints {len(printed)}")
        return
    print(f"same shape: {len(shown)} lines")


if __name__ == "__main__":
    main()
