#!/usr/bin/env bash
# Fills gpu-run/wheel/ (git-ignored) with the wheels bench/wheel/run_gpu.sh installs on the GPU
# machine, which has no registry: tilec's (built by tools/wheel_test.sh into build-wheel/),
# NVIDIA's nvidia-cuda-nvcc and nvidia-cuda-runtime 13.0 without their dependencies (tilec uses
# ptxas, fatbinary and cuda.h alone), and auditwheel with pyelftools and packaging for
# `auditwheel show` of the user's wheel there, and setuptools for its build where the image's
# is older than 70.1 (PyTorch 2.11 depends on setuptools below 82). Prints the total: a device call carries 64 MiB at most.
#   bench/wheel/prepare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=gpu-run/wheel
rm -rf "$dest"
mkdir -p "$dest"
tilec_wheel=$(ls build-wheel/tilec-*.whl)
cp "$tilec_wheel" "$dest/"
python3 -m pip download -q --disable-pip-version-check --no-deps -d "$dest" \
  "nvidia-cuda-nvcc==13.0.*" "nvidia-cuda-runtime==13.0.*" auditwheel pyelftools packaging \
  "setuptools>=70.1,<82"
ls -la "$dest"
du -sh "$dest"
