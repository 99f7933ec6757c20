#!/usr/bin/env bash
# On the GPU machine: matmul correctness (full, memcheck, racecheck) and the matmul benchmark only.
#   tests/gpu/run_matmul.sh  (headers in gpu-build/, results in $OUT)
set -o pipefail
cuda=/usr/local/cuda; hdr=gpu-build
g++ -O2 -std=c++17 -I$hdr -I$cuda/include tests/gpu/check_samples.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/cs || exit 1
/tmp/cs > $OUT/check.txt 2>&1; echo "check rc=$?"
grep -iE "matmul|attention|FAIL|mismatch" $OUT/check.txt | head -60
$cuda/bin/compute-sanitizer --tool memcheck /tmp/cs --small > $OUT/memcheck.txt 2>&1; tail -3 $OUT/memcheck.txt
timeout 200 $cuda/bin/compute-sanitizer --tool racecheck /tmp/cs --small > $OUT/racecheck.txt 2>&1; tail -2 $OUT/racecheck.txt
gcc -O2 -shared -fPIC -I$hdr -I$cuda/include bench/tilec_kernels.c -L$cuda/lib64/stubs -lcuda -o /tmp/libtilec_bench.so || exit 1
BENCH_ONLY=matmul python3 bench/bench.py /tmp/libtilec_bench.so $OUT/bench.md 2>&1 | tail -25
cuobjdump --dump-sass $hdr/matmul_f16.cubin > $OUT/mm.sass 2>/dev/null; ls $hdr/*.cubin | head
