#!/usr/bin/env bash
# One device call: probe3 (bench/results/2026-12-03-lead13-h200/probe3).
set -uo pipefail
H=gpu-build/probe13; cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $OUT/gpu.txt
printf '#include "silu_gate.h"\n#include "sg_magic.h"\n' | gcc -O1 -shared -fPIC -x c -I$H -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libp.so || exit 1
PYTHONUNBUFFERED=1 timeout 300 python3 $H/probe3.py /tmp/libp.so 2>&1 | grep -v Warning | tee $OUT/probe3.txt
