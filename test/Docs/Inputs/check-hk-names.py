"""Every hk-* name the README and the guides mention is something that
exists: a pass, pipeline or option of hk-opt or hk-translate, or a program
the build makes. A pass renamed or removed leaves no guide behind.

Usage: check-hk-names.py SRC_ROOT BIN_DIR
Prints "ok: N names" or one "unknown: NAME in FILE" line per stale name.
"""

import glob
import os
import re
import subprocess
import sys

NAME = re.compile(r"(?<![\w-])hk-[a-z0-9-]*[a-z0-9](?![\w-])")
# The project's own name, not a tool or pass.
PROJECT = {"hk-mlir"}


def known_names(bin_dir):
    names = set(PROJECT)
    for tool, flag in (("hk-opt", "--help"), ("hk-translate", "--help-hidden")):
        text = subprocess.run([os.path.join(bin_dir, tool), flag], check=True,
                              capture_output=True, text=True).stdout
        names |= set(re.findall(r"--(hk-[a-z0-9-]+)", text))
    names |= {os.path.basename(p) for p in os.listdir(bin_dir)}
    return names


def main():
    src_root, bin_dir = sys.argv[1:3]
    known = known_names(bin_dir)
    files = [os.path.join(src_root, "README.md")] + sorted(
        glob.glob(os.path.join(src_root, "docs", "*.md")))
    seen = 0
    bad = []
    for path in files:
        with open(path) as f:
            for name in sorted(set(NAME.findall(f.read()))):
                seen += 1
                if name not in known:
                    bad.append(f"unknown: {name} in "
                               f"{os.path.relpath(path, src_root)}")
    print("\n".join(bad) if bad else f"ok: {seen} names")


if __name__ == "__main__":
    main()
