#!/usr/bin/env bash
# On the GPU machine: issue 16's shape samples. check_shapes (correctness, float64 references),
# the benchmark's "shapes" section, then memcheck, racecheck and synccheck of check_shapes
# --small (logs together in sanitizers.txt), each step bounded. Results under $OUT.
#   tests/gpu/run_shapes.sh [HEADERDIR] [BENCH_PY]   (headers from make_shape_headers.sh;
#                                                     BENCH_PY defaults to bench/bench.py)
set -uo pipefail
cd "$(dirname "$0")/../.."
hdr=${1:-gpu-build}; bench=${2:-bench/bench.py}
cuda=${CUDA_PATH:-/usr/local/cuda}; out=${OUT:-/tmp/tilec-gpu}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt"
g++ -O2 -std=c++17 -I"$hdr" -Itests/gpu -I"$cuda/include" tests/gpu/check_shapes.cpp -L"$cuda/lib64/stubs" \
  -L"$cuda/lib64" -lcuda -o /tmp/check_shapes &
echo '#include "tilec_shapes.h"' | gcc -O2 -shared -fPIC -x c -I"$hdr" -Ibench -I"$cuda/include" - \
  -L"$cuda/lib64/stubs" -lcuda -o /tmp/libtilec_shapes.so &
wait
echo "== check_shapes"; timeout 90 /tmp/check_shapes > "$out/check.txt" 2>&1; echo "rc=$?"
grep -E "FAIL|PASSED|failure" "$out/check.txt" | head -20
echo "== bench (shapes)"
BENCH_ONLY=shapes timeout 150 python3 "$bench" /tmp/libtilec_shapes.so "$out/bench.md" > "$out/bench.log" 2>&1
echo "rc=$?"; grep -vE "^\s*$" "$out/bench.log" | cut -c1-170 | tail -40
for tool in memcheck racecheck synccheck; do
  echo "== $tool check_shapes --small"
  timeout 60 "$cuda/bin/compute-sanitizer" --tool $tool --error-exitcode 3 /tmp/check_shapes --small \
    > "$out/$tool.tmp" 2>&1; echo "rc=$?"; tail -2 "$out/$tool.tmp"
  cat "$out/$tool.tmp" >> "$out/sanitizers.txt"; rm "$out/$tool.tmp"
done
