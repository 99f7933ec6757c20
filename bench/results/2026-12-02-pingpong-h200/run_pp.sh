#!/usr/bin/env bash
# pp helper's call (2026-12-02): check_persistent (cooperative and ping-pong kernels), its --small
# under memcheck / racecheck / synccheck, then ping-pong vs cooperative vs cuBLAS timings.
set -uo pipefail
C=gpu-build/pp; cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
date -u >> $OUT/gpu.txt
t0=$(date +%s)
g++ -O1 -std=c++17 -I$C -Itests/gpu -I$cuda/include $C/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cp > $OUT/b1.txt 2>&1 &
gcc -O2 -shared -fPIC -I$C -I$cuda/include -x c $C/bench_pp.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so > $OUT/b2.txt 2>&1 &
wait
timeout 90 /tmp/cp > $OUT/check_persistent.txt 2>&1; rc=$?; echo "check_persistent rc=$rc $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "FAIL|PASSED|FAILED" $OUT/check_persistent.txt | head -20
if [ $rc -eq 0 ]; then
  for tool in memcheck racecheck synccheck; do
    timeout 75 $cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 /tmp/cp --small > $OUT/$tool.txt 2>&1
    echo "$tool rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; tail -1 $OUT/$tool.txt
  done
fi
timeout 150 python3 $C/bench_pp.py /tmp/libm.so $OUT/bench_pp.md $C/matmul_variants.txt > $OUT/bench_pp.log 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep "|" $OUT/bench_pp.log | cut -c1-150
tail -3 $OUT/bench_pp.log
