#!/usr/bin/env bash
# The main job: sets everything up (scripts/setup.sh), then takes every kernel
# of the library (each directory kernels/<name>/, docs/kernels.md) through the
# compiler for every chip of the table (build/bin/hk-chips) it supports (its
# chips.txt, else all) and prints one
# table. For each kernel and
# chip: the dialect verifier on its tile program, the chip's limits
# (hk-check-target), code generation with hkc (code object + resources), and
# a run of the library kernel (build/kernels/<name>.hkrt) by hk-run on its
# test shape (hk-run --test-shape: sizes off the tile multiples), on a HIP GPU
# of that chip if one is usable, else on the ISA simulator (the code object
# itself, run on the CPU: docs/isa-simulator.md), checked against
# its float64 reference: PASS/FAIL, max abs error, time. Exit status 1 if any
# kernel fails to verify or any run fails.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

bash "$ROOT/scripts/setup.sh" >/dev/null || { echo "setup failed"; exit 1; }
BIN="$BUILD_DIR/bin"
mapfile -t CHIPS < <("$BIN/hk-chips")
# The chips kernel $1 supports: those its chips.txt names (whitespace-
# separated, # starts a comment line), else every chip of the table.
kernel_chips() {
  local file="$ROOT/kernels/$1/chips.txt"
  if [[ -f $file ]]; then
    grep -v '^#' "$file" | tr -s ' \t' '\n\n' | grep -v '^$'
  else
    printf '%s\n' "${CHIPS[@]}"
  fi
}
OUT="$BUILD_DIR/examples"
mkdir -p "$OUT"

# One cell of the run column for kernel $1 on chip $2. hk-run knows the
# kernel by its directory's name and takes the test shape from its entry.
run_cell() {
  local line
  [[ -x "$BIN/hk-run" ]] || { echo "hk-run not built"; return 0; }
  line="$("$BIN/hk-run" "$1" --test-shape --chip "$2" --device auto \
    2>>"$OUT/$1.$2.err" | tail -n 1)"
  if [[ $line =~ ^(PASS|FAIL)\ [^\ ]+\ [^\ ]+\ ([^\ ]+)\ (.*):\ max\ abs\ error\ ([^,]+),.*time\ ([^ ]+\ s) ]]; then
    echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}, max err ${BASH_REMATCH[4]}, ${BASH_REMATCH[5]}"
    [[ ${BASH_REMATCH[1]} == PASS ]]
  else
    echo "error: $(grep -m1 -oE "error: .*" "$OUT/$1.$2.err" | cut -c8-70)"
    return 1
  fi
}

failures=0
printf "%-15s %-7s %-7s %-7s %-12s %s\n" kernel chip verify limits "code object" \
  "run (hk-run, float64 reference)"
# Every directory of kernels/ is a kernel, in the byte order of the names (as
# hk-run --list and CMake order them).
for dir in $(cd "$ROOT/kernels" && LC_ALL=C ls -d -- */); do
  name="${dir%/}"
  src="$ROOT/kernels/$name/$name.mlir"
  for chip in $(kernel_chips "$name"); do
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
    run="$(run_cell "$name" "$chip")" || failures=$((failures + 1))
    printf "%-15s %-7s %-7s %-7s %-12s %s\n" "$name" "$chip" "$verify" "$limits" \
      "$codegen" "$run"
  done
done
echo
echo "runs: hk-run KERNEL --test-shape --chip CHIP, or --shape ... (bash scripts/bench-isa.sh for timings)"
echo "diagnostics: $OUT/*.err"
exit $((failures > 0))
