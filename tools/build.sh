#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks, builds tilec (the compiler only: the tests are
# built by tools/test.sh), and compiles a sample kernel.
#   tools/build.sh [build-dir]        (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}

# Debian packages the build and the tests need (the CUDA toolkit is expected in /usr/local/cuda).
PKGS=(cmake ninja-build g++ clang re2c bison libcli11-dev libspdlog-dev libfmt-dev catch2
      libxxhash-dev llvm-14-tools python3)
missing=()
for p in "${PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${TILEC_CMAKE_ARGS:-}
cmake --build "$BUILD" --target tilec

# The main job on a bundled sample.
"$BUILD/tilec" samples/vector_add.tile -o "$BUILD/vector_add.h"
"$BUILD/tilec" samples/vector_add.tile --emit=ptx -o "$BUILD/vector_add.ptx"
echo "built $BUILD/tilec; compiled samples/vector_add.tile -> $BUILD/vector_add.h (and .ptx)"
