#!/usr/bin/env bash
# Builds tilec's wheel (pyproject.toml, docs/pip.md) and runs the README's "From pip" commands
# from it in a fresh virtual environment where no CUDA toolkit is reachable: CUDA_HOME and
# CUDA_PATH unset, PATH without one, /usr/local/cuda hidden under an empty folder (a mount
# namespace, where unshare may make one). Every wheel is installed from files, none from a
# registry: tilec's, and NVIDIA's nvidia-cuda-nvcc and nvidia-cuda-runtime, which are
# downloaded once into the cache folder (TILEC_WHEEL_CACHE, default ~/.cache/tilec-wheels).
# The build runs in a virtual environment kept in that cache (scikit-build-core and ziglang),
# so that zig's own cache of its libc++ serves the next run. Without pip or the network the
# test is skipped.
#   tools/wheel_test.sh [dist-dir]        (default: build-wheel)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
dist=$(mkdir -p "${1:-build-wheel}" && cd "${1:-build-wheel}" && pwd)
cache=${TILEC_WHEEL_CACHE:-$HOME/.cache/tilec-wheels}
mkdir -p "$cache"

# --- the build environment and NVIDIA's wheels, once --------------------------------------
# Debian's python3 makes virtual environments with pip only with python3-venv (as root, it is
# installed when missing, as tools/fetch_cuobjdump.sh installs python3-pip).
if ! python3 -c "import ensurepip, venv" > /dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip > /dev/null 2>&1 || true
fi
if [ ! -x "$cache/build-env/bin/python" ]; then
  python3 -m venv "$cache/build-env" && "$cache/build-env/bin/python" -m pip install -q \
    --disable-pip-version-check "scikit-build-core>=1.0" ziglang ||
    { rm -rf "$cache/build-env"; echo "wheel test skipped: no venv, pip or network for the build environment"; exit 0; }
fi
# tilec[cuda]'s dependencies with theirs (nvidia-cuda-crt and nvidia-nvvm come with nvcc).
if [ ! -f "$cache/nvidia-13.0.done" ]; then
  python3 -m pip download -q --disable-pip-version-check -d "$cache" \
    "nvidia-cuda-nvcc==13.0.*" "nvidia-cuda-runtime==13.0.*" ||
    { echo "wheel test skipped: cannot download nvidia-cuda-nvcc"; exit 0; }
  touch "$cache/nvidia-13.0.done"
fi

# --- the wheel ---------------------------------------------------------------------------------
rm -f "$dist"/tilec-*.whl
start=$(date +%s)
# CMake's build folder is kept in dist-dir (build-dir), so that a second run rebuilds only what changed.
"$cache/build-env/bin/python" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps \
  --config-settings=build-dir="$dist/cmake" -w "$dist" .
wheel=$(ls "$dist"/tilec-*.whl)
echo "built $wheel ($(du -k "$wheel" | cut -f1) KiB) in $(( $(date +%s) - start )) s"
case $wheel in
  *-py3-none-manylinux_2_28_x86_64.whl) ;;
  *) echo "wheel test: unexpected tag: $wheel"; exit 1 ;;
esac

# --- the README's commands, with no toolkit in reach -------------------------------------------
rm -rf "$dist/venv" "$dist/smoke"
mkdir -p "$dist/smoke"
cat > "$dist/smoke/run.sh" <<SMOKE
set -eu
cd "$dist/smoke"
test ! -e /usr/local/cuda/bin/ptxas || echo "note: /usr/local/cuda could not be hidden"
python3 -m venv "$dist/venv"
"$dist/venv/bin/pip" install -q --disable-pip-version-check --no-index --find-links "$dist" --find-links "$cache" 'tilec[cuda]'
export PATH="$dist/venv/bin:/usr/bin:/bin"
unset CUDA_HOME CUDA_PATH
tilec --version | tee version.txt
grep -q "^ptxas: $dist/venv/lib/python3[.0-9]*/site-packages/nvidia/cu13/bin/ptxas (13\.0\.[0-9]*, found via nvidia-cuda-nvcc wheel)\$" version.txt
tilec "$repo/samples/vector_add.tile" -o vector_add.h
grep -q "(ptxas 13\.0\.[0-9]*)" vector_add.h
# The package: its paths, compile(), and cuda.h from NVIDIA's runtime wheel for the header.
python3 - <<'PY'
import os, subprocess, tilec
assert os.access(tilec.executable(), os.X_OK), tilec.executable()
assert os.path.isfile(os.path.join(tilec.cmake_dir(), "TilecKernel.cmake")), tilec.cmake_dir()
tilec.compile("$repo/samples/softmax.tile", "--emit=torch", "-o", "softmax_ops.cpp")
assert os.path.getsize("softmax_ops.py") > 0
try:
    tilec.compile("missing.tile", capture_output=True, text=True)
    raise SystemExit("compile() of a missing file did not raise")
except subprocess.CalledProcessError as e:
    assert "missing.tile" in e.stderr, e.stderr
print("cuda.h:", tilec.cuda_include_dir())
assert tilec.cuda_include_dir().endswith("site-packages/nvidia/cu13/include")
PY
cc -std=c99 -c "$repo/examples/vector_add_main.c" -I. -I"\$(python3 -c 'import tilec; print(tilec.cuda_include_dir())')" -o main.o
test -f "$dist/venv/share/man/man1/tilec.1"
echo "wheel smoke test passed"
SMOKE
# A mount namespace hides /usr/local/cuda (as root, or in a user namespace); without one the
# test still holds, since the wheel's tools come before /usr/local/cuda.
if unshare -m true 2> /dev/null; then hide="unshare -m"; elif unshare -rm true 2> /dev/null; then hide="unshare -rm"; else hide=""; fi
if [ -n "$hide" ]; then
  $hide sh -c "mount -t tmpfs none /usr/local/cuda 2>/dev/null || true; sh '$dist/smoke/run.sh'"
else
  sh "$dist/smoke/run.sh"
fi
