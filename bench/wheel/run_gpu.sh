#!/usr/bin/env bash
# The pip route on the GPU machine (docs/pip.md; GitHub issue 42), from the repository root,
# with no network and no package registry: every wheel comes from gpu-run/wheel/ (made by
# bench/wheel/prepare.sh on the build machine and carried there).
#   1. tilec's wheel and NVIDIA's nvidia-cuda-nvcc wheel into a fresh virtual environment (with
#      the system's site-packages, for torch); CUDA_HOME and CUDA_PATH unset and PATH without a
#      toolkit: `tilec --version` names the wheel's ptxas; vector_add compiled to a cubin and a
#      header by it; the cubin loaded under the driver (cuModuleLoadData) and the header's
#      program run (examples/vector_add_main.c);
#   2. the user's package (examples/torch_package/) built with `pip wheel --no-build-isolation`
#      in that environment;
#   3. its wheel installed into a second fresh environment without tilec, where its checks run:
#      each op against PyTorch, torch.library.opcheck, torch.compile (check.py).
# Logs and the user's wheel go to $OUT; the last line says how many steps failed.
#   bench/wheel/run_gpu.sh
set -uo pipefail
repo=$(pwd)
wheels=$repo/gpu-run/wheel
out=${OUT:-/tmp/tilec-wheel-gpu}
work=$(mktemp -d /tmp/tilec-wheel-XXXXXX)
mkdir -p "$out"
exec > >(tee "$out/run_gpu.log") 2>&1
failed=0
step() {  # step NAME COMMAND...: runs it, says PASS or FAIL
  local name=$1; shift
  echo "== $name: $*"
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; failed=$((failed + 1)); fi
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda)'
ls -la "$wheels"

# A fresh environment that sees the packages of the image's python3 (torch). Without ensurepip
# (Debian's python3-venv), one without its own pip: the system's pip installs into it all the
# same. Where python3 is itself a virtual environment (the GPU machine's: /opt/torch/.venv),
# --system-site-packages reaches only the base interpreter's packages, not torch: a .pth file
# adds python3's own site-packages after the new environment's, as a user's environment with
# torch installed would have them.
make_env() {
  python3 -m venv --system-site-packages "$1" 2> /dev/null || python3 -m venv --system-site-packages --without-pip "$1"
  local site
  site=$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  python3 -c 'import site; print("\n".join(site.getsitepackages()))' > "$site/image_python.pth"
}

# --- 1. tilec from its wheel, the toolkit out of reach ---------------------------------------
step "a fresh environment for tilec" make_env "$work/tilec-env"
tpip="$work/tilec-env/bin/python -m pip install --no-index --no-deps --disable-pip-version-check -q"
# nvidia-cuda-runtime (cuda.h) is PyTorch's dependency: the image has it; the carried one otherwise.
step "install tilec[cuda] from files" $tpip "$wheels"/tilec-*.whl "$wheels"/nvidia_cuda_nvcc-*.whl
python3 -c 'import nvidia.cu13, os, sys; sys.exit(not any(os.path.exists(os.path.join(p, "include", "cuda.h")) for p in nvidia.cu13.__path__))' 2>/dev/null ||
  step "install nvidia-cuda-runtime from a file" $tpip "$wheels"/nvidia_cuda_runtime-*.whl
clean_path=$work/tilec-env/bin:/usr/bin:/bin
no_toolkit() { env -u CUDA_HOME -u CUDA_PATH PATH="$clean_path" "$@"; }
cd "$work"
step "tilec --version names the wheel's ptxas" sh -c \
  "env -u CUDA_HOME -u CUDA_PATH PATH='$clean_path' tilec --version | tee version.txt | grep -q 'tilec-env/lib/python3[.0-9]*/site-packages/nvidia/cu13/bin/ptxas (13\.0\.[0-9]*, found via nvidia-cuda-nvcc wheel)'"
cat version.txt
# The wheel's tools come first even where a toolkit is set up (CUDA_HOME, /usr/local/cuda).
step "the wheel's ptxas before \$CUDA_HOME" sh -c \
  "CUDA_HOME=/usr/local/cuda '$work/tilec-env/bin/tilec' --version | grep -q 'found via nvidia-cuda-nvcc wheel'"
step "tilec vector_add.tile -o vector_add.h" no_toolkit tilec "$repo/samples/vector_add.tile" -o vector_add.h
step "tilec vector_add.tile -arch sm_90a -o v.cubin" no_toolkit tilec "$repo/samples/vector_add.tile" -arch sm_90a -o v.cubin
head -3 vector_add.h
step "the cubin loads under the driver" python3 "$repo/bench/wheel/load_cubin.py" v.cubin
cuda_include=$("$work/tilec-env/bin/python" -c 'import tilec; print(tilec.cuda_include_dir())')
echo "cuda.h from $cuda_include"
# The driver itself, not a stub: -l:libcuda.so.1 (the name every driver install provides).
step "the header's program builds" cc -std=c99 "$repo/examples/vector_add_main.c" -I. -I"$cuda_include" -l:libcuda.so.1 -o vector_add
step "the header's program runs" sh -c './vector_add | tee vector_add.txt && grep -q " 0 of " vector_add.txt'

# --- 2. the user's package, built with tilec from the wheel ----------------------------------
"$work/tilec-env/bin/python" -c 'import setuptools.command.bdist_wheel' 2> /dev/null ||
  step "install setuptools 70.1 or newer from a file" $tpip "$wheels"/setuptools-*.whl
cp -r "$repo/examples/torch_package" "$work/pkg"
cd "$work/pkg"
step "pip wheel --no-build-isolation (user's package)" no_toolkit "$work/tilec-env/bin/python" -m pip wheel \
  --no-build-isolation --no-deps --no-index --disable-pip-version-check -w "$work/dist" .
ls -la "$work/dist"
cp "$work"/dist/*.whl "$out/" 2>/dev/null
user_wheel=$(ls "$work"/dist/tile_ops_example-*.whl 2>/dev/null | head -1)
step "the user's wheel holds the ops and no compiler" python3 "$repo/bench/wheel/inspect_user_wheel.py" "$user_wheel"
if ls "$wheels"/auditwheel-*.whl > /dev/null 2>&1; then
  make_env "$work/audit-env"
  "$work/audit-env/bin/python" -m pip install --no-index --disable-pip-version-check -q --find-links "$wheels" auditwheel
  "$work/audit-env/bin/auditwheel" show "$user_wheel"
fi

# --- 3. installed where tilec is absent -------------------------------------------------------
step "a fresh environment for the user's package" make_env "$work/user-env"
step "install the user's wheel (no tilec)" "$work/user-env/bin/python" -m pip install --no-index --no-deps \
  --disable-pip-version-check -q "$user_wheel"
cd "$work"
cp "$repo/examples/torch_package/check.py" .   # run from here: beside the sources, the source package would shadow the installed one
step "tilec is absent there" sh -c "! '$work/user-env/bin/python' -c 'import tilec' 2>/dev/null && ! PATH='$work/user-env/bin:/usr/bin:/bin' command -v tilec"
step "the user's package checks (ops, opcheck, torch.compile)" no_toolkit "$work/user-env/bin/python" check.py

echo "$failed steps failed"
exit $((failed > 0))
