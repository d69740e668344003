#!/usr/bin/env bash
# Prints the ISA simulator's opcode coverage: per family, how many of the
# opcodes LLVM's AMDGPU disassembler produces for gfx942 and gfx950 the
# simulator runs, ending with "coverage: gfx942 X%, gfx950 Y%". Arguments go
# to the tool (build/bin/hk-isa-coverage): --missing lists the opcodes not
# covered, --opcodes-of FILE... those of code objects or artifacts.
# docs/isa-simulator.md, "Coverage", says how coverage is counted.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
tool="$BUILD_DIR/bin/hk-isa-coverage"
if [[ ! -x "$tool" ]]; then
  echo "isa-coverage.sh: $tool is not built; build it with" >&2
  echo "  ninja -C $BUILD_DIR hk-isa-coverage" >&2
  exit 1
fi
exec "$tool" "$@"
