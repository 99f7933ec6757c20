#!/usr/bin/env bash
# Lead's call 2 (2026-12-02): matmul with the TMA-store epilogue (A/B: gstore, nostore), issue 16's shapes.
set -uo pipefail
M=gpu-build/lead/m; S=gpu-build/lead/s; cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
t0=$(date +%s)
g++ -O1 -std=c++17 -I$S -Itests/gpu -I$cuda/include tests/gpu/check_shapes.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/check_shapes > $OUT/build1.txt 2>&1 &
echo '#include "tilec_shapes.h"' | gcc -O2 -shared -fPIC -x c -I$S -Ibench -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libs.so > $OUT/build2.txt 2>&1 &
gcc -O2 -shared -fPIC -I$M -I$cuda/include $M/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so > $OUT/build3.txt 2>&1 &
wait
echo "build $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 90 /tmp/check_shapes > $OUT/check_shapes.txt 2>&1; echo "check_shapes rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
BENCH_ONLY=matmul timeout 200 python3 bench/bench.py /tmp/libm.so $OUT/bench_matmul.md $M/lead/variants.txt > $OUT/bench_matmul.log 2>&1
echo "bench matmul rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
BENCH_ONLY=shapes timeout 150 python3 bench/bench.py /tmp/libs.so $OUT/bench_shapes.md > $OUT/bench_shapes.log 2>&1
echo "bench shapes rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 60 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_shapes --small > $OUT/memcheck_shapes.txt 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "FAIL|PASSED|failure" $OUT/check_shapes.txt | head
tail -1 $OUT/memcheck_shapes.txt
cat $OUT/times.txt
