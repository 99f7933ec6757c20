#!/usr/bin/env bash
# Lead, session 15, call 2: programmatic dependent launch in the compiler (griddepcontrol in the
# code of sm_90 and newer, the header's programmatic launch on those devices): check_offsets
# (dependent launches back to back, every TMA case) and its memcheck; then silu_gate from the
# compiler beside the build before it (gpu-build/pdl) and Triton, three timing methods.
set -uo pipefail
cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
g++ -O1 -std=c++17 -Wall -Wextra -Igpu-build/h15 -Itests/gpu -I$cuda/include tests/gpu/check_offsets.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_offsets || exit 1
timeout 120 /tmp/check_offsets > $OUT/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $OUT/check_offsets.txt) ok; $(grep -c 'FAIL' $OUT/check_offsets.txt) FAIL"
grep -E "dependent|FAIL" $OUT/check_offsets.txt
timeout 200 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_offsets --small > $OUT/memcheck_offsets.txt 2>&1; echo "memcheck rc=$?"; tail -1 $OUT/memcheck_offsets.txt
timeout 200 $cuda/bin/compute-sanitizer --tool synccheck --error-exitcode 3 /tmp/check_offsets --small > $OUT/synccheck_offsets.txt 2>&1; echo "synccheck rc=$?"; tail -1 $OUT/synccheck_offsets.txt
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/pdl -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib_base.so || exit 1
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -Igpu-build/h15 -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib_pdl.so || exit 1
PYTHONUNBUFFERED=1 timeout 250 python3 bench/results/2026-12-03-lead14-h200/probe9.py 400 tilec=/tmp/lib_pdl.so \
  "tilec before (no PDL)"=/tmp/lib_base.so 2>&1 | grep -v Warning | tee $OUT/probe.txt
