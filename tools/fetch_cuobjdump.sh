#!/usr/bin/env bash
# Fetches cuobjdump and the nvdisasm it runs (the PyPI wheels nvidia-cuda-cuobjdump and
# nvidia-cuda-nvdisasm; the CUDA 13 toolkit here has neither) into BUILD/sass, where the lit tests that read SASS find it (tests/lit/lit.cfg.py:
# `REQUIRES: cuobjdump`). Without pip or the network it says so and those tests are skipped.
#   tools/fetch_cuobjdump.sh [BUILD]      (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
dest=${1:-build}/sass
[ -x "$dest/nvidia/cu13/bin/cuobjdump" ] && [ -x "$dest/nvidia/cu13/bin/nvdisasm" ] && exit 0
command -v cuobjdump >/dev/null 2>&1 && exit 0
if ! python3 -m pip --version >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -qq python3-pip >/dev/null 2>&1 || true
  fi
fi
mkdir -p "$dest"
if python3 -m pip download --quiet --no-deps --dest "$dest" "nvidia-cuda-cuobjdump>=13,<14" \
     "nvidia-cuda-nvdisasm>=13,<14" >/dev/null 2>&1 &&
   python3 -m zipfile -e "$dest"/nvidia_cuda_cuobjdump-*.whl "$dest" &&
   python3 -m zipfile -e "$dest"/nvidia_cuda_nvdisasm-*.whl "$dest" &&
   chmod +x "$dest"/nvidia/cu13/bin/cuobjdump "$dest"/nvidia/cu13/bin/nvdisasm; then
  echo "fetch_cuobjdump: $dest/nvidia/cu13/bin/cuobjdump"
else
  echo "fetch_cuobjdump: could not fetch nvidia-cuda-cuobjdump (no pip or no network): the SASS tests are skipped" >&2
fi
exit 0
