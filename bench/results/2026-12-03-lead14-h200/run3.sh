#!/usr/bin/env bash
# Lead, session 14, call 3: probe7.py (the burst gap: launch path, parameter block, the
# second load's address, the build before launch divisors).
set -uo pipefail
cuda=/usr/local/cuda; P=bench/results/2026-12-03-lead14-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
for d in sg14 sg14fn sg14d probe13; do
  echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/$d -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib_$d.so || exit 1
done
PYTHONUNBUFFERED=1 timeout 500 python3 $P/probe7.py 1500 tilec=/tmp/lib_sg14.so "tilec CUfunction"=/tmp/lib_sg14fn.so \
  "tilec address by hand"=/tmp/lib_sg14d.so "tilec before divisors"=/tmp/lib_probe13.so 2>&1 | grep -v Warning | tee $OUT/probe7.txt
