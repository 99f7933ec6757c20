#!/usr/bin/env bash
# Lead's call 1 (2026-12-02, session 10): clusters of two CTAs. check_persistent (clustered mm_grid,
# mm_2d against persistent=False), its --small under memcheck/racecheck/synccheck, then the matmul
# bench with cluster=1 variants in the same rounds.
set -uo pipefail
C=gpu-build/lead/c; cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
t0=$(date +%s)
g++ -O1 -std=c++17 -I$C -Itests/gpu -I$cuda/include $C/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cp > $OUT/b1.txt 2>&1 &
gcc -O2 -shared -fPIC -I$C -I$cuda/include $C/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so > $OUT/b2.txt 2>&1 &
wait
timeout 60 /tmp/cp > $OUT/check_persistent.txt 2>&1; rc=$?; echo "check_persistent rc=$rc $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
tail -3 $OUT/check_persistent.txt
if [ $rc -ne 0 ]; then exit 1; fi
for tool in memcheck racecheck synccheck; do
  timeout 90 $cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 /tmp/cp --small > $OUT/$tool.txt 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; tail -1 $OUT/$tool.txt
done
BENCH_ONLY=matmul timeout 200 python3 gpu-build/lead/bench_lead.py /tmp/libm.so $OUT/bench_matmul.md $C/lead/variants.txt > $OUT/bench_matmul.log 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "tilec|cuBLAS" $OUT/bench_matmul.log | cut -c1-170
