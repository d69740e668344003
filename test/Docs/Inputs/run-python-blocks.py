"""Runs each ```python block of a guide that starts with `import hk` (a
whole program) and compares what it prints with the plain ``` block that
follows it, less the `$ ...` command lines. Prints one line per block."""

import re
import subprocess
import sys

guide, cwd = sys.argv[1], sys.argv[2]
text = open(guide).read()
blocks = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
failed = 0
for n, (lang, body) in enumerate(blocks):
    if lang != "python" or not body.startswith("import hk"):
        continue
    following = blocks[n + 1] if n + 1 < len(blocks) else ("", "")
    assert following[0] == "", f"block {n}: no output block follows"
    want = [l for l in following[1].splitlines() if not l.startswith("$ ")]
    run = subprocess.run([sys.executable, "-c", body], cwd=cwd,
                         capture_output=True, text=True)
    got = run.stdout.splitlines()
    if run.returncode or got != want:
        failed += 1
        print(f"block {n}: MISMATCH\n--- the guide\n" + "\n".join(want) +
              "\n--- the run\n" + "\n".join(got) + "\n" + run.stderr)
    else:
        print(f"block {n}: {len(got)} lines as in the guide")
sys.exit(1 if failed else 0)
