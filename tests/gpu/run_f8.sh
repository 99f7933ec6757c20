#!/usr/bin/env bash
# On the GPU machine: the f8 checks (check_f8.cpp: conversions and samples/matmul_f8.tile),
# memcheck of their small shapes, the SASS of the f8 wgmma entry, then the f8 GEMM benchmark
# beside torch._scaled_mm. Headers from tests/gpu/make_f8_headers.sh; results under $OUT.
#   tests/gpu/run_f8.sh [HEADERDIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
cuda=${CUDA_PATH:-/usr/local/cuda}; hdr=${1:-gpu-build}; out=${OUT:-/tmp/tilec-gpu}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt"
g++ -O2 -std=c++17 -I"$hdr" -I"$cuda/include" tests/gpu/check_f8.cpp -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda \
  -o /tmp/check_f8 &
gcc -O2 -shared -fPIC -I"$hdr" -I"$cuda/include" bench/tilec_f8.c -L"$cuda/lib64/stubs" -lcuda -o /tmp/libtilec_f8.so &
wait
echo "== check_f8"; timeout 100 /tmp/check_f8 > "$out/check_f8.txt" 2>&1; echo "rc=$?"; cat "$out/check_f8.txt"
echo "== memcheck check_f8 --small"
timeout 90 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/check_f8 --small \
  > "$out/memcheck_f8.txt" 2>&1; echo "rc=$?"; tail -2 "$out/memcheck_f8.txt"
cuobjdump --dump-sass "$hdr/matmul_f8.cubin" > "$out/matmul_f8.sass" 2>&1
grep -oE "QGMMA[.0-9A-Za-z]*|HGMMA[.0-9A-Za-z]*|UTMALDG[.0-9A-Z]*| LDL| STL" "$out/matmul_f8.sass" | sort | uniq -c
echo "== bench (f8)"
BENCH_ONLY=f8 timeout 150 python3 bench/bench.py /tmp/libtilec_f8.so "$out/bench_f8.md" \
  > "$out/bench_f8.log" 2>&1; echo "rc=$?"; tail -5 "$out/bench_f8.log"; cat "$out/bench_f8.md"
