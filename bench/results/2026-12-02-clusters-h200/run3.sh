#!/usr/bin/env bash
# Lead's call 3 (2026-12-02, session 10): 64-bit division through 32 bits + clusters. Correctness:
# check_ops (i64 // and %), check_persistent, check_samples --small; compute-sanitizer on the
# attention cases (issue 17) and check_samples --small (racecheck); then the matmul bench (cluster=1
# variants in the same rounds) and bench/attention.py.
set -uo pipefail
C=gpu-build/lead/c; H=gpu-build/lead/h3; A=gpu-build/lead/att3; cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
t0=$(date +%s)
g++ -O1 -std=c++17 -I$H -I$cuda/include tests/gpu/check_samples.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cs > $OUT/b1.txt 2>&1 &
g++ -O1 -std=c++17 -I$H -I$cuda/include tests/gpu/check_ops.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/co > $OUT/b2.txt 2>&1 &
g++ -O1 -std=c++17 -I$C -Itests/gpu -I$cuda/include $C/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cp > $OUT/b3.txt 2>&1 &
gcc -O2 -shared -fPIC -I$C -I$cuda/include $C/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so > $OUT/b4.txt 2>&1 &
echo '#include "tilec_shapes.h"' | gcc -O2 -shared -fPIC -x c -I$H -Ibench -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libs.so > $OUT/b5.txt 2>&1 &
wait
echo "build $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
timeout 60 /tmp/co > $OUT/check_ops.txt 2>&1; echo "check_ops rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "i64|FAIL|PASSED|failure" $OUT/check_ops.txt | head -20
timeout 60 /tmp/cp > $OUT/check_persistent.txt 2>&1; echo "check_persistent rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
tail -1 $OUT/check_persistent.txt
timeout 90 /tmp/cs --small > $OUT/check_small.txt 2>&1; echo "check_samples --small rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "FAIL|PASSED|failure" $OUT/check_small.txt | head
for tool in memcheck synccheck racecheck; do
  timeout 100 $cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 /tmp/cs --only=attention --small > $OUT/att_$tool.txt 2>&1
  echo "attention $tool rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; tail -1 $OUT/att_$tool.txt
done
BENCH_ONLY=matmul timeout 150 python3 gpu-build/lead/bench_lead.py /tmp/libm.so $OUT/bench_matmul.md $C/lead/variants.txt > $OUT/bench_matmul.log 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "tilec|cuBLAS" $OUT/bench_matmul.log | cut -c1-170
BENCH_ONLY=shapes timeout 100 python3 bench/bench.py /tmp/libs.so $OUT/bench_shapes.md > $OUT/bench_shapes.log 2>&1
echo "bench shapes rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "tilec|bmm|linear|cuBLAS" $OUT/bench_shapes.log | cut -c1-170 | head -20
[ -d $A ] && timeout 150 python3 bench/attention.py $A $OUT/attention.md > $OUT/attention.log 2>&1
echo "attention.py rc=$? $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt
grep -E "^\|" $OUT/attention.md | head -40
