#!/usr/bin/env bash
# The sanitizer and fuzzing step of CI (.ci/run calls it after
# scripts/test.sh; docs/fuzzing.md). It sets up (scripts/setup.sh: the
# packages, clang's sanitizer runtimes among them, and the ordinary build,
# whose artifacts seed the fuzzers), configures a second build directory with
# ASan and UBSan and the libFuzzer targets (HK_SANITIZE, HK_FUZZ), builds
# only the libraries, the unit tests and the fuzz targets there, then runs:
#   - every unit test program (GoogleTest) under the sanitizers;
#   - each fuzz target on its regression inputs (fuzz/regressions/TARGET);
#   - each fuzz target for FUZZ_SECONDS from the suite's seeds (a smoke run).
# A sanitizer report, a crash or a fuzz finding is a failure; a finding's
# input is left in ASAN_BUILD_DIR/fuzz/crashes/TARGET, to be added to
# fuzz/regressions/TARGET with its fix. Ends with one line: "N passed,
# N failed" (each unit test, each target's replay and each smoke run).
#   BUILD_DIR       the ordinary build (default: <repo>/build)
#   ASAN_BUILD_DIR  the sanitizer build (default: <repo>/build-asan)
#   FUZZ_SECONDS    length of each smoke run (default: 60)
#   HK_SANITIZE_COMPILER  0 to leave out the compiler half (libhkc, its
#                   tests and hk-fuzz-hkc; default 1)
#   HK_FUZZ_HKC_SMOKE  0 to leave out hk-fuzz-hkc's smoke run (default 1;
#                   its regression inputs are replayed either way)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
ASAN_DIR="${ASAN_BUILD_DIR:-$ROOT/build-asan}"
FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
LLVM_BIN=/usr/lib/llvm-22/bin
TARGETS=(artifact isa)
SMOKE_TARGETS=(artifact isa)
UNIT_TESTS=(Base/HKBaseTests Dialect/HKDialectTests Runtime/HKRuntimeTests)
# The compiler half (libhkc under the sanitizers, its unit tests and the
# hk-fuzz-hkc target) adds a sanitized build of every pass and of LLVM's
# AMDGPU code generation glue. Measured on the two-core machine with ccache
# bypassed: 48 of its 65 compiles took 537 s of CPU (12 minutes of wall time
# there, shared with other builds at a load of about 6), so from an empty
# cache an estimated 7 minutes on two idle cores, beside the runtime
# half's 4.
# libFuzzer executes every seed inside the smoke run's clock, and the whole
# hkc set takes 10 to 20 minutes under ASan (docs/fuzzing.md), so hkc's
# smoke run starts from the smallest lit-test kernels only (gather-seeds'
# hkc-smoke set); hkc's regression inputs are replayed always.
# HK_SANITIZE_COMPILER=0 leaves it out (the runtime half only).
if [[ "${HK_SANITIZE_COMPILER:-1}" != 0 ]]; then
  TARGETS+=(hkc)
  [[ "${HK_FUZZ_HKC_SMOKE:-1}" != 0 ]] && SMOKE_TARGETS+=(hkc)
  UNIT_TESTS+=(Runtime/HKKernelInfoTests Target/HKTargetTests
               Target/HKCApiTests)
fi

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }
finish() {
  echo "sanitizers: $passed passed, $failed failed"
  echo "$passed passed, $failed failed"
  exit $((failed ? 1 : 0))
}

bash "$ROOT/scripts/setup.sh" || { fail "set-up"; finish; }

