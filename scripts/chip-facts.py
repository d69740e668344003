#!/usr/bin/env python3
"""Finds chip facts written outside the chip table (include/hk/Base,
lib/Base): a chip name as a string literal, a list of chips, the wave size
64 used as such, or an LDS size. Each is printed as file:line: kind: text;
the exit status is 1 if any is not in the allow-list (by default
test/Base/chip-facts.allowed: lines "path | text | reason", a finding being
allowed when its file is `path` and its line contains `text`, or any line of
it when `text` is *).

Comments are skipped (// and /* */ in C, C++ and TableGen; # in Python,
shell and CMake; Python docstrings; TableGen's [{ }] descriptions): they
may name chips. Tests are not
scanned: a test names the chip it tests.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCANNED = ["include", "lib", "dialect", "runtime", "tools", "python/hk",
           "kernels", "cmake", "scripts", "CMakeLists.txt", "test/lit.cfg.py",
           "test/lit.site.cfg.py.in"]
SKIPPED = ["include/hk/Base", "lib/Base", "scripts/chip-facts.py"]
C_LIKE = (".cpp", ".h", ".hpp", ".c", ".td", ".def", ".inc")
HASH_COMMENTS = (".py", ".sh", ".cmake", ".cfg", ".in")

CHIP = r"gfx[0-9][0-9a-z]*"
PATTERNS = [
    ("chip name", re.compile(r"([\"'])" + CHIP + r"\1")),
    ("chip list", re.compile(CHIP + r"\s*(,|\||\s|\sor\s|\sand\s)\s*" + CHIP)),
    ("wave size", re.compile(
        r"(?i)(\b64\b(?![- ]?bits?\b)[^;]*\b(lanes?|waves?|wavefront)|"
        r"\b(lanes?|waves?|wavefront|kLanes|waveSize)\b[^;]*\b64\b"
        r"(?![- ]?bits?\b))")),
    ("LDS size", re.compile(
        r"\b(65536|163840)\b|\b(64|160)\s*\*\s*1024\b|\b(64|160)\s*KiB\b")),
]


def scanned_files(root):
    for base, dirs, files in os.walk(os.path.join(root, "test")):
        dirs.sort()
        if "lit.local.cfg" in files:
            yield os.path.relpath(os.path.join(base, "lit.local.cfg"), root)
    for entry in SCANNED:
        path = os.path.join(root, entry)
        if os.path.isfile(path):
            yield entry
            continue
        for base, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                rel = os.path.relpath(os.path.join(base, name), root)
                if any(rel == s or rel.startswith(s + "/") for s in SKIPPED):
                    continue
                if (name == "CMakeLists.txt" or name.endswith(C_LIKE) or
                        name.endswith(HASH_COMMENTS)):
                    yield rel


def code_lines(rel, text):
    """(line number, the line without its comments) for each line."""
    c_like = rel.endswith(C_LIKE)
    python = rel.endswith(".py") or rel.endswith(".py.in")
    in_block = False  # inside /* */ or a Python docstring
    in_description = False  # inside a TableGen [{ }] block
    for number, line in enumerate(text.splitlines(), 1):
        if rel.endswith(".td"):
            if in_description or "[{" in line:
                in_description = "}]" not in line.split("[{")[-1]
                continue
        if c_like:
            code = ""
            rest = line
            while rest:
                if in_block:
                    end = rest.find("*/")
                    if end < 0:
                        rest = ""
                    else:
                        rest, in_block = rest[end + 2:], False
                    continue
                start, slash = rest.find("/*"), rest.find("//")
                if slash >= 0 and (start < 0 or slash < start):
                    code += rest[:slash]
                    break
                if start < 0:
                    code += rest
                    break
                code, rest, in_block = code + rest[:start], rest[start + 2:], True
            yield number, code
            continue
        if python and line.count('"""') % 2 == 1:
            in_block = not in_block
            continue
        if in_block or (python and line.strip().startswith('"""')):
            continue
        yield number, re.sub(r"(^|\s)#.*", "", line)


def findings(root):
    for rel in scanned_files(root):
        with open(os.path.join(root, rel), encoding="utf-8",
                  errors="replace") as f:
            text = f.read()
        for number, code in code_lines(rel, text):
            for kind, pattern in PATTERNS:
                if pattern.search(code):
                    yield rel, number, kind, code.strip()
                    break


def read_allowed(path):
    allowed = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.rstrip("\n").split(" | ")]
            if len(parts) != 3 or not all(parts):
                sys.exit(f"{path}: not 'path | text | reason': {line.strip()}")
            allowed.append(parts)
    return allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=ROOT)
    parser.add_argument("--allowed", default=os.path.join(
        ROOT, "test", "Base", "chip-facts.allowed"))
    args = parser.parse_args()
    allowed = read_allowed(args.allowed)
    used = set()
    bad = 0
    for rel, number, kind, code in findings(args.root):
        match = [i for i, (path, text, _) in enumerate(allowed)
                 if path == rel and (text == "*" or text in code)]
        if match:
            used.update(match)
            continue
        print(f"{rel}:{number}: {kind}: {code}")
        bad += 1
    for i, (path, text, _) in enumerate(allowed):
        if i not in used:
            print(f"{args.allowed}: allows what is no longer there: "
                  f"{path} | {text}")
            bad += 1
    print(f"{bad} chip facts outside the chip table")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
