#!/bin/bash
# Issue 21, call 2: checks (check_offsets full + memcheck --small, check_ops' integer ops) built
# in parallel, then the benchmark (bench.py's offsets section, twice).
set -uo pipefail
cd "$(dirname "$0")"
cuda=${CUDA_PATH:-/usr/local/cuda}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
cc="-O2 -std=c++17 -Ih -I. -I$cuda/include"; ld="-L$cuda/lib64/stubs -L$cuda/lib64 -lcuda"
g++ $cc check_offsets.cpp $ld -o /tmp/check_offsets & g++ $cc intops_only.cpp $ld -o /tmp/intops &
gcc -O0 -shared -fPIC -Ih -I$cuda/include kernels.c $ld -o /tmp/libk.so & wait
python3 warm.py /tmp/libk.so > $OUT/warm.txt 2>&1 &
/tmp/check_offsets > $OUT/check.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $OUT/check.txt) ok; $(grep -c FAIL $OUT/check.txt) FAIL"
/tmp/intops > $OUT/intops.txt 2>&1; echo "intops rc=$?"; grep "int " $OUT/intops.txt | grep -v " ok" | head; grep -c "ok" $OUT/intops.txt
timeout 45 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_offsets --small > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -1 $OUT/memcheck.txt
wait; tail -1 $OUT/warm.txt
PYTHONUNBUFFERED=1 python3 drive2.py /tmp/libk.so $OUT/rows.md 2 > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -v "^-- run" $OUT/bench.log | grep -v "eager\|32x\|BLOCK=1024, 4 warps  \|16x128, 4 warps  " | sed 's/ GB\/s//; s/(paired)//; s/, [0-9.]*x eager, rel err .*//; s/  */ /g' | cut -c1-120
