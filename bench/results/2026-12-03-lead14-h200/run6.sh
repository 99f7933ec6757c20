#!/usr/bin/env bash
# Lead, session 14, call 6: check_offsets (TMA boxes at element offsets, the 16-byte rule for
# the innermost one) full and under memcheck and synccheck --small, on headers of this
# session's final tilec (tests/gpu/make_headers.sh gpu-build/h14; the three it needs in gpu-build/h14o); then probe8.py again
# (matmul at tile indices vs at element offsets vs cuBLAS) with the final build.
set -uo pipefail
hdr=gpu-build/h14o; cuda=/usr/local/cuda; out=$OUT; P=bench/results/2026-12-03-lead14-h200
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt; date -u >> $out/gpu.txt
g++ -O1 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/check_offsets.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_offsets || exit 1
echo '#include "matmul_bf16.h"
#include "mm_offsets.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/h14b -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libmm.so || exit 1
timeout 300 /tmp/check_offsets > $out/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(( $(date +%s) - t0 )) s; $(grep -c ' ok' $out/check_offsets.txt) ok; $(grep -c 'FAIL' $out/check_offsets.txt) FAIL"
grep -E "tma_|window_mm|cuCtx|failed" $out/check_offsets.txt
timeout 200 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_offsets --small > $out/memcheck_offsets.txt 2>&1
echo "memcheck check_offsets rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 $out/memcheck_offsets.txt)"
timeout 200 $cuda/bin/compute-sanitizer --tool synccheck --error-exitcode 3 /tmp/check_offsets --small > $out/synccheck_offsets.txt 2>&1
echo "synccheck check_offsets rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 $out/synccheck_offsets.txt)"
PYTHONUNBUFFERED=1 timeout 200 python3 $P/probe8.py /tmp/libmm.so 300 2>&1 | grep -v Warning | tee $out/probe8.txt
echo "total $(( $(date +%s) - t0 )) s"
