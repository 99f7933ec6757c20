#!/usr/bin/env bash
# Lead's call 2 (2026-12-02, session 11): the dtype suite from branch lead11 (check_f8 with the
# new i8 GEMM, memcheck of its small shapes, SASS counts of the _wgmma entries, bench.py's f8,
# tf32 and i8 sections), then lead11b.py (batched stage isolation, unaligned rows).
set -uo pipefail
F=gpu-build/lead11/f8; H=gpu-build/lead11/h2; cuda=/usr/local/cuda; R=bench/results/2026-12-02-lead11-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
t0=$(date +%s)
g++ -O2 -std=c++17 -I$F -I$cuda/include $F/check_f8.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/check_f8 > $OUT/b1.txt 2>&1 &
gcc -O2 -shared -fPIC -I$F -I$cuda/include $F/tilec_dtypes.c -L$cuda/lib64/stubs -lcuda -o /tmp/libd.so > $OUT/b2.txt 2>&1 &
echo '#include "all.h"' | gcc -O2 -shared -fPIC -x c -I$H -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libh2.so > $OUT/b3.txt 2>&1 &
wait
echo "build $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
timeout 120 /tmp/check_f8 > $OUT/check_f8.txt 2>&1; echo "check_f8 rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "i8|tf32|FAIL|PASSED|FAILED" $OUT/check_f8.txt | head -20
timeout 120 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_f8 --small > $OUT/memcheck_f8.txt 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; tail -2 $OUT/memcheck_f8.txt
for c in matmul_f8 matmul_bt_tf32 i8; do
  cuobjdump --dump-sass "$F/$c.cubin" 2>&1 | awk '/Function :/ { f = /_wgmma/ } f' \
    | grep -oE "[QHI]GMMA[.0-9A-Za-z]*|UTMALDG[.0-9A-Z]*|UTMASTG[.0-9A-Z]*| LDL| STL" | sort | uniq -c > $OUT/$c.wgmma-sass-counts.txt
  echo "$c:"; cat $OUT/$c.wgmma-sass-counts.txt
done
cp $F/bench.py /tmp/bench_lead11.py
( cd /tmp && mkdir -p bench && cp bench_lead11.py bench/bench.py )
BENCH_ONLY=f8,tf32,i8 timeout 200 python3 /tmp/bench/bench.py /tmp/libd.so $OUT/bench_dtypes.md > $OUT/bench_dtypes.log 2>&1
echo "bench dtypes rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; grep -E "tilec|cuBLAS|torch" $OUT/bench_dtypes.log | cut -c1-200
timeout 200 python3 $R/lead11b.py /tmp/libh2.so $OUT/lead11b.md > $OUT/lead11b.log 2>&1
echo "lead11b rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; tail -3 $OUT/lead11b.log; cat $OUT/lead11b.md
