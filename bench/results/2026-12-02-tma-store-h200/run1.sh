#!/usr/bin/env bash
# Lead's call 1 (2026-12-02): TMA-store epilogue. Correctness (check_samples --small, attention
# cases), matmul benchmark with A/B variants, attention benchmark, then sanitizers if time is left.
set -uo pipefail
H=gpu-build/lead/h
A=gpu-build/lead/att
cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
cp $H/variants.h.lead $H/variants.h
mkdir -p $H/lead && cp $H/matmul_variants.txt.lead $H/lead/matmul_variants.txt && : > $H/lead/variants.txt
t0=$(date +%s)
g++ -O1 -std=c++17 -I$H -I$cuda/include tests/gpu/check_samples.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cs > $OUT/build_cs.txt 2>&1 &
gcc -O2 -shared -fPIC -I$H -I$cuda/include gpu-build/lead/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libtilec_bench.so > $OUT/build_lib.txt 2>&1 &
wait
echo "build $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 120 /tmp/cs --small > $OUT/check_small.txt 2>&1; echo "check_small rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
tail -3 $OUT/check_small.txt
BENCH_ONLY=matmul timeout 220 python3 bench/bench.py /tmp/libtilec_bench.so $OUT/bench.md $H/lead/variants.txt > $OUT/bench.log 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 100 stdbuf -oL python3 bench/attention.py $A $OUT/attention.md > $OUT/attention.log 2>&1
echo "attention rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 90 $cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/cs --small > $OUT/racecheck.txt 2>&1
echo "racecheck rc=$? $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
tail -2 $OUT/racecheck.txt
cat $OUT/times.txt
