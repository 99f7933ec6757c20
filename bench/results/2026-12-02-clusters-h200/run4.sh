#!/usr/bin/env bash
# Lead's call 4 (2026-12-02, session 10): bench/attention.py on headers with the division change
# (issue 17: second timing of every row), then the matmul and shapes benches again (second run).
set -uo pipefail
C=gpu-build/lead/c; H=gpu-build/lead/c/s; A=gpu-build/lead/att3; cuda=/usr/local/cuda
mkdir -p $OUT/r; R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/gpu.txt
t0=$(date +%s)
gcc -O2 -shared -fPIC -I$C -I$cuda/include $C/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so > $R/b4.txt 2>&1 &
echo '#include "tilec_shapes.h"' | gcc -O2 -shared -fPIC -x c -I$H -Ibench -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libs.so > $R/b5.txt 2>&1 &
wait
timeout 200 python3 bench/attention.py $A $R/attention.md > $R/attention.log 2>&1
echo "attention.py rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
BENCH_ONLY=matmul timeout 150 python3 gpu-build/lead/bench_lead.py /tmp/libm.so $R/bench_matmul.md $C/lead/variants.txt > $R/bench_matmul.log 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
BENCH_ONLY=shapes timeout 100 python3 bench/bench.py /tmp/libs.so $R/bench_shapes.md > $R/bench_shapes.log 2>&1
echo "bench shapes rc=$? $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar -C $OUT -czf $OUT/results.tgz r && rm -rf $R
