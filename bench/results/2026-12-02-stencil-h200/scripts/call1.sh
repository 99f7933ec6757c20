#!/bin/bash
# Issue 21, call 1: check_offsets on the candidate samples, then the variant benchmark.
set -uo pipefail
cd "$(dirname "$0")"
cuda=${CUDA_PATH:-/usr/local/cuda}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
g++ -O2 -std=c++17 -Ichk -I$cuda/include chk/check_offsets.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_offsets \
  && /tmp/check_offsets > $OUT/check.txt 2>&1; echo "check_offsets rc=$?"; grep -c " ok" $OUT/check.txt; grep -i "fail" $OUT/check.txt; tail -1 $OUT/check.txt
gcc -O0 -shared -fPIC -Ih -I$cuda/include kernels.c -L$cuda/lib64/stubs -lcuda -o /tmp/libk.so || exit 1
PYTHONUNBUFFERED=1 python3 drive.py /tmp/libk.so $OUT 2 > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -v "^-- run" $OUT/bench.log | sed 's/ GB\/s//; s/(paired)//; s/, [0-9.]*x eager, rel err .*//' | cut -c1-150
