#!/usr/bin/env bash
# Lead, session 14, call 8: probe9.py (silu_gate with Triton's non-ftz approximations).
set -uo pipefail
cuda=/usr/local/cuda; P=bench/results/2026-12-03-lead14-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
for d in sg14 sg14rcp sg14both; do
  echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/$d -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib_$d.so || exit 1
done
PYTHONUNBUFFERED=1 timeout 450 python3 $P/probe9.py 1000 tilec=/tmp/lib_sg14.so "tilec rcp non-ftz"=/tmp/lib_sg14rcp.so \
  "tilec ex2+rcp non-ftz"=/tmp/lib_sg14both.so 2>&1 | grep -v Warning | tee $OUT/probe9.txt
