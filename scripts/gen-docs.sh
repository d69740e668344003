#!/usr/bin/env bash
# Regenerates docs/reference/ from the ODS sources (dialect/*.td and the
# Passes.td files of include/hk).
# test/Docs/reference.test fails when the checked-in copy is stale.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
cmake --build "$BUILD_DIR" --target HKDocGen
mkdir -p "$ROOT/docs/reference"
cp "$BUILD_DIR/include/hk/Dialect/HK/HKDialect.md" "$ROOT/docs/reference/"
cp "$BUILD_DIR/include/hk/Transforms/HKTransformsPasses.md" \
   "$BUILD_DIR/include/hk/Conversion/HKToAMDGPU/HKConversionPasses.md" \
   "$ROOT/docs/reference/"
echo "docs/reference updated"
