#!/usr/bin/env bash
# Installs what hk-mlir needs on Debian 12 (LLVM/MLIR 22, clang, lld, CMake,
# Ninja, ccache, GoogleTest, pkg-config; NumPy, pytest and PyTorch for the
# Python package python/hk and its tests; matplotlib for the pictures of
# scripts/bench-model.sh; clang's sanitizer and libFuzzer runtimes for
# scripts/test-sanitizers.sh), then configures and builds the
# project. cmake/HKRequirements.cmake names the package of anything missing.
#   BUILD_DIR    build folder (default: <repo>/build)
#   BUILD_TYPE   CMake build type (default: Release)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BUILD_TYPE="${BUILD_TYPE:-Release}"

PACKAGES=(cmake ninja-build ccache python3 libgtest-dev pkgconf
          llvm-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
          clang-22 clang-format-22 lld-22 liblld-22-dev zlib1g-dev
          libzstd-dev python3-numpy python3-pytest python3-torch
          python3-matplotlib libclang-rt-22-dev
          python3-distributed)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
fi

LLVM_BIN=/usr/lib/llvm-22/bin
if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
    -DCMAKE_C_COMPILER="$LLVM_BIN/clang" \
    -DCMAKE_CXX_COMPILER="$LLVM_BIN/clang++" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
fi
cmake --build "$BUILD_DIR"
