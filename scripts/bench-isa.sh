#!/usr/bin/env bash
# ISA simulator timings on one core (taskset -c 0 when available): the
# 512x512x512 bf16 GEMM of kernels/gemm_bf16/ from its gfx942 and gfx950 code
# objects, run and checked against the float64 reference by hk-run
# --backend isa, plus the wall time of the whole hk-run process. The target
# is under 20 s per run (docs/isa-simulator.md). Usage: bash
# scripts/bench-isa.sh (after a build; BUILD_DIR overrides build/).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
RUN="$BUILD_DIR/bin/hk-run"
[[ -x $RUN ]] || { echo "error: $RUN not built"; exit 1; }

PIN=()
if command -v taskset >/dev/null; then
  PIN=(taskset -c 0)
  echo "one core: taskset -c 0"
else
  echo "taskset not found: timings use every core the process gets"
fi

status=0
# The process's CPU time as well as its wall time: on a machine shared with
# other work the wall time (and the launch time hk-run prints) grows with
# the contention, the CPU time much less.
TIMER=()
cpu="$(mktemp)"
[[ -x /usr/bin/time ]] && TIMER=(/usr/bin/time -o "$cpu" -f "%U %S")

bench() { # kernel shape chip
  local line start end
  start=$(date +%s.%N)
  line="$("${TIMER[@]}" "${PIN[@]}" "$RUN" "$1" --shape "$2" --chip "$3" \
    --backend isa | tail -n 1)" || status=1
  end=$(date +%s.%N)
  echo "$line"
  awk -v s="$start" -v e="$end" 'BEGIN { printf "  hk-run process wall time: %.3f s\n", e - s }'
  if ((${#TIMER[@]})); then
    # The last line: a failed command adds a status line before it.
    tail -n 1 "$cpu" |
      awk '{ printf "  hk-run process CPU time: %.3f s (user %.3f, system %.3f)\n", $1 + $2, $1, $2 }'
  fi
}

bench gemm 512,512,512 gfx942
bench gemm 512,512,512 gfx950
rm -f "$cpu"
exit $status
