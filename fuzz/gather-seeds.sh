#!/usr/bin/env bash
# Gathers the fuzz targets' seed corpora from the suite into OUT_DIR (one
# folder per target, docs/fuzzing.md):
#   hkc       the kernel library's tile programs (kernels/*/*.mlir) and the
#             lit tests' hk kernels (test/**/*.mlir with an hk.kernel)
#   artifact  the library's built artifacts (BUILD_DIR/kernels/*.hkrt)
#   hkc-quick the hkc seeds without the library's slowest tile programs
#             (HKC_SLOW below), for runs whose clock must reach the
#             fuzzing itself: libFuzzer executes every seed first, inside
#             -max_total_time
#   hkc-smoke the smallest lit-test kernels (HKC_SMOKE_SEEDS of them), for
#             CI's one-minute smoke run: its seeds compile in seconds under
#             ASan, so the minute goes to mutated inputs
#   isa       every code object of those artifacts, both chips
# The artifacts come from the ordinary build (scripts/setup.sh builds them).
# usage: fuzz/gather-seeds.sh BUILD_DIR OUT_DIR
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$1"
OUT="$2"
mkdir -p "$OUT/hkc" "$OUT/hkc-quick" "$OUT/hkc-smoke" "$OUT/artifact" "$OUT/isa"

# attention_decode's artifact took 99 s to build in the ordinary build (the
# next slowest library kernel 7 s, the median 2 s), several minutes for one
# chip under ASan and coverage: alone it used up a ten-minute hk-fuzz-hkc
# run in its seeds (docs/fuzzing.md).
HKC_SLOW=(attention_decode)
HKC_SMOKE_SEEDS=24

for f in "$ROOT"/kernels/*/*.mlir; do
  cp "$f" "$OUT/hkc/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# The lit tests' kernels: small, and each reaches a different check.
grep -rl --include='*.mlir' 'hk.kernel' "$ROOT/test" | while read -r f; do
  name="${f#"$ROOT"/test/}"
  cp "$f" "$OUT/hkc/test-${name//\//-}"
done

artifacts=("$BUILD_DIR"/kernels/*.hkrt)
if [[ ! -f "${artifacts[0]}" ]]; then
  echo "gather-seeds: no artifacts in $BUILD_DIR/kernels (build first)" >&2
  exit 1
fi
cp "${artifacts[@]}" "$OUT/artifact/"

# The container (include/hk/Base/Artifact.h): a 24-byte header, then
# 64-byte entries (kind 2 is a code object keyed by its chip).
python3 - "$OUT/isa" "${artifacts[@]}" <<'PY'
import os, struct, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    count = struct.unpack_from("<I", data, 12)[0]
    for i in range(count):
        kind, _, offset, size, _ = struct.unpack_from("<IIQQQ", data, 24 + 64 * i)
        key = data[24 + 64 * i + 32:24 + 64 * i + 64].rstrip(b"\0").decode()
        if kind == 2:
            name = os.path.basename(path)[:-len(".hkrt")]
            with open(os.path.join(out, f"{name}-{key}.co"), "wb") as f:
                f.write(data[offset:offset + size])
PY
cp "$OUT"/hkc/* "$OUT/hkc-quick/"
for k in "${HKC_SLOW[@]}"; do rm -f "$OUT/hkc-quick/$k-"*.mlir; done
# ls -S sorts by size, largest first; names break ties, for the same set
# on every machine.
ls "$OUT"/hkc/test-* | xargs ls -S | tail -n "$HKC_SMOKE_SEEDS" |
  xargs -I{} cp {} "$OUT/hkc-smoke/"

echo "gather-seeds: $(ls "$OUT/hkc" | wc -l) sources ($(ls "$OUT/hkc-quick" | wc -l) quick, $(ls "$OUT/hkc-smoke" | wc -l) for the smoke run), $(ls "$OUT/artifact" | wc -l) artifacts, $(ls "$OUT/isa" | wc -l) code objects"
