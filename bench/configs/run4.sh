#!/usr/bin/env bash
# Session 19, call 4 (GPU machine): issue 38. Every configuration of matmul_bt and matmul (bf16)
# through the forced launch against a CPU reference (tests/gpu/check_configs.cpp), the small
# shapes under compute-sanitizer memcheck; then matmul's launch choice (no table) against
# torch.matmul at the held-out M. Headers made on the build machine (gpu-run/cfgcheck, gpu-run/cfg).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
g++ -O2 -std=c++17 -Wall -Wextra -Igpu-run/cfgcheck -Itests/gpu -I$cuda/include tests/gpu/check_configs.cpp \
  -L$cuda/lib64/stubs -lcuda -o /tmp/check_configs || exit 1
/tmp/check_configs > "$out/check_configs.txt" 2>&1; echo "check_configs exit $?: $(tail -1 "$out/check_configs.txt")"
grep FAIL "$out/check_configs.txt" | head
timeout 200 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_configs --small > "$out/memcheck.txt" 2>&1
echo "memcheck exit $?: $(tail -2 "$out/memcheck.txt" | tr '\n' ' ')"
gcc -O2 -shared -fPIC -x c gpu-run/cfg/matmul.h -I$cuda/include -o /tmp/libmatmul.so -lcuda || exit 1
python3 bench/configs/gemm.py --lib /tmp/libmatmul.so --kernel matmul --nk ${NK:-4096x4096,1024x4096,28672x4096,4096x14336} \
  --ms 77,1000,3000,5555,8191 --reps 5 --label heldout-heuristic --out "$out/matmul.jsonl" 2>&1 | tee "$out/matmul-heldout.txt"
