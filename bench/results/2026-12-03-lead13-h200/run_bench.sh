#!/usr/bin/env bash
# Lead, session 13, call 3: silu_gate with launch divisors beside the sample from the tilec
# before them and Triton (probe4.py), then bench.py's matmul section (the matmul samples' tile
# index split bid(0) // cdiv(N, BN) now takes a launch divisor too), peers in the same run.
set -uo pipefail
hdr=gpu-build/final13; cuda=/usr/local/cuda; P=bench/results/2026-12-03-lead13-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -I$hdr -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libnew.so || exit 1
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/probe13 -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libold.so || exit 1
PYTHONUNBUFFERED=1 timeout 260 python3 $P/probe4.py /tmp/libnew.so /tmp/libold.so 3000 2 2>&1 | grep -v Warning | tee $OUT/probe4.txt
gcc -O1 -shared -fPIC -I$hdr -Ibench -I$cuda/include bench/tilec_kernels.c -L$cuda/lib64/stubs -lcuda -o /tmp/lk.so || exit 1
BENCH_ONLY=matmul timeout 240 python3 bench/bench.py /tmp/lk.so $OUT/matmul.md > $OUT/matmul.log 2>&1; echo "matmul rc=$?"
grep -E "matmul|bias" $OUT/matmul.md | cut -c1-220
