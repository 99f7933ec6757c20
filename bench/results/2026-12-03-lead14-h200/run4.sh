#!/usr/bin/env bash
# Lead, session 14, call 4: the GPU checks on headers of this session's tilec (TMA boxes at
# element offsets; tests/gpu/make_headers.sh gpu-build/h14): every check program full, then
# --small under memcheck for the programs whose kernels take the TMA path; then probe8.py
# (matmul at tile indices vs at element offsets vs cuBLAS).
set -uo pipefail
hdr=gpu-build/h14; cuda=/usr/local/cuda; out=$OUT/check; mkdir -p $out; P=bench/results/2026-12-03-lead14-h200
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt; date -u >> $out/gpu.txt
for t in check_samples check_ops check_debug check_offsets check_persistent check_shapes; do
  g++ -O1 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/$t.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/$t > $out/build_$t.txt 2>&1 &
done
echo '#include "matmul_bf16.h"
#include "mm_offsets.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/h14b -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libmm.so &
wait
echo "build $(( $(date +%s) - t0 )) s"; ls /tmp/check_* | wc -l
for m in pass fail extent heads; do timeout 60 /tmp/check_debug $m >> $out/debug.txt 2>&1; echo "check_debug $m rc=$?"; done
for t in check_offsets check_samples check_ops check_persistent check_shapes; do
  timeout 300 /tmp/$t > $out/$t.txt 2>&1; echo "$t rc=$? $(( $(date +%s) - t0 )) s; $(grep -c ' ok' $out/$t.txt) ok; $(grep -ciE 'FAIL|wrong [1-9]|mismatch' $out/$t.txt) fail-lines"
done
grep -E "tma_|window_mm" $out/check_offsets.txt
PYTHONUNBUFFERED=1 timeout 200 python3 $P/probe8.py /tmp/libmm.so 300 2>&1 | grep -v Warning | tee $out/probe8.txt
for t in check_offsets check_samples check_persistent; do
  timeout 150 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/$t --small > $out/memcheck_$t.txt 2>&1
  echo "memcheck $t rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 $out/memcheck_$t.txt)"
done
timeout 120 $cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/check_offsets --small > $out/racecheck_offsets.txt 2>&1
echo "racecheck check_offsets rc=$?: $(tail -1 $out/racecheck_offsets.txt)"
echo "total $(( $(date +%s) - t0 )) s"
