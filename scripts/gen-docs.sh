#!/usr/bin/env bash
# Regenerates docs/reference/ from the sources: the dialect's pages from its
# ODS (dialect/*.td), the passes' from the Passes.td files of include/hk, and
# the pipelines' (HKPipelines.md) from what hk-opt prints for each
# registered pipeline (scripts/gen-pipelines-doc.py).
# test/Docs/reference.test fails when the checked-in copy is stale.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
cmake --build "$BUILD_DIR" --target HKDocGen hk-opt
mkdir -p "$ROOT/docs/reference"
cp "$BUILD_DIR/include/hk/Dialect/HK/HKDialect.md" "$ROOT/docs/reference/"
cp "$BUILD_DIR/include/hk/Transforms/HKTransformsPasses.md" \
   "$BUILD_DIR/include/hk/Conversion/HKToAMDGPU/HKConversionPasses.md" \
   "$BUILD_DIR/include/hk/Conversion/LaneToROCDL/HKLaneToROCDLPasses.md" \
   "$ROOT/docs/reference/"
python3 "$ROOT/scripts/gen-pipelines-doc.py" "$BUILD_DIR/bin/hk-opt" \
  > "$ROOT/docs/reference/HKPipelines.md"
echo "docs/reference updated"
