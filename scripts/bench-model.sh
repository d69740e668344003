#!/usr/bin/env bash
# The ISA simulator's timing model against hardware (issue 30): a benchmark,
# not a test. Compiles HipKittens' own kernels from ../shared/third_party
# with clang 22 (bf16 GEMM mi350x for gfx950 and, from the cdna3 branch,
# mi325x for gfx942; attention forward D = 128, GQA and MHA, causal and not;
# attention backward, its prep, main and dQ shuffle launches) at every shape
# of HipKittens' measurements (analysis/ of its main tree), runs each launch
# through `hk-run --code-object ... --timing`, and prints measured against
# modelled TFLOP/s with the ratio and the bound, then
#   model vs measured: median error X%, N of M within 20%
# Then our library's kernels in timing mode (`hk-run KERNEL --shape ...
# --device isa --timing`) at the paper's shapes beside HipKittens' modelled
# and measured figures, ending with
#   ours vs HipKittens (modelled): N of M rows at or above
# Pictures of both tables (matplotlib) and the text go to the output
# directory. docs/timing.md ("Validation") says what is compiled, what had
# to be changed in HipKittens' sources, and gives the tables.
#
# Usage: bash scripts/bench-model.sh [--quick] [--out DIR]
#   --quick     the GEMM at 1024 and 2048 on gfx950 only (under a minute)
#   --out DIR   where the text, the pictures and the compiled code objects
#               go (default build/bench-model/; code objects are cached
#               there by the hash of their source and command)
# Environment: BUILD_DIR (default build/), HK_THIRD_PARTY (a folder holding
# hipkittens-main, hipkittens-cdna3 and hip; default: the trees the build
# was configured with), CLANG (default /usr/lib/llvm-22/bin/clang++),
# BENCH_MODEL_LONG=1 to include the points estimated at more than two
# minutes of host time each, and to let runs of ours go on past five
# minutes (otherwise stopped).
# Points run one after another; one compile runs beside them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="$BUILD_DIR/bench-model"
QUICK=()
while (($#)); do
  case "$1" in
  --quick) QUICK=(--quick) ;;
  --out)
    OUT="${2:?--out needs a directory}"
    shift
    ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "bench-model: unknown option $1 (--quick, --out DIR)" >&2
    exit 2
    ;;
  esac
  shift
done

[[ -x $BUILD_DIR/bin/hk-run ]] ||
  { echo "bench-model: $BUILD_DIR/bin/hk-run is not built" >&2; exit 1; }
PYTHON="$(sed -n 's/^HK_PYTHON:FILEPATH=//p' "$BUILD_DIR/CMakeCache.txt" 2>/dev/null)"
exec "${PYTHON:-/usr/bin/python3}" "$ROOT/scripts/bench-model.py" \
  "${QUICK[@]}" --out "$OUT" --build "$BUILD_DIR" --src "$ROOT"
