#!/usr/bin/env bash
# The main job: sets everything up (scripts/setup.sh), then takes every kernel
# in examples/ through the compiler for gfx942 and gfx950 and prints one table.
# For each example and chip: the dialect verifier, the chip's limits
# (hk-check-target), code generation with hkc (code object + resources), and
# a run of the library kernel compiled from it (build/kernels/) by hk-run on
# ragged shapes, on a HIP GPU of that chip if one is usable, else on the CPU
# emulator, checked against a float64 reference: PASS/FAIL, max abs error,
# time. Exit status 1 if any example fails to verify or any run fails.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CHIPS=(gfx942 gfx950)

bash "$ROOT/scripts/setup.sh" >/dev/null || { echo "setup failed"; exit 1; }
BIN="$BUILD_DIR/bin"
OUT="$BUILD_DIR/examples"
mkdir -p "$OUT"

# Shapes of the runs: not multiples of the tiles, so the ragged edges count.
run_shape() {
  case "$1" in
    gemm_bf16) echo 300,200,136 ;;
    rotary) echo 2,3,100 ;;
    layernorm | rmsnorm) echo 300 ;;
    softmax) echo 300,200 ;;
    *) echo "" ;; # the kernel's default shape
  esac
}

# The hk-run kernel built from examples/NAME.mlir, if the library has one.
run_kernel() {
  "$BIN/hk-run" --list 2>/dev/null |
    awk -v ex="examples/$1.mlir," '/^  [a-z]/ { k = $1 } $1 == ex { print k; exit }'
}

# One cell of the run column for example $1 on chip $2.
run_cell() {
  local kernel shape line args
  [[ -x "$BIN/hk-run" ]] || { echo "hk-run not built"; return 0; }
  kernel="$(run_kernel "$1")"
  [[ -n $kernel ]] || { echo "no runner yet"; return 0; }
  shape="$(run_shape "$1")"
  args=("$kernel" --chip "$2" --backend auto)
  [[ -n $shape ]] && args+=(--shape "$shape")
  line="$("$BIN/hk-run" "${args[@]}" 2>>"$OUT/$1.$2.err" | tail -n 1)"
  if [[ $line =~ ^(PASS|FAIL)\ [^\ ]+\ [^\ ]+\ ([^\ ]+)\ (.*):\ max\ abs\ error\ ([^,]+),.*time\ ([^ ]+\ s) ]]; then
    echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}, max err ${BASH_REMATCH[4]}, ${BASH_REMATCH[5]}"
    [[ ${BASH_REMATCH[1]} == PASS ]]
  else
    echo "error: $(grep -m1 -oE "error: .*" "$OUT/$1.$2.err" | cut -c8-70)"
    return 1
  fi
}

failures=0
printf "%-15s %-7s %-7s %-7s %-12s %s\n" example chip verify limits "code object" \
  "run (hk-run, float64 reference)"
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
    run="$(run_cell "$name" "$chip")" || failures=$((failures + 1))
    printf "%-15s %-7s %-7s %-7s %-12s %s\n" "$name" "$chip" "$verify" "$limits" \
      "$codegen" "$run"
  done
done
echo
echo "runs: hk-run KERNEL --chip CHIP --shape ... (bash scripts/bench-emulator.sh for timings)"
echo "diagnostics: $OUT/*.err"
exit $((failures > 0))
