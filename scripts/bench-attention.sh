#!/usr/bin/env bash
# ISA simulator time of attention forward (kernels/attention_fwd/) at B=1,
# H=4 (H_kv=4), N=512, D=128, not causal, on one core (taskset -c 0 when
# available), for both chips' code objects, run and checked by hk-run. Prints
# hk-run's summary (its time is the launch to completion) and the process's
# wall, user and system time. Usage: bash scripts/bench-attention.sh (after a
# build; BUILD_DIR overrides build/).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
RUN="$BUILD_DIR/bin/hk-run"
[[ -x $RUN ]] || { echo "error: $RUN not built"; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

PIN=()
if command -v taskset >/dev/null; then
  PIN=(taskset -c 0)
  echo "one core: taskset -c 0"
else
  echo "taskset not found: timings use every core the process gets"
fi

status=0
for chip in $("$BUILD_DIR/bin/hk-chips"); do
  start=$(date +%s.%N)
  times="$( { TIMEFORMAT='user %U s, sys %S s'; time "${PIN[@]}" "$RUN" \
    attention_fwd --shape 1,4,4,512,128,0 --chip "$chip" --device isa \
    >"$TMP/out" 2>&1; } 2>&1 )" || status=1
  end=$(date +%s.%N)
  tail -n 1 "$TMP/out"
  printf "  process: wall %.2f s, %s\n" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$times"
done
exit $status
