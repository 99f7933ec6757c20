#!/usr/bin/env bash
# Lead's call 1 (2026-12-02, session 11): batched / tf32 / f8 variants (make.sh), each checked
# against a reference first, then timed interleaved with cuBLAS (lead11.py, two repetitions).
set -uo pipefail
H=gpu-build/lead11/h; cuda=/usr/local/cuda; R=bench/results/2026-12-02-lead11-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
t0=$(date +%s)
echo '#include "all.h"' | gcc -O2 -shared -fPIC -x c -I$H -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib11.so > $OUT/build.txt 2>&1
echo "build rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
timeout 400 python3 $R/lead11.py /tmp/lib11.so $OUT/lead11.md > $OUT/lead11.log 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
tail -5 $OUT/lead11.log
cat $OUT/lead11.md
