#!/usr/bin/env bash
# Session 20, second call (GPU machine): matmul_bt's launch choice with the split-K weight 2/S
# (src/driver/configs.cpp cta_work), no table, against F.linear at decode and held-out M.
# Header made on the build machine (gpu-run/cfg/matmul_bt.h).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}/splitk; mkdir -p "$out"
cuda=/usr/local/cuda
gcc -O2 -shared -fPIC -x c gpu-run/cfg/matmul_bt.h -I$cuda/include -o /tmp/libmatmul_bt.so -lcuda || exit 1
timeout ${BENCH_S:-150} python3 bench/configs/gemm.py --lib /tmp/libmatmul_bt.so --kernel matmul_bt \
  --nk 4096x4096,1024x4096,28672x4096,4096x14336 --ms 1,8,77,128,1000,3000,5555,8191 --reps 5 \
  --label splitk2-heuristic --out "$out/matmul_bt2.jsonl" 2>&1 | tee "$out/matmul_bt2.txt"
