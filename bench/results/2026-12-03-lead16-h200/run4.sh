#!/usr/bin/env bash
# Lead, session 16, call 4: check_offsets (and memcheck of --small) after the review fixes:
# affine offsets through a widened i32 loop variable, << and negation (shift_mm_forms on both
# paths), the cp.async code of the other kernels unchanged since call 2. Headers in
# gpu-build/s16b: offsets.h, offsets_portable.h (-arch sm_80 --prefix p80_), silu_gate.h,
# stencil2d.h by this commit's tilec.
set -uo pipefail
cuda=/usr/local/cuda; hdr=gpu-build/s16b
g++ -O2 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/check_offsets.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_offsets || exit 1
timeout 120 /tmp/check_offsets > $OUT/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $OUT/check_offsets.txt) ok $(grep -c FAIL $OUT/check_offsets.txt) FAIL"; grep -E "FAIL|shift_mm_forms" $OUT/check_offsets.txt | head
timeout 150 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_offsets --small > $OUT/memcheck_offsets.txt 2>&1; echo "memcheck offsets rc=$?"; tail -1 $OUT/memcheck_offsets.txt
