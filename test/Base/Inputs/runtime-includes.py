"""Lists every #include under ROOT/tools that names a runtime-internal header:
one that resolves to a file under ROOT/runtime (from the including file's
folder or from runtime/ as an include directory), or whose file name is
that of a header under runtime/. The runtime's public headers live in
include/hk/Runtime and are not under runtime/. Also lists each
CMakeLists.txt under tools/ that puts runtime/ on an include path.

Usage: runtime-includes.py ROOT"""

import os
import re
import sys

root = sys.argv[1]
runtime = os.path.join(root, "runtime")
internal = {}
for folder, _, files in os.walk(runtime):
    for name in files:
        if name.endswith((".h", ".def", ".inc")):
            path = os.path.join(folder, name)
            internal[os.path.relpath(path, runtime)] = path
internal_names = {os.path.basename(p) for p in internal}

include = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
found = 0
for folder, _, files in os.walk(os.path.join(root, "tools")):
    for name in sorted(files):
        path = os.path.join(folder, name)
        rel = os.path.relpath(path, root)
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
        if name == "CMakeLists.txt":
            for n, line in enumerate(lines, 1):
                if re.search(r"\{PROJECT_SOURCE_DIR\}/runtime\b", line):
                    print(f"{rel}:{n}: runtime/ on an include path")
                    found += 1
            continue
        if not name.endswith((".h", ".hpp", ".cpp", ".c", ".def")):
            continue
        for n, line in enumerate(lines, 1):
            m = include.match(line)
            if not m:
                continue
            target = m.group(1)
            beside = os.path.normpath(os.path.join(folder, target))
            if (target in internal
                    or beside.startswith(runtime + os.sep)
                    or (os.path.basename(target) in internal_names
                        and not os.path.exists(beside)
                        and not target.startswith("hk/"))):
                print(f"{rel}:{n}: {target}")
                found += 1
print(f"{found} runtime-internal includes under tools/")
sys.exit(1 if found else 0)
