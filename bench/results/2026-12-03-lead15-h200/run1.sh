#!/usr/bin/env bash
# Lead, session 15, call 1: check_offsets with conv_taps (nested mma loops) and its memcheck;
# then session 14's probe9.py (generic: sleep, flush and burst timings of labelled builds beside Triton): silu_gate with programmatic dependent launch (PDL) vs the sample and Triton.
set -uo pipefail
cuda=/usr/local/cuda; P=bench/results/2026-12-03-lead15-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
g++ -O1 -std=c++17 -Wall -Wextra -Igpu-build/h15 -Itests/gpu -I$cuda/include tests/gpu/check_offsets.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_offsets || exit 1
timeout 120 /tmp/check_offsets > $OUT/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $OUT/check_offsets.txt) ok; $(grep -c 'FAIL' $OUT/check_offsets.txt) FAIL"
grep -E "conv_taps|window_scores" $OUT/check_offsets.txt
timeout 200 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_offsets --small > $OUT/memcheck_offsets.txt 2>&1; echo "memcheck rc=$?"; tail -1 $OUT/memcheck_offsets.txt
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/pdl -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib_base.so || exit 1
for v in none top late; do
  echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/pdl/$v -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib_$v.so || exit 1
done
PYTHONUNBUFFERED=1 timeout 330 python3 bench/results/2026-12-03-lead14-h200/probe9.py 500 tilec=/tmp/lib_base.so "pdl attr only"=/tmp/lib_none.so \
  "pdl wait at top"=/tmp/lib_top.so "pdl wait before load"=/tmp/lib_late.so 2>&1 | grep -v Warning | tee $OUT/probe.txt
