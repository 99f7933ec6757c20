#!/usr/bin/env bash
# spill12's GPU call: check_f8 (this branch's tests/gpu/check_f8.cpp, headers from
# tests/gpu/make_f8_headers.sh with this branch's tilec), memcheck of --small, then the
# portable entries' timing before/after (bench_portable.cpp, with BENCH=1; call 3 ran without).
# Layout of gpu-build/spill12/ (carried): the headers, base_matmul_f8.h / new_matmul_f8.h
# (samples/matmul_f8.tile by main's and this branch's tilec, --prefix base_ / new_), src/ with
# check_f8.cpp, check_util.h, f8_util.h, cuda_check.h and bench_portable.cpp.
set -uo pipefail
cd "$(dirname "$0")"
cuda=${CUDA_PATH:-/usr/local/cuda}; out=${OUT:-/tmp/spill12}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt"; cat "$out/gpu.txt"
g++ -O2 -std=c++17 -I. -Isrc -I"$cuda/include" src/check_f8.cpp -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/check_f8 &
g++ -O2 -std=c++17 -I. -I"$cuda/include" src/bench_portable.cpp -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/bench_portable &
wait
echo "== check_f8"; timeout 100 /tmp/check_f8 > "$out/check_f8.txt" 2>&1; echo "rc=$?"; cat "$out/check_f8.txt"
echo "== memcheck check_f8 --small"
timeout 150 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/check_f8 --small > "$out/memcheck_f8.txt" 2>&1
echo "rc=$?"; grep -E "FAIL|PASSED|ERROR SUMMARY" "$out/memcheck_f8.txt" | tail -4
[ -n "${BENCH:-}" ] && { echo "== bench_portable"; timeout 60 /tmp/bench_portable > "$out/bench_portable.txt" 2>&1; echo "rc=$?"; cat "$out/bench_portable.txt"; }