# -O1 with line tables: the sanitizers' usual trade between speed and
# readable reports.
if [[ ! -f "$ASAN_DIR/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$ASAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_C_COMPILER="$LLVM_BIN/clang" \
    -DCMAKE_CXX_COMPILER="$LLVM_BIN/clang++" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DHK_SANITIZE=address,undefined -DHK_FUZZ=ON ||
    { fail "configure $ASAN_DIR"; finish; }
fi
targets=(hkrt hkrt-fake-hip)
for t in "${TARGETS[@]}"; do targets+=("hk-fuzz-$t"); done
for t in "${UNIT_TESTS[@]}"; do targets+=("$(basename "$t")"); done
cmake --build "$ASAN_DIR" --target "${targets[@]}" ||
  { fail "build $ASAN_DIR"; finish; }

# Reports go to stderr with a stack; any one ends the program (UBSan is
# built not to recover). Leaks count too.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# One unit test program: its GoogleTest counts, or one failure if it ended
# without them (a sanitizer report stops it mid-run).
run_unit() {
  "$ASAN_DIR/unittests/$1" >"$log" 2>&1
  local status=$? ok bad
  ok=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?\..*/\1/p' "$log")
  bad=$(sed -nE 's/^\[  FAILED  \] ([0-9]+) tests?,.*/\1/p' "$log")
  grep -E '^\[  FAILED  \] [A-Za-z]|ERROR: .*Sanitizer|runtime error:' "$log"
  if ((status != 0)) && [[ -z "$bad" ]]; then
    tail -40 "$log"
    fail "$1 (exit status $status, stopped before its summary)"
    return
  fi
  passed=$((passed + ${ok:-0}))
  failed=$((failed + ${bad:-0}))
  echo "$1: ${ok:-0} passed, ${bad:-0} failed"
}
for t in "${UNIT_TESTS[@]}"; do run_unit "$t"; done

# The regression inputs, each once (libFuzzer runs the files it is given).
for t in "${TARGETS[@]}"; do
  mapfile -t inputs < <(find "$ROOT/fuzz/regressions/$t" -type f | sort)
  if "$ASAN_DIR/bin/hk-fuzz-$t" "${inputs[@]}" >"$log" 2>&1; then
    pass "fuzz/regressions/$t (${#inputs[@]} inputs)"
  else
    tail -40 "$log"
    fail "fuzz/regressions/$t"
  fi
done

# The smoke runs, from the suite's seeds; new coverage is kept in
# ASAN_BUILD_DIR/fuzz/corpus for the next run.
seeds="$(mktemp -d)"
bash "$ROOT/fuzz/gather-seeds.sh" "$BUILD_DIR" "$seeds" ||
  { fail "gathering the seeds"; finish; }
for t in "${SMOKE_TARGETS[@]}"; do
  corpus="$ASAN_DIR/fuzz/corpus/$t" crashes="$ASAN_DIR/fuzz/crashes/$t/"
  mkdir -p "$corpus" "$crashes"
  # hkc.h: a compile LLVM stops with a fatal error is recovered by a jump
  # out of LLVM's frames, which leaves that compile's memory unfreed (the
  # suite's own Compiler/Inputs/backend-fatal.mlir does so), so libFuzzer's
  # per-input leak check is off for hkc, and so is LeakSanitizer's check
  # at exit, which would report the same memory once the run ends;
  # libhkc's unit tests and the replays still end with LeakSanitizer's
  # check.
  # attention_decode (in the larger seed sets, and in a corpus kept from
  # longer runs) takes 65 to 165 s to compile with the ordinary build
  # on a loaded two-core machine, longer under ASan and coverage: hkc's
  # limit for one input is 600 s, the others' 60 s.
  flags=(-timeout=60) asan_options="$ASAN_OPTIONS" seed_dir="$seeds/$t"
  if [[ "$t" == hkc ]]; then
    flags=(-detect_leaks=0 -timeout=600)
    asan_options="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}"
    seed_dir="$seeds/hkc-smoke"
  fi
  if ASAN_OPTIONS="$asan_options" "$ASAN_DIR/bin/hk-fuzz-$t" "${flags[@]}" \
    -max_total_time="$FUZZ_SECONDS" \
    -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$crashes" "$corpus" "$seed_dir" >"$log" 2>&1; then
    pass "hk-fuzz-$t, $FUZZ_SECONDS s: $(sed -nE \
      's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log") inputs"
  else
    tail -60 "$log"
    fail "hk-fuzz-$t: a finding, kept in $crashes"
  fi
done
rm -rf "$seeds"
finish
