#!/bin/bash
# silu helper, one device call: checks (check_offsets full + memcheck --small, check_shapes,
# check_samples full), then bench.py's offsets section twice with the variants of drive.py.
set -uo pipefail
cd "$(dirname "$0")"
H=../h; BH=../bh
cuda=${CUDA_PATH:-/usr/local/cuda}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
TG=../../../tests/gpu
cc="-O2 -std=c++17 -I$H -I$cuda/include"; ld="-L$cuda/lib64/stubs -L$cuda/lib64 -lcuda"
timeout 100 g++ $cc $TG/check_offsets.cpp $ld -o /tmp/check_offsets & timeout 100 g++ $cc $TG/check_shapes.cpp $ld -o /tmp/check_shapes &
timeout 100 g++ -O1 -std=c++17 -I$H -I$cuda/include $TG/check_samples.cpp $ld -o /tmp/check_samples &
gcc -O0 -shared -fPIC -I$BH -I$cuda/include kernels.c $ld -o /tmp/libk.so & wait
ls -la /tmp/check_offsets /tmp/check_shapes /tmp/check_samples /tmp/libk.so | awk '{print $5, $9}'
L=$OUT/logs; mkdir -p $L
timeout 60 /tmp/check_offsets > $L/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $L/check_offsets.txt) ok; $(grep -ci 'fail\|wrong' $L/check_offsets.txt) fail"
timeout 60 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_offsets --small > $L/memcheck_offsets.txt 2>&1; echo "memcheck offsets rc=$?"; tail -1 $L/memcheck_offsets.txt
timeout 40 /tmp/check_shapes > $L/check_shapes.txt 2>&1; echo "check_shapes rc=$?"; tail -2 $L/check_shapes.txt
timeout 40 /tmp/check_samples --small > $L/check_samples.txt 2>&1; echo "check_samples rc=$?"; tail -2 $L/check_samples.txt
PYTHONUNBUFFERED=1 timeout 150 python3 drive.py /tmp/libk.so $L/rows.md 2 $L > $L/bench.log 2>&1; echo "bench rc=$?"
grep -v "^-- run" $L/bench.log | grep -v "eager\|32x\|16x128\|Triton 8x256, 4 warps  \|rel err" | cut -c1-150
grep "silu\|stencil" $L/bench.log | grep "tilec" | sed 's/ GB\/s//; s/(paired)//; s/, [0-9.]*x eager, rel err .*//; s/  */ /g' | cut -c1-150
cd $OUT && tar czf logs.tgz logs && rm -rf logs
