#!/usr/bin/env bash
# One table (Markdown) of the code-quality report (docs/report.md) of every
# kernel of the library on gfx942 and gfx950 along both paths: as hkc
# compiles it (hkc --report) and as its HipKittens translation compiles
# (hk-translate --hk-to-hipkittens, then Debian's clang++ against the
# HipKittens tree of the chip, device only, as test/Target/HipKittens does;
# hkc --report-asm on clang's assembly). The trees are the build's
# HK_HIPKITTENS_MAIN_DIR, HK_HIPKITTENS_CDNA3_DIR and HK_HIP_DIR.
#
# HipKittens kernels take their shared tiles from dynamic LDS, which the code
# object's metadata does not hold: the "lds" column of the HipKittens rows is
# the static LDS (the relayout scratch) plus the launcher's dynamic bytes,
# and their waves/SIMD (from the metadata) counts the registers only.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BIN="$BUILD_DIR/bin"
LLVM_BIN=/usr/lib/llvm-22/bin
cache() { sed -n "s/^$1:[A-Z]*=//p" "$BUILD_DIR/CMakeCache.txt"; }
MAIN_DIR="$(cache HK_HIPKITTENS_MAIN_DIR)"
CDNA3_DIR="$(cache HK_HIPKITTENS_CDNA3_DIR)"
HIP_DIR="$(cache HK_HIP_DIR)"
for tool in hkc hk-translate; do
  if [[ ! -x "$BIN/$tool" ]]; then
    echo "report-hipkittens: $BIN/$tool is not built" >&2
    exit 1
  fi
done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Rows of one report: kernel, hot loop counts, resources, waterfall loops.
# $4: "name bytes" lines of dynamic LDS per kernel (HipKittens path).
summarize() {
  local kernel=$1 chip=$2 path=$3 dynamic=$4
  awk -v ex="$kernel" -v chip="$chip" -v path="$path" -v dynfile="$dynamic" \
    -v demangler="$LLVM_BIN/llvm-cxxfilt" '
    BEGIN { while (dynfile != "" && (getline line < dynfile) > 0) { split(line, d, " "); dyn[d[1]] = d[2] } }
    /^[^ ].*: (hot loop|no loop)/ {
      name = $1; sub(/:$/, "", name)
      cmd = demangler " " name; pretty = name
      cmd | getline pretty; close(cmd); sub(/\(.*/, "", pretty)
      loop = ($2 == "hot") ? "loop" : "none"
    }
    /^  (per iteration|whole kernel):/ {
      line = $0; sub(/^[^:]*: /, "", line); split(line, f, " ")
      instr = f[1]; mfma = f[3]
    }
    /^    lds:/ { ds = $2 "/" $4 }
    /^    global:/ { gl = $2 }
    /^    sync:/ { bar = $2; wait = $4 }
    /^    scratch:/ { spill = $2 }
    /^  resources:/ { vgpr = $2; agpr = $4; sgpr = $6; lds = $8; sbytes = $11; spills = $14; waves = $16 }
    /^  waterfall loops:/ {
      if (pretty in dyn) lds = lds " + " dyn[pretty]
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | %s | %s/%s | %s | %s | %s | %s | %s |\n",
        ex, chip, path, pretty, loop, instr, mfma, ds, gl, bar, wait, spill,
        vgpr, agpr, sgpr, lds, spills, waves, $3
    }'
}

ROWS="$WORK/rows"
: > "$ROWS"
for dir in $(cd "$ROOT/kernels" && LC_ALL=C ls -d -- */); do
  name="${dir%/}"
  src="$ROOT/kernels/$name/$name.mlir"
  for chip in gfx942 gfx950; do
    if [[ $chip == gfx950 ]]; then
      tree="$MAIN_DIR" macro=KITTENS_CDNA4
    else
      tree="$CDNA3_DIR" macro=KITTENS_CDNA3
    fi
    echo "=== $name, $chip, hkc" >&2
    if "$BIN/hkc" "$src" --chip "$chip" --report -o "$WORK/$name" >"$WORK/report" 2>"$WORK/err"; then
      summarize "$name" "$chip" hkc "" <"$WORK/report" >>"$ROWS"
    else
      cat "$WORK/err" >&2
    fi
    echo "=== $name, $chip, HipKittens C++" >&2
    cpp="$WORK/$name.$chip.cpp"
    if "$BIN/hk-translate" --hk-to-hipkittens --chip $chip "$src" -o "$cpp" &&
      "$LLVM_BIN/clang++" -x hip -std=c++20 --offload-arch=$chip \
        --offload-device-only -fgpu-rdc -nogpulib -nogpuinc -emit-llvm -O2 \
        -c "$ROOT/test/Target/HipKittens/Inputs/ockl.hip" -o "$WORK/ockl.bc" &&
      "$LLVM_BIN/clang++" -x hip -std=c++20 --offload-arch=$chip \
        --offload-device-only --no-gpu-bundle-output -nogpulib \
        --rocm-path="$HIP_DIR" -D__AMDGCN_WAVEFRONT_SIZE=64 -D$macro \
        -isystem "$tree/include" -isystem "$HIP_DIR/include/hip" \
        -Wno-invalid-constexpr -O3 -Xclang -mlink-builtin-bitcode \
        -Xclang "$WORK/ockl.bc" -S "$cpp" -o "$WORK/$name.s" &&
      "$BIN/hkc" --report-asm "$WORK/$name.s" --chip $chip >"$WORK/report"; then
      # The launchers' dynamic LDS, per kernel: "launch_<k>" ... "shared_bytes = N".
      awk '/^extern "C" hipError_t launch_/ { k = $4; sub(/^launch_/, "", k); sub(/\(.*/, "", k) }
           /const size_t shared_bytes = / { v = $5; sub(/;/, "", v); print k, v }' \
        "$cpp" >"$WORK/dynamic"
      cat "$WORK/report" >&2
      summarize "$name" "$chip" "HipKittens C++" "$WORK/dynamic" <"$WORK/report" >>"$ROWS"
    fi
  done
done

echo "| example | chip | path | kernel | hot | instr | mfma | ds read/write | global loads | s_barrier/s_waitcnt | scratch ops | vgpr/agpr | sgpr | lds bytes | spills | waves/SIMD | waterfall loops |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
cat "$ROWS"
