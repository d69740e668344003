#!/usr/bin/env bash
# The hot loops of hk-mlir's kernels next to HipKittens' own (issue 11): a
# benchmark, not a test. Compiles every library kernel (kernels/<name>/) with
# hkc for gfx950 and gfx942, and HipKittens' bf16 GEMM (mi350x, gfx950; mi325x
# of the cdna3 branch, gfx942), its FP8 GEMMs (FP8_8wave and FP8_4wave,
# gfx950; HipKittens has no fp8 kernel for CDNA3) and GQA attention forward
# (d128 and d64, gfx950) from /work/shared/third_party with clang-22, then
# prints one table:
# per kernel and chip, the hot loop's instructions, MFMAs, MFMA-equivalents,
# instructions per MFMA-equivalent, LDS reads/writes, global loads, barriers,
# waits, and the kernel's registers, spills, scratch and waves per SIMD; then
# the pairs of the same computation, ours against HipKittens', with the ratio.
#
# Counts come from the same code for both sides: hkc --report for ours, and
# for HipKittens' kernels hkc --report-asm on clang's assembly (-S), whose
# .amdgpu_metadata gives the resources (lib/Target/AMDGPU/Report.cpp). See
# docs/report.md for what is counted and how the hot loop is chosen.
#
# One MFMA-equivalent is the work of one v_mfma_f32_16x16x32_bf16 (16,384
# FLOP): an MFMA of shape MxNxK counts M*N*K/8192 (32x32x16 = 2, gfx942's
# 16x16x16 = 1/2, 32x32x8 = 1), read from the mnemonic of every v_mfma in the
# hot loop's assembly lines. The K of the mnemonic is the K one instruction
# covers, so 8-bit MFMAs compare by work whatever their form: gfx950's
# v_mfma_f32_16x16x128_f8f6f4 counts 4 and v_mfma_f32_32x32x64_f8f6f4 16,
# the older v_mfma_f32_16x16x32_fp8_fp8 1 (on gfx942 as on gfx950). A hot
# loop on the f8f6f4 form issues a quarter of the MFMAs of one on the
# 16x16x32 form for the same FLOPs, and is compared per FLOP, not per MFMA.
#
# HipKittens is compiled device-only as third_party/README.md describes, from
# a temporary copy of each source with the pyutils include and the
# PYBIND11_MODULE block removed (and, for the attention template, an explicit
# instantiation of attend_ker<ATTN_D>), the source's own folder on the
# include path (the FP8 kernels include ./utils.cpp and ../profile_utils.cpp)
# and, for the FP8 kernels, their `#include <omp.h>` dropped: clang-22 has
# no OpenMP header here, and without -fopenmp their host-side
# `#pragma omp` lines are ignored anyway (the FP8 sources instantiate
# matmul_device<8192, 8192, 8192> from main); the ockl functions the kernels call
# are defined in a small C file compiled to bitcode for the chip and linked
# with -mlink-builtin-bitcode. Nothing under third_party is modified.
#
# Usage: bash scripts/bench-hotloops.sh (after a build; BUILD_DIR overrides
# build/, THIRD_PARTY overrides /work/shared/third_party, CLANG overrides
# clang++-22).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
HKC="$BUILD_DIR/bin/hkc"
TP="${THIRD_PARTY:-/work/shared/third_party}"
CLANG="${CLANG:-clang++-22}"
CLANG_C="${CLANG_C:-clang-22}"
LLVM_AS="${LLVM_AS:-/usr/lib/llvm-22/bin/llvm-as}"
CHIPS=(gfx950 gfx942)

[[ -x $HKC ]] || { echo "bench-hotloops: $HKC is not built" >&2; exit 1; }
for tool in "$CLANG" "$CLANG_C" "$LLVM_AS"; do
  command -v "$tool" >/dev/null ||
    { echo "bench-hotloops: $tool not found" >&2; exit 1; }
