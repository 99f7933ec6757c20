# Sourced by the bounded GPU run scripts (run_rows.sh, run_matmul.sh) from the repository root:
# sets cuda, hdr (header folder, $1 or gpu-build) and out ($OUT), records the GPU, and builds
# the checks named in $@ beside the benchmark's shared library, in parallel.
#   . tests/gpu/common.sh HEADERDIR check_samples [check_ops ...]
cuda=${CUDA_PATH:-/usr/local/cuda}; hdr=${1:-gpu-build}; out=${OUT:-/tmp/tilec-gpu}
shift || true
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt"
build() { g++ -O1 -std=c++17 -I"$hdr" -I"$cuda/include" "tests/gpu/$1.cpp" -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o "/tmp/$1"; }
for check in "$@"; do build "$check" & done
gcc -O2 -shared -fPIC -I"$hdr" -I"$cuda/include" bench/tilec_kernels.c -L"$cuda/lib64/stubs" -lcuda -o /tmp/libtilec_bench.so &
wait
