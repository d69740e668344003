#!/usr/bin/env bash
# Formats every C and C++ source of the project with .clang-format (LLVM
# style). --check: change nothing, list the files that differ and fail.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLANG_FORMAT="${CLANG_FORMAT:-/usr/lib/llvm-22/bin/clang-format}"
cd "$ROOT"
mapfile -t files < <(find include lib tools runtime unittests test kernels fuzz \
  -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' -o -name '*.c' \) \
  -not -path '*/Golden/*' | sort)
if [[ "${1:-}" == "--check" ]]; then
  bad=0
  for f in "${files[@]}"; do
    if ! "$CLANG_FORMAT" --dry-run -Werror "$f" 2>/dev/null; then
      echo "not formatted: $f"
      bad=1
    fi
  done
  ((bad == 0)) && echo "${#files[@]} files formatted"
  exit $bad
fi
"$CLANG_FORMAT" -i "${files[@]}"
echo "${#files[@]} files formatted"
