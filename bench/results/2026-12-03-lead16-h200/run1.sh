#!/usr/bin/env bash
# Lead, session 16, call 1: correctness of this session's compiler (portable cp.async stages at
# element offsets, the cp.async bounds rewritten per dim): check_offsets (the mma-loop kernels on
# the tma_wgmma path and, from offsets_portable.h, on the portable path), memcheck of it, the
# samples through the driver's JIT of their compute_80 PTX (every sample on the portable path),
# and check_shapes. Headers: tests/gpu/make_headers.sh gpu-build/s16.
set -uo pipefail
cuda=/usr/local/cuda; hdr=gpu-build/s16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in check_offsets check_samples; do
  g++ -O2 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/$t.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/$t || exit 1
done
g++ -O2 -std=c++17 -I$hdr -Itests/gpu -I$cuda/include tests/gpu/check_shapes.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_shapes || exit 1
timeout 120 /tmp/check_offsets > $OUT/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $OUT/check_offsets.txt) ok $(grep -c FAIL $OUT/check_offsets.txt) FAIL"; grep FAIL $OUT/check_offsets.txt | head
timeout 120 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_offsets --small > $OUT/memcheck_offsets.txt 2>&1; echo "memcheck offsets rc=$?"; tail -1 $OUT/memcheck_offsets.txt
CUDA_FORCE_PTX_JIT=1 timeout 200 /tmp/check_samples --jit > $OUT/check_jit.txt 2>&1; echo "check_samples --jit rc=$? $(grep -c ' ok' $OUT/check_jit.txt) ok $(grep -c FAIL $OUT/check_jit.txt) FAIL"; grep FAIL $OUT/check_jit.txt | head
timeout 90 /tmp/check_shapes > $OUT/check_shapes.txt 2>&1; echo "check_shapes rc=$? $(grep -c FAIL $OUT/check_shapes.txt) FAIL"; tail -1 $OUT/check_shapes.txt
