#!/usr/bin/env bash
# ISA simulator timings on one core (taskset -c 0 when available): the
# 512x512x512 bf16 GEMM of kernels/gemm_bf16/ from its gfx942 and gfx950 code
# objects, run and checked against the float64 reference by hk-run
# --device isa, plus the wall and CPU time of the whole hk-run process;
# then the time of one MFMA on each chip. The target
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
    --device isa | tail -n 1)" || status=1
  end=$(date +%s.%N)
  echo "$line"
  awk -v s="$start" -v e="$end" 'BEGIN { printf "  hk-run process wall time: %.3f s\n", e - s }'
  if ((${#TIMER[@]})); then
    # The last line: a failed command adds a status line before it.
    tail -n 1 "$cpu" |
      awk '{ printf "  hk-run process CPU time: %.3f s (user %.3f, system %.3f)\n", $1 + $2, $1, $2 }'
  fi
}

# MFMA throughput: a one-wave kernel of 4096 x 16 back-to-back MFMAs (the
# GEMM's own opcode per chip), run through hk-run --code-object; its launch
# time over 65536 is the cost of one MFMA with its dispatch.
MC="$(command -v llvm-mc-22 || echo /usr/lib/llvm-22/bin/llvm-mc)"
LLD="$(command -v ld.lld-22 || echo /usr/lib/llvm-22/bin/ld.lld)"
mfma() { # chip mnemonic A-registers
  local dir line
  dir="$(mktemp -d)"
  cat > "$dir/k.s" <<EOF
.amdgcn_target "amdgcn-amd-amdhsa--$1"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_mov_b32 s4, 4096
  .irp r, 40, 41, 42, 43, 48, 49, 50, 51, 64, 65, 66, 67
  v_mov_b32 v\\r, 0
  .endr
.Lloop:
  .rept 16
  $2 v[64:67], $3, v[64:67]
  .endr
  s_sub_u32 s4, s4, 1
  s_cmp_lg_u32 s4, 0
  s_cbranch_scc1 .Lloop
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 128
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 128
.end_amdhsa_kernel
EOF
  if "$MC" -triple=amdgcn-amd-amdhsa -mcpu="$1" -filetype=obj "$dir/k.s" \
    -o "$dir/k.o" && "$LLD" -shared "$dir/k.o" -o "$dir/k.hsaco"; then
    line="$("${PIN[@]}" "$RUN" --code-object "$dir/k.hsaco" --chip "$1" \
      --kernel k --grid 1 --block 64 --kernarg '' | tail -n 1)" || status=1
    echo "$line" | awk -v chip="$1" -v op="$2" \
      '{ t = $NF == "s" ? $(NF - 1) : $NF; printf "%s %s: %.0f ns per MFMA (%s)\n", chip, op, t * 1e9 / 65536, $0 }'
  else
    status=1
  fi
  rm -rf "$dir"
}

bench gemm_bf16 512,512,512 gfx942
bench gemm_bf16 512,512,512 gfx950
mfma gfx942 v_mfma_f32_16x16x16_bf16 "v[40:41], v[48:49]"
mfma gfx950 v_mfma_f32_16x16x32_bf16 "v[40:43], v[48:51]"
rm -f "$cpu"
exit $status
