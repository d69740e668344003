#!/usr/bin/env bash
# Prints hkc's code-quality report (docs/report.md) for every kernel of the
# library (each directory kernels/<name>/) on every chip of the table it
# supports (build/bin/hk-chips; its chips.txt, else all), once as hkc
# compiles it (hk-schedule expands hk.ping_pong and hk.interleave) and once
# with --no-schedule, then one summary table (Markdown) of all of them.
#
# --no-schedule inlines hk.ping_pong and hk.interleave without the
# schedule's priorities, fences, sched_group hints and wave-group stagger (a
# ping-pong cluster still ends with a barrier); kernels without schedule
# regions compile the same either way. A variant hkc cannot compile is
# reported as not available, with hkc's error.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
HKC="$BUILD_DIR/bin/hkc"
MODES=(scheduled unscheduled)

if [[ ! -x "$HKC" ]]; then
  echo "report-examples: $HKC is not built" >&2
  exit 1
fi
mapfile -t CHIPS < <("$BUILD_DIR/bin/hk-chips")
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
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# One table row per kernel of an hkc --report output.
summarize() {
  local example=$1 chip=$2 mode=$3
  awk -v ex="$example" -v chip="$chip" -v mode="$mode" '
    /^[^ ].*: (hot loop|no loop)/ {
      kernel = $1; sub(/:$/, "", kernel)
      loop = ($2 == "hot") ? $4 : "none"
      if (loop != "none") sub(/,$/, "", loop)
      nested = ""
    }
    /holds [0-9]+ nested loops/ { nested = " (+" $5 " nested)" }
    /^  (per iteration|whole kernel):/ {
      line = $0; sub(/^[^:]*: /, "", line); split(line, f, " ")
      instr = f[1]; mfma = f[3]; share = f[5]; gsub(/[()]/, "", share)
    }
    /^    lds:/ { ds = $2 "/" $4 }
    /^    global:/ { gl = $2; lds = $4; sub(/\(/, "", lds); st = $7; at = $9 }
    /^    sync:/ { bar = $2; wait = $4 }
    /^    scratch:/ { spill = $2 }
    /^  resources:/ {
      # resources: V vgpr, A agpr, S sgpr, L lds bytes, B scratch bytes, ...
      printf "| %s | %s | %s | %s | %s%s | %s | %s (%s) | %s | %s (%s) | %s | %s | %s | %s | %s/%s | %s | %s | %s |\n",
        ex, chip, mode, kernel, loop, nested, instr, mfma, share, ds, gl, lds,
        st + at, bar, wait, spill, $2, $4, $8, $11, $16
    }'
}

ROWS="$WORK/rows"
: > "$ROWS"
# In the byte order of the names, as hk-run --list and CMake order them.
for dir in $(cd "$ROOT/kernels" && LC_ALL=C ls -d -- */); do
  name="${dir%/}"
  src="$ROOT/kernels/$name/$name.mlir"
  for chip in $(kernel_chips "$name"); do
    for mode in "${MODES[@]}"; do
      flags=(--chip "$chip" --report -o "$WORK/$name")
      [[ $mode == unscheduled ]] && flags+=(--no-schedule)
      echo "=== $name.mlir, $chip, $mode"
      if "$HKC" "$src" "${flags[@]}" >"$WORK/report" 2>"$WORK/err"; then
        cat "$WORK/report"
        summarize "$name" "$chip" "$mode" <"$WORK/report" >>"$ROWS"
      else
        reason="$(grep -m1 -oE 'error: .*' "$WORK/err" | cut -c8-)"
        echo "not available: ${reason:-hkc failed, see below}"
        [[ -n $reason ]] || cat "$WORK/err"
        echo "| $name | $chip | $mode | not available | | | | | | | | | | | | | |" \
          >>"$ROWS"
      fi
      echo
    done
  done
done

echo "=== summary (hot loop per iteration, or whole kernel if it has no loop)"
echo
echo "| example | chip | schedule | kernel | hot loop | instr | mfma (share) | ds read/write | global loads (to lds) | global stores+atomics | s_barrier | s_waitcnt | scratch ops | vgpr/agpr | lds bytes | scratch bytes | waves/SIMD |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
cat "$ROWS"
