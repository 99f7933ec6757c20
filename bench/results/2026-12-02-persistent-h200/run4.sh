#!/usr/bin/env bash
# Lead's call 4 (2026-12-02): the persistent grid. check_persistent (bit-identity, logical bid()),
# check_shapes (batched/split-K now persistent), matmul bench with a persistent=False variant, shapes bench.
set -uo pipefail
P=gpu-build/lead/p; S=$P/s; cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
t0=$(date +%s)
g++ -O1 -std=c++17 -I$P -Itests/gpu -I$cuda/include $P/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cp > $OUT/b1.txt 2>&1 &
g++ -O1 -std=c++17 -I$S -Itests/gpu -I$cuda/include tests/gpu/check_shapes.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/check_shapes > $OUT/b2.txt 2>&1 &
echo '#include "tilec_shapes.h"' | gcc -O2 -shared -fPIC -x c -I$S -Ibench -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libs.so > $OUT/b3.txt 2>&1 &
gcc -O2 -shared -fPIC -I$P -I$cuda/include $P/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so > $OUT/b4.txt 2>&1 &
wait
echo "build $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 90 /tmp/cp > $OUT/check_persistent.txt 2>&1; echo "check_persistent rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 60 /tmp/check_shapes > $OUT/check_shapes.txt 2>&1; echo "check_shapes rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
BENCH_ONLY=matmul timeout 150 python3 gpu-build/lead/bench_lead.py /tmp/libm.so $OUT/bench_matmul.md $P/lead/variants.txt > $OUT/bench_matmul.log 2>&1
echo "bench matmul rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
BENCH_ONLY=shapes timeout 100 python3 bench/bench.py /tmp/libs.so $OUT/bench_shapes.md > $OUT/bench_shapes.log 2>&1
echo "bench shapes rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
grep -E "FAIL|PASSED|failure" $OUT/check_persistent.txt $OUT/check_shapes.txt | head
grep -E "tilec|cuBLAS|bmm" $OUT/bench_matmul.log $OUT/bench_shapes.log | grep -v "decode\|split" | cut -c1-190
cat $OUT/times.txt
