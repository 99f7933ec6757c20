#!/usr/bin/env bash
# Session 20 (GPU machine): issue 38's split-K configurations (split_k=). Every configuration of
# matmul_bt and matmul (bf16), split-K ones with a poisoned workspace, through the forced launch
# against a CPU reference (tests/gpu/check_configs.cpp), the small shapes under compute-sanitizer
# memcheck; then matmul_bt's launch choice (no table) and every configuration against F.linear at
# decode and held-out M. Headers made on the build machine (gpu-run/cfgcheck, gpu-run/cfg:
# tests/gpu/make_config_headers.sh and `tilec samples/matmul_bt.tile -D T=bf16`).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
g++ -O2 -std=c++17 -Wall -Wextra -Igpu-run/cfgcheck -Itests/gpu -I$cuda/include tests/gpu/check_configs.cpp \
  -L$cuda/lib64/stubs -lcuda -o /tmp/check_configs || exit 1
/tmp/check_configs > "$out/check_configs.txt" 2>&1; echo "check_configs exit $?: $(tail -1 "$out/check_configs.txt")"
grep FAIL "$out/check_configs.txt" | head
timeout 150 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_configs --small > "$out/memcheck.txt" 2>&1
echo "memcheck exit $?: $(tail -2 "$out/memcheck.txt" | tr '\n' ' ')"
gcc -O2 -shared -fPIC -x c gpu-run/cfg/matmul_bt.h -I$cuda/include -o /tmp/libmatmul_bt.so -lcuda || exit 1
timeout ${BENCH_S:-240} python3 bench/configs/gemm.py --lib /tmp/libmatmul_bt.so --kernel matmul_bt \
  --nk ${NK:-4096x4096,1024x4096,28672x4096,4096x14336} --ms ${MS:-1,8,77,128} --configs --reps 5 \
  --label splitk-heuristic --out "$out/matmul_bt.jsonl" 2>&1 | tee "$out/matmul_bt.txt"
