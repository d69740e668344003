#!/usr/bin/env bash
# Emulator timings of library kernels on one core (taskset -c 0 when
# available): the 512x512x512 bf16 GEMM of kernels/gemm_bf16/, for both
# chips' lowerings, run and checked by hk-run. Usage: bash
# scripts/bench-emulator.sh (after a build; BUILD_DIR overrides build/).
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
bench() { # kernel shape chip
  local line
  line="$("${PIN[@]}" "$RUN" "$1" --shape "$2" --chip "$3" \
    --backend emulator | tail -n 1)" || status=1
  echo "$line"
}

bench gemm 512,512,512 gfx942
bench gemm 512,512,512 gfx950
# attention_fwd: to be added with its library entry.
exit $status
