#!/usr/bin/env bash
# Builds tilec (installing what is missing) and the tests, then runs every test: unit,
# lit/FileCheck, backend (ptxas, generated headers with gcc and clang).
#   tools/test.sh [build-dir]         (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
tools/build.sh "$BUILD"
tools/fetch_cuobjdump.sh "$BUILD"   # for the SASS tests; skipped without pip or network
cmake --build "$BUILD"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)"
