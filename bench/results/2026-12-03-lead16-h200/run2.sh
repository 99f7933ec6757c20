#!/usr/bin/env bash
# Lead, session 16, call 2: check_offsets again, check_samples at full sizes (the sm_90a SASS: tma_wgmma and portable
# entries) and memcheck of its small sizes, then bench.py's offsets section (one launch at a time
# after a sleep, interleaved, paired with every Triton configuration, a copy and torch eager)
# with the sample configurations plus two narrower silu_gate CTAs (BN=512 in 2 warps; BN=1024 in
# 2 warps, two vectors per thread). Prediction: no silu_gate variant moves by more than the
# 0.2 % spread between runs (both kernels sit at a copy's bandwidth).
set -uo pipefail
cuda=/usr/local/cuda; hdr=gpu-build/s16
for t in check_offsets check_samples; do
  g++ -O2 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/$t.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/$t || exit 1
done
# call 1's one FAIL was the check's expectation (tma_unaligned_mm's rows are aligned: the
# vectorized variant runs, B through registers); fixed, run again.
timeout 120 /tmp/check_offsets > $OUT/check_offsets.txt 2>&1; echo "check_offsets rc=$? $(grep -c ' ok' $OUT/check_offsets.txt) ok $(grep -c FAIL $OUT/check_offsets.txt) FAIL"; grep FAIL $OUT/check_offsets.txt | head
timeout 170 /tmp/check_samples > $OUT/check.txt 2>&1; echo "check_samples rc=$? $(grep -c ' ok' $OUT/check.txt) ok $(grep -c FAIL $OUT/check.txt) FAIL"; grep FAIL $OUT/check.txt | head
timeout 150 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_samples --small > $OUT/memcheck_samples.txt 2>&1; echo "memcheck samples rc=$?"; tail -1 $OUT/memcheck_samples.txt
printf "#include \"stencil2d.h\"\n#include \"silu_gate.h\"\n#include \"silu_gate_1k.h\"\n#include \"silu_gate_512.h\"\n#include \"silu_gate_1k2w.h\"\n" | gcc -O2 -shared -fPIC -x c -I$hdr -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libk.so || exit 1
cat > /tmp/drive.py <<'PY'
import sys
sys.argv = [sys.argv[0], "/tmp/libk.so", "/dev/null"]
sys.path.insert(0, "bench")
import bench as B
B.STENCIL_TILEC = B.STENCIL_TILEC[:1]
B.SILU_TILEC = [B.SILU_TILEC[0], B.SILU_TILEC[1], ("sg512_", "BN=512 WARPS=2"), ("sg1k2w_", "BN=1024 WARPS=2")]
B.bench_offsets()
PY
PYTHONUNBUFFERED=1 timeout 260 python3 /tmp/drive.py 2>&1 | grep -v Warning | tee $OUT/bench.log | grep -v "eager" | cut -c1-160
