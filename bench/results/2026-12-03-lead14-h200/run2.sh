#!/usr/bin/env bash
# Lead, session 14, call 2: probe6.py (the eviction hint's gain under three timing methods).
set -uo pipefail
hdr=gpu-build/sg14; cuda=/usr/local/cuda; P=bench/results/2026-12-03-lead14-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -I$hdr -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libsg.so || exit 1
PYTHONUNBUFFERED=1 timeout 400 python3 $P/probe6.py /tmp/libsg.so 1500 2>&1 | grep -v Warning | tee $OUT/probe6.txt