done
[[ -d $TP/hipkittens-main && -d $TP/hipkittens-cdna3 && -d $TP/hip ]] ||
  { echo "bench-hotloops: HipKittens sources not found under $TP" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
ROWS="$WORK/rows"
: >"$ROWS"

# Rows (tab-separated) of a report: source, chip, kernel, then the counts.
# Functions without resources in the code object (device functions) are
# left out. The MFMA-equivalents come from the assembly lines of the range.
rows_of_report() {
  local source=$1 chip=$2 report=$3 asm=$4
  awk '
    /^[^ ].*: (hot loop|no loop)/ {
      kernel = $1; sub(/:$/, "", kernel)
      match($0, /assembly lines [0-9]+-[0-9]+/)
      split(substr($0, RSTART + 15, RLENGTH - 15), r, "-")
      first = r[1]; last = r[2]
    }
    /^  (per iteration|whole kernel):/ {
      line = $0; sub(/^[^:]*: /, "", line); split(line, f, " ")
      instr = f[1]; mfma = f[3]
    }
    /^    lds:/ { ldsr = $2; ldsw = $4 }
    /^    global:/ { gl = $2; gllds = $4; sub(/\(/, "", gllds) }
    /^    sync:/ { bar = $2; wait = $4 }
    /^  resources: [0-9]/ {
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
        kernel, first, last, instr, mfma, ldsr, ldsw, gl, gllds, bar, wait,
        $2, $4, $6, $14, $11, $16
    }' "$report" |
    while IFS=$'\t' read -r kernel first last rest; do
      local eq
      eq="$(sed -n "${first},${last}p" "$asm" | awk '
        $1 ~ /^v_mfma/ && match($1, /[0-9]+x[0-9]+x[0-9]+/) {
          split(substr($1, RSTART, RLENGTH), s, "x")
          eq += s[1] * s[2] * s[3] / 8192
        }
        END { printf "%g", eq }')"
      printf "%s\t%s\t%s\t%s\t%s\n" "$source" "$chip" "$kernel" "$eq" "$rest"
    done >>"$ROWS"
}

echo "=== hk-mlir: hkc --emit=asm --report"
for dir in $(cd "$ROOT/kernels" && LC_ALL=C ls -d -- */); do
  name="${dir%/}"
  for chip in "${CHIPS[@]}"; do
    out="$WORK/$name"
    if "$HKC" "$ROOT/kernels/$name/$name.mlir" --chip "$chip" --emit=asm \
      --report -o "$out" >"$WORK/report" 2>"$WORK/err"; then
      rows_of_report hk-mlir "$chip" "$WORK/report" "$out.$chip.s"
    else
      echo "$name, $chip: hkc failed:" >&2
      cat "$WORK/err" >&2
    fi
  done
done

# The ockl functions HipKittens' kernels call (ids, counts, wave votes),
# always inlined; without target attributes, so that they inline into a
# kernel of any feature set, and with the signatures of ROCm's ockl (the
# wave votes return bool).
cat >"$WORK/ockl.c" <<'EOF'
typedef unsigned long uint64_t;
typedef unsigned int uint32_t;
typedef unsigned short uint16_t;
#define OCKL __attribute__((always_inline))
#define CONST_PTR(T) const __attribute__((address_space(4))) T *
OCKL uint64_t __ockl_get_local_id(uint32_t d) {
  return d == 0 ? __builtin_amdgcn_workitem_id_x()
       : d == 1 ? __builtin_amdgcn_workitem_id_y()
       : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}
OCKL uint64_t __ockl_get_group_id(uint32_t d) {
  return d == 0 ? __builtin_amdgcn_workgroup_id_x()
       : d == 1 ? __builtin_amdgcn_workgroup_id_y()
       : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0;
}
/* Code object v5 implicit arguments: hidden_block_count_x/y/z at bytes
   0/4/8, hidden_group_size_x/y/z at bytes 12/14/16. */
OCKL uint64_t __ockl_get_num_groups(uint32_t d) {
  CONST_PTR(uint32_t) a = (CONST_PTR(uint32_t))__builtin_amdgcn_implicitarg_ptr();
  return d < 3 ? a[d] : 1;
}
OCKL uint64_t __ockl_get_local_size(uint32_t d) {
  CONST_PTR(uint16_t) a = (CONST_PTR(uint16_t))__builtin_amdgcn_implicitarg_ptr();
  return d < 3 ? a[6 + d] : 1;
}
OCKL _Bool __ockl_wfall_i32(int p) {
  return __builtin_amdgcn_ballot_w64(p != 0) == __builtin_amdgcn_read_exec();
}
OCKL _Bool __ockl_wfany_i32(int p) {
  return __builtin_amdgcn_ballot_w64(p != 0) != 0;
}
EOF
for chip in "${CHIPS[@]}"; do
  "$CLANG_C" -x c -target amdgcn-amd-amdhsa -mcpu="$chip" -nogpulib -O3 -S \
    -emit-llvm "$WORK/ockl.c" -o - |
    sed -E 's/ "target-(cpu|features)"="[^"]*"//g' |
    "$LLVM_AS" -o "$WORK/ockl-$chip.bc" ||
    { echo "bench-hotloops: cannot build the ockl bitcode for $chip" >&2; exit 1; }
done

# hipkittens NAME CHIP BRANCH SOURCE [EXTRA LINE]: compile a copy of SOURCE
# (pybind removed, EXTRA LINE appended) and add its rows.
hipkittens() {
  local name=$1 chip=$2 branch=$3 source=$4 extra=${5:-}
  local define=KITTENS_CDNA4
  [[ $branch == hipkittens-cdna3 ]] && define=KITTENS_CDNA3
  local copy="$WORK/hk-$name.cpp"
  awk '/^#include "pyutils\/pyutils.cuh"/ { next }
       /^#include <omp.h>/ { next }
       /^PYBIND11_MODULE/ { exit }
       { print }' "$TP/$branch/$source" >"$copy"
  [[ -n $extra ]] && echo "$extra" >>"$copy"
  local flags=(-x hip -std=c++20 --offload-arch="$chip" --offload-device-only
    --no-gpu-bundle-output -nogpulib --rocm-path="$TP/hip"
    -D__AMDGCN_WAVEFRONT_SIZE=64 -D"$define" -I "$TP/$branch/include"
    -I "$TP/$branch/$(dirname "$source")"
    -I "$TP/hip/include/hip" -Wno-invalid-constexpr -O3
    -Xclang -mlink-builtin-bitcode -Xclang "$WORK/ockl-$chip.bc")
  if "$CLANG" "${flags[@]}" -S "$copy" -o "$WORK/hk-$name.s" 2>"$WORK/err" &&
    "$HKC" --report-asm "$WORK/hk-$name.s" --chip "$chip" \
      >"$WORK/report" 2>>"$WORK/err"; then
    # HipKittens' kernels are C++ symbols; name the row after the source.
    rows_of_report HipKittens "$chip" "$WORK/report" "$WORK/hk-$name.s"
    sed -i "\$s/\t_Z[^\t]*\t/\t$name\t/" "$ROWS"
  else
    echo "HipKittens $name, $chip: compile failed:" >&2
    grep -E 'error' "$WORK/err" >&2
  fi
}

echo "=== HipKittens: $CLANG device-only, $TP"
hipkittens gemm_mi350x gfx950 hipkittens-main \
  kernels/gemm/bf16fp32/mi350x/256_256_64_32_with16x32.cpp
hipkittens gemm_mi325x gfx942 hipkittens-cdna3 \
  kernels/gemm/bf16fp32/mi325x/8192_256_256_64_16/256_256_64_16.cpp
hipkittens fp8_8wave gfx950 hipkittens-main \
  kernels/gemm/fp8fp32/FP8_8wave/8_wave.cu
hipkittens fp8_4wave gfx950 hipkittens-main \
  kernels/gemm/fp8fp32/FP8_4wave/4_wave.cu
hipkittens gqa_fwd_d128 gfx950 hipkittens-main kernels/attn/gqa/kernel.cpp \
  'template __global__ void attend_ker<ATTN_D>(const attn_globals<ATTN_D> g);'
hipkittens gqa_fwd_d64 gfx950 hipkittens-main kernels/attn/gqa/kernel_d64.cpp \
  'template __global__ void attend_ker<ATTN_D>(const attn_globals<ATTN_D> g);'

echo
echo "=== hot loops (per iteration; the whole kernel where there is no loop)"
echo
echo "| source | chip | kernel | instr | mfma | mfma-eq | instr/mfma-eq | lds read/write | global loads (to lds) | s_barrier | s_waitcnt | vgpr/agpr/sgpr | spills | scratch bytes | waves/SIMD |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'\t' '{
  per = ($4 > 0) ? sprintf("%.2f", $5 / $4) : "-"
  printf "| %s | %s | %s | %s | %s | %s | %s | %s/%s | %s (%s) | %s | %s | %s/%s/%s | %s | %s | %s |\n",
    $1, $2, $3, $5, $6, $4, per, $7, $8, $9, $10, $11, $12, $13, $14, $15,
    $16, $17, $18
}' "$ROWS"

# The same computation on both sides: ours, HipKittens', and ours / theirs
# of instructions per MFMA-equivalent (below 1: fewer than HipKittens).
echo
echo "=== ours against HipKittens (instructions per MFMA-equivalent)"
echo
echo "| chip | hk-mlir kernel | HipKittens kernel | ours | HipKittens | ours / HipKittens | spills ours / HK | waves ours / HK |"
echo "|---|---|---|---|---|---|---|---|"
pair() {
  local chip=$1 ours=$2 theirs=$3
  awk -F'\t' -v chip="$chip" -v ours="$ours" -v theirs="$theirs" '
    $2 == chip && $1 == "hk-mlir" && $3 == ours { o = $5 / $4; os = $16; ow = $18; fo = 1 }
    $2 == chip && $1 == "HipKittens" && $3 == theirs { t = $5 / $4; ts = $16; tw = $18; ft = 1 }
    END {
      if (!fo || !ft) {
        printf "| %s | %s | %s | %s | %s | - | | |\n", chip, ours, theirs,
          fo ? sprintf("%.2f", o) : "not built", ft ? sprintf("%.2f", t) : "not built"
        exit
      }
      printf "| %s | %s | %s | %.2f | %.2f | %.2f | %s / %s | %s / %s |\n",
        chip, ours, theirs, o, t, o / t, os, ts, ow, tw
    }' "$ROWS"
}
pair gfx950 gemm_bf16 gemm_mi350x
pair gfx942 gemm_bf16 gemm_mi325x
pair gfx950 gemm_fp8 fp8_8wave
pair gfx950 gemm_fp8 fp8_4wave
pair gfx950 gemm_fp8_tensor fp8_8wave
pair gfx950 attention_fwd_d128 gqa_fwd_d128
pair gfx950 attention_fwd_d64 gqa_fwd_d64

# HipKittens has no fp8 GEMM for CDNA3: there the fp8 GEMM is set beside our
# bf16 GEMM (the same tile and schedule, twice the K per MFMA-equivalent).
versus_bf16() {
  local chip=$1
  awk -F'\t' -v chip="$chip" '
    $1 == "hk-mlir" && $2 == chip && $3 == "gemm_fp8" { f = $5 / $4 }
    $1 == "hk-mlir" && $2 == chip && $3 == "gemm_bf16" { b = $5 / $4 }
    END {
      if (f && b)
        printf "| %s | gemm_fp8 | gemm_bf16 | %.2f | %.2f | %.2f |\n", chip, f, b, f / b
      else
        printf "| %s | gemm_fp8 | gemm_bf16 | not built | | |\n", chip
    }' "$ROWS"
}
echo
echo "=== fp8 against bf16 where HipKittens has no fp8 kernel (ours)"
echo
echo "| chip | fp8 kernel | bf16 kernel | fp8 instr/mfma-eq | bf16 instr/mfma-eq | fp8 / bf16 |"
echo "|---|---|---|---|---|---|"
versus_bf16 gfx942
