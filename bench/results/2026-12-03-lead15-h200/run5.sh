#!/usr/bin/env bash
# Lead, session 15, call 5: bench.py's offsets section (stencil2d and silu_gate beside Triton's
# configurations, a copy and torch eager, interleaved; one launch at a time after a sleep) with
# the compiler's PDL build (gpu-build/full15), the sample configurations only.
set -uo pipefail
cuda=/usr/local/cuda
printf "#include \"stencil2d.h\"\n#include \"silu_gate.h\"\n" | gcc -O2 -shared -fPIC -x c -Igpu-build/full15 -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libk.so || exit 1
cat > /tmp/drive.py <<'PY'
import sys
sys.argv = [sys.argv[0], "/tmp/libk.so", "/dev/null"]
sys.path.insert(0, "bench")
import bench as B
B.STENCIL_TILEC = B.STENCIL_TILEC[:1]
B.SILU_TILEC = B.SILU_TILEC[:1]
B.bench_offsets()
PY
PYTHONUNBUFFERED=1 timeout 230 python3 /tmp/drive.py 2>&1 | grep -v Warning | tee $OUT/bench.log | grep -v "eager" | cut -c1-160
