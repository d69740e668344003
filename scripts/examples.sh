#!/usr/bin/env bash
# The main job: sets everything up (scripts/setup.sh), then takes every kernel
# in examples/ through the compiler for gfx942 and gfx950 and prints one table.
# For each example and chip: the dialect verifier, the chip's limits
# (hk-check-target), and code generation with hkc (code object + resources).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CHIPS=(gfx942 gfx950)

bash "$ROOT/scripts/setup.sh" >/dev/null || { echo "setup failed"; exit 1; }
BIN="$BUILD_DIR/bin"
OUT="$BUILD_DIR/examples"
mkdir -p "$OUT"

failures=0
printf "%-22s %-7s %-9s %-8s %s\n" example chip verify limits "code object"
for src in "$ROOT"/examples/*.mlir; do
  name="$(basename "$src" .mlir)"
  for chip in "${CHIPS[@]}"; do
    verify=ok; limits=ok; codegen="-"
    if ! "$BIN/hk-opt" "$src" >/dev/null 2>"$OUT/$name.$chip.err"; then
      verify=FAIL
    fi
    if ! "$BIN/hk-opt" --hk-check-target=chip="$chip" "$src" >/dev/null \
        2>>"$OUT/$name.$chip.err"; then
      limits=FAIL
    fi
    if [[ -x "$BIN/hkc" && $verify == ok && $limits == ok ]]; then
      if "$BIN/hkc" "$src" --chip "$chip" --emit=obj -o "$OUT/$name" \
          >/dev/null 2>>"$OUT/$name.$chip.err"; then
        codegen="ok"
      else
        codegen="not yet: $(grep -m1 -oE "error: .*" "$OUT/$name.$chip.err" | cut -c8-80)"
      fi
    elif [[ ! -x "$BIN/hkc" ]]; then
      codegen="hkc not built"
    fi
    [[ $verify == ok && $limits == ok ]] || failures=$((failures + 1))
    printf "%-22s %-7s %-9s %-8s %s\n" "$name" "$chip" "$verify" "$limits" "$codegen"
  done
done
echo
echo "Running kernels (CPU emulator or HIP) is not available yet: see docs/status.md."
echo "diagnostics: $OUT/*.err"
exit $((failures > 0))
