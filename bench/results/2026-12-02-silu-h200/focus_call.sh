#!/bin/bash
# silu helper, call 2: focus.py (3000 rounds, 2 runs) on the same headers as call 1.
set -uo pipefail
cd "$(dirname "$0")"
cuda=${CUDA_PATH:-/usr/local/cuda}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
gcc -O0 -shared -fPIC -I../bh -I$cuda/include kernels.c -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/libk.so || exit 1
PYTHONUNBUFFERED=1 timeout 150 python3 focus.py /tmp/libk.so 3000 2 2>&1 | tee $OUT/focus.log
