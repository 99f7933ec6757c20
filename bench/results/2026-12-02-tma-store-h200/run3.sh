#!/usr/bin/env bash
set -uo pipefail
M=gpu-build/lead/m; cuda=/usr/local/cuda
gcc -O2 -shared -fPIC -I$M -I$cuda/include $M/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so > $OUT/build3.txt 2>&1
BENCH_ONLY=matmul timeout 250 python3 gpu-build/lead/bench_lead.py /tmp/libm.so $OUT/bench_matmul.md $M/lead/variants.txt > $OUT/bench_matmul.log 2>&1
echo "rc=$?"; grep -E "tilec|cuBLAS" $OUT/bench_matmul.log | cut -c1-170
