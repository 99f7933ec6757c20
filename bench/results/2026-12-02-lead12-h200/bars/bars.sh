#!/usr/bin/env bash
# Lead, session 12: issue 15/16's matmul rows again (bench.py's matmul and tf32 sections) on the
# final headers, peers in the same run.
set -uo pipefail
H=gpu-build/final12; cuda=/usr/local/cuda
gcc -O1 -shared -fPIC -I$H -Ibench -I$cuda/include bench/tilec_kernels.c -L$cuda/lib64/stubs -lcuda -o /tmp/lk.so || exit 1
BENCH_ONLY=matmul timeout 240 python3 bench/bench.py /tmp/lk.so $OUT/matmul.md > $OUT/matmul.log 2>&1; echo "rc=$?"
grep -E "matmul|bias" $OUT/matmul.md | cut -c1-200
