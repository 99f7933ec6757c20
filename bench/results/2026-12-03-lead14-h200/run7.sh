#!/usr/bin/env bash
# Lead, session 14, call 7: probe7.py with Triton's kernel given tilec's sigmoid and tilec's
# sample with the accurate sigmoid (-D APPROX=False); then check_offsets with the corrected path
# expectation (call 6: C's f32 rows of 130 columns are not 16-byte aligned, so the portable path
# was right).
set -uo pipefail
cuda=/usr/local/cuda; P=bench/results/2026-12-03-lead14-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
for d in sg14 sg14acc; do
  echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/$d -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib_$d.so || exit 1
done
g++ -O1 -std=c++17 -Wall -Wextra -Igpu-build/h14o -Itests/gpu -I$cuda/include tests/gpu/check_offsets.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_offsets || exit 1
timeout 120 /tmp/check_offsets > $OUT/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $OUT/check_offsets.txt) ok; $(grep -c 'FAIL' $OUT/check_offsets.txt) FAIL"
PYTHONUNBUFFERED=1 timeout 400 python3 $P/probe7.py 1500 tilec=/tmp/lib_sg14.so "tilec accurate sigmoid"=/tmp/lib_sg14acc.so 2>&1 | grep -v Warning | tee $OUT/probe7.txt
